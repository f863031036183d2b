// AI usage preferences stated in a robots.txt, beside the crawl verdict and never changing it: IETF AIPREF
// `Content-Usage` rules (draft-ietf-aipref-attach-05, vocabulary draft-ietf-aipref-vocab-07), Cloudflare's
// `Content-Signal` lines, and the crawl verdicts of policy product tokens (Google-Extended, ...). One place for
// how each is read and decided (docs/ai-usage.md says why each contested point is decided as it is):
//
// - Content-Usage: `Content-Usage: [path] <dictionary>`, a rule of the groups the agent gets (the crawl's own
//   group selection). The rule with the longest matching path decides every category (a rule without a path
//   covers the whole group, as `/` does); rules with identical paths combine, `n` over `y`; categories the
//   deciding rule does not state are unknown; order means nothing. Paths are matched by the same compiled
//   matcher as Allow/Disallow (same encoding rules, same worst case: see assembly/match.ts). A URL the agent
//   may not fetch gets no preference (unknown). Lines before any user-agent line belong to no group: ignored.
// - Content-Signal: `Content-Signal: key=value, ...` (search, ai-input, ai-train = yes | no; other keys kept
//   as written). Lines of the agent's groups decide the keys they state; lines before the first user-agent
//   line are file-wide defaults for the others. Several lines: `no` over `yes`; other values, the first.
// - Policy tokens: ordinary groups. Each token's crawl verdict for the URL, and whether a group naming it or
//   the `*` groups decided.
// The HTTP `Content-Usage` header (an RFC 9651 dictionary) is read here by the same reader as the line
// (core/structured-fields.ts) and combines with the robots.txt statement, `n` over `y`.
import { pathsMatcher, byteValues, PATHS_FIRST_LINE, type RobotsMatcher } from './matcher.js';
import { VERDICT_ALLOWED, FLAG_RFC_MODE } from './constants.js';
import { core } from './wasm/core.js';
import { isDictionaryKey, readStructuredDictionary, type StructuredMember } from './structured-fields.js';
import { RobotsError } from './errors.js';

/** The usage categories this package knows, with the document that defines each. Any other key a file states is reported too. */
export const USAGE_CATEGORIES: readonly { key: string; meaning: string; source: string; status: 'defined' | 'proposed' }[] = [
  { key: 'train-ai', meaning: 'training AI models (foundation model production)', source: 'draft-ietf-aipref-vocab-07', status: 'defined' },
  { key: 'search', meaning: 'search: indexing and showing the content in search results', source: 'draft-ietf-aipref-vocab-07', status: 'defined' },
  { key: 'infer-user', meaning: 'AI use at the request of a user (inference)', source: 'aipref working group proposal', status: 'proposed' },
  { key: 'infer-system', meaning: 'AI use by a system without a user asking', source: 'aipref working group proposal', status: 'proposed' },
  { key: 'rag-ground', meaning: 'grounding an AI answer in the content (retrieval-augmented generation)', source: 'aipref working group proposal', status: 'proposed' },
];

/** The categories every usage answer states (unknown when nothing says): the defined ones. */
export const REPORTED_CATEGORIES: readonly string[] = USAGE_CATEGORIES.filter((category) => category.status === 'defined').map((category) => category.key);

/** Cloudflare's Content-Signal keys whose values are yes or no (other keys are kept as written). */
export const CONTENT_SIGNAL_KEYS: readonly string[] = ['search', 'ai-input', 'ai-train'];

/** A purpose as both vocabularies state it: its Content-Usage category (null: none fits) and its Content-Signal key (null: none). */
export interface UsagePurpose {
  usage: string | null;
  signal: string | null;
}

/**
 * The purposes the two vocabularies share, by the name check --usage, audit and the library use: training AI
 * (`train-ai` = Content-Signal `ai-train`), search (`search` = `search`), and AI input (`ai-input`: Content-Signal
 * alone; Content-Usage defines no category for it). One place: check --usage, audit and RobotsTxt answer
 * from it. A Content-Usage category not listed here is read alone (its purpose has no signal).
 */
