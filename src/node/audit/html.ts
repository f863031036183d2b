// A self-contained HTML page for an audit: inline SVG charts (who violated, which rules, over time) and
// tables. No script, no external resource: it opens anywhere, from a file or an e-mail.
import { crawlerLabel, signatureCell, signatureNotes, signatureSentence, usageLeftOut, verificationCell, verificationNotes, verificationNoteSentence, verificationSentence, type AuditReport, type CrawlerAudit } from './report.js';
import { escapeHtml } from '../../core/html-text.js';
import { LIBRARY_OPTION_WORDS, type OptionWords } from '../../core/errors.js';

const number = (n: number): string => n.toLocaleString('en');

/** Horizontal bars: one row per item, a light bar for the total and a dark one for the part. */
function barChart(id: string, title: string, rows: { label: string; total: number; part: number }[], partName: string, totalName: string): string {
  const width = 900;
  const labelWidth = 300;
  const rowHeight = 24;
  const max = Math.max(1, ...rows.map((r) => Math.max(r.total, r.part)));
  const scale = (value: number): number => ((width - labelWidth - 170) * value) / max; // room for the figures after the longest bar
  const bars = rows.map((row, i) => {
    const y = i * rowHeight + 4;
    return `<g><text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end">${escapeHtml(row.label.length > 45 ? row.label.slice(0, 44) + '…' : row.label)}</text>` +
      `<rect class="bar total" x="${labelWidth}" y="${y}" width="${scale(row.total).toFixed(1)}" height="18"><title>${escapeHtml(row.label)}: ${number(row.total)} ${totalName}</title></rect>` +
      `<rect class="bar part" x="${labelWidth}" y="${y}" width="${scale(row.part).toFixed(1)}" height="18"><title>${escapeHtml(row.label)}: ${number(row.part)} ${partName}</title></rect>` +
      `<text x="${labelWidth + scale(Math.max(row.total, row.part)) + 6}" y="${y + 15}">${number(row.part)}${row.total !== row.part ? ` / ${number(row.total)}` : ''}</text></g>`;
  }).join('');
  const height = Math.max(1, rows.length) * rowHeight + 8;
  const body = rows.length === 0 ? `<text x="10" y="20">nothing to show</text>` : bars;
  const legend = partName === totalName ? `<span class="key part"></span> ${partName}` : `<span class="key part"></span> ${partName} <span class="key total"></span> ${totalName}`;
  return `<section><h2>${escapeHtml(title)}</h2><p class="legend">${legend}</p>` +
    `<svg class="chart" id="${id}" role="img" aria-label="${escapeHtml(title)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg></section>`;
}

