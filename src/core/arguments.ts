// Arguments of the public functions, checked at the door: one place for what each kind of argument accepts.
// A value of the wrong type throws RobotsError INVALID_ARGUMENT naming the argument: never an answer for a
// value that is not a URL, never a hang. Runtime-neutral. Called once per public call (per batch for arrays).
import { RobotsError } from './errors.js';
import { MAX_COMPILE_BYTES } from './wasm/limits.js';

/** A short description of a value of the wrong type, for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) return 'a Uint8Array';
  if (typeof value === 'object') return `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
  return `a ${typeof value}`;
}

/**
 * The text of a URL argument of a public function: a string as it is, a URL object by its href. Anything
 * else throws INVALID_ARGUMENT naming the argument: never an answer for a value that is not a URL. Per call.
 */
export function urlArgument(value: unknown, name: string): string {
  if (typeof value === 'string') return value;
  if (value instanceof URL) return value.href;
  throw new RobotsError('INVALID_ARGUMENT', `${name} must be a URL string or a URL object, got ${describe(value)}`);
}

/**
 * The bytes of a URL-lines argument (checkLines): a Uint8Array as it is. Anything else throws
 * INVALID_ARGUMENT naming the argument (a string would be read as one char per byte). Per call.
 */
export function linesArgument(value: unknown, name: string): Uint8Array {
  if (value instanceof Uint8Array) return value;
  throw new RobotsError('INVALID_ARGUMENT', `${name} must be a Uint8Array of LF-separated URL lines, got ${describe(value)}${typeof value === 'string' ? ' (encode it first, or use checkBatch for strings)' : ''}`);
}

/** The URL strings of a batch argument: an array of strings or URL objects; anything else throws INVALID_ARGUMENT. Per batch. */
export function urlsArgument(value: unknown, name: string): string[] {
  if (!Array.isArray(value)) throw new RobotsError('INVALID_ARGUMENT', `${name} must be an array of URL strings or URL objects, got ${describe(value)}`);
  const urls = new Array<string>(value.length);
  for (let i = 0; i < value.length; i++) urls[i] = urlArgument(value[i], `${name}[${i}]`);
  return urls;
}

/** A URL argument that may also be bytes (isAllowed, explain): a string, a URL object (its href) or a Uint8Array. Per call. */
export function urlOrBytesArgument(value: unknown, name: string): string | Uint8Array {
  if (value instanceof Uint8Array) return value;
  return urlArgument(value, name);
}

/** An agent query: a product token, or a non-empty array of them (strings). Per call. */
export function agentsArgument(value: unknown, name = 'agents'): string[] {
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? [...value] as unknown[] : null;
  if (list === null) throw new RobotsError('INVALID_ARGUMENT', `${name} must be a product token or an array of them, got ${describe(value)}`);
  if (list.length === 0) throw new RobotsError('INVALID_ARGUMENT', 'at least one user agent is needed');
  list.forEach((agent, i) => {
    if (typeof agent !== 'string') throw new RobotsError('INVALID_ARGUMENT', `${name}[${i}] must be a string, got ${describe(agent)}`);
  });
  return list as string[];
}

/**
 * An options object (undefined: none) whose keys are all among `known`: a misspelt option name is refused
 * (INVALID_ARGUMENT naming it and the options there are), never silently ignored. Per call.
 */
export function optionsArgument<T extends object>(value: T | undefined, known: readonly string[], name: string): Partial<T> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new RobotsError('INVALID_ARGUMENT', `${name} must be an object, got ${describe(value)}`);
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw new RobotsError('INVALID_ARGUMENT', `unknown option ${JSON.stringify(key)} in ${name} (known: ${known.join(', ')})`);
  }
  return value;
}

/**
 * A whole-number option: `value`, or `fallback` when it is undefined, from min to max (`range` says so in the
 * message when plain numbers would not), else INVALID_ARGUMENT naming it. Once per constructor.
 */
export function wholeNumberArgument(name: string, value: number | undefined, fallback: number, min: number, max: number, range = `${min} to ${max}`): number {
  const result = value ?? fallback;
  if (!Number.isInteger(result) || result < min || result > max) throw new RobotsError('INVALID_ARGUMENT', `${name} must be a whole number from ${range}, got ${String(value)}`);
  return result;
}

/**
 * A robots.txt size limit (maxBytes): a whole number from 0 (the whole body, see bytesToRead) to
 * MAX_COMPILE_BYTES (16 MiB, the most one compile takes), else INVALID_ARGUMENT. Once per constructor.
 */
export function maxBytesArgument(value: unknown, fallback: number, name = 'maxBytes'): number {
  const bytes = value ?? fallback;
  if (!Number.isInteger(bytes) || (bytes as number) < 0 || (bytes as number) > MAX_COMPILE_BYTES) {
    throw new RobotsError('INVALID_ARGUMENT', `${name} must be a whole number from 0 (the whole body) to ${MAX_COMPILE_BYTES} (16 MiB), got ${typeof value === 'number' ? value : describe(value)}`);
  }
  return bytes as number;
}