export const USAGE_PURPOSE_OF: Readonly<Record<string, UsagePurpose>> = {
  'train-ai': { usage: 'train-ai', signal: 'ai-train' },
  'ai-train': { usage: 'train-ai', signal: 'ai-train' },
  search: { usage: 'search', signal: 'search' },
  'ai-input': { usage: null, signal: 'ai-input' },
};

/** The purpose a name stands for (USAGE_PURPOSE_OF), else a Content-Usage category of its own. */
export function usagePurpose(name: string): UsagePurpose {
  return USAGE_PURPOSE_OF[name] ?? { usage: name, signal: null };
}

/** Which statement decided a purpose verdict (PURPOSE_SOURCES index: 0 none, 1 Content-Usage, 2 Content-Signal). */
export const PURPOSE_SOURCES: readonly (null | 'content-usage' | 'content-signal')[] = [null, 'content-usage', 'content-signal'];

/** One statement about a purpose, as mayUse weighs it. */
export interface PurposeStatement {
  source: 'content-usage' | 'content-signal' | 'header' | 'page';
  /** As stated: `train-ai=n`, `ai-train=no`. */
  statement: string;
  /** Its robots.txt line (null for the header and the page). */
  line: number | null;
  verdict: UsageVerdict;
}

/** One purpose's verdict for one URL and agent (RobotsTxt.mayUse, robotstxt usage --purpose). */
export interface PurposeAnswer {
  url: string;
  agent: string;
  purpose: string;
  /** The crawl verdict (the reference's): a URL the agent may not fetch gets no purpose verdict (unknown). */
  crawl: 'allowed' | 'disallowed';
  verdict: UsageVerdict;
  /** The statement that decided (null: none applies, or the crawl is disallowed). */
  decidedBy: PurposeStatement | null;
  /** Every statement about the purpose that applies to the URL, in the order weighed. */
  statements: PurposeStatement[];
  /** How they combine, for people. */
  rule: string;
}

/** How mayUse and check --usage combine a purpose's statements (the vocabularies: the more restrictive applies). */
export const PURPOSE_RULE = 'the more restrictive statement decides: n or no disallows; else y or yes allows; else unknown (Content-Usage first, then the header, then Content-Signal, then the page\'s own statements, at each level)';

/** What a page says of AI use in its robots meta tags or X-Robots-Tag (`noai`) and its content-signal meta tag (PageRules.ai). */
export interface PageAiStatements {
  noai: boolean;
  contentSignal: Readonly<Record<string, string>>;
}

/**
 * A page's own statements about a purpose: its content-signal meta tag's key for the purpose (yes / no), and
 * `noai`, read as refusing AI training and AI input (the convention names no finer scope: the more
 * restrictive reading). `noimageai` is about a page's images and is not weighed for the page. Per URL.
 */
function pageStatementsFor(purpose: UsagePurpose, page: PageAiStatements | null): PurposeStatement[] {
  if (page === null) return [];
  const statements: PurposeStatement[] = [];
  if (page.noai && (purpose.signal === 'ai-train' || purpose.signal === 'ai-input')) statements.push({ source: 'page', statement: 'noai', line: null, verdict: 'disallowed' });
  const signal = purpose.signal === null ? undefined : page.contentSignal[purpose.signal];
  if (signal === 'yes' || signal === 'no') statements.push({ source: 'page', statement: `content-signal ${purpose.signal}=${signal}`, line: null, verdict: signal === 'no' ? 'disallowed' : 'allowed' });
  return statements;
}

/** The policy product tokens asked about when the caller names none (the shared training token is added once its spelling is final). */
export const DEFAULT_POLICY_TOKENS: readonly string[] = ['Google-Extended', 'Applebot-Extended'];

/** A preference: allowed (`y`), disallowed (`n`), or unknown (nothing applicable says). */
export type UsageVerdict = 'allowed' | 'disallowed' | 'unknown';

