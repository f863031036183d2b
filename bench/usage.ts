// npm run bench:usage: `robotstxt check --usage train-ai` against plain `robotstxt check` on the same
// 1,000,000 URLs and the same robots.txt (the ~50-rule shop file of bench/data.ts with Content-Usage rules
// in its group: a path-less one, a directory, a wildcard and an end-anchored one), whole process, interleaved
// runs, text and jsonl. Target: --usage at half the plain rate or better. Writes its section of
// bench/RESULTS.md.
import { cpus, totalmem, tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shopRobots, shopUrls } from './data.js';
import { medianOf, runCli } from './cli-runs.js';
import { writeSectionResults } from './results-file.js';

const URLS = 1_000_000;
const RUNS = 7;
const work = mkdtempSync(join(tmpdir(), 'robotstxt-bench-usage-'));
try {
  const robots = join(work, 'robots.txt');
  // the Content-Usage rules go in the shop file's `User-agent: *` group, before its first rule
  writeFileSync(robots, shopRobots().replace('User-agent: *\n', 'User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y, search=y\nContent-Usage: /*?q= search=n\nContent-Usage: /*.pdf$ train-ai=n\n'));
  const urls = join(work, 'urls.txt');
  writeFileSync(urls, shopUrls(URLS).join('\n') + '\n');
  const runs: Record<string, number[]> = {};
  const variants: [string, string[]][] = [
    ['text', []],
    ['text --usage train-ai', ['--usage', 'train-ai']],
    ['jsonl', ['--format', 'jsonl']],
    ['jsonl --usage train-ai', ['--format', 'jsonl', '--usage', 'train-ai']],
  ];
  for (let run = 0; run < RUNS + 1; run++) {
    for (const [name, extra] of variants) {
      const { seconds } = runCli(['check', '--robots', robots, '--agent', 'Googlebot', '--threads', '1', ...extra, '-'], urls);
      if (run > 0) (runs[name] ??= []).push(seconds); // the first round warms the file cache
    }
  }
  const rate = (name: string): number => URLS / medianOf(runs[name]);
  const row = (format: string): string => {
    const ratio = rate(`${format} --usage train-ai`) / rate(format);
    return `| ${format} | ${(rate(format) / 1e6).toFixed(2)} M | ${(rate(`${format} --usage train-ai`) / 1e6).toFixed(2)} M | ${ratio.toFixed(2)}x | >= 0.50x: ${ratio >= 0.5 ? 'met' : '**not met**'} |`;
  };
  const lines = [
    '## AI usage in bulk (`npm run bench:usage`, bench/usage.ts)',
    '',
    `Generated on ${new Date().toISOString().slice(0, 10)}; ${cpus().length} x ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.version}.`,
    `\`robotstxt check --robots <~50-rule shop file + 4 Content-Usage rules> --agent Googlebot --threads 1 -\` on ${URLS.toLocaleString('en')} URLs,`,
    `whole process (start-up included), median of ${RUNS} interleaved runs, beside the same command without --usage.`,
    '',
    '| format | check | check --usage train-ai | --usage / plain (same run) | target |',
    '|---|---|---|---|---|',
    row('text'),
    row('jsonl'),
  ];
  console.log(writeSectionResults('usage', lines));
} finally {
  rmSync(work, { recursive: true, force: true });
}
