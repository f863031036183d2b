// robots.txt lint: the parser's diagnostics plus checks of what the file means (patterns that never match,
// rules that can never decide, HTML served as robots.txt, ...). Called once per file by `robotstxt lint`.
import { parseRobots, asciiLowerCase, DIAGNOSTIC_SEVERITY, type RobotsOptions, type RobotsRule, type DiagnosticSeverity, type RobotsTxt, type AgentLine } from './robots.js';
import { DEFAULT_MAX_BYTES } from './constants.js';
import { MAX_COMPILE_BYTES } from './wasm/limits.js';
import { RobotsError } from './errors.js';
import { isCrawlerWord } from './crawlers.js';
import { contentSignalProblems, contentUsageProblems } from './usage.js';

/** One finding, with the 1-based line it is about (0: the whole file). */
export interface LintFinding {
  line: number;
  severity: DiagnosticSeverity;
  code: string;
  message: string;
}

/**
 * Directives the parser keeps but Google's crawler does not act on (RFC 9309 defines none of them): what
 * each does, or did, and where. Noindex and nofollow are warnings: a site that relies on them keeps pages
 * indexed without knowing it. (Crawl-delay, which Bing and Yandex read, is checked for its number only.)
 */
const UNSUPPORTED_DIRECTIVES: readonly { key: string; severity: DiagnosticSeverity; why: string }[] = [
  { key: 'noindex', severity: 'warning', why: 'Google stopped reading noindex in robots.txt in September 2019 (it never was a standard): the pages stay indexable. Use a robots meta tag or an X-Robots-Tag header' },
  { key: 'nofollow', severity: 'warning', why: 'not a robots.txt directive for Google or RFC 9309: links are still followed. Use a robots meta tag or rel="nofollow"' },
  { key: 'request-rate', severity: 'info', why: 'not read by Google and not in RFC 9309 (a few crawlers read it)' },
  { key: 'visit-time', severity: 'info', why: 'not read by Google and not in RFC 9309 (a few crawlers read it)' },
  { key: 'clean-param', severity: 'info', why: "Yandex's directive: Google ignores it" },
  { key: 'host', severity: 'info', why: "Yandex's former directive for the main mirror (it now uses redirects): Google ignores it" },
];

/** Everything lint found, sorted by line. */
export interface LintReport {
  findings: LintFinding[];
  errors: number;
  warnings: number;
  infos: number;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** True when bytes are valid UTF-8. */
function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
const latin1 = new TextDecoder('latin1');

/**
 * Where each line of body starts and ends (lines end at LF, CR or CRLF, as the parser reads them; text after
 * the last break is a line, empty or not): line n (1-based) is body[starts[n - 1], ends[n - 1]). Two numbers
 * a line, not an object: a file of a million lines costs 8 MB here.
 */
interface LineSpans {
  count: number;
  starts: Uint32Array;
  ends: Uint32Array;
}

function lineSpans(body: Uint8Array): LineSpans {
  let breaks = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === 0x0a) breaks++;
    else if (body[i] === 0x0d && body[i + 1] !== 0x0a) breaks++;
  }
  const starts = new Uint32Array(breaks + 1);
  const ends = new Uint32Array(breaks + 1);
  let count = 0;
  let start = 0;
  for (let i = 0; i <= body.length; i++) {
    if (i === body.length || body[i] === 0x0a || body[i] === 0x0d) {
      starts[count] = start;
      ends[count++] = i;
      if (i < body.length && body[i] === 0x0d && body[i + 1] === 0x0a) i++;
      start = i + 1;
    }
  }
  return { count, starts, ends };
}

