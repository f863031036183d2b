// The three formats of a conformance report (text, JSON, a self-contained HTML page), from the data that
// conformance.ts builds. One function per format; nothing else writes a report.
import type { CaseOutcome, ConformanceReport } from './conformance.js';
import { escapeHtml } from '../../core/html-text.js';

const encoder = new TextEncoder();

/** A body or URL as readable text: UTF-8 where it is valid, other bytes as \xHH, controls escaped as in JSON; long ones cut with their size. */
export function printable(value: string | Uint8Array, limit = 400): string {
  const bytes = typeof value === 'string' ? encoder.encode(value) : value;
  let text = '';
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let i = 0;
  while (i < bytes.length && text.length < limit) {
    const byte = bytes[i];
    const width = byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 0;
    let char: string | null = null;
    if (width > 0 && i + width <= bytes.length) {
      try {
        char = decoder.decode(bytes.subarray(i, i + width));
      } catch {
        char = null;
      }
    }
    if (char === null) {
      text += `\\x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
      i++;
      continue;
    }
    text += char === '\n' ? '\\n' : char === '\r' ? '\\r' : char === '\t' ? '\\t' : char === '\\' ? '\\\\' : char === '"' ? '\\"' : char.charCodeAt(0) < 0x20 ? `\\x${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}` : char === '\uFEFF' ? '\\uFEFF' : char;
    i += width;
  }
  return i < bytes.length ? `"${text}"... (${bytes.length} bytes in all)` : `"${text}"`;
}

const rate = (cases: number, seconds: number): string => (seconds > 0 ? `${Math.round(cases / seconds).toLocaleString('en-US')} cases/s` : 'n/a');
const answerText = (outcome: CaseOutcome): string => ('verdict' in outcome.got ? outcome.got.verdict : `${outcome.got.failure} (${outcome.got.detail})`);
const expectedText = (outcome: CaseOutcome): string => `${outcome.reference.verdict}${outcome.reference.line === null ? '' : ` (line ${outcome.reference.line})`}`;
const labelName = (label: string): string => (label === 'standard' ? 'standard (ID_)' : label === 'google' ? 'Google-only (GoogleOnly_)' : 'from real files (Corpus_)');

/** The report as text: the summary, a table by class, a minimal reproduction per differing class, and the speeds. */
export function reportText(report: ConformanceReport): string {
  const lines: string[] = [];
  lines.push(`robotstxt conformance: ${report.implementation}, ${report.contract}, against the reference (this package's engine)`);
  lines.push(`cases: ${report.cases} (${report.sources.join(' and ')}): ${report.agreed} agree, ${report.differed} differ, ${report.failed} failed`);
  for (const entry of report.byLabel) lines.push(`  ${labelName(entry.label)}: ${entry.agreed} of ${entry.cases} agree`);
  if (report.differed > 0) lines.push(`direction: ${report.direction.allowsForbidden} allowed where the reference disallows (fetches what the site forbade), ${report.direction.forbidsAllowed} disallowed where it allows`);
  lines.push('');
  const width = Math.max(5, ...report.byClass.map((entry) => entry.class.length));
  lines.push(`${'class'.padEnd(width)}  cases  agree  differ  failed`);
  for (const entry of report.byClass) lines.push(`${entry.class.padEnd(width)}  ${String(entry.cases).padStart(5)}  ${String(entry.agreed).padStart(5)}  ${String(entry.differed).padStart(6)}  ${String(entry.failed).padStart(6)}`);
  const wrong = report.byClass.filter((entry) => entry.example !== null);
  if (wrong.length > 0) {
    lines.push('', 'Where it differs, by class (the smallest case of each):');
    for (const entry of wrong) {
      const example = entry.example as CaseOutcome;
      lines.push('', `${entry.class}: ${entry.differed} differ, ${entry.failed} failed${entry.differingIds.length > 0 ? ` (${entry.differingIds.slice(0, 8).join(', ')}${entry.differingIds.length > 8 ? `, ${entry.differingIds.length - 8} more` : ''})` : ''}`);
      lines.push(`  case:     ${example.case.id}`);
      lines.push(`  body:     ${printable(example.case.body)}`);
      lines.push(`  agent:    ${example.case.agent}`);
      lines.push(`  url:      ${printable(example.case.url)}`);
      lines.push(`  expected: ${expectedText(example)}`);
      lines.push(`  got:      ${answerText(example)}`);
    }
  }
  lines.push('', `speed: ${report.implementation}: ${report.cases} cases in ${report.speed.implementationSeconds.toFixed(2)} s (${rate(report.cases, report.speed.implementationSeconds)}, through its contract); this package's engine: ${report.speed.referenceSeconds.toFixed(3)} s (${rate(report.cases, report.speed.referenceSeconds)}, in-process, files parsed once)`);
  return lines.join('\n') + '\n';
}

/** The report as one JSON document: the summary, the classes with their examples, and every differing or failed case. */
export function reportJson(report: ConformanceReport): string {
  const outcome = (entry: CaseOutcome): Record<string, unknown> => ({
    id: entry.case.id,
    class: entry.case.class,
    label: entry.case.label,
    body: printable(entry.case.body, Infinity),
    agent: entry.case.agent,
    url: entry.case.url,
    expected: entry.reference,
    got: entry.got,
  });
  return JSON.stringify({
    implementation: report.implementation,
    contract: report.contract,
    sources: report.sources,
    cases: report.cases,
    agreed: report.agreed,
    differed: report.differed,
    failed: report.failed,
    byLabel: report.byLabel,
    direction: report.direction,
    firstDifferingClass: report.firstDifferingClass,
    byClass: report.byClass.map((entry) => ({ class: entry.class, cases: entry.cases, agreed: entry.agreed, differed: entry.differed, failed: entry.failed, example: entry.example === null ? null : outcome(entry.example) })),
    differences: report.outcomes.filter((entry) => !entry.agrees).map(outcome),
    speed: { implementationSeconds: report.speed.implementationSeconds, referenceSeconds: report.speed.referenceSeconds, casesPerSecond: report.cases / report.speed.implementationSeconds, referenceCasesPerSecond: report.cases / report.speed.referenceSeconds },
  }, null, 2) + '\n';
}


/** The report as a self-contained HTML page (no scripts, no external resources). */
export function reportHtml(report: ConformanceReport): string {
  const rows = report.byClass.map((entry) => `<tr class="${entry.agreed === entry.cases ? 'ok' : 'bad'}"><td>${escapeHtml(entry.class)}</td><td>${entry.cases}</td><td>${entry.agreed}</td><td>${entry.differed}</td><td>${entry.failed}</td></tr>`).join('\n');
  const examples = report.byClass.filter((entry) => entry.example !== null).map((entry) => {
    const example = entry.example as CaseOutcome;
    return `<section><h3>${escapeHtml(entry.class)}: ${entry.differed} differ, ${entry.failed} failed</h3>
<p>${escapeHtml(entry.differingIds.join(', '))}</p>
<dl><dt>case</dt><dd>${escapeHtml(example.case.id)}</dd><dt>body</dt><dd><pre>${escapeHtml(printable(example.case.body, 4000))}</pre></dd><dt>agent</dt><dd>${escapeHtml(example.case.agent)}</dd><dt>url</dt><dd><code>${escapeHtml(printable(example.case.url))}</code></dd><dt>expected</dt><dd>${escapeHtml(expectedText(example))}</dd><dt>got</dt><dd>${escapeHtml(answerText(example))}</dd></dl></section>`;
  }).join('\n');
  const labels = report.byLabel.map((entry) => `<li>${escapeHtml(labelName(entry.label))}: ${entry.agreed} of ${entry.cases} agree</li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance of ${escapeHtml(report.implementation)}</title>
<style>body{font:15px/1.4 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .6rem;text-align:right}td:first-child,th:first-child{text-align:left}tr.bad td{background:#fde8e8}pre{white-space:pre-wrap;word-break:break-all;background:#f6f6f6;padding:.4rem}dt{font-weight:bold}</style></head>
<body><h1>Conformance of ${escapeHtml(report.implementation)}</h1>
<p>${escapeHtml(report.contract)}, against the reference (this package's engine). Cases from ${escapeHtml(report.sources.join(' and '))}.</p>
<p id="summary">${report.cases} cases: ${report.agreed} agree, ${report.differed} differ, ${report.failed} failed.</p><ul>${labels}</ul>
<table><thead><tr><th>class</th><th>cases</th><th>agree</th><th>differ</th><th>failed</th></tr></thead><tbody>
${rows}
</tbody></table>
${examples === '' ? '' : `<h2>Where it differs (the smallest case of each class)</h2>\n${examples}`}
<p id="speed">${escapeHtml(report.implementation)}: ${report.speed.implementationSeconds.toFixed(2)} s (${rate(report.cases, report.speed.implementationSeconds)}); this package's engine: ${report.speed.referenceSeconds.toFixed(3)} s (${rate(report.cases, report.speed.referenceSeconds)}, in-process).</p>
</body></html>
`;
}