/** A Content-Usage or Content-Signal line as the collector keeps it (OtherDirective). */
export interface UsageLine {
  readonly line: number;
  isKey(name: string): boolean;
  readonly rawValue: Uint8Array;
}

/** A Content-Usage value read: its path (null: none written) and its preferences, or why it cannot be used. */
export type ContentUsageValue =
  | { ok: true; path: string | null; preferences: Map<string, string>; stateNothing: string[] }
  | { ok: false; problem: string };

const latin1 = new TextDecoder('latin1');

/** Whether a text is a usage category key (an SF dictionary key): what check --usage takes. Once per run. */
export function isUsageCategory(text: string): boolean {
  return isDictionaryKey(text);
}

/**
 * A Content-Usage line's value: `[path] <dictionary>`. The dictionary is read as RFC 9651 reads one
 * (readStructuredDictionary, the one reader of the header and the line): a value that is not a dictionary fails
 * the whole line, as a Structured Field parse fails. Only tokens are kept as values; a key without a value (a
 * boolean) or with another kind of value states nothing. Called once per Content-Usage line.
 */
export function readContentUsage(value: string): ContentUsageValue {
  const text = value.trim();
  const space = text.search(/[ \t]/);
  const first = space < 0 ? text : text.slice(0, space);
  // a path starts with / or * (a key may start with * too: `*=n` and `*a, b=y` are dictionaries)
  const isPath = first.startsWith('/') || (first.startsWith('*') && !/[=,;]/.test(first));
  const dictionary = !isPath ? text : space < 0 ? '' : text.slice(space).trim();
  if (dictionary === '') return { ok: false, problem: 'no preferences (key=value, ...) given' };
  const read = readStructuredDictionary(dictionary);
  if (read.ok) return { ok: true, path: isPath ? first : null, ...preferencesOf(read.members) };
  if (!isPath && space >= 0 && first.includes('/')) return { ok: false, problem: `"${first}" is not a path (a path starts with "/" or "*")` };
  return { ok: false, problem: `not a Structured Field Dictionary (RFC 9651): ${read.problem}: the line is ignored` };
}

/**
 * category -> `y` | `n` (or another token as written) from an HTTP Content-Usage header value
 * (draft-ietf-aipref-attach: an RFC 9651 Dictionary, read as a robots.txt line's is). Members whose value is
 * not a token (booleans, strings, numbers, inner lists) state nothing. A value that is not a dictionary is
 * INVALID_ARGUMENT naming why: RFC 9651 says such a field is ignored, and the caller decides whether to. What
 * it gives is what RobotsTxt.usage takes as `header`. Called once per response (or per --header).
 */
export function parseContentUsageHeader(value: string): Map<string, string> {
  const read = readStructuredDictionary(value);
  if (!read.ok) throw new RobotsError('INVALID_ARGUMENT', `Content-Usage header "${value}" is not a Structured Field Dictionary (RFC 9651): ${read.problem}`);
  return preferencesOf(read.members).preferences;
}

/** A dictionary's tokens (category -> token), and the members that state nothing, worded for lint. */
function preferencesOf(members: ReadonlyMap<string, StructuredMember>): { preferences: Map<string, string>; stateNothing: string[] } {
  const preferences = new Map<string, string>();
  const stateNothing: string[] = [];
  for (const [key, member] of members) {
    const token = member.kind === 'item' && member.item.kind === 'token' ? member.item.value : null;
    if (token !== null) preferences.set(key, token);
    // a boolean member, a string, a number, an inner list: not a vocabulary value (y or n)
    if (token !== 'y' && token !== 'n') {
      const written = member.kind === 'item' ? member.item.text : member.text;
      stateNothing.push(`${written === '' ? key : `${key}=${written}`}: the value must be y or n`);
    }
  }
  return { preferences, stateNothing };
}