/** What kind of file this is when it is not a robots.txt at all: one clear error instead of a finding per line. */
function notRobotsTxt(body: Uint8Array): { code: string; message: string } | null {
  if ((body[0] === 0xff && body[1] === 0xfe) || (body[0] === 0xfe && body[1] === 0xff)) {
    return { code: 'utf16', message: 'the file is UTF-16 (it starts with a UTF-16 byte order mark): crawlers read bytes, and find no rules here. Save it as UTF-8' };
  }
  // UTF-16 without a byte order mark: every other byte of the first line is NUL
  const head = body.subarray(0, 64);
  let nuls = 0;
  for (let i = 0; i < head.length; i++) if (head[i] === 0) nuls++;
  if (head.length >= 8 && nuls * 3 >= head.length) return { code: 'utf16', message: 'the file looks like UTF-16 (NUL bytes between the letters): crawlers read bytes, and find no rules here. Save it as UTF-8' };
  const firstText = latin1.decode(body.subarray(0, 4096)).replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart().toLowerCase();
  // markup first, and an HTML document in the first 4 KiB (error pages may start with a <div> or a comment)
  if (firstText.startsWith('<') && (/^<(head|body|title)[\s>]/.test(firstText) || /<!doctype html|<html[\s>]/.test(firstText))) {
    return { code: 'html', message: 'the file is HTML (an error page served as robots.txt?): crawlers find no rules in it' };
  }
  if (firstText.startsWith('<?xml')) return { code: 'xml', message: 'the file is XML (a sitemap served as robots.txt?): crawlers find no rules in it' };
  // text in which no line of the first ones is a robots.txt line (a key and a colon) at all: an access log,
  // a CSV, a URL list given by mistake
  const lines = firstText.split(/\r\n|\r|\n/).map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  const sample = lines.slice(0, 50);
  if (sample.length >= 5 && !sample.some((line) => /^[a-z][a-z_-]*\s*:/.test(line) && !/^https?:/.test(line))) {
    const kind = sample.every((line) => /^\S+ \S+ \S+ \[[^\]]+\] "/.test(line) || /^\S+ \S+ \S+ \S+ \[[^\]]+\] "/.test(line)) ? 'an access log'
      : sample.every((line) => line.startsWith('{')) ? 'JSON lines (a JSON log?)'
      : sample.every((line) => /^(https?:\/\/|\/)/.test(line)) ? 'a list of URLs'
      : 'text with no robots.txt lines';
    return { code: 'not-robots-txt', message: `the file is not a robots.txt: it looks like ${kind} (none of its first ${sample.length} lines is a directive such as User-agent: or Disallow:)` };
  }
  return null;
}

/** The literal prefix of a normalised-enough pattern: up to the first '*' (a final '$' removed). */
function literalPart(pattern: string): { literal: string; onlyTrailingStars: boolean } {
  const body = pattern.endsWith('$') ? pattern.slice(0, -1) : pattern;
  const star = body.indexOf('*');
  if (star < 0) return { literal: body, onlyTrailingStars: !pattern.endsWith('$') };
  return { literal: body.slice(0, star), onlyTrailingStars: /^\**$/.test(body.slice(star)) && !pattern.endsWith('$') };
}

/** A rule that matches every path starting with its literal (a prefix, trailing '*' allowed, no '$'). */
interface Cover {
  index: number;
  kind: 'allow' | 'disallow';
  length: number;
}

/**
 * A trie of the covering rules by literal, one char per level: a rule's covers are on its literal's path.
 * Each node keeps, per kind, its covers by length (longest first) with the smallest rule index among the
 * first k of them, so that "the earliest cover of this kind at least this long" is one binary search per
 * node, however many rules share a literal (a file of a million identical rules stays linear).
 */
class CoverTrie {
  private readonly children: Map<string, number>[] = [new Map()];
  private readonly covers: Cover[][] = [[]];
  /** Per node and kind (after seal): lengths, longest first, and the smallest index among the covers up to each. */
  private sealed: { allow: { lengths: number[]; earliest: number[] }; disallow: { lengths: number[]; earliest: number[] } }[] = [];

  add(literal: string, cover: Cover): void {
    let node = 0;
    for (const char of literal) {
      let next = this.children[node].get(char);
      if (next === undefined) {
        next = this.children.length;
        this.children.push(new Map());
        this.covers.push([]);
        this.children[node].set(char, next);
      }
      node = next;
    }
    this.covers[node].push(cover);
  }

