// robotstxt page's plan: what a run will do, read off its parsed values alone (nothing read, nothing fetched).
// The handler (page-command.ts) opens what it names; test/command-plans.test.ts tests it.
import { usageError, wholeNumber, type ParsedCommand } from './command-spec.js';
import { headerOptionValue, readingOf, readingGivenOf } from './shared-options.js';
import type { FetchTargets } from '../core/fetch-rules.js';
import { clockOption } from './fetch-options.js';
import type { RobotsReading } from '../core/robots.js';
import { originOf, type UrlOrigin } from '../core/url-model.js';
import type { PAGE_SPEC } from './page-command.js';

/** What one run of page does, read off its options. */
export interface PagePlan {
  url: string;
  origin: UrlOrigin;
  agent: string;
  /** Where the page's robots.txt comes from: a file, a store, a pack, or fetched from its origin. */
  rules: { kind: 'file'; path: string } | { kind: 'store'; directory: string } | { kind: 'pack'; file: string; given: ReadonlySet<string> } | { kind: 'fetch' };
  reading: RobotsReading;
  /** The page as given (--status, --header, --html), or fetched (--fetch). */
  page: { kind: 'given'; status: number | null; headers: [string, string][]; htmlFile: string | null } | { kind: 'fetch' };
  /** How robots.txt files and pages are fetched (--timeout-ms, --user-agent, --targets). */
  fetching: { timeoutMs: number; userAgent: string | null; targets: FetchTargets };
  /** --now (ms), or null: the time of the run. */
  nowMs: number | null;
  format: 'text' | 'json';
}

/** The plan of a page run from its parsed arguments. Pure: every refusal comes before a file is read or a page fetched. Once per run. */
export function planPage(parsed: ParsedCommand<(typeof PAGE_SPEC)['options']>): PagePlan {
  const { values, positionals, given } = parsed;
  const url = positionals[0];
  const origin = originOf(url);
  if (origin === null) throw usageError(`'${url}' is no http:// or https:// URL`);
  const agents = values.agent;
  if (agents.length !== 1) throw usageError(`--agent names one crawler for page, got ${agents.length}`);
  const headers = values.header.map((text) => headerOptionValue('--header', text));
  const status = values.status === undefined ? null : wholeNumber('status', values.status, { fallback: 200, min: 100, max: 999 });
  if (values.fetch && (values.header.length > 0 || values.html !== undefined || values.status !== undefined)) throw usageError('--fetch reads the page\'s own status, headers and HTML: --status, --header and --html apply without it');
  const rules: PagePlan['rules'] = values.robots !== undefined ? { kind: 'file', path: values.robots } : values.store !== undefined ? { kind: 'store', directory: values.store } : values.pack !== undefined ? { kind: 'pack', file: values.pack, given: readingGivenOf(given) } : { kind: 'fetch' };
  return {
    url, origin, agent: agents[0], rules, reading: readingOf(values),
    page: values.fetch ? { kind: 'fetch' } : { kind: 'given', status, headers, htmlFile: values.html ?? null },
    fetching: { timeoutMs: values['timeout-ms'], userAgent: values['user-agent'] ?? null, targets: values.targets as FetchTargets },
    nowMs: values.now === undefined ? null : clockOption(values.now).start,
    format: values.format,
  };
}
