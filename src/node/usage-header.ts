// The HTTP Content-Usage header (draft-ietf-aipref-attach-05: an RFC 9651 Structured Field Dictionary of the
// draft-ietf-aipref-vocab-07 preferences), parsed with the structured-headers library. What it gives is what
// RobotsTxt.usage takes as `header`, where it combines with the robots.txt statement, n over y.
import { parseDictionary, Token } from 'structured-headers';
import { RobotsError } from '../core/errors.js';

/**
 * category -> `y` | `n` (or another token as written) from a Content-Usage header value. Members whose value
 * is not a token (booleans, strings, numbers, inner lists) state nothing. A value that is not a valid
 * dictionary is INVALID_ARGUMENT naming why: RFC 9651 says such a field is ignored, and the caller decides
 * whether to. Called once per response (or per --header).
 */
export function parseContentUsageHeader(value: string): Map<string, string> {
  let dictionary: ReturnType<typeof parseDictionary>;
  try {
    dictionary = parseDictionary(value);
  } catch (error) {
    throw new RobotsError('INVALID_ARGUMENT', `Content-Usage header "${value}" is not a Structured Field Dictionary (RFC 9651): ${(error as Error).message}`);
  }
  const preferences = new Map<string, string>();
  for (const [key, [item]] of dictionary) if (item instanceof Token) preferences.set(key, item.toString());
  return preferences;
}
