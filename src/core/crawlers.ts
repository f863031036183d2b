// Who a User-Agent is: the crawler's name, which words name no crawler, and which group it follows (its
// category: src/node/crawlers/categories.ts). Used by audit (and lint, for user-agent lines that name no crawler).
// Every function here is linear in the User-Agent's length.
import { asciiLowerCase, agentTokenProblem, productToken } from './robots.js';

/**
 * Words every browser's (and many crawlers') User-Agent carries: product names of browser engines, platform
 * and language words of the comment. They name no crawler, so a robots.txt group for one of them claims no
 * request (`User-agent: Mozilla` is junk). Source: the User-Agent syntax of MDN's "User-Agent" header page
 * (`Mozilla/5.0 (<system-information>) <platform> (<platform-details>) <extensions>`) and the browser
 * strings it lists, with the platform words of Android, iOS, macOS, Windows and Linux.
 */
export const BROWSER_WORDS: ReadonlySet<string> = new Set([
  'mozilla', 'compatible', 'applewebkit', 'webkit', 'khtml', 'like', 'gecko', 'chrome', 'chromium', 'crios', 'safari',
  'mobile', 'mobile-safari', 'version', 'firefox', 'fxios', 'opera', 'opr', 'presto', 'edge', 'edg', 'edga', 'edgios',
  'msie', 'trident', 'windows', 'win64', 'wow64', 'x64', 'x86_64', 'nt', 'linux', 'android', 'iphone', 'ipad', 'ipod',
  'cpu', 'os', 'mac', 'macintosh', 'intel', 'ppc', 'x11', 'ubuntu', 'fedora', 'u', 'en', 'en-us', 'rv', 'build',
  'samsungbrowser', 'yabrowser', 'ucbrowser', 'http', 'https', 'www', 'and', 'or', 'not', 'on', 'the',
]);

/** True when a product token can name a crawler (it is not a browser's or platform's word). */
export function isCrawlerWord(token: string): boolean {
  return !BROWSER_WORDS.has(asciiLowerCase(token));
}

/**
 * Google crawlers that follow the `googlebot` group when a robots.txt has no group of their own (Google's
 * "Overview of Google crawlers"; its example: "Googlebot Images ... There is no specific
 * googlebot-images group, so the more generic group is followed"). GoogleOnly: RFC 9309 has no such fallback.
 */
const GROUP_FALLBACK: Readonly<Record<string, string>> = {
  'googlebot-image': 'googlebot',
  'googlebot-video': 'googlebot',
  'googlebot-news': 'googlebot',
};

/**
 * Crawlers that ignore the `*` group and follow only a group that names them (Google's robots.txt
 * documentation: `*` matches all crawlers "except the various AdsBot crawlers, which must be
 * named explicitly"). GoogleOnly.
 */
const IGNORES_GLOBAL_GROUP: ReadonlySet<string> = new Set(['adsbot-google', 'adsbot-google-mobile']);

/**
 * The group a crawler follows: its own name's group, else its fallback's (Google's family), else `*`; null
 * when none applies (AdsBot without its own group). names(token): whether the file has a group for token.
 */
export function groupFollowed(crawler: string, names: (token: string) => boolean): string | null {
  let token: string | undefined = asciiLowerCase(crawler);
  const first = token;
  while (token !== undefined) {
    if (names(token)) return token;
    token = GROUP_FALLBACK[token];
  }
  return IGNORES_GLOBAL_GROUP.has(first) ? null : '*';
}

const isWordChar = (code: number): boolean => (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x2d || code === 0x2e;
const CRAWLER_WORD = /bot|spider|crawl|slurp|fetch|preview|proxy|scrap|archiv/i;

/** One word of a User-Agent: letters, digits, `_`, `-` and `.`; trailing `.` and `-` dropped. */
interface UserAgentWord {
  text: string;
  /** Inside a (comment). */
  nested: boolean;
  /** Followed by `/` (a product/version). */
  product: boolean;
}

/** The words of a User-Agent, URLs (`http://...`, `+https://...`) skipped whole. One pass. */
export function userAgentWords(userAgent: string): UserAgentWord[] {
  const words: UserAgentWord[] = [];
  let depth = 0;
  let at = 0;
  while (at < userAgent.length) {
    const code = userAgent.charCodeAt(at);
    if (code === 0x28 /* ( */) depth++;
    else if (code === 0x29 /* ) */) depth = Math.max(0, depth - 1);
    if (!isWordChar(code)) {
      at++;
      continue;
    }
    let end = at;
    while (end < userAgent.length && isWordChar(userAgent.charCodeAt(end))) end++;
    if (userAgent.startsWith('://', end)) {
      // a URL: skipped to the next blank, ';' or ')'
      while (end < userAgent.length && !/[\s;)]/.test(userAgent[end])) end++;
      at = end;
      continue;
    }
    let text = userAgent.slice(at, end);
    while (text.endsWith('.') || text.endsWith('-')) text = text.slice(0, -1);
    if (text !== '') words.push({ text, nested: depth > 0, product: userAgent.charCodeAt(end) === 0x2f /* / */ });
    at = end;
  }
  return words;
}