  /** Sorts each node's covers; call once after the last add. */
  seal(): void {
    const byKind = (covers: Cover[], kind: Cover['kind']): { lengths: number[]; earliest: number[] } => {
      const sorted = covers.filter((cover) => cover.kind === kind).sort((a, b) => b.length - a.length);
      const earliest: number[] = [];
      for (const cover of sorted) earliest.push(Math.min(cover.index, earliest.at(-1) ?? Number.MAX_SAFE_INTEGER));
      return { lengths: sorted.map((cover) => cover.length), earliest };
    };
    this.sealed = this.covers.map((covers) => ({ allow: byKind(covers, 'allow'), disallow: byKind(covers, 'disallow') }));
  }

  /**
   * The smallest index of a cover of `kind` whose literal is a prefix of `literal` (the root's included) and
   * whose length is at least `minLength`; MAX_SAFE_INTEGER when there is none. O(L log R).
   */
  earliestCover(literal: string, kind: Cover['kind'], minLength: number): number {
    let best = Number.MAX_SAFE_INTEGER;
    let node = 0;
    for (let i = 0; ; i++) {
      const { lengths, earliest } = this.sealed[node][kind];
      // the covers at least minLength long are the first `count` (lengths is descending)
      let low = 0;
      let high = lengths.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (lengths[middle] >= minLength) low = middle + 1;
        else high = middle;
      }
      if (low > 0) best = Math.min(best, earliest[low - 1]);
      if (i === literal.length) return best;
      const next = this.children[node].get(literal[i]);
      if (next === undefined) return best;
      node = next;
    }
  }
}

/**
 * Rules that can never decide among the rules of one agent: a rule is shadowed by an opposite rule that
 * matches every URL it matches (a prefix of its literal, no '$') with equal (for a disallow) or higher
 * priority (a longer pattern); else it may repeat an earlier rule. The earliest such other rule is named.
 * Worst case O(R x L x log R) for R rules of literal length at most L (each rule walks its literal once,
 * with a binary search per node).
 */
function neverDeciding(rules: RobotsRule[], reported: Set<RobotsRule>, add: (line: number, severity: DiagnosticSeverity, code: string, message: string) => void): void {
  if (rules.length < 2) return; // one rule is neither covered nor repeated (most groups of a file naming many crawlers)
  const patterns = rules.map((rule) => latin1.decode(rule.value));
  const trie = new CoverTrie();
  const first = new Map<string, number>();
  rules.forEach((rule, k) => {
    if (patterns[k] === '') return;
    const part = literalPart(patterns[k]);
    if (part.onlyTrailingStars) trie.add(part.literal, { index: k, kind: rule.kind, length: patterns[k].length });
    const key = `${rule.kind}\n${patterns[k]}`;
    if (!first.has(key)) first.set(key, k);
  });
  trie.seal();
  rules.forEach((rule, i) => {
    if (reported.has(rule) || patterns[i] === '') return;
    let best = Number.MAX_SAFE_INTEGER;
    let shadow = false;
    const duplicateOf = first.get(`${rule.kind}\n${patterns[i]}`) as number;
    if (duplicateOf < i) best = duplicateOf;
    const length = patterns[i].length;
    // the earliest opposite rule that covers it with equal (against a disallow) or higher priority
    const cover = trie.earliestCover(literalPart(patterns[i]).literal, rule.kind === 'disallow' ? 'allow' : 'disallow', rule.kind === 'disallow' ? length : length + 1);
    if (cover < best) {
      best = cover;
      shadow = true;
    }
    if (best === Number.MAX_SAFE_INTEGER) return;
    const other = rules[best];
    reported.add(rule);
    if (shadow) add(rule.line, 'warning', 'never-decides', `${rule.kind} "${patterns[i]}" can never decide: ${other.kind} "${patterns[best]}" (line ${other.line}) matches every URL it matches with ${patterns[best].length === length ? 'equal' : 'higher'} priority`);
    else add(rule.line, 'info', 'duplicate-rule', `${rule.kind} "${patterns[i]}" repeats line ${other.line}`);
  });
}