/** A Content-Signal line's members as written: key (lower case) -> value, and the members that are not key=value. */
export function readContentSignal(value: string): { values: Map<string, string>; invalid: string[] } {
  const values = new Map<string, string>();
  const invalid: string[] = [];
  for (const member of value.split(',')) {
    const text = member.trim();
    if (text === '') continue;
    const equals = text.indexOf('=');
    if (equals <= 0) { invalid.push(text); continue; }
    values.set(text.slice(0, equals).trim().toLowerCase(), text.slice(equals + 1).trim());
  }
  return { values, invalid };
}

/**
 * The value a Content-Signal key holds once one more statement of it is read (several lines of robots.txt,
 * several content-signal meta tags of a page): for search, ai-input and ai-train only yes and no count (any
 * case; null: this statement is not taken) and no wins over yes; other keys keep the first value stated.
 * The one rule for both sources. Per statement.
 */
export function contentSignalAfter(before: string | undefined, key: string, value: string): string | null {
  if (!CONTENT_SIGNAL_KEYS.includes(key)) return before ?? value;
  const normal = value.toLowerCase();
  if (normal !== 'yes' && normal !== 'no') return null;
  return before === 'no' ? 'no' : normal;
}

/** What lint says of a Content-Usage value: why it cannot be used, or what in it states nothing (empty: nothing). */
export function contentUsageProblems(value: string): string[] {
  const read = readContentUsage(value);
  return read.ok ? read.stateNothing : [read.problem];
}

/** What lint says of a Content-Signal value: members that are not key=value, values other than yes or no, keys it does not know (kept as written). */
export function contentSignalProblems(value: string): { severity: 'warning' | 'info'; message: string }[] {
  const { values, invalid } = readContentSignal(value);
  const problems: { severity: 'warning' | 'info'; message: string }[] = [];
  if (values.size === 0 && invalid.length === 0) problems.push({ severity: 'warning', message: 'no signals (key=value, ...) given' });
  for (const member of invalid) problems.push({ severity: 'warning', message: `"${member}" is not key=value` });
  for (const [key, given] of values) {
    if (!CONTENT_SIGNAL_KEYS.includes(key)) problems.push({ severity: 'info', message: `"${key}" is not one of ${CONTENT_SIGNAL_KEYS.join(', ')}: reported as written` });
    else if (given.toLowerCase() !== 'yes' && given.toLowerCase() !== 'no') problems.push({ severity: 'warning', message: `${key}=${given}: the value must be yes or no` });
  }
  return problems;
}

/** y -> allowed, n -> disallowed, anything else -> null (states nothing). */
function preferenceVerdict(value: string | undefined): 'allowed' | 'disallowed' | null {
  return value === 'y' ? 'allowed' : value === 'n' ? 'disallowed' : null;
}

/** Two statements of one category combined: disallowed over allowed over unknown. */
export function combineUsage(a: UsageVerdict, b: UsageVerdict): UsageVerdict {
  return a === 'disallowed' || b === 'disallowed' ? 'disallowed' : a === 'allowed' || b === 'allowed' ? 'allowed' : 'unknown';
}

/** A Content-Usage rule after identical paths are combined: its path, the lines that state it, its preferences. */
export interface UsageRule {
  path: string;
  lines: number[];
  preferences: Map<string, string>;
}

/** What decided one category for one URL. */
export type UsageDecider = 'robots.txt' | 'header' | 'both' | 'crawl-disallowed' | 'none';

