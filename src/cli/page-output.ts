// What robotstxt page prints as text: one line per field of the page's report, then the statements that decided.
import type { PageReport } from '../node/page/index.js';
import { terminalSafe } from '../core/terminal.js';
/** The text answer: one line per field, then the statements that decided. */
export function pageText(report: PageReport): string {
  const yes = (flag: boolean): string => (flag ? 'yes' : 'no');
  const field = (label: string, value: string): string => `${label.padEnd(16)}${value}`;
  const lines = [
    `${terminalSafe(report.url)} for ${terminalSafe(report.agent)}: ${report.note}`,
    field('crawl', report.crawl),
    field('seen', yes(report.seen)),
    ...(report.status === null ? [] : [field('status', `${report.status} (${report.response})`)]),
    field('index', `${yes(report.index)}${report.unavailableAfter === null ? '' : ` (unavailable after ${report.unavailableAfter})`}`),
    field('follow', yes(report.follow)),
    field('snippet', report.snippet.allowed ? (report.snippet.maxChars === null ? 'yes' : `yes, at most ${report.snippet.maxChars} characters`) : 'no'),
    field('image index', yes(report.imageIndex)),
    ...(report.imagePreview === null ? [] : [field('image preview', report.imagePreview)]),
    ...(report.videoPreview === null ? [] : [field('video preview', `${report.videoPreview} s`)]),
    ...(report.translate ? [] : [field('translate', 'no')]),
    ...(report.indexIfEmbedded ? [field('indexifembedded', 'yes')] : []),
    ...(report.ai.noai || report.ai.noimageai ? [field('ai', [report.ai.noai ? 'noai' : '', report.ai.noimageai ? 'noimageai' : ''].filter((word) => word !== '').join(', '))] : []),
    ...Object.entries(report.ai.contentSignal).map(([key, value]) => field('content-signal', `${terminalSafe(key)}=${terminalSafe(value)}`)),
    ...report.traps.map((trap) => field('trap', `${trap.trap}: ${terminalSafe(trap.text)}`)),
  ];
  if (report.seen) {
    // each header line or meta tag once, with the rules it gave this crawler
    const byText = new Map<string, { source: string; rules: string[]; unknown: string[] }>();
    const entry = (rule: PageReport['rules'][number]): { source: string; rules: string[]; unknown: string[] } => byText.get(rule.text) ?? byText.set(rule.text, { source: rule.source, rules: [], unknown: [] }).get(rule.text) as { source: string; rules: string[]; unknown: string[] };
    for (const rule of report.rules) entry(rule).rules.push(rule.rule);
    for (const rule of report.unknown) entry(rule).unknown.push(rule.rule);
    for (const [text, { source, rules, unknown }] of byText) {
      const read = [...rules, ...unknown.map((rule) => `${rule}: not read`)].join(', ');
      lines.push(`  ${source} ${terminalSafe(text)}  (${terminalSafe(read)})`);
    }
  }
  return `${lines.join('\n')}\n`;
}

