// robotstxt usage's plan: what a run will do, read off its parsed values alone (nothing read). The handler
// (usage-command.ts) opens what it names; test/command-plans.test.ts tests it.
import { usageError, type ParsedCommand } from './command-spec.js';
import { headerOptionValue, readingOf, readingGivenOf } from './shared-options.js';
import { DEFAULT_POLICY_TOKENS, parseContentUsageHeader } from '../core/usage.js';
import { RobotsError } from '../core/errors.js';
import type { RobotsReading } from '../core/robots.js';
import type { USAGE_SPEC } from './usage-command.js';

/** What one run of usage does, read off its options. */
export interface UsagePlan {
  /** One robots.txt for every URL, or a pack by origin (its reading the pack's unless --mode or --max-bytes was given). */
  rules: { kind: 'file'; path: string } | { kind: 'pack'; file: string; given: ReadonlySet<string> };
  reading: RobotsReading;
  urls: string[];
  agent: string;
  /** --header: the Content-Usage header of the response, read (null: none). */
  header: Map<string, string> | null;
  tokens: string[];
  purposes: string[];
  /** --page-header and --page-html: the page's headers (read) and HTML file (null: neither given). */
  page: { headers: [string, string][]; htmlFile: string | null } | null;
  format: 'text' | 'json';
}

/** The plan of a usage run from its parsed arguments. Pure: every refusal comes before a file is read. Once per run. */
export function planUsage(parsed: ParsedCommand<(typeof USAGE_SPEC)['options']>): UsagePlan {
  const { values, positionals, given } = parsed;
  if (values.pack === undefined && positionals.length < 2) throw usageError(usagePositionalsError(positionals.length));
  const urls = values.pack === undefined ? positionals.slice(1) : positionals;
  const agent = values.agent;
  if (agent.trim() === '') throw usageError("--agent must name a crawler (a product token such as GPTBot), got ''");
  let header: Map<string, string> | null = null;
  if (values.header !== undefined) {
    try {
      header = parseContentUsageHeader(values.header);
    } catch (error) {
      if (error instanceof RobotsError) throw usageError(`--header: ${error.message}`);
      throw error;
    }
  }
  let page: UsagePlan['page'] = null;
  if (values['page-header'].length > 0 || values['page-html'] !== undefined) {
    if (urls.length !== 1) throw usageError(`--page-header and --page-html describe one page: give one <url>, got ${urls.length}`);
    const headers = values['page-header'].map((line) => headerOptionValue('--page-header', line));
    page = { headers, htmlFile: values['page-html'] ?? null };
  }
  return {
    rules: values.pack === undefined ? { kind: 'file', path: positionals[0] } : { kind: 'pack', file: values.pack, given: readingGivenOf(given) },
    reading: readingOf(values), urls, agent, header, tokens: values.token.length > 0 ? values.token : [...DEFAULT_POLICY_TOKENS], purposes: values.purpose, page, format: values.format,
  };
}

/** The error of too few positionals: usage's spec says it, and the plan when a file but no URL is given. */
export function usagePositionalsError(count: number, given?: ReadonlySet<string>): string {
  return (given?.has('pack') === true ? `usage --pack needs at least one <url>, got ${count}` : `usage needs a <robots-file> and at least one <url>, got ${count} argument(s)`) + ' (see robotstxt usage --help)';
}