/** The answer of RobotsTxt.usage for one URL and agent. */
export interface UsageAnswer {
  url: string;
  agent: string;
  /** The crawl verdict: the reference's, unchanged by anything below. */
  crawl: 'allowed' | 'disallowed';
  /** Each defined category and each category the file or header states for this agent. */
  usage: Record<string, UsageVerdict>;
  /** Content-Signal values that apply to this agent, as written (only keys stated for it). */
  contentSignal: Record<string, string>;
  /** Each policy token's crawl verdict for this URL. */
  tokens: Record<string, 'allowed' | 'disallowed'>;
  /** Whether a group naming the token decided, the `*` groups, or no group (allowed). */
  tokenGroups: Record<string, 'named' | '*' | 'none'>;
  /** What decided each category. */
  decidedBy: Record<string, UsageDecider>;
  /** RSL `License:` lines (the URL of the site's licence terms, and the line): reported, never judged. */
  licenses: { url: string; line: number }[];
  /** The deciding lines: of the crawl verdict, of each category's Content-Usage rule, of each signal, of each token's verdict (null: no rule). */
  lines: { crawl: number | null; usage: Record<string, number[]>; contentSignal: Record<string, number[]>; tokens: Record<string, number | null> };
}

/** What a usage policy needs of its robots.txt (RobotsTxt gives it). */
export interface UsageSource {
  readonly rfc: boolean;
  /** The lines of the groups the agent query gets. */
  groupLines: readonly UsageLine[];
  /** The lines before the first user-agent line. */
  fileWideLines: readonly UsageLine[];
  /** RSL `License:` lines (Really Simple Licensing: the URL of the site's licence terms), wherever they stand. */
  licenses?: readonly { url: string; line: number }[];
  /** The agent query's crawl matcher (asked each time: one the caller closed is made again). */
  crawl(): RobotsMatcher;
  /** A policy token's matcher and whether a group names it / whether any group applies to it. */
  token(token: string): { matcher: RobotsMatcher; named: boolean; grouped: boolean };
}

/** The options of RobotsTxt.usage. */
export interface UsageOptions {
  /** Policy product tokens to answer (default DEFAULT_POLICY_TOKENS). */
  tokens?: readonly string[];
  /** A parsed HTTP Content-Usage header (parseContentUsageHeader): category -> y | n. */
  header?: ReadonlyMap<string, string> | Readonly<Record<string, string>> | null;
}

/**
 * The usage preferences of one robots.txt for one agent query: its Content-Usage rules compiled into a
 * matcher of their paths (one Disallow per distinct path, so that the longest match names the deciding rule
 * and no Google-only index.html rule is derived), its Content-Signal values, and its crawl matcher. Made once
 * per agent query (RobotsTxt keeps it), then asked per URL or per batch.
 */
export class UsagePolicy {
  readonly rules: readonly UsageRule[];
  private readonly paths: RobotsMatcher | null;
  /** Content-Signal key -> value and the lines that stated it, for this agent. */
  readonly signals: ReadonlyMap<string, { value: string; lines: number[] }>;
  /** Every category a rule of this agent's groups states. */
  readonly statedCategories: readonly string[];

  constructor(private readonly source: UsageSource) {
    // rules are one rule when their paths are one pattern as the matcher reads them ("/ä" and "/%c3%a4" are
    // "/%C3%A4"): the first spelling is shown
    const byPath = new Map<string, UsageRule>();
    for (const line of source.groupLines) {
      if (!line.isKey('content-usage')) continue;
      const read = readContentUsage(latin1.decode(line.rawValue));
      if (!read.ok) continue;
      const path = read.path ?? '/';
      const matched = latin1.decode(core().urls.normalizePattern(byteValues(path), source.rfc ? FLAG_RFC_MODE : 0));
      let rule = byPath.get(matched);
      if (rule === undefined) byPath.set(matched, rule = { path, lines: [], preferences: new Map() });
      rule.lines.push(line.line);
      for (const [key, value] of read.preferences) {
        const before = rule.preferences.get(key);
        // identical paths combine: n over y; a value that is neither stays only if nothing else is stated
        if (before === undefined || value === 'n' || (before !== 'n' && value === 'y')) rule.preferences.set(key, value);
      }
    }
    this.rules = [...byPath.values()];
    this.statedCategories = [...new Set(this.rules.flatMap((rule) => [...rule.preferences.keys()]))];
    this.paths = this.rules.length === 0 ? null : pathsMatcher(this.rules.map((rule) => rule.path), source.rfc);
    this.signals = contentSignals(source.groupLines, source.fileWideLines);
  }

