// Pages in bulk, for robotstxt pages: each page of a crawl judged with the robots.txt of its origin (its
// answer as robotstxt page gives it, and its traps: src/core/page-traps.ts), and a summary that counts the
// traps. Per page: one robots.txt look-up, one verdict, one read of its head.
import { PAGE_TRAPS, type PageTrapKind } from '../../core/page-traps.js';
import { originOf } from '../../core/url-model.js';
import { terminalSafe } from '../../core/terminal.js';
import { answerPage, pageReportJson, type PageReport } from './page.js';
import type { PageRobots, OriginRobots } from './page-robots.js';
import type { CrawledPage, CrawlRecord } from './crawl-input.js';

/** One page's answer in bulk: robotstxt page's, with where it was read, its traps and how its robots.txt was found. */
export interface PagesAnswer extends PageReport {
  /** The input it was read from (`-`: standard input) and its line or record number there. */
  file: string;
  input: number;
  /** The page's origin as the URL model reads it (`https://example.com`), read once per page. */
  origin: string;
  robots: OriginRobots['found'];
}

/** A page's answer for the crawler, with its traps. Per page. */
export async function answerCrawledPage(page: CrawledPage, file: string, robotsOf: PageRobots, options: { agent: string; nowMs: number; headBytes?: number }): Promise<PagesAnswer> {
  const origin = originOf(page.url);
  if (origin === null) throw new Error(`a page without an origin reached the judge: ${page.url}`); // readCrawl gives none
  const found = await robotsOf.forOrigin(origin);
  const crawlAllowed = found.robots.matcher(options.agent).isAllowed(page.url);
  const report = answerPage({ url: page.url, agent: options.agent, crawlAllowed, robotsNoindex: found.noindex.lineFor(page.url), headers: page.headers, html: page.html, nowMs: options.nowMs, headBytes: options.headBytes, status: page.status });
  return { file, input: page.input, ...report, origin: origin.origin, robots: found.found };
}

/** A page's JSON line (robotstxt page's fields, with file, input, robots and traps). Per page. */
export function pagesAnswerJson(answer: PagesAnswer): Record<string, unknown> {
  return { file: answer.file, input: answer.input, ...pageReportJson(answer), robots: answer.robots };
}

/** A page's text line: crawl, seen, indexable, its HTTP status (- when not known), its traps, its URL (tab-separated). Per page. */
export function pagesAnswerText(answer: PagesAnswer): string {
  const traps = answer.traps.length === 0 ? '-' : [...new Set(answer.traps.map((trap) => trap.trap))].join(',');
  return `${answer.crawl}\t${answer.seen ? 'seen' : 'unseen'}\t${answer.indexable ? 'indexable' : 'not-indexable'}\t${answer.status ?? '-'}\t${traps}\t${terminalSafe(answer.url)}`;
}

/** How many examples the summary keeps of each trap and of unread records. */
const EXAMPLES = 5;

/** What robotstxt pages counted: pages, verdicts and traps, with the first examples of each. */
export interface PagesSummaryJson {
  agent: string;
  now: string;
  records: number;
  pages: number;
  unread: { count: number; examples: { file: string; input: number | null; error: string }[] };
  skipped: Record<string, number>;
  crawl: { allowed: number; disallowed: number };
  indexable: number;
  notIndexable: number;
  /** Crawled pages by what their HTTP status means (pageResponseOf): unknown, content, redirect, client-error, ... */
  responses: Record<string, number>;
  traps: Record<PageTrapKind, { pages: number; examples: { url: string; text: string }[] }>;
  origins: { count: number; withoutRobots: number };
}

/** The summary of a pages run: told each record once, in order; rendered once at the end. */
export class PagesSummary {
  private records = 0;
  private pages = 0;
  private unreadCount = 0;
  private readonly unreadExamples: { file: string; input: number | null; error: string }[] = [];
  private readonly skipped = new Map<string, number>();
  private allowed = 0;
  private indexable = 0;
  private readonly traps = new Map<PageTrapKind, { pages: number; examples: { url: string; text: string }[] }>(PAGE_TRAPS.map((trap) => [trap, { pages: 0, examples: [] }]));
  private readonly origins = new Set<string>();
  private readonly responses = new Map<string, number>();

  constructor(private readonly agent: string, private readonly nowMs: number) {}