/** lintRobots' options: the parser's, and the file's real size when `body` holds only its first bytes. */
export interface LintOptions extends RobotsOptions {
  /** The whole file's size in bytes when a reader stopped before its end (the findings name it); default body.length. */
  fileBytes?: number;
}

/**
 * Lints a robots.txt body. Called once per file by `robotstxt lint` (and by tools built on the engine). A body
 * larger than one compile takes (16 MiB) is linted up to its last whole line before that size, and a
 * finding names the line where linting stopped (lines end at LF, CR or CRLF, as the parser reads them).
 */
export function lintRobots(body: Uint8Array, options: LintOptions = {}): LintReport {
  const { fileBytes = body.length, ...parseOptions } = options;
  if (!Number.isSafeInteger(fileBytes) || fileBytes < body.length) throw new RobotsError('INVALID_ARGUMENT', `fileBytes must be a whole number of at least the body's ${body.length} bytes, got ${String(options.fileBytes)}`);
  const tooLarge = body.length > MAX_COMPILE_BYTES;
  if (tooLarge) {
    // the whole lines before the limit (after the last line break below it): the line cut by the limit, or
    // starting at it, is not linted
    let end = MAX_COMPILE_BYTES;
    while (end > 0 && body[end - 1] !== 0x0a && body[end - 1] !== 0x0d) end--;
    body = body.subarray(0, end);
  }
  const lines = lineSpans(body);
  const report = lintWholeLines(body, lines, parseOptions, fileBytes);
  if (tooLarge) {
    // the last "line" of the whole lines is the empty one after their last break: where linting stopped
    report.findings.push({ line: lines.count, severity: 'warning', code: 'file-too-large-to-lint', message: `file is ${fileBytes} bytes, larger than ${MAX_COMPILE_BYTES >> 20} MiB: linting stops at this line (crawlers read only the first 500 KiB)` });
    report.warnings++;
  }
  return report;
}