/** Vertical bars per hour: requests (light) and disallowed requests (dark). */
function timeChart(report: AuditReport): string {
  const width = 900;
  const height = 220;
  const points = report.timeline;
  const max = Math.max(1, ...points.map((p) => p.requests));
  const step = points.length === 0 ? 0 : (width - 60) / points.length;
  const bars = points.map((p, i) => {
    const x = 50 + i * step;
    const total = ((height - 40) * p.requests) / max;
    const part = ((height - 40) * p.disallowed) / max;
    return `<rect class="bar total" x="${x.toFixed(1)}" y="${(height - 20 - total).toFixed(1)}" width="${Math.max(1, step - 1).toFixed(1)}" height="${total.toFixed(1)}"><title>${p.hour}: ${number(p.requests)} crawler requests</title></rect>` +
      `<rect class="bar part" x="${x.toFixed(1)}" y="${(height - 20 - part).toFixed(1)}" width="${Math.max(1, step - 1).toFixed(1)}" height="${part.toFixed(1)}"><title>${p.hour}: ${number(p.disallowed)} disallowed</title></rect>`;
  }).join('');
  // each change of robots.txt (a version in force from a time) marked where its hour is: a line and its title
  const versions = report.history?.versions ?? [];
  const changes = versions.filter((version) => /^\d{4}-\d{2}-\d{2}T/.test(version.from)).map((version) => {
    const first = versions.find((other) => other.host === version.host) === version;
    const hour = `${version.from.slice(0, 10)} ${version.from.slice(11, 13)}:00`;
    const index = points.findIndex((p) => p.hour >= hour);
    if (index <= 0) return '';
    const x = 50 + index * step - 0.5;
    return `<line class="change" x1="${x.toFixed(1)}" y1="20" x2="${x.toFixed(1)}" y2="${height - 20}" stroke="#2c3e50" stroke-dasharray="4 3"><title>robots.txt of ${escapeHtml(version.host)} ${first ? 'known from here: its first version' : 'changed: the version'} in force from ${escapeHtml(version.from)}</title></line>`;
  }).join('');
  const first = points[0]?.hour ?? '';
  const last = points[points.length - 1]?.hour ?? '';
  return `<section><h2>Over time (per hour)</h2><p class="legend"><span class="key part"></span> disallowed <span class="key total"></span> crawler requests</p>` +
    `<svg class="chart" id="chart-time" role="img" aria-label="crawler requests per hour" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<text x="0" y="14">${number(max)}</text><line x1="48" y1="20" x2="48" y2="${height - 20}" stroke="#999"/>${bars}${changes}` +
    `<text x="50" y="${height - 4}">${escapeHtml(first)}</text><text x="${width - 10}" y="${height - 4}" text-anchor="end">${escapeHtml(last)}</text></svg></section>`;
}

/** The whole report page. Called once per audit with --format html. */
/** The report's Content-Security-Policy: nothing loads or runs (no script, no request), only its own inline styles and SVG. */
export const AUDIT_HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

