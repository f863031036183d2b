// Random robots.txt bodies, URLs and agent queries for property tests (test/property.test.ts against the
// model, test/pack.test.ts pack against folder): Latin-1 strings of lines users write, and lines they mistype.
import fc from 'fast-check';
import { raw } from './helpers.js';

// Fragments are Latin-1 strings: one char = one byte (so raw non-UTF-8 bytes can appear).
export const UTF8_E_ACUTE = '\xc3\xa9';
const userAgentKeys = ['User-agent', 'user-agent', 'USER-AGENT', 'useragent', 'User agent', 'User-agents', 'user_agent'];
const ruleKeys = ['Allow', 'Disallow', 'allow', 'DISALLOW', 'Dissallow', 'disalow', 'Disallowed', 'Allowance', 'diasllow'];
const separators = [': ', ':', ' : ', ':\t', ' ', '\t', '  '];
const agentValues = ['*', 'Googlebot', 'googlebot', 'Googlebot/2.1', 'Bingbot', '* foo', '*bot', 'Googlebot-Image', 'Googlebot Images', '', 'Bot2', 'Bot', 'GOOGLEBOT'];
const patternTokens = ['/', '/', '/', 'a', 'b', 'ab', '*', '*', '$', '%2f', '%2F', '%', '%zz', '?', '.', '=', UTF8_E_ACUTE, '\xe9', 'index.htm', 'index.html', ' ', ':', '%7E', '~', ';'];
const otherLines = ['', '# comment', 'Sitemap: http://e.com/s.xml', 'Crawl-delay: 5', 'junk', 'Disallow /x y', ': /x', 'Host: e.com', '   '];
const lineEnds = ['\n', '\n', '\r\n', '\r'];
const urlPrefixes = ['', 'http://example.com', 'https://u:p@h.com:8080', '//h', 'example.com', 'http://h.com', 'h?', 'http://e.com#'];
export const urlTokens = ['/', '/', 'a', 'b', 'ab', '?', '#', ';', '%2F', '%2f', UTF8_E_ACUTE, '\xe9', 'index.html', '=', '.', '$', '*', '~', '%7E', ' ', 'robots.txt', ':'];

export const pattern = fc.array(fc.constantFrom(...patternTokens), { maxLength: 7 }).map((parts) => parts.join(''));
const comment = fc.constantFrom('', '', ' # c', '#x');
const userAgentLine = fc.tuple(fc.constantFrom(...userAgentKeys), fc.constantFrom(...separators), fc.constantFrom(...agentValues), comment).map((p) => p.join(''));
const ruleLine = fc.tuple(fc.constantFrom(...ruleKeys), fc.constantFrom(...separators), pattern, comment).map((p) => p.join(''));
const line = fc.oneof({ weight: 3, arbitrary: userAgentLine }, { weight: 6, arbitrary: ruleLine }, { weight: 1, arbitrary: fc.constantFrom(...otherLines) });
export const body = fc.tuple(
  fc.constantFrom('', '', '', '\xef\xbb\xbf', '\xef', '\xef\xbb'),
  fc.array(fc.tuple(line, fc.constantFrom(...lineEnds)), { maxLength: 14 }),
).map(([bom, lines]) => raw(bom + lines.map(([text, end]) => text + end).join('')));
export const url = fc.tuple(fc.constantFrom(...urlPrefixes), fc.array(fc.constantFrom(...urlTokens), { maxLength: 8 })).map(([prefix, parts]) => prefix + parts.join(''));
export const agents = fc.subarray(['Googlebot', 'googlebot', 'Bingbot', 'Googlebot-Image', 'Bot', 'Googlebot/2.1', '*', 'other', 'Bot2'], { minLength: 1, maxLength: 2 });

