// The traps of a page's rules: what a site owner meant and a crawler will not do. robotstxt pages counts them
// over a crawl; every one is defined here, once. Any runtime; linear in the page's statements.
//   noindex-unseen          robots.txt disallows the URL and the page says noindex (or none) to the crawler:
//                           the page is never crawled, so the noindex is never seen, and the URL may still be
//                           indexed from links (Google's robots.txt introduction and FAQ).
//   conflict                the statements that reach the crawler contradict each other (index and noindex,
//                           follow and nofollow, two different max-snippet values, nosnippet and a max-snippet
//                           above 0, ...): the more restrictive applies, which may not be what was meant.
//   unavailable-after-past  an unavailable_after date at or before the time asked: the page is out of search.
//   meta-outside-head       a robots meta tag (name robots or the crawler's token) the HTML parser puts in the
//                           body: it is not read.
//   noindex-in-robots-txt   a Noindex: line of robots.txt matches the URL: Google stopped reading those in 2019.
// The last four are about what the crawler reads of a page, so they are counted for pages it crawls (seen);
// noindex-in-robots-txt for every page.
import { asciiLowerCase, productToken } from './robots.js';
import type { PageMeta, PageRuleStatement, PageRules } from './page-rules.js';
import type { RobotsNoindexLine } from './robots-noindex.js';

/** The traps, in the order reports list them. */
export const PAGE_TRAPS = ['noindex-unseen', 'conflict', 'unavailable-after-past', 'meta-outside-head', 'noindex-in-robots-txt'] as const;

/** A trap's name. */
export type PageTrapKind = (typeof PAGE_TRAPS)[number];

/** A trap met by a page, with the statements that set it, as written. */
export interface PageTrap {
  trap: PageTrapKind;
  text: string;
}

/** True for a meta tag name a crawler reads as robots rules: `robots`, or its own product token (any case). Per meta tag. */
export function isRobotsMetaName(name: string, agent: string): boolean {
  const lower = asciiLowerCase(name.trim());
  return lower === 'robots' || lower === asciiLowerCase(productToken(agent) || agent);
}

/** Pairs of rules that contradict each other: each rule of the first set against each of the second. */
const OPPOSITES: readonly [readonly string[], readonly string[]][] = [
  [['index', 'all'], ['noindex', 'none']],
  [['follow', 'all'], ['nofollow', 'none']],
];

/** Rules with a value: two different values of one of them contradict. */
const VALUED = ['max-snippet', 'max-image-preview', 'max-video-preview', 'unavailable_after'];

/** The statements of a page's rules that contradict each other (each group once), for the conflict trap. */
function conflicts(rules: readonly PageRuleStatement[]): PageRuleStatement[][] {
  const found: PageRuleStatement[][] = [];
  for (const [yes, no] of OPPOSITES) {
    if (rules.some((rule) => yes.includes(rule.rule)) && rules.some((rule) => no.includes(rule.rule))) found.push(rules.filter((rule) => yes.includes(rule.rule) || no.includes(rule.rule)));
  }
  for (const name of VALUED) {
    const stated = rules.filter((rule) => rule.rule === name);
    if (new Set(stated.map((rule) => asciiLowerCase(rule.value ?? ''))).size > 1) found.push(stated);
  }
  const nosnippet = rules.filter((rule) => rule.rule === 'nosnippet');
  const snippetAllowed = rules.filter((rule) => rule.rule === 'max-snippet' && rule.value !== null && /^\d+$/.test(rule.value) && Number(rule.value) > 0);
  if (nosnippet.length > 0 && snippetAllowed.length > 0) {
    const either = new Set([...nosnippet, ...snippetAllowed]);
    found.push(rules.filter((rule) => either.has(rule)));
  }
  return found;
}

/** The texts of statements, each once, in order: `X-Robots-Tag: noindex / <meta name="robots" content="index">`. */
function textsOf(statements: readonly PageRuleStatement[]): string {
  return [...new Set(statements.map((statement) => statement.text))].join(' / ');
}

/**
 * The traps of one page for one crawler. rules: the page's rules as stated (pageRules, whether or not it is
 * crawled); crawlAllowed: robots.txt's verdict; metasOutsideHead: meta tags the parser put outside <head>;
 * robotsNoindex: the Noindex: line of robots.txt matching the URL, if any. Per page.
 */
export function pageTraps(input: { rules: PageRules; crawlAllowed: boolean; metasOutsideHead: readonly PageMeta[]; robotsNoindex: RobotsNoindexLine | null; nowMs: number }): PageTrap[] {
  const { rules } = input;
  const traps: PageTrap[] = [];
  if (!input.crawlAllowed) {
    const noindex = rules.rules.filter((rule) => rule.rule === 'noindex' || rule.rule === 'none');
    if (noindex.length > 0) traps.push({ trap: 'noindex-unseen', text: textsOf(noindex) });
  } else {
    for (const group of conflicts(rules.rules)) traps.push({ trap: 'conflict', text: textsOf(group) });
    if (rules.unavailableAfter !== null && Date.parse(rules.unavailableAfter) <= input.nowMs) {
      traps.push({ trap: 'unavailable-after-past', text: textsOf(rules.rules.filter((rule) => rule.rule === 'unavailable_after')) });
    }
    for (const meta of input.metasOutsideHead) {
      if (isRobotsMetaName(meta.name, rules.agent)) traps.push({ trap: 'meta-outside-head', text: `<meta name="${meta.name}" content="${meta.content}">` });
    }
  }
  if (input.robotsNoindex !== null) traps.push({ trap: 'noindex-in-robots-txt', text: `robots.txt line ${input.robotsNoindex.line}: Noindex: ${input.robotsNoindex.value}` });
  return traps;
}
