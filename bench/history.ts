// npm run bench:history: audit judged by the robots.txt in force at each hit (--robots-history) against the
// plain audit (--robots), on the 1,000,000-line benchmark log of bench/data.ts (one day, 2026-11-21), whole
// process, interleaved runs. The history has two versions: the shop file from 2026-11-01, and the shop file with
// two more rules from 2026-11-21T12:00Z, so that the afternoon's requests fall within 24 h of the change and
// are judged by both versions. Target: at least 0.8x the plain audit's rate. Writes its section of bench/RESULTS.md.
import { cpus, tmpdir } from 'node:os';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { accessLogLines, seededRandom, shopRobots } from './data.js';
import { cliPath, medianOf, runCli } from './cli-runs.js';
import { timed } from './crawl-runs.js';
import { writeSectionResults } from './results-file.js';

const quick = process.argv.includes('--quick');
const LINES = quick ? 100_000 : 1_000_000;
const RUNS = quick ? 1 : 5;
const work = mkdtempSync(join(tmpdir(), 'robotstxt-bench-history-'));
try {
  const robots = join(work, 'robots.txt');
  writeFileSync(robots, shopRobots());
  const history = join(work, 'history', 'shop.example');
  mkdirSync(history, { recursive: true });
  writeFileSync(join(history, '2026-11-01.txt'), shopRobots());
  writeFileSync(join(history, '2026-11-21T12-00-00Z.txt'), shopRobots().replace('User-agent: *\n', 'User-agent: *\nDisallow: /media/\nDisallow: /*?sort=\n'));
  const log = join(work, 'access.log');
  writeFileSync(log, accessLogLines(LINES).join('\n') + '\n');
  const empty = join(work, 'empty.txt');
  writeFileSync(empty, '');
  const runs: Record<'plain' | 'history', number[]> = { plain: [], history: [] };
  for (let round = 0; round < RUNS + 1; round++) {
    const plain = runCli(['audit', '--robots', robots, log], empty).seconds;
    const byVersion = runCli(['audit', '--robots-history', join(work, 'history'), '--host', 'shop.example', log], empty).seconds;
    if (round > 0) { runs.plain.push(plain); runs.history.push(byVersion); } // the first round warms the caches
  }
  const plainRate = LINES / medianOf(runs.plain);
  const historyRate = LINES / medianOf(runs.history);
  const ratio = historyRate / plainRate;
  const section: string[] = [
    '## Audit by the robots.txt in force (`npm run bench:history`, bench/history.ts)',
    '',
    `Generated on ${new Date().toISOString().slice(0, 10)}; ${cpus().length} x ${cpus()[0]?.model.trim() ?? 'unknown CPU'}; Node ${process.version}. ${LINES.toLocaleString('en')} lines of bench/data.ts accessLogLines (one day), whole process, median of ${RUNS} interleaved runs. The history: the shop file from 2026-11-01 and a version with two more rules from 2026-11-21T12:00Z (the afternoon's requests judged by both versions).`,
    '',
    '| audit | lines/s | vs plain (same run) | target |',
    '|---|---|---|---|',
    `| --robots (plain) | ${(plainRate / 1e3).toFixed(1)} k | 1.00x | |`,
    `| --robots-history | ${(historyRate / 1e3).toFixed(1)} k | ${ratio.toFixed(2)}x | >= 0.80x: ${ratio >= 0.8 ? 'met' : '**not met**'} |`,
  ];
  // ---- memory: thousands of origins with tens of versions each ----
  const ORIGINS = quick ? 200 : 2000;
  const VERSIONS = 20;
  const many = join(work, 'many');
  const random = seededRandom(37);
  const words = ['shop', 'cart', 'account', 'search', 'blog', 'media', 'api', 'help', 'tag', 'user'];
  const day = 24 * 3600 * 1000;
  const start = Date.UTC(2026, 10, 1);
  let bodyBytes = 0;
  for (let o = 0; o < ORIGINS; o++) {
    const folder = join(many, `h${o}.example`);
    mkdirSync(folder, { recursive: true });
    for (let v = 0; v < VERSIONS; v++) {
      const rules = Array.from({ length: 20 + Math.floor(random() * 80) }, () => `${random() < 0.8 ? 'Disallow' : 'Allow'}: /${words[Math.floor(random() * words.length)]}/${Math.floor(random() * 1e6).toString(36)}${random() < 0.2 ? '*' : ''}`);
      const text = `User-agent: *\n${rules.join('\n')}\n`;
      bodyBytes += text.length;
      writeFileSync(join(folder, `${new Date(start + v * day).toISOString().slice(0, 10)}.txt`), text);
    }
  }
  const manyLog = join(work, 'many.log');
  const MANY_LINES = quick ? 20_000 : 200_000;
  const agents = ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)'];
  const logLines: string[] = [];
  for (let i = 0; i < MANY_LINES; i++) {
    const time = new Date(start + Math.floor(random() * VERSIONS * day));
    const stamp = `${String(time.getUTCDate()).padStart(2, '0')}/Nov/2026:${String(time.getUTCHours()).padStart(2, '0')}:${String(time.getUTCMinutes()).padStart(2, '0')}:00 +0000`;
    logLines.push(`h${Math.floor(random() * ORIGINS)}.example:443 66.249.66.1 - - [${stamp}] "GET /${words[Math.floor(random() * words.length)]}/${Math.floor(random() * 1e6).toString(36)} HTTP/1.1" 200 100 "-" "${agents[i % agents.length]}"`);
  }
  writeFileSync(manyLog, logLines.join('\n') + '\n');
  // the same audit over a tenth of the lines, then all: memory that stays put while the lines grow tenfold is bounded
  const tenthLog = join(work, 'many-tenth.log');
  writeFileSync(tenthLog, logLines.slice(0, MANY_LINES / 10).join('\n') + '\n');
  const tenth = await timed(process.execPath, [cliPath, 'audit', '--robots-history', many, '--format', 'json', tenthLog], empty);
  const memory = await timed(process.execPath, [cliPath, 'audit', '--robots-history', many, '--format', 'json', manyLog], empty);
  const text = await timed(process.execPath, [cliPath, 'audit', '--robots-history', many, manyLog], empty);
  // bounded: ten times the lines (each meeting another version: a parse per request, the report listing
  // every version judged) may not take the peak past half as much again
  const growth = memory.peakMiB / Math.max(1, tenth.peakMiB);
  section.push(
    '',
    `Memory: ${ORIGINS.toLocaleString('en')} origins with ${VERSIONS} versions each (${(bodyBytes / 1e6).toFixed(1)} MB of bodies), vhost log lines in random order over their ${VERSIONS} days (nearly every request meets a version other than the one before it), \`audit --robots-history\`, whole process, peak RSS (GNU time):`,
    '',
    '| audit | seconds | peak RSS |',
    '|---|---|---|',
    `| ${(MANY_LINES / 10).toLocaleString('en')} lines, --format json | ${tenth.seconds.toFixed(1)} | ${tenth.peakMiB.toFixed(0)} MiB |`,
    `| ${MANY_LINES.toLocaleString('en')} lines, --format json | ${memory.seconds.toFixed(1)} | ${memory.peakMiB.toFixed(0)} MiB |`,
    `| ${MANY_LINES.toLocaleString('en')} lines, text | ${text.seconds.toFixed(1)} | ${text.peakMiB.toFixed(0)} MiB |`,
    '',
    `Ten times the lines: ${growth.toFixed(2)}x the peak (bound 1.5x: ${growth <= 1.5 ? 'met' : '**not met**'}; exit ${memory.status}, ${text.status}). What the peak holds: parsed versions within 16 MiB (and those dropped while their requests wait, judged at 4 MiB), compiled matchers within 64 MiB of the core's heap, the JavaScript heap within 32 MiB of what lives in it (collected when past), the versions' times and files of up to 10,000 hosts, and the report (with JSON, a row per version judged and crawler).`,
  );
  console.log(writeSectionResults('history', section));
} finally {
  rmSync(work, { recursive: true, force: true });
}
