// The end of every audit, read from logs or merged from parts (audit --merge): the malformed lines said, the
// report in its format, to standard output or --output.
import { RobotsError } from '../core/errors.js';
import { writeFileSync } from 'node:fs';
import { RobotsAudit, checkedPartial, repeatedPart, auditTable, auditHtml, noRulesSentence, type AuditPartial } from '../node/audit/index.js';
import { usageError } from './command-spec.js';
import { readInputWhole } from '../node/logs/index.js';
import { fileWriteError, readRegularFile } from '../node/robots-file.js';
import { flagWords } from './option-words.js';

/** The options --merge takes besides itself: the report's (every other one reads logs). */
export const MERGE_OPTIONS = new Set(['merge', 'format', 'top', 'output']);
/** A partial audit file is read whole up to this size (its crawlers and their tracked paths). */
const PARTIAL_LIMIT = 512 << 20;

/**
 * The one end of every audit, read from logs or merged from parts: the malformed lines said on stderr (a log
 * of which no line is an access log line is an error, never an empty audit with exit 0), then the report in its
 * format, to standard output or --output.
 */
export function writeReport(audit: RobotsAudit, logs: { log: string; lines: number }[], format: string, output: string | undefined, write: (text: string) => void, stderr: (text: string) => void): void {
  const report = audit.report();
  const names = [...new Set(logs.map((entry) => entry.log))];
  if (report.malformed.count > 0) {
    const where = report.malformed.lines.slice(0, 10).map((m) => `${m.log}:${m.line}`).join(', ');
    if (report.crawlerRequests + report.otherRequests + report.outsideTime === 0) {
      throw new RobotsError('USAGE', `not an access log: none of the ${report.malformed.count} line(s) of ${names.join(', ')} is a request line of a format audit reads (first: ${where}${report.malformed.count > 10 ? ', ...' : ''}; see robotstxt audit --help)`);
    }
    stderr(`robotstxt: ${report.malformed.count} malformed log line(s) skipped (${where}${report.malformed.count > 10 ? ', ...' : ''})\n`);
  }
  if (report.noRulesKnown.requests > 0) stderr(`robotstxt: ${noRulesSentence(report, flagWords)}\n`);
  const text = format === 'json' ? JSON.stringify(report, null, 2) + '\n'
    : format === 'html' ? auditHtml(report, `robots.txt audit of ${names.join(', ')}`, flagWords)
    : format === 'partial' ? JSON.stringify(audit.partial(logs)) + '\n'
    : auditTable(report, flagWords);
  if (output !== undefined) {
    try {
      writeFileSync(output, text);
    } catch (error) {
      throw fileWriteError(output, 'report file', error);
    }
  }
  else write(text);
}

/** audit --merge: partial audits of parts of the same logs, added into one report (RobotsAudit.merged). */
export async function mergeAudits(files: string[], format: string, top: number, output: string | undefined, given: ReadonlySet<string>, write: (text: string) => void, stderr: (text: string) => void): Promise<number> {
  const other = [...given].find((name) => !MERGE_OPTIONS.has(name));
  if (other !== undefined) throw usageError(`--${other} does not apply with --merge (the partial audits were made with their options; --merge takes --format, --top and --output)`);
  const partials: AuditPartial[] = [];
  const logs: { log: string; lines: number }[] = [];
  for (const file of files) {
    const bytes = file === '-' ? await readStandardInput(PARTIAL_LIMIT) : readRegularFile(file, PARTIAL_LIMIT, 'partial audit');
    let partial: AuditPartial;
    try {
      partial = checkedPartial(JSON.parse(new TextDecoder().decode(bytes)));
    } catch (error) {
      if (error instanceof RobotsError && error.code !== 'INVALID_ARGUMENT') throw error;
      throw usageError(`${file} is not a partial audit (robotstxt audit --format partial writes one): ${(error as Error).message}`);
    }
    partials.push(partial);
    const repeated = repeatedPart(partials);
    if (repeated !== null && repeated[1] === partials.length - 1) stderr(`robotstxt: warning: ${file} holds the same counts as ${files[repeated[0]]}, field for field: if it is the same part given twice, its requests are counted twice\n`);
    for (const entry of partial.logs) {
      const same = logs.find((known) => known.log === entry.log);
      if (same === undefined) logs.push({ ...entry });
      else same.lines += entry.lines;
    }
  }
  let audit: RobotsAudit;
  try {
    audit = RobotsAudit.merged(partials, top);
  } catch (error) {
    if (error instanceof RobotsError && error.code === 'INVALID_ARGUMENT') throw usageError(error.sayOption(flagWords));
    throw error;
  }
  writeReport(audit, logs, format, output, write, stderr);
  return 0;
}

/** Standard input whole, up to limit bytes (a longer one is an error). */
async function readStandardInput(limit: number): Promise<Uint8Array> {
  const { body, fileBytes } = await readInputWhole('-', 'partial audit', limit);
  if (fileBytes > limit) throw new RobotsError('INPUT_TOO_LARGE', `cannot read partial audit '-': more than ${limit} bytes`);
  return body;
}

