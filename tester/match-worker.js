// The Tester's matching thread: parses, lints, matches, compares and answers AI usage here, so that the page stays responsive
// on a 500 KiB robots.txt and 100,000 URLs. Messages in: { id, robots, previous, agent, mode, urls }; out: the
// verdicts and deciding lines as typed arrays (transferred), the text of each deciding line (from the text
// the verdicts were computed for: the editor may have changed since), lint findings, and the verdict changes
// against the kept previous version (RobotsDiff), with the agent and mode they were computed for. A message
// { kind: 'usage', id, robots, agent, mode, url } is answered with RobotsTxt.usage for that URL; a message
// { kind: 'page', id, robots, agent, mode, url, headers, metas, status } with the page's answer (judgePage, pageTraps):
// the page's meta tags are read by the page itself (DOMParser: the browser's HTML parser; a worker has none).
// @ts-expect-error -- the page serves dist/ beside this file (robotstxt tester); in the repository it lies one folder up
import { initialize, parseRobots, lintRobots, agentWarning, RobotsDiff, pageRules, judgePage, pageTraps, headerLine, RobotsNoindex } from './dist/src/core/index.js';

/** This thread's side of the page's messages (a module Web Worker's global). */
const scope = /** @type {{ postMessage(message: unknown, transfer?: Transferable[]): void, onmessage: ((event: MessageEvent) => void) | null }} */ (/** @type {unknown} */ (self));

/** Changed URLs sent to the page at most (the counts always cover every URL). */
const MAX_CHANGES = 2000;
const encoder = new TextEncoder();
const ready = initialize();

/** The text of each line number in numbers (0: none), as the parser numbers lines (LF, CR and CR LF end one). */
function lineTexts(text, numbers) {
  const wanted = new Set(numbers);
  wanted.delete(0);
  if (wanted.size === 0) return {};
  const lines = text.split(/\r\n|\r|\n/);
  const texts = {};
  for (const number of wanted) texts[number] = (lines[number - 1] ?? '').trim();
  return texts;
}

/** The verdict changes from the previous text to the current one over the URL lines, per distinct URL. */
function compare(previous, matcher, agent, mode, bytes) {
  const diff = new RobotsDiff(parseRobots(previous, { mode }).matcher(agent), matcher);
  diff.addLines(bytes);
  const report = diff.report();
  const rows = [
    ...report.newlyDisallowed.map((change) => ({ ...change, allowedNow: false })),
    ...report.newlyAllowed.map((change) => ({ ...change, allowedNow: true })),
  ].slice(0, MAX_CHANGES);
  const distinct = report.newlyDisallowed.length + report.newlyAllowed.length;
  return { newlyDisallowed: report.newlyDisallowedRequests, newlyAllowed: report.newlyAllowedRequests, distinct, rows, ruleTextBefore: lineTexts(previous, rows.map((row) => row.oldRule?.line ?? 0)) };
}

/** The AI usage preferences of one URL (the page's usage panel): RobotsTxt.usage, with each deciding line's text. */
function usageOf(robots, agent, mode, url) {
  const answer = parseRobots(robots, { mode }).usage(url, agent);
  const numbers = [answer.lines.crawl ?? 0, ...Object.values(answer.lines.usage).flat(), ...Object.values(answer.lines.contentSignal).flat(), ...Object.values(answer.lines.tokens).map((line) => line ?? 0)];
  return { ...answer, lineText: lineTexts(robots, numbers) };
}

/**
 * What a page lets the crawler index, with the robots.txt: its headers (`Name: value` lines; other lines are
 * returned as not read) and its meta tags (of <head>, and outside it) judged as robotstxt page judges them.
 */
function pageOf(robots, agent, mode, url, headerText, metas, status) {
  const file = parseRobots(robots, { mode });
  const explained = file.matcher(agent).explain(url);
  const headers = [];
  const notHeaders = [];
  for (const line of headerText.split(/\r\n|\r|\n/)) {
    if (line.trim() === '') continue;
    const header = headerLine(line);
    if (header === null) notHeaders.push(line.trim());
    else headers.push(header);
  }
  const nowMs = Date.now();
  const rules = pageRules({ headers, metas: metas.head, agent, nowMs });
  const noindex = new RobotsNoindex(file, agent);
  const robotsNoindex = noindex.lineFor(url);
  noindex.close();
  const traps = pageTraps({ rules, crawlAllowed: explained.allowed, metasOutsideHead: metas.outsideHead, robotsNoindex, nowMs });
  const crawlLine = explained.rule?.line ?? 0;
  file.close();
  return { url, agent, status, ...judgePage(explained.allowed, rules, status), traps, notHeaders, crawlLine, lineText: lineTexts(robots, [crawlLine]) };
}

scope.onmessage = async (event) => {
  if (event.data.kind === 'page') {
    const { id, robots, agent, mode, url, headers, metas, status } = event.data;
    try {
      await ready;
      scope.postMessage({ kind: 'page', id, answer: pageOf(robots, agent, mode, url, headers, metas, status ?? null) });
    } catch (error) {
      scope.postMessage({ kind: 'page', id, error: `${error.name}: ${error.message}` });
    }
    return;
  }
  if (event.data.kind === 'usage') {
    const { id, robots, agent, mode, url } = event.data;
    try {
      await ready;
      scope.postMessage({ kind: 'usage', id, answer: usageOf(robots, agent, mode, url) });
    } catch (error) {
      scope.postMessage({ kind: 'usage', id, error: `${error.name}: ${error.message}` });
    }
    return;
  }
  const { id, robots, previous, agent, mode, urls: urlText } = event.data;
  try {
    await ready;
    const started = performance.now();
    const urls = urlText.split('\n').map((line) => line.replace(/\r$/, '').trim()).filter((line) => line !== '');
    const matcher = parseRobots(robots, { mode }).matcher(agent);
    // the URLs are lines already (split on line ends, trimmed): one per line, as checkLines reads them; one
    // bulk call gives every verdict and deciding line
    const bytes = encoder.encode(urls.length === 0 ? '' : urls.join('\n') + '\n');
    const { verdicts, lines } = matcher.explainLines(bytes);
    const findings = lintRobots(encoder.encode(robots), { mode }).findings;
    const changes = previous === null ? null : compare(previous, matcher, agent, mode, bytes);
    const ruleText = lineTexts(robots, [...lines, ...(changes?.rows ?? []).map((row) => row.newRule?.line ?? 0)]);
    scope.postMessage({ id, agent, mode, urls, verdicts, lines, ruleText, findings, changes, warning: agentWarning(agent), ms: performance.now() - started }, [verdicts.buffer, lines.buffer]);
  } catch (error) {
    scope.postMessage({ id, error: `${error.name}: ${error.message}` });
  }
};