  /** The Content-Usage rule that decides for a URL the agent may fetch (longest matching path), or null. Per URL. */
  ruleFor(url: string | URL | Uint8Array): UsageRule | null {
    if (this.paths === null) return null;
    const rule = this.paths.explain(url).rule;
    return rule === null ? null : this.rules[rule.line - PATHS_FIRST_LINE];
  }

  /** Everything usage says of one URL. Per URL; for many, usageLines. */
  answer(url: string | URL | Uint8Array, agent: string, options: UsageOptions = {}): UsageAnswer {
    const shown = typeof url === 'string' ? url : url instanceof URL ? url.href : latin1.decode(url);
    const crawlExplained = this.source.crawl().explain(url);
    const crawl = crawlExplained.allowed ? 'allowed' : 'disallowed';
    const header = headerMap(options.header);
    const rule = crawl === 'allowed' ? this.ruleFor(url) : null;
    const categories = [...new Set([...REPORTED_CATEGORIES, ...this.statedCategories, ...header.keys()])];
    const usage: Record<string, UsageVerdict> = {};
    const decidedBy: Record<string, UsageDecider> = {};
    const usageLines: Record<string, number[]> = {};
    for (const category of categories) {
      if (crawl === 'disallowed') {
        usage[category] = 'unknown';
        decidedBy[category] = 'crawl-disallowed';
        usageLines[category] = [];
        continue;
      }
      const fromFile = preferenceVerdict(rule?.preferences.get(category));
      const fromHeader = preferenceVerdict(header.get(category));
      usage[category] = combineUsage(fromFile ?? 'unknown', fromHeader ?? 'unknown');
      decidedBy[category] = deciderOf(usage[category], fromFile, fromHeader);
      usageLines[category] = fromFile !== null && decidedBy[category] !== 'header' ? [...(rule as UsageRule).lines] : [];
    }
    const contentSignal: Record<string, string> = {};
    const signalLines: Record<string, number[]> = {};
    for (const [key, { value, lines }] of this.signals) {
      contentSignal[key] = value;
      signalLines[key] = [...lines];
    }
    const tokens: Record<string, 'allowed' | 'disallowed'> = {};
    const tokenGroups: Record<string, 'named' | '*' | 'none'> = {};
    const tokenLines: Record<string, number | null> = {};
    for (const token of options.tokens ?? DEFAULT_POLICY_TOKENS) {
      const { matcher, named, grouped } = this.source.token(token);
      const explained = matcher.explain(url);
      tokens[token] = explained.allowed ? 'allowed' : 'disallowed';
      tokenGroups[token] = named ? 'named' : grouped ? '*' : 'none';
      tokenLines[token] = explained.rule?.line ?? null;
    }
    return {
      url: shown, agent, crawl, usage, contentSignal, tokens, tokenGroups, decidedBy, licenses: (this.source.licenses ?? []).map((license) => ({ ...license })),
      lines: { crawl: crawlExplained.rule?.line ?? null, usage: usageLines, contentSignal: signalLines, tokens: tokenLines },
    };
  }

  /**
   * One category for newline-separated URL bytes (as checkLines reads them), one call of each matcher per
   * batch: per line the crawl verdict byte, the category's verdict (USAGE_UNKNOWN, USAGE_ALLOWED,
   * USAGE_DISALLOWED) and the first line of the deciding Content-Usage rule (0: none). `robotstxt check --usage`.
   */
  usageLines(lines: Uint8Array, category: string): { crawl: Uint8Array; usage: Uint8Array; lines: Uint32Array } {
    const crawl = this.source.crawl().checkLines(lines);
    return { crawl, ...this.usageOfCrawled(lines, category, crawl) };
  }