export function auditHtml(report: AuditReport, title: string, say: OptionWords = LIBRARY_OPTION_WORDS): string {
  const rules = new Map<string, { label: string; part: number }>();
  for (const crawler of report.crawlers) {
    for (const rule of crawler.rules) {
      const key = `${rule.file ?? ''} ${rule.line} ${rule.pattern}`;
      const entry = rules.get(key) ?? { label: `${rule.file === null ? '' : `${rule.file} `}line ${rule.line}: ${rule.pattern}`, part: 0 };
      entry.part += rule.requests;
      rules.set(key, entry);
    }
  }
  const verifying = report.verification !== null;
  const signing = report.signatures !== null;
  const ruleRows = [...rules.values()].sort((a, b) => b.part - a.part).slice(0, 15).map((r) => ({ label: r.label, total: r.part, part: r.part }));
  const crawlerRows = report.crawlers.slice(0, 15).map((c) => ({ label: `${c.host === null ? '' : `${c.host}: `}${crawlerLabel(c)} (${c.groupLabel})`, total: c.requests, part: c.disallowed }));
  const status = (c: CrawlerAudit): string => `${number(c.disallowedByStatus['2xx'])} / ${number(c.disallowedByStatus['3xx'])} / ${number(c.disallowedByStatus['4xx'])} / ${number(c.disallowedByStatus['5xx'])}`;
  const byHost = [...report.crawlers, ...report.userTriggered].some((c) => c.host !== null);
  const rowOf = (c: CrawlerAudit): string => `<tr${c.impostor ? ' class="impostor"' : ''}>${byHost ? `<td>${escapeHtml(c.host ?? '-')}</td>` : ''}<td>${escapeHtml(crawlerLabel(c))}</td><td>${escapeHtml(c.groupLabel)}</td><td>${c.category}</td><td>${number(c.requests)}</td>` +
    `<td>${number(c.disallowed)}${c.disallowedUpTo !== c.disallowed ? ` to ${number(c.disallowedUpTo)}` : ''}</td><td>${status(c)}</td><td>${number(c.robotsTxtFetches)}</td>` +
    (report.usage.stated ? `<td>${c.usage === null ? '' : number(c.usage.against)}</td>` : '') +
    (verifying ? `<td>${verificationCell(c.verification, ' / ', number)}</td>` : '') +
    (signing ? `<td>${signatureCell(c.signatures, ' / ', number)}</td>` : '') +
    `<td>${c.rules.slice(0, 3).map((r) => `${r.file === null ? '' : `${escapeHtml(r.file)} `}line ${r.line} <code>${escapeHtml(r.pattern)}</code> (${number(r.requests)})`).join('<br>')}</td>` +
    `<td>${c.topDisallowedPaths.slice(0, 3).map((p) => `${p.host === null ? '' : `${escapeHtml(p.host)} `}<code>${escapeHtml(p.path)}</code> (${number(p.requests)})`).join('<br>')}</td></tr>`;
  const head = `<thead><tr>${byHost ? '<th>host</th>' : ''}<th>crawler</th><th>group</th><th>category</th><th>requests</th><th>disallowed</th><th>disallowed by status<br>2xx / 3xx / 4xx / 5xx</th><th>robots.txt fetches</th>${report.usage.stated ? '<th>usage no</th>' : ''}${verifying ? '<th>verified / impostor / unknown / not checked</th>' : ''}${signing ? '<th>signatures: verified / invalid / expired / unknown key / malformed / not checked</th>' : ''}<th>rules</th><th>most requested disallowed paths</th></tr></thead>`;
  const more = report.moreCrawlers.crawlers > 0 ? `<p>${number(report.moreCrawlers.crawlers)} more crawler(s): ${number(report.moreCrawlers.requests)} requests, ${number(report.moreCrawlers.disallowed)} disallowed.</p>` : '';
  const untracked = report.untracked.requests > 0 ? `<p>${number(report.untracked.crawlers)} crawler(s) no longer tracked (fewest disallowed): ${number(report.untracked.requests)} requests, ${number(report.untracked.disallowed)} disallowed.</p>` : '';
  const fetchers = report.userTriggered.length === 0 ? '' : `<h2>User-triggered fetchers</h2><p>They fetch because a person asked, ignore robots.txt by design, and are not counted as violators.</p><table>${head}<tbody>${report.userTriggered.map(rowOf).join('')}</tbody></table>`;
  const against = [...report.crawlers, ...report.userTriggered].filter((c) => (c.usage?.against ?? 0) > 0).sort((a, b) => (b.usage?.against ?? 0) - (a.usage?.against ?? 0));
  const usage = !report.usage.stated ? '' : `<h2>AI usage</h2><p>${number(report.usage.against)} request(s) robots.txt allowed against a stated preference for the crawler's purpose (Content-Usage n, Content-Signal no). They are not robots.txt violations.</p>` +
    (against.length === 0 ? '' : `<table id="usage"><thead><tr><th>crawler</th><th>purpose</th><th>requests against it</th><th>stated by</th></tr></thead><tbody>${against.map((c) => `<tr><td>${escapeHtml(`${c.host === null ? '' : `${c.host}: `}${crawlerLabel(c)}`)}</td><td>${escapeHtml(c.usage?.purpose ?? '')}</td><td>${number(c.usage?.against ?? 0)}</td><td>${(c.usage?.by ?? []).slice(0, 3).map((by) => `${by.file === null ? '' : `${escapeHtml(by.file)} `}line ${by.line} <code>${escapeHtml(by.preference)}</code> (${number(by.requests)})`).join('<br>')}</td></tr>`).join('')}</tbody></table>`) + (usageLeftOut(report, number, say) === null ? '' : `<p>${escapeHtml(usageLeftOut(report, number, say) ?? '')}.</p>`);
  const verification = report.verification === null ? '' : `<span class="verification">${verificationSentence(report.verification, number)}</span>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${AUDIT_HTML_CSP}"><title>${escapeHtml(title)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}h1{font-size:1.5em}h2{font-size:1.15em;margin-top:2em}
.chart text{font-size:12px;fill:#333}.bar.total{fill:#c9d7e8}.bar.part{fill:#c0392b}
.legend .key{display:inline-block;width:12px;height:12px;vertical-align:middle}.key.part{background:#c0392b}.key.total{background:#c9d7e8}
table{border-collapse:collapse;margin-top:1em}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f4f4f4}code{font-size:12px}.summary span{margin-right:2em}tr.impostor td:first-child{color:#c0392b;font-weight:600}
</style></head><body>
<h1>${escapeHtml(title)}</h1>
<p class="summary"><span>${number(report.lines)} log lines</span><span>${number(report.crawlerRequests)} crawler requests</span>` +
`<span>${number(report.disallowed)} disallowed</span><span>${number(report.allowed)} allowed</span><span class="no-rules">${number(report.noRulesKnown.requests)} no rules known</span><span>${number(report.otherRequests)} other requests (not audited)</span>${verification}` +
`<span>${number(report.malformed.count)} malformed lines${report.malformed.count > 0 ? ` (first: ${escapeHtml(report.malformed.lines.slice(0, 10).map((m) => `${m.log}:${m.line}`).join(', '))})` : ''}</span></p>
${report.noRulesKnown.requests === 0 ? '' : `<p class="no-rules-note">${number(report.noRulesKnown.requests)} crawler request(s) with no rules known (no robots.txt file, a file that could not be read, an origin never fetched, or a time before the first version)${report.noRulesKnown.origins.length > 0 ? `, first ${escapeHtml(report.noRulesKnown.origins.join(', '))}` : ''}: ${report.noRulesKnown.judged === 'as disallowed' ? 'judged disallowed' : 'not judged, and not counted as allowed'}.</p>`}
${verificationNotes(report.verifiedBy).map((note) => `<p class="verification-note">${escapeHtml(verificationNoteSentence(note, say))}</p>`).join('')}${report.signatures === null ? '' : `<p class="signatures">Signed requests (Web Bot Auth): ${signatureSentence(report.signatures.counts, number)}. A signature that holds decides; one that fails makes an impostor; one not checked leaves it to the IP ranges.</p>${signatureNotes(report.signatures, say).map((note) => `<p class="signature-note">${escapeHtml(note)}</p>`).join('')}`}
${report.history === null ? '' : `<h2>robots.txt versions</h2><table id="versions"><thead><tr><th>host</th><th>in force from</th><th>crawler requests</th><th>disallowed</th></tr></thead><tbody>${report.history.versions.map((v) => `<tr><td>${escapeHtml(v.host)}</td><td>${escapeHtml(v.from)}</td><td>${number(v.requests)}</td><td>${number(v.disallowed)}</td></tr>`).join('')}</tbody></table><p class="history-note">${number(report.history.either)} request(s) within 24 h after a change that the two versions judge differently (either: not counted as disallowed); ${number(report.history.noRulesKnown)} before the first version of their host or without a time (no rules known).</p>`}
${barChart('chart-crawlers', 'Who fetched what robots.txt disallows', crawlerRows, 'disallowed requests', 'requests')}
${barChart('chart-rules', 'Which rules they broke', ruleRows, 'disallowed requests', 'disallowed requests')}
${timeChart(report)}
<h2>Crawlers</h2>
<p class="reading">${escapeHtml(report.reading === 'token' ? `Each crawler is read as its product token, as the reference answers (${say({ name: 'reading', value: 'token' })}): its own group, else *.` : `Each crawler is read as it behaves: Googlebot-Image, -News and -Video follow the Googlebot group when they have none of their own; AdsBot ignores *. (${say({ name: 'reading', value: 'token' })} reads product tokens, as the reference answers.)`)}</p>
<table id="crawlers">${head}<tbody>${report.crawlers.map(rowOf).join('')}</tbody></table>
${more}${untracked}${fetchers}${usage}
</body></html>
`;
}
