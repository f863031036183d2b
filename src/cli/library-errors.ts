// The library's errors in the command line's words: a library message names the library's option (`noHost
// 'error'`, `the root option`), the command line says the flag that set it (`--no-host error`, `--robots-root`).
// The one table of those words; main.ts applies it to every error it prints, test --batch to its answer lines.
import { RobotsError, type RobotsErrorCode } from '../core/errors.js';

/** Per error code: the library's words and the command line's (a string, or a pattern and its replacement), in the order they are tried. */
const FLAG_WORDS: readonly (readonly [RobotsErrorCode, string | RegExp, string])[] = [
  ['HOST_UNKNOWN', 'give a default host (defaultHost)', 'give --host <name>'],
  ['HOST_UNKNOWN', "noHost 'error' stops here", '--no-host error stops here'],
  ['NO_ROBOTS', / in (.*); missing: 'error'\)$/, ' in $1; --missing error)'],
  ['NO_ROBOTS', "missing: 'error')", "missing: 'error', --missing error)"],
  ['BAD_CASE', '(see the root option)', '(see --robots-root)'],
  ['USAGE', 'a command template must contain', '--command must contain'],
  ['FILE_UNREADABLE', 'cannot read the robots folder ', 'cannot read --robots-dir '],
  ['FILE_UNREADABLE', 'history folder ', '--robots-history '],
];

/** A message of the library in the command line's words (unchanged when it names no option). */
export function inFlagWords(code: RobotsErrorCode | string, message: string): string {
  for (const [which, library, flags] of FLAG_WORDS) {
    if (which === code && (typeof library === 'string' ? message.includes(library) : library.test(message))) return message.replace(library, flags);
  }
  return message;
}

/** An error as the command line says it: a RobotsError in its words (the same code), anything else as it is. Once per failed command. */
export function inCommandWords(error: unknown): unknown {
  if (!(error instanceof RobotsError)) return error;
  const message = inFlagWords(error.code, error.message);
  return message === error.message ? error : new RobotsError(error.code, message, { cause: error.cause });
}