  /**
   * usageLines for lines whose crawl verdicts the caller has already (check --usage gets them with its
   * formatted output): one call of the path matcher for the batch.
   */
  usageOfCrawled(lines: Uint8Array, category: string, crawl: Uint8Array): { usage: Uint8Array; lines: Uint32Array } {
    const usage = new Uint8Array(crawl.length);
    const ruleLines = new Uint32Array(crawl.length);
    if (this.paths === null) return { usage, lines: ruleLines };
    const codes = this.rules.map((rule) => usageCode(rule.preferences.get(category)));
    const decided = this.paths.explainLines(lines).lines;
    for (let i = 0; i < crawl.length; i++) {
      const line = decided[i];
      if (crawl[i] !== VERDICT_ALLOWED || line === 0) continue;
      const index = line - PATHS_FIRST_LINE;
      usage[i] = codes[index];
      if (codes[index] !== USAGE_UNKNOWN) ruleLines[i] = this.rules[index].lines[0];
    }
    return { usage, lines: ruleLines };
  }

  /**
   * One verdict per line for a purpose (usagePurpose): its Content-Usage category's verdict (the rule with the
   * longest matching path) and its Content-Signal value for the agent, the more restrictive winning: n or no
   * is disallowed; else y or yes is allowed; else unknown (always unknown where the crawl is disallowed). Per
   * line, the first line of the deciding statement and which one decided (PURPOSE_SOURCES). check --usage and
   * audit answer from it, so they cannot disagree. One call of the path matcher per batch.
   */
  purposeOfCrawled(lines: Uint8Array, purpose: UsagePurpose, crawl: Uint8Array): { usage: Uint8Array; lines: Uint32Array; sources: Uint8Array } {
    // a category no rule states answers unknown everywhere: no call of the path matcher for it
    const { usage, lines: ruleLines } = purpose.usage === null || !this.statedCategories.includes(purpose.usage) ? { usage: new Uint8Array(crawl.length), lines: new Uint32Array(crawl.length) } : this.usageOfCrawled(lines, purpose.usage, crawl);
    const sources = new Uint8Array(crawl.length);
    const signal = purpose.signal === null ? undefined : this.signals.get(purpose.signal);
    const signalCode = signal === undefined ? USAGE_UNKNOWN : signal.value === 'no' ? USAGE_DISALLOWED : signal.value === 'yes' ? USAGE_ALLOWED : USAGE_UNKNOWN;
    for (let i = 0; i < crawl.length; i++) {
      if (crawl[i] !== VERDICT_ALLOWED) continue;
      if (usage[i] === USAGE_DISALLOWED) sources[i] = 1;
      else if (signalCode === USAGE_DISALLOWED || (usage[i] === USAGE_UNKNOWN && signalCode === USAGE_ALLOWED)) {
        usage[i] = signalCode;
        ruleLines[i] = (signal as { lines: number[] }).lines[0];
        sources[i] = 2;
      } else if (usage[i] === USAGE_ALLOWED) sources[i] = 1;
    }
    return { usage, lines: ruleLines, sources };
  }

