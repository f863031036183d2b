// The Tester's matching thread: parses, lints and matches here, so that the page stays responsive on a
// 500 KiB robots.txt and 100,000 URLs. Messages in: { id, robots, previous, agent, mode, urls }; out: the
// verdicts and deciding lines as typed arrays (transferred), lint findings and the verdict changes, with the
// agent and mode they were computed for (the page may have changed since).
import { initialize, parseRobots, lintRobots, agentWarning } from './dist/src/core/index.js';

const VERDICT_ALLOWED = 1;
const encoder = new TextEncoder();
const ready = initialize();

/** Verdict and deciding line (0: none) of every URL against one robots.txt text: one bulk call for all of them. */
function judge(text, agent, mode, urls) {
  const matcher = parseRobots(text, { mode }).matcher(agent);
  if (urls.length === 0) return { verdicts: new Uint8Array(0), lines: new Uint32Array(0) };
  // the URLs are lines already (split on line ends, trimmed): one per line, as checkLines reads them
  return matcher.explainLines(encoder.encode(urls.join('\n') + '\n'));
}

self.onmessage = async (event) => {
  const { id, robots, previous, agent, mode, urls: urlText } = event.data;
  try {
    await ready;
    const started = performance.now();
    const urls = urlText.split('\n').map((line) => line.replace(/\r$/, '').trim()).filter((line) => line !== '');
    const now = judge(robots, agent, mode, urls);
    const findings = lintRobots(encoder.encode(robots), { mode }).findings;
    let changes = null;
    if (previous !== null) {
      const before = judge(previous, agent, mode, urls);
      changes = [];
      urls.forEach((url, i) => {
        if (before.verdicts[i] !== now.verdicts[i]) changes.push({ index: i, url, allowedNow: now.verdicts[i] === VERDICT_ALLOWED, oldLine: before.lines[i], newLine: now.lines[i] });
      });
    }
    self.postMessage({ id, agent, mode, urls, verdicts: now.verdicts, lines: now.lines, findings, changes, warning: agentWarning(agent), ms: performance.now() - started }, [now.verdicts.buffer, now.lines.buffer]);
  } catch (error) {
    self.postMessage({ id, error: `${error.name}: ${error.message}` });
  }
};