const isVersion = (text: string): boolean => /^[\d.]+$/.test(text);
const nameable = (word: UserAgentWord): boolean => !isVersion(word.text) && isCrawlerWord(word.text);

/**
 * A crawler's name from its User-Agent: the first word with bot, spider, crawl, slurp, fetch, preview, proxy,
 * scrap or archiv in it; else the word after `compatible;`; else the first word; else the first product
 * (`Name/version`) outside a comment; else the first word outside a comment; else any word. Browser and
 * platform words (BROWSER_WORDS) and URLs never name one. Else the User-Agent itself (cut to 40 characters).
 */
export function crawlerName(userAgent: string): string {
  const words = userAgentWords(userAgent);
  const byWord = words.find((word) => nameable(word) && CRAWLER_WORD.test(word.text));
  if (byWord !== undefined) return byWord.text.slice(0, MAX_NAME_CHARS);
  const compatible = words.findIndex((word) => asciiLowerCase(word.text) === 'compatible');
  if (compatible >= 0 && compatible + 1 < words.length && nameable(words[compatible + 1])) return words[compatible + 1].text.slice(0, MAX_NAME_CHARS);
  if (words.length > 0 && nameable(words[0]) && /^\s*[A-Za-z0-9]/.test(userAgent)) return words[0].text.slice(0, MAX_NAME_CHARS);
  const found = words.find((word) => !word.nested && word.product && nameable(word))
    ?? words.find((word) => !word.nested && nameable(word) && /^[A-Za-z]/.test(word.text))
    ?? words.find((word) => nameable(word) && /^[A-Za-z]/.test(word.text));
  return (found?.text ?? userAgent.trim()).slice(0, MAX_NAME_CHARS);
}

/** A crawler's name is cut to this many characters (a User-Agent may be one word of megabytes). */
const MAX_NAME_CHARS = 64;

/**
 * The warning for an agent that cannot name a group as written (see agentTokenProblem), naming the crawler
 * when the agent is a whole User-Agent header (`Mozilla/5.0 (compatible; Googlebot/2.1; ...)` -> Googlebot);
 * null when the agent is a product token. Called once per agent by the command line and the Tester.
 */
export function agentWarning(agent: string): string | null {
  const problem = agentTokenProblem(agent);
  if (problem === null) return null;
  const name = agent.length > 0 ? crawlerName(agent) : '';
  const token = productToken(agent);
  if (name !== '' && name !== token && productToken(name) === name && /[/;(]/.test(agent)) {
    return `agent '${agent.slice(0, 120)}' looks like a whole User-Agent header: groups are named by product token, so give '${name}' (as written, it matches no user-agent line and only the * group can apply)`;
  }
  return problem;
}

/**
 * The agents to ask a file for so that each is answered as its crawler behaves (check --as-crawler), not as
 * its product token alone (the reference): an agent without a group of its own asks for its family's
 * (Googlebot-Image: `googlebot`, when the file has that group); one that ignores `*` and has no group
 * (AdsBot) is left out. An empty list: no group applies, every URL is allowed. names(token): whether the
 * file has a group for token. GoogleOnly (RFC 9309 has neither rule). Once per file and query.
 */
export function agentsAsCrawlers(agents: readonly string[], names: (token: string) => boolean): string[] {
  const asked: string[] = [];
  for (const agent of agents) {
    // a crawler is read by its name's product token, as audit reads one (MJ12bot: MJ, the group that
    // `User-agent: MJ12bot` names, since the reference ends a user-agent line's token at its first digit)
    const token = productToken(agent) || agent;
    const lower = asciiLowerCase(token);
    // a crawler with no fallback group that does not ignore * gets its own group or * either way
    if (GROUP_FALLBACK[lower] === undefined && !IGNORES_GLOBAL_GROUP.has(lower)) {
      asked.push(token !== agent && names(lower) ? token : agent);
      continue;
    }
    const group = groupFollowed(token, names);
    if (group !== null) asked.push(group === '*' ? agent : group);
  }
  return asked;
}
