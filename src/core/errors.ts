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

/** The option an error is about: its name in the API (`noHost`, `missing`, `root`, ...) and, where it says one, the value it had. */
export interface RobotsErrorOption {
  readonly name: string;
  readonly value?: string;
}

/** How an option is said in a message: `name` or `name 'value'` (the library's words), or what a caller says instead (a flag). */
export type OptionWords = (option: RobotsErrorOption) => string;

/** The library's words for an option: its API name, and its value quoted. */
export const LIBRARY_OPTION_WORDS: OptionWords = (option) => (option.value === undefined ? option.name : `${option.name} '${option.value}'`);

/** The only error type the package throws on purpose. Thrown by the API and the command line on bad input. */
export class RobotsError extends Error {
  readonly code: RobotsErrorCode;
  /** The option the error is about, when one decided it (a caller that set it by another name rewords the message with sayOption). */
  readonly option: RobotsErrorOption | undefined;
  private readonly wording: ((said: string, say: OptionWords) => string) | undefined;
  /** cause: the error behind it (a file system error keeps its errno code there); about: see RobotsError.about. */
  constructor(code: RobotsErrorCode, message: string, options?: { cause?: unknown; about?: { option: RobotsErrorOption; wording: (said: string, say: OptionWords) => string } }) {
    super(options?.about === undefined ? message : options.about.wording(LIBRARY_OPTION_WORDS(options.about.option), LIBRARY_OPTION_WORDS), options !== undefined && 'cause' in options ? { cause: options.cause } : undefined);
    this.name = 'RobotsError';
    this.code = code;
    this.option = options?.about?.option;
    this.wording = options?.about?.wording;
  }

  /**
   * An error about an option: `wording` makes the message from the option as said, and from `say` for any
   * other option it names (the library says them as LIBRARY_OPTION_WORDS does; the command line says its
   * flags). Thrown where an option decided the error.
   */
  static about(code: RobotsErrorCode, option: RobotsErrorOption, wording: (said: string, say: OptionWords) => string, options?: { cause?: unknown }): RobotsError {
    return new RobotsError(code, '', { ...options, about: { option, wording } });
  }

  /** The message with its option said in `words` (the message as it is when the error names no option). Once per error shown. */
  sayOption(words: OptionWords): string {
    return this.wording === undefined || this.option === undefined ? this.message : this.wording(words(this.option), words);
  }
}
