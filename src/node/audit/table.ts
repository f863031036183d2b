// The audit as a text table (robotstxt audit --format table): the summary lines, a row per crawler, the
// user-triggered fetchers apart, the AI usage list. Wording shared with JSON and HTML comes from report.ts.
import { terminalSafe } from '../../core/terminal.js';
import { LIBRARY_OPTION_WORDS, type OptionWords } from '../../core/errors.js';
import { crawlerLabel, signatureCell, signatureNotes, signatureSentence, usageLeftOut, verificationCell, verificationNotes, verificationNoteSentence, verificationSentence, type AuditReport, type CrawlerAudit } from './report.js';

/** The sentence on requests whose rules were not known, as the table and stderr say it (options in `say`'s words). Per report. */
export function noRulesSentence(report: AuditReport, say: OptionWords = LIBRARY_OPTION_WORDS): string {
  const { requests, origins, judged } = report.noRulesKnown;
  return `${requests} crawler request(s) with no rules known (no robots.txt file, a file that could not be read, an origin never fetched, or a time before the first version)${origins.length > 0 ? `, first ${origins.join(', ')}` : ''}: ${judged === 'as disallowed' ? `judged disallowed (${say({ name: 'missing', value: 'disallow' })})` : `not judged, not counted as allowed (${say({ name: 'missing', value: 'disallow' })} judges them, ${say({ name: 'missing', value: 'error' })} stops)`}`;
}

const share = (part: number, whole: number): string => (whole === 0 ? '0%' : `${((100 * part) / whole).toFixed(1)}%`);
const statusText = (c: CrawlerAudit): string => `${c.disallowedByStatus['2xx']}/${c.disallowedByStatus['3xx']}/${c.disallowedByStatus['4xx']}/${c.disallowedByStatus['5xx']}`;
const ruleText = (rule: CrawlerAudit['rules'][number]): string => `${rule.file === null ? '' : `${rule.file} `}line ${rule.line} ${rule.pattern} (${rule.requests})`;