  /**
   * One purpose's verdict for one URL (usagePurpose's name: train-ai, search, ai-input, or a Content-Usage
   * category): its Content-Usage rule (longest matching path), the HTTP Content-Usage header (a parsed one,
   * category -> y | n) and its Content-Signal key, combined as PURPOSE_RULE says, with each statement. The same
   * combination as purposeOfCrawled (check --usage, audit), plus the header and the page's own statements
   * (pageRules(...).ai: noai, the content-signal meta tag), when given. Per URL.
   */
  mayUse(url: string | URL | Uint8Array, agent: string, purposeName: string, header: UsageOptions['header'] = null, page: PageAiStatements | null = null): PurposeAnswer {
    const shown = typeof url === 'string' ? url : url instanceof URL ? url.href : latin1.decode(url);
    const purpose = usagePurpose(purposeName);
    const crawl = this.source.crawl().explain(url).allowed ? 'allowed' : 'disallowed';
    const statements: PurposeStatement[] = [];
    if (crawl === 'allowed') {
      const rule = purpose.usage === null ? null : this.ruleFor(url);
      const ruleValue = purpose.usage === null ? undefined : rule?.preferences.get(purpose.usage);
      if (rule !== null && ruleValue !== undefined && preferenceVerdict(ruleValue) !== null) statements.push({ source: 'content-usage', statement: `${purpose.usage}=${ruleValue}`, line: rule.lines[0], verdict: preferenceVerdict(ruleValue) as UsageVerdict });
      const headerValue = purpose.usage === null ? undefined : headerMap(header).get(purpose.usage);
      if (headerValue !== undefined && preferenceVerdict(headerValue) !== null) statements.push({ source: 'header', statement: `${purpose.usage}=${headerValue}`, line: null, verdict: preferenceVerdict(headerValue) as UsageVerdict });
      const signal = purpose.signal === null ? undefined : this.signals.get(purpose.signal);
      if (signal !== undefined && (signal.value === 'yes' || signal.value === 'no')) statements.push({ source: 'content-signal', statement: `${purpose.signal}=${signal.value}`, line: signal.lines[0], verdict: signal.value === 'no' ? 'disallowed' : 'allowed' });
      statements.push(...pageStatementsFor(purpose, page));
    }
    const decidedBy = statements.find((statement) => statement.verdict === 'disallowed') ?? statements.find((statement) => statement.verdict === 'allowed') ?? null;
    return { url: shown, agent, purpose: purposeName, crawl, verdict: decidedBy?.verdict ?? 'unknown', decidedBy, statements, rule: PURPOSE_RULE };
  }

  /** Gives back the path matcher's WebAssembly memory. RobotsTxt.close() calls it. */
  close(): void {
    this.paths?.close();
  }
}

/** Codes of usageLines: nothing says, y, n. */
export const USAGE_UNKNOWN = 0;
export const USAGE_ALLOWED = 1;
export const USAGE_DISALLOWED = 2;
/** The words of the codes, by code. */
export const USAGE_WORDS: readonly UsageVerdict[] = ['unknown', 'allowed', 'disallowed'];

function usageCode(value: string | undefined): number {
  return value === 'y' ? USAGE_ALLOWED : value === 'n' ? USAGE_DISALLOWED : USAGE_UNKNOWN;
}

function deciderOf(result: UsageVerdict, fromFile: string | null, fromHeader: string | null): UsageDecider {
  if (result === 'unknown') return 'none';
  const file = fromFile === result;
  const header = fromHeader === result;
  return file && header ? 'both' : file ? 'robots.txt' : 'header';
}

function headerMap(header: UsageOptions['header']): ReadonlyMap<string, string> {
  if (header === undefined || header === null) return new Map();
  return header instanceof Map ? header : new Map(Object.entries(header));
}


/** The Content-Signal values for an agent: its groups' lines decide the keys they state, file-wide lines the rest. */
function contentSignals(groupLines: readonly UsageLine[], fileWideLines: readonly UsageLine[]): Map<string, { value: string; lines: number[] }> {
  const signals = new Map<string, { value: string; lines: number[] }>();
  const scope = (lines: readonly UsageLine[]): Map<string, { value: string; lines: number[] }> => {
    const stated = new Map<string, { value: string; lines: number[] }>();
    for (const line of lines) {
      if (!line.isKey('content-signal')) continue;
      for (const [key, value] of readContentSignal(latin1.decode(line.rawValue)).values) {
        const before = stated.get(key);
        const after = contentSignalAfter(before?.value, key, value);
        if (after === null) continue; // lint reports it
        if (before === undefined) stated.set(key, { value: after, lines: [line.line] });
        else {
          before.lines.push(line.line);
          before.value = after;
        }
      }
    }
    return stated;
  };
  for (const [key, stated] of scope(fileWideLines)) signals.set(key, stated);
  for (const [key, stated] of scope(groupLines)) signals.set(key, stated);
  return signals;
}
