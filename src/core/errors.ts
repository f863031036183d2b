/** Stable error codes: callers switch on `code`, never on the message. */
export type RobotsErrorCode =
  | 'INVALID_ARGUMENT' // a bad option or argument value (agent list empty, maxBytes negative, ...)
  | 'FILE_UNREADABLE' // a file named on the command line or in a robots directory cannot be read
  | 'FILE_UNWRITABLE' // a file of a robots.txt store cannot be written
  | 'WASM_UNAVAILABLE' // the compiled WebAssembly core is missing or cannot be instantiated
  | 'WASM_TRAP' // the WebAssembly core trapped in a call (a bug in it, never bad input): the message names the call
  | 'WORKER_FAILED' // a worker thread crashed or threw while matching a batch
  | 'INPUT_TOO_LARGE' // an input does not fit the WebAssembly core's 32-bit memory
  | 'SOURCE_FAILED' // a robots source (MultiHostMatcher) threw for an origin or gave no answer in time
  | 'HOST_UNKNOWN' // a host is needed (one robots.txt per host) but a line names none (a log request, --no-host error)
  | 'NO_ROBOTS' // an origin has no robots.txt in the source or store, and the missing policy is error
  | 'RANGES_INVALID' // a crawler IP range file is not JSON, holds no prefix, or its name names no vendor's file
  | 'BAD_CASE' // a line of test --batch is not a case: not a JSON object, a missing or wrong field, a file outside the robots folder
  | 'IMPLEMENTATION_FAILED' // the implementation of a conformance run cannot be started (no such command or module)
  | 'PAGE_UNREACHABLE' // robotstxt page --fetch could not fetch or read the page (robots.txt allowed it)
  | 'PACK_INVALID' // a file given as a robots.txt pack is none, is damaged or cut, or was packed by another version
  | 'CLOSED' // a matcher, cache or batch was used after its close()
  | 'USAGE'; // command line usage error

/** The only error type the package throws on purpose. Thrown by the API and the command line on bad input. */
export class RobotsError extends Error {
  readonly code: RobotsErrorCode;
  /** cause: the error behind it (a file system error keeps its errno code there). */
  constructor(code: RobotsErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RobotsError';
    this.code = code;
  }
}