  /** Counts a record that is no page or could not be read. */
  addRecord(record: Exclude<CrawlRecord, CrawledPage>, file: string): void {
    this.records++;
    if (record.kind === 'skipped') this.skipped.set(record.type, (this.skipped.get(record.type) ?? 0) + 1);
    else {
      this.unreadCount++;
      if (this.unreadExamples.length < EXAMPLES) this.unreadExamples.push({ file, input: record.input, error: record.error });
    }
  }

  /** Counts a page's answer. */
  addAnswer(answer: PagesAnswer): void {
    this.records++;
    this.pages++;
    if (answer.crawl === 'allowed') this.allowed++;
    if (answer.indexable) this.indexable++;
    if (answer.seen) this.responses.set(answer.response, (this.responses.get(answer.response) ?? 0) + 1);
    if (this.origins.size < 1_000_000) this.origins.add(answer.origin);
    const counted = new Set<PageTrapKind>();
    for (const trap of answer.traps) {
      const tally = this.traps.get(trap.trap) as { pages: number; examples: { url: string; text: string }[] };
      if (!counted.has(trap.trap)) tally.pages++;
      counted.add(trap.trap);
      if (tally.examples.length < EXAMPLES) tally.examples.push({ url: answer.url, text: trap.text });
    }
  }

  /** True when some record could not be read (the command then exits 1). */
  get hasUnread(): boolean {
    return this.unreadCount > 0;
  }

  /** The summary as JSON (--summary-json). withoutRobots: origins a folder or store knew nothing of. */
  toJson(withoutRobots: number): PagesSummaryJson {
    return {
      agent: this.agent, now: new Date(this.nowMs).toISOString(), records: this.records, pages: this.pages,
      unread: { count: this.unreadCount, examples: this.unreadExamples },
      skipped: Object.fromEntries(this.skipped),
      crawl: { allowed: this.allowed, disallowed: this.pages - this.allowed },
      indexable: this.indexable, notIndexable: this.pages - this.indexable,
      responses: Object.fromEntries(this.responses),
      traps: Object.fromEntries(this.traps) as PagesSummaryJson['traps'],
      origins: { count: this.origins.size, withoutRobots },
    };
  }

  /** The summary for people (stderr at the end of robotstxt pages). */
  toText(withoutRobots: number): string {
    const json = this.toJson(withoutRobots);
    const skipped = Object.entries(json.skipped).map(([type, count]) => `${count} ${type}`).join(', ');
    const lines = [
      `pages: ${json.pages} judged for ${terminalSafe(json.agent)} from ${json.records} records${json.unread.count === 0 ? '' : `, ${json.unread.count} unread`}${skipped === '' ? '' : ` (not pages: ${terminalSafe(skipped)})`}`,
      `crawl: ${json.crawl.allowed} allowed, ${json.crawl.disallowed} disallowed; ${json.indexable} indexable, ${json.notIndexable} not; ${plural(json.origins.count, 'origin')}${withoutRobots === 0 ? '' : `, ${withoutRobots} without robots.txt known (allowed)`}`,
      ...(Object.keys(json.responses).every((kind) => kind === 'unknown' || kind === 'content') ? [] : [`responses of the crawled pages: ${Object.entries(json.responses).map(([kind, count]) => `${count} ${kind}`).join(', ')} (only content is indexed: a redirect is not the page, 4xx and 5xx are not indexed)`]),
      'traps:',
    ];
    for (const trap of PAGE_TRAPS) {
      const tally = json.traps[trap];
      lines.push(`  ${trap.padEnd(24)}${String(tally.pages).padStart(8)} ${tally.pages === 1 ? 'page ' : 'pages'}  ${TRAP_MEANING[trap]}`);
      for (const example of tally.examples) lines.push(`    ${terminalSafe(example.url)}  ${terminalSafe(example.text)}`);
    }
    for (const example of json.unread.examples) lines.push(`unread: ${terminalSafe(example.file)}: ${terminalSafe(example.error)}`);
    return `${lines.join('\n')}\n`;
  }
}

/** `1 origin`, `2 origins`. */
function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** What each trap means, in the summary. */
const TRAP_MEANING: Readonly<Record<PageTrapKind, string>> = {
  'noindex-unseen': 'robots.txt disallows them, so their noindex is never seen (they may be indexed from links)',
  conflict: 'rules that contradict each other (the more restrictive applies)',
  'unavailable-after-past': 'an unavailable_after date that has passed (out of search)',
  'meta-outside-head': 'a robots meta tag outside <head> (not read)',
  'noindex-in-robots-txt': 'a Noindex: line of robots.txt matches them (not read since 2019)',
};