/** The audit as a text table (robotstxt audit's default output), terminal-safe: names and paths come from the log; options in `say`'s words. Per report. */
export function auditTable(report: AuditReport, say: OptionWords = LIBRARY_OPTION_WORDS): string {
  const verifying = report.verification !== null;
  const signing = report.signatures !== null;
  const pathText = (p: CrawlerAudit['topDisallowedPaths'][number]): string => `${p.host === null ? '' : `${p.host} `}${p.path} (${p.requests === p.upTo ? p.requests : `${p.requests} to ${p.upTo}`})`;
  const disallowedText = (c: CrawlerAudit): string => (c.disallowedUpTo === c.disallowed ? String(c.disallowed) : `${c.disallowed} to ${c.disallowedUpTo}`);
  const byHost = [...report.crawlers, ...report.userTriggered].some((c) => c.host !== null);
  // the AI usage column only where some file states a preference for the purpose of some request
  const usage = report.usage.stated;
  const row = (c: CrawlerAudit): string[] => [
    ...(byHost ? [c.host ?? '-'] : []), crawlerLabel(c), c.groupLabel, c.category, String(c.requests), disallowedText(c), share(c.disallowed, c.requests), statusText(c), String(c.robotsTxtFetches),
    ...(usage ? [c.usage === null ? '' : String(c.usage.against)] : []),
    ...(verifying ? [verificationCell(c.verification)] : []),
    ...(signing ? [signatureCell(c.signatures)] : []),
    c.rules[0] === undefined ? '' : ruleText(c.rules[0]), c.topDisallowedPaths[0] === undefined ? '' : pathText(c.topDisallowedPaths[0]),
  ];
  const header = [...(byHost ? ['host'] : []), 'crawler', 'group', 'category', 'requests', 'disallowed', 'share', '2xx/3xx/4xx/5xx', 'robots.txt', ...(usage ? ['usage no'] : []), ...(verifying ? ['verified/impostor/unknown/not-checked'] : []), ...(signing ? ['signatures verified/invalid/expired/unknown-key/malformed/not-checked'] : []), 'top rule', 'top disallowed path'];
  const blank = (cells: string[]): string[] => [...cells, ...new Array<string>(header.length - cells.length).fill('')];
  const rows = report.crawlers.map(row);
  const more = report.moreCrawlers;
  const lead = byHost ? [''] : [];
  if (more.crawlers > 0) rows.push(blank([...lead, `${more.crawlers} more ${byHost ? 'row' : 'crawler'}(s) (${say({ name: 'top', value: '0' })} lists all)`, '', '', String(more.requests), String(more.disallowed), share(more.disallowed, more.requests)]));
  const untracked = report.untracked;
  if (untracked.requests > 0) rows.push(blank([...lead, `${untracked.crawlers} ${byHost ? 'row' : 'crawler'}(s) no longer tracked (fewest disallowed)`, '', '', String(untracked.requests), String(untracked.disallowed), share(untracked.disallowed, untracked.requests)]));
  const fetcherRows = report.userTriggered.map(row);
  const numeric = new Set([3, 4, 5, 7, ...(usage ? [8] : [])].map((i) => i + lead.length));
  const all = [...rows, ...fetcherRows];
  for (const cells of all) cells.forEach((cell, i) => { cells[i] = terminalSafe(cell); }); // names and paths come from the log
  const widths = header.map((h, i) => Math.max(h.length, ...all.map((r) => r[i].length)));
  const format = (cells: string[]): string => cells.map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ').trimEnd();
  const outside = report.outsideTime > 0 ? `, ${report.outsideTime} outside ${say({ name: 'sinceMs' })}/${say({ name: 'untilMs' })}` : '';
  const lines = [
    `${report.lines} log lines: ${report.crawlerRequests} crawler requests (${report.disallowed} disallowed, ${report.allowed} allowed, ${report.noRulesKnown.requests} no rules known), ${report.otherRequests} other requests, ${report.malformed.count} malformed${outside}`,
  ];
  if (report.history !== null) lines.push(...historyLines(report.history));
  if (report.noRulesKnown.requests > 0) lines.push(terminalSafe(noRulesSentence(report, say)));
  if (report.verification !== null) {
    const impostors = report.crawlers.filter((c) => c.impostor).length + report.userTriggered.filter((c) => c.impostor).length;
    lines.push(`verification: ${verificationSentence(report.verification)}${impostors > 0 ? '; impostors are rows of their own' : ''}`);
    for (const note of verificationNotes(report.verifiedBy)) lines.push(`verification: ${terminalSafe(verificationNoteSentence(note, say))}`);
  }
  if (report.signatures !== null) {
    lines.push(`signatures: ${signatureSentence(report.signatures.counts)} (a signature that holds decides, one that fails makes an impostor; not checked: the IP ranges decide)`);
    for (const note of signatureNotes(report.signatures, say)) lines.push(`signatures: ${terminalSafe(note)}`);
  }
  lines.push(format(header), ...rows.map(format));
  if (fetcherRows.length > 0) lines.push('', 'user-triggered fetchers (fetch because a person asked; they ignore robots.txt by design and are not counted as violators):', ...fetcherRows.map(format));
  lines.push(report.reading === 'token'
    ? `group: own group, * (the * group), differs by host or version; each crawler read as its product token, as the reference answers (${say({ name: 'reading', value: 'token' })})`
    : 'group: own group, follows <token> (Googlebot-Image follows Googlebot), * (the * group), no group (AdsBot ignores *), differs by host or version');
  if (usage) lines.push('', ...usageSection(report, say));
  return lines.join('\n') + '\n';
}

/** With --robots-history: the versions that judged requests (with their counts), and the requests no single version could judge. */
function historyLines(history: NonNullable<AuditReport['history']>): string[] {
  const versions = history.versions.map((version) => `${version.host} since ${version.from}: ${version.requests} crawler request(s), ${version.disallowed} disallowed`);
  return [
    `robots.txt versions: ${versions.length === 0 ? 'none judged a request' : versions.join('; ')}`,
    `either: ${history.either} request(s) within 24 h after a change that the two versions judge differently (not counted as disallowed); no rules known: ${history.noRulesKnown} request(s) before the first version of their host, or without a time`,
  ];
}

/**
 * The AI usage section: per crawler with requests against a stated preference for its purpose, the purpose,
 * how many, and the statements that said no (with their lines). Apart from the robots.txt table.
 */
function usageSection(report: AuditReport, say: OptionWords): string[] {
  const against = [...report.crawlers, ...report.userTriggered].filter((c) => (c.usage?.against ?? 0) > 0).sort((a, b) => (b.usage?.against ?? 0) - (a.usage?.against ?? 0));
  const head = `AI usage: ${report.usage.against} request(s) robots.txt allowed against a stated preference for the crawler's purpose (usage no; not robots.txt violations)${against.length > 0 ? ':' : ''}`;
  const rows = against.map((c) => [terminalSafe(`${c.host === null ? '' : `${c.host}: `}${crawlerLabel(c)}`), c.usage?.purpose ?? '', String(c.usage?.against ?? 0), terminalSafe((c.usage?.by ?? []).slice(0, 3).map((by) => `${by.file === null ? '' : `${by.file} `}line ${by.line} ${by.preference} (${by.requests})`).join(', '))]);
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
  const leftOut = usageLeftOut(report, String, say);
  return [head, ...rows.map((r) => `  ${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2].padStart(widths[2])}  ${r[3]}`.trimEnd()), ...(leftOut === null ? [] : [`  ${leftOut}`])];
}
