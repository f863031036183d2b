// What robotstxt diff writes: the text report (what flipped, by deciding rule and URL) and the JSON report
// written a field at a time (a long URL list never held as one string).
import type { ChangedUrl, DiffReport, RuleCount } from '../core/diff.js';
import { terminalSafe } from '../core/terminal.js';

const ruleText = (rule: { kind: string; line: number; pattern: string } | null): string => (rule === null ? 'no rule' : `${rule.kind} ${terminalSafe(rule.pattern)} (line ${rule.line})`);

/**
 * The JSON report written piece by piece: one changed URL per write, so that no string holds the whole report
 * (100,000 URLs of 12 KB each would exceed what one string can be). The same object JSON.stringify(report, null, 2) gives.
 */
export function writeJsonReport(report: Record<string, unknown>, write: (text: string) => void): void {
  const entries = Object.entries(report);
  write('{\n');
  entries.forEach(([key, value], index) => {
    const comma = index < entries.length - 1 ? ',' : '';
    if (Array.isArray(value) && value.length > 0) {
      write(`  ${JSON.stringify(key)}: [\n`);
      value.forEach((item, i) => write(`    ${JSON.stringify(item, null, 2).replace(/\n/g, '\n    ')}${i < value.length - 1 ? ',' : ''}\n`));
      write(`  ]${comma}\n`);
    } else {
      write(`  ${JSON.stringify(key)}: ${JSON.stringify(value, null, 2).replace(/\n/g, '\n  ')}${comma}\n`);
    }
  });
  write('}\n');
}

/** One direction of the text report. */
function section(title: string, changes: ChangedUrl[], requests: number, truncated: boolean, rules: RuleCount[], limit: number): string[] {
  const listed = changes.reduce((sum, c) => sum + c.requests, 0);
  const distinct = truncated && listed < requests ? `more than ${changes.length} distinct URLs (${changes.length} listed, with ${listed} of the requests)` : `${changes.length} distinct URL(s)`;
  const lines = [`${title}: ${requests} request(s) of ${distinct}`];
  if (changes.length === 0) return lines;
  if (rules.length > 0) {
    lines.push('  deciding rules now:');
    for (const { rule, requests: count } of rules.slice(0, limit)) lines.push(`    ${String(count).padStart(8)}  ${ruleText(rule)}`);
  }
  lines.push('  URLs:');
  for (const change of changes.slice(0, limit)) lines.push(`    ${String(change.requests).padStart(8)}  ${terminalSafe(change.url)}  (was: ${ruleText(change.oldRule)}; now: ${ruleText(change.newRule)})`);
  if (changes.length > limit) lines.push(`    ... ${changes.length - limit} more (--limit, or --format json for all)`);
  return lines;
}

/** The text report: the counts, then each direction's deciding rules and URLs (at most `limit` of each). */
export function textReport(report: DiffReport, oldFile: string, newFile: string, agents: string[], limit: number): string {
  return [
    `${oldFile} -> ${newFile} for ${agents.join(', ')}: ${report.checked} request(s) checked, ${report.unchanged} unchanged`,
    ...(report.truncated ? ['(more distinct URLs changed than are listed: the URL lists are cut, the counts are complete)'] : []),
    ...section('newly disallowed', report.newlyDisallowed, report.newlyDisallowedRequests, report.truncated, report.disallowingRules, limit),
    ...section('newly allowed', report.newlyAllowed, report.newlyAllowedRequests, report.truncated, report.allowingRules, limit),
  ].join('\n') + '\n';
}