function lintWholeLines(body: Uint8Array, lines: LineSpans, options: RobotsOptions, fileBytes: number): LintReport {
  const findings: LintFinding[] = [];
  const add = (line: number, severity: DiagnosticSeverity, code: string, message: string): void => { findings.push({ line, severity, code, message }); };
  const done = (): LintReport => {
    findings.sort((a, b) => a.line - b.line);
    const count = (severity: DiagnosticSeverity): number => findings.filter((f) => f.severity === severity).length;
    return { findings, errors: count('error'), warnings: count('warning'), infos: count('info') };
  };
  const robots = parseRobots(body, options);
  const rulesFound = robots.groups.reduce((sum, group) => sum + group.rules.length, 0);
  const foreign = notRobotsTxt(body);
  if (foreign !== null) {
    // one clear error; the lines the parser could not read are counted, not listed one by one
    const skipped = robots.diagnostics.length;
    add(1, 'error', foreign.code, `${foreign.message}${rulesFound > 0 ? ` (${rulesFound} rule line(s) were read anyway)` : ''}${skipped > 0 ? `; ${skipped} other finding(s) on its lines not listed` : ''}`);
    return done();
  }
  for (const diagnostic of robots.diagnostics) add(diagnostic.line, DIAGNOSTIC_SEVERITY[diagnostic.code], diagnostic.code, diagnostic.message);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (maxBytes === 0 && fileBytes > DEFAULT_MAX_BYTES) {
    // the line whose bytes (or line break) reach past the limit
    let cut = 0; // the first line ending at or past the limit (0-based), by binary search over the ends
    for (let high = lines.count - 1; cut < high;) {
      const middle = (cut + high) >>> 1;
      if (lines.ends[middle] >= DEFAULT_MAX_BYTES) high = middle;
      else cut = middle + 1;
    }
    add(cut + 1, 'warning', 'file-too-large', `file is ${fileBytes} bytes: Google and RFC 9309 crawlers read only the first 512000 (500 KiB), which end in this line: it and the lines after it are ignored`);
  }

  // line by line only when the whole file is not UTF-8 (nearly every file is)
  let nonUtf8 = 0;
  if (!isUtf8(body)) {
    for (let i = 0; i < lines.count; i++) {
      if (isUtf8(body.subarray(lines.starts[i], lines.ends[i]))) continue;
      if (nonUtf8++ < 20) add(i + 1, 'warning', 'not-utf8', 'bytes that are not UTF-8: patterns match them byte for byte, percent-encoded');
    }
  }
  if (nonUtf8 > 20) add(0, 'warning', 'not-utf8', `${nonUtf8 - 20} more lines with bytes that are not UTF-8`);

  // user-agent values whose product token is not what the line says (only the token is compared), or
  // is a browser's or platform's word (Mozilla, Linux, MSIE): no crawler calls itself that
  for (const group of robots.groups) {
    for (const agent of group.agents) {
      const value = agent.value.trim();
      if (!agent.global && agent.productToken !== '' && !isCrawlerWord(agent.productToken)) {
        add(agent.line, 'warning', 'agent-browser-word', `user-agent "${value}": "${agent.productToken}" is a browser or platform word, not a crawler's product token: no crawler follows this group (audit counts no request for it)`);
        continue;
      }
      if (agent.global || value === agent.productToken) continue;
      if (agent.productToken !== '' && /^\/[\w.]+$/.test(value.slice(agent.productToken.length))) continue; // "Googlebot/2.1": the token is the name, as meant
      add(agent.line, 'warning', 'agent-not-a-token', agent.productToken === ''
        ? `user-agent "${value}" has no product token (letters, '-' and '_' first): it names no crawler`
        : `user-agent "${value}": crawlers compare only its product token "${agent.productToken}"${/\s/.test(value) ? ' (the rest, after a space, is ignored)' : ''}`);
    }
  }

  // patterns that can never match, crawl-delay, sitemaps
  for (const group of robots.groups) {
    for (const rule of group.rules) {
      const value = latin1.decode(rule.value);
      if (value !== '' && !value.startsWith('/') && !value.startsWith('*')) {
        add(rule.line, 'error', 'pattern-never-matches', `"${value}" starts with neither "/" nor "*": it never matches any URL`);
      }
    }
  }
  for (const other of robots.otherDirectives) {
    const unsupported = UNSUPPORTED_DIRECTIVES.find((entry) => other.isKey(entry.key));
    if (unsupported !== undefined) add(other.line, unsupported.severity, 'unsupported-directive', `${other.key}: ${unsupported.why}`);
    if (other.isKey('crawl-delay') && !/^\s*\d+(\.\d+)?\s*$/.test(other.value)) {
      add(other.line, 'warning', 'crawl-delay-not-a-number', `crawl-delay "${other.value}" is not a number of seconds: ignored`);
    }
    if (other.isKey('content-signal')) contentSignalProblems(other.value).forEach(({ severity, message }) => add(other.line, severity, 'content-signal-invalid', `content-signal: ${message}`));
    if (other.isKey('content-usage')) contentUsageProblems(other.value).forEach((problem) => add(other.line, 'warning', 'content-usage-invalid', `content-usage: ${problem}`));
    if (other.isKey('license')) {
      // RSL (Really Simple Licensing): the URL of the site's licence terms, for crawlers that read it
      const url = other.value.trim();
      if (/^https?:\/\/[^\s/]+/i.test(url)) add(other.line, 'info', 'license', `license: RSL licence terms at ${url}: reported, not judged (no crawl verdict changes; crawlers that read RSL fetch the terms)`);
      else add(other.line, 'warning', 'license-invalid', `license: "${url}" is not an absolute http(s) URL: RSL expects the URL of the licence terms`);
    }
  }
  const firstAgentLine = robots.groups[0]?.agents[0]?.line ?? Infinity;
  for (const other of robots.otherDirectives) {
    if (other.isKey('content-usage') && other.line < firstAgentLine) add(other.line, 'warning', 'content-usage-outside-group', 'content-usage before any user-agent line: it belongs to no group and applies to no crawler (put it in a group, such as User-agent: *)');
  }
  groupsMerged(robots, add);
  // the sitemap lines as the parser read them (its key matching, typos included)
  for (const { line, value } of robots.sitemapLines) {
    if (!/^https?:\/\/[^/\s]+/i.test(value)) add(line, 'warning', 'sitemap-not-absolute', `sitemap "${value}" is not an absolute http(s) URL`);
  }

  // rules that can never decide, per crawler the file names (the rules of the groups naming it, merged) and
  // for every other crawler (the `*` groups'), each reported once; one pass over the groups (a file naming
  // 20,000 crawlers took 12 s when each token's groups were looked for in every group)
  const rulesOf = new Map<string, RobotsRule[]>([['*', []]]);
  robots.groups.forEach((group) => {
    const keys = new Set(group.agents.flatMap((agent) => agent.global ? ['*'] : agent.productToken !== '' ? [asciiLowerCase(agent.productToken)] : []));
    for (const key of keys) {
      const rules = rulesOf.get(key);
      if (rules === undefined) rulesOf.set(key, [...group.rules]);
      else for (const rule of group.rules) rules.push(rule);
    }
  });
  const reported = new Set<RobotsRule>();
  for (const rules of rulesOf.values()) neverDeciding(rules, reported, add);
  return done();
}

