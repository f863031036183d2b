// The library's options in the command line's words: a library error, note or table names the option by its API
// name (RobotsError.option, an OptionWords call), and the command line says the flag that sets it. The one table
// of those words; main.ts applies it to every error it prints, the renderers of reports take it as their words.
import { RobotsError, LIBRARY_OPTION_WORDS, type OptionWords, type RobotsErrorOption } from '../core/errors.js';

/**
 * Per API option: the flag that sets it (a value the library names follows it), or per `option=value` the
 * words for that setting when they are not the flag and the value (`reading=token` is `--as-token`).
 */
const OPTION_FLAGS: Readonly<Record<string, string>> = {
  defaultHost: '--host <name>',
  noHost: '--no-host',
  missing: '--missing',
  root: '--robots-root',
  robotsDirectory: '--robots-dir',
  historyDirectory: '--robots-history',
  storeDirectory: '--store',
  command: '--command',
  batchCommand: '--batch-command',
  top: '--top',
  sinceMs: '--since',
  untilMs: '--until',
  'reading=token': '--as-token',
  verifier: '--verify',
  byHost: '--by host',
  rangesMaxAgeDays: '--ranges-max-age',
  rangeFiles: '--crawler-ranges',
  fetchCrawlerRanges: 'robotstxt fetch --crawler-ranges --store <dir>',
  signatures: '--signature-keys',
  signatureKeys: '--signature-keys',
  fetchSignatureKeys: 'robotstxt fetch --signature-keys --store <dir> <log>',
  targets: '--targets',
  module: '--module',
};

/** An option as the command line says it: its flag, then the value the library named (unknown options as the library says them). */
export const flagWords: OptionWords = (option: RobotsErrorOption) => {
  const setting = option.value === undefined ? undefined : OPTION_FLAGS[`${option.name}=${option.value}`];
  if (setting !== undefined) return setting;
  const flag = OPTION_FLAGS[option.name];
  if (flag === undefined) return LIBRARY_OPTION_WORDS(option);
  return option.value === undefined ? flag : `${flag} ${option.value}`;
};

/** An error as the command line says it: a RobotsError about an option in its flag's words (the same code), anything else as it is. Once per failed command. */
export function inCommandWords(error: unknown): unknown {
  if (!(error instanceof RobotsError) || error.option === undefined) return error;
  return new RobotsError(error.code, error.sayOption(flagWords), { cause: error.cause });
}
