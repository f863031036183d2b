// What robotstxt usage prints per URL as text: a row per fact (the crawl, each usage category, Content-Signal,
// RSL licences, policy tokens) with the lines that decided, or a row per purpose asked (--purpose).
import type { PurposeAnswer, PurposeStatement, UsageAnswer } from '../core/usage.js';
import { terminalSafe } from '../core/terminal.js';

const lineList = (lines: readonly number[]): string => (lines.length === 0 ? '' : `line${lines.length > 1 ? 's' : ''} ${lines.join(', ')}`);

/** One URL's purpose verdicts as text: the crawl, then a row per purpose with the statement that decided and the others weighed. */
export function purposeTable(answers: readonly PurposeAnswer[]): string {
  const said = (statement: PurposeStatement): string => `${statement.source} ${statement.statement}${statement.line === null ? '' : ` (line ${statement.line})`}`;
  const rows: [string, string, string][] = [['crawl', answers[0].crawl, '']];
  for (const answer of answers) {
    const why = answer.crawl === 'disallowed' ? 'not fetched: no preference' : answer.decidedBy === null ? 'nothing says' : [said(answer.decidedBy), ...answer.statements.filter((statement) => statement !== answer.decidedBy).map((statement) => `${statement.verdict === (answer.decidedBy as PurposeStatement).verdict ? 'with' : 'over'} ${said(statement)}`)].join(', ');
    rows.push([`purpose ${answer.purpose}`, answer.verdict, why]);
  }
  const safeRows = rows.map((row) => row.map(terminalSafe));
  const width = Math.max(...safeRows.map((row) => row[0].length));
  return `${terminalSafe(answers[0].url)} (agent ${terminalSafe(answers[0].agent)})\n${safeRows.map(([what, verdict, why]) => `  ${what.padEnd(width)}  ${verdict.padEnd(10)}  ${why}`.trimEnd()).join('\n')}\n`;
}

/** One URL's answer as text: a row per fact, with the lines that decided. */
export function usageTable(answer: UsageAnswer): string {
  const rows: [string, string, string][] = [];
  rows.push(['crawl', answer.crawl, answer.lines.crawl === null ? 'no rule' : `line ${answer.lines.crawl}`]);
  for (const [category, verdict] of Object.entries(answer.usage)) {
    const by = answer.decidedBy[category];
    const why = by === 'crawl-disallowed' ? 'not fetched: no preference' : by === 'none' ? 'nothing says' : by === 'header' ? 'header' : `${lineList(answer.lines.usage[category])}${by === 'both' ? ' and header' : ''}`;
    rows.push([`usage ${category}`, verdict, why]);
  }
  for (const [key, value] of Object.entries(answer.contentSignal)) rows.push([`content-signal ${key}`, value, lineList(answer.lines.contentSignal[key])]);
  for (const license of answer.licenses) rows.push(['license (RSL)', 'reported', `${license.url}, line ${license.line}`]);
  for (const [token, verdict] of Object.entries(answer.tokens)) {
    const group = answer.tokenGroups[token] === 'named' ? 'its own group' : answer.tokenGroups[token] === '*' ? 'the * group' : 'no group';
    const line = answer.lines.tokens[token];
    rows.push([`token ${token}`, verdict, `${group}${line === null ? '' : `, line ${line}`}`]);
  }
  // keys and values are the file's text: control characters are written as \xNN (a file cannot drive the terminal)
  const safeRows = rows.map((row) => row.map(terminalSafe));
  const width = Math.max(...safeRows.map((row) => row[0].length));
  return `${terminalSafe(answer.url)} (agent ${terminalSafe(answer.agent)})\n${safeRows.map(([what, verdict, why]) => `  ${what.padEnd(width)}  ${verdict.padEnd(10)}  ${why}`.trimEnd()).join('\n')}\n`;
}