/**
 * ID_GroupsEndOnlyAtRules: a user-agent line after other lines (Content-Signal, Content-Usage, Crawl-delay,
 * Sitemap, ...) but no Allow or Disallow line does not start a group: the group goes on, and the rules after
 * it apply to the agents before it too (RFC 9309 and the reference agree). One finding per such line: an
 * error when the agents of the merged group get other rules than they would if the group had ended there
 * (an empty Disallow closing it), else a warning.
 *
 * Worked out from the group structure, never by parsing again: ending group g before its agent k takes g's
 * rules from the agents named only before k; an agent's rules (the groups naming it, or the `*` groups when
 * none does, as assembly/select.ts picks them, compared as sets of rule lines) change then exactly when g has
 * a rule no other group of that agent has. Worst case: one pass over the agents and rules of each group, plus,
 * per agent of a merged group named by other groups too, the smaller of (g's rules x its other groups) and
 * (its other groups' rules). test/lint.test.ts holds the parse-again model it is checked against.
 */
function groupsMerged(robots: RobotsTxt, add: (line: number, severity: DiagnosticSeverity, code: string, message: string) => void): void {
  // every line that is neither a rule nor a user-agent line, in file order, once: between two user-agent lines of
  // one group there are only such lines (a rule would have ended the group), found by a binary search
  const others = [...robots.otherDirectives.map((other) => ({ line: other.line, key: other.key.toLowerCase() })), ...robots.sitemapLines.map((sitemap) => ({ line: sitemap.line, key: 'sitemap' }))].sort((a, b) => a.line - b.line);
  const firstAfter = (line: number): number => {
    let low = 0;
    let high = others.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (others[middle].line <= line) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const keyOf = (agent: AgentLine): string | null => (agent.global ? '*' : agent.productToken !== '' ? asciiLowerCase(agent.productToken) : null);
  let ruleSets: Set<string>[] | null = null; // each group's rule lines (an empty Disallow decides nothing), made at the first merge
  let groupsOf: Map<string, number[]> | null = null; // the groups naming each agent key ('*': the `*` groups)
  for (let g = 0; g < robots.groups.length; g++) {
    const agents = [...robots.groups[g].agents].sort((a, b) => a.line - b.line);
    // each agent key's first and last place among the group's agents
    const places = new Map<string, { token: string; first: number; last: number }>();
    agents.forEach((agent, index) => {
      const key = keyOf(agent);
      if (key === null) return;
      const place = places.get(key);
      if (place === undefined) places.set(key, { token: agent.global ? '*' : agent.productToken, first: index, last: index });
      else place.last = index;
    });
    const endingAt: string[][] = agents.map(() => []); // the keys whose last place is each index
    for (const [key, place] of places) endingAt[place.last].push(key);
    // the agents that lose g's rules when it ends before agent k, in order of first place: the first 10 and a count
    const changed: { first: number; token: string }[] = [];
    let changedCount = 0;
    let unchangedUntil = 0; // endingAt[0 .. unchangedUntil) weighed
    for (let k = 1; k < agents.length; k++) {
      const before = agents[k - 1].line;
      const at = agents[k].line;
      const keepers = [];
      for (let i = firstAfter(before); i < others.length && others[i].line < at; i++) keepers.push(others[i]);
      if (keepers.length === 0) continue;
      ruleSets ??= robots.groups.map((group) => new Set(group.rules.filter((rule) => !(rule.kind === 'disallow' && rule.value.length === 0)).map((rule) => `${rule.kind}:${latin1.decode(rule.value)}`)));
      groupsOf ??= groupsByAgent(robots, keyOf);
      for (; unchangedUntil < k; unchangedUntil++) {
        for (const key of endingAt[unchangedUntil]) {
          if (!rulesOnlyHere(g, groupsOf.get(key) ?? [g], ruleSets)) continue;
          changedCount++;
          const place = places.get(key) as { token: string; first: number };
          changed.push({ first: place.first, token: place.token });
          changed.sort((a, b) => a.first - b.first);
          if (changed.length > 10) changed.pop();
        }
      }
      const opened = `${agents.slice(0, Math.min(k, 3)).map((agent) => agent.value.trim()).join('", "')}"${k > 3 ? ` and ${k - 3} more` : ''}`;
      const keptOpen = keepers.map((entry) => `line ${entry.line} (${entry.key})`).join(', ');
      const start = `user-agent "${agents[k].value.trim()}" does not start a new group: only an Allow or Disallow line ends one, and ${keptOpen} ${keepers.length > 1 ? 'are' : 'is'} neither, so the group of "${opened} goes on and its rules apply to every agent of it`;
      if (changedCount > 0) add(at, 'error', 'group-merged', `${start}: this changes what ${changed.map((entry) => entry.token).join(', ')}${changedCount > 10 ? ` and ${changedCount - 10} more` : ''} may fetch. End the group before this line with its own rules (an empty "Disallow:" allows everything)`);
      else add(at, 'warning', 'group-merged', `${start}; here it changes nothing any of them may fetch`);
    }
  }
}

/** The groups naming each agent key (lower-case product token), and under '*' the `*` groups; each group once per key. */
function groupsByAgent(robots: RobotsTxt, keyOf: (agent: AgentLine) => string | null): Map<string, number[]> {
  const groupsOf = new Map<string, number[]>();
  robots.groups.forEach((group, g) => {
    for (const agent of group.agents) {
      const key = keyOf(agent);
      if (key === null) continue;
      const list = groupsOf.get(key);
      if (list === undefined) groupsOf.set(key, [g]);
      else if (list[list.length - 1] !== g) list.push(g);
    }
  });
  return groupsOf;
}

/** Whether group g has a rule line none of the agent's other groups (its groups: g among them) has. */
function rulesOnlyHere(g: number, groups: readonly number[], ruleSets: readonly Set<string>[]): boolean {
  const own = ruleSets[g];
  const otherGroups = groups.filter((other) => other !== g);
  if (otherGroups.length === 0) return own.size > 0;
  const othersSize = otherGroups.reduce((sum, other) => sum + ruleSets[other].size, 0);
  if (own.size * otherGroups.length <= othersSize) {
    for (const rule of own) if (!otherGroups.some((other) => ruleSets[other].has(rule))) return true;
    return false;
  }
  // g's rules the other groups have, counted once each: all of them, or g has one of its own
  const shared = new Set<string>();
  for (const other of otherGroups) for (const rule of ruleSets[other]) if (own.has(rule)) shared.add(rule);
  return shared.size < own.size;
}
