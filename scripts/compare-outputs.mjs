#!/usr/bin/env node
// Are two builds' outputs byte-identical? For refactors: build main in another worktree, then
//   node scripts/compare-outputs.mjs <other checkout>/dist/src/bin/robotstxt.cjs [this checkout's CLI]
// Runs the same commands with both command lines over the heavy-tailed many-host crawl of
// npm run bench:heavy-tail (its real files included when ../shared/corpus is present), every file of
// ../shared/corpus/robots through test --batch in both modes, lint on a sample of them, the real access log
// of ../shared/corpus/logs and the benchmark's generated log (audit, check --log, diff), and compares stdout,
// stderr (durations masked) and exit status. Prints one line per command and exits 1 when any differs.
// Uses this checkout's dist/bench (npm run build first).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const [before, after = join(root, 'dist/src/bin/robotstxt.cjs')] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const quick = process.argv.includes('--quick');
if (before === undefined || !existsSync(before) || !existsSync(after)) {
  console.error('usage: node scripts/compare-outputs.mjs <other robotstxt.cjs> [<this robotstxt.cjs>] [--quick]');
  process.exit(2);
}
const { heavyTailCorpus } = await import(join(root, 'dist/bench/heavy-tail-corpus.js'));
const { accessLogLines, shopRobots } = await import(join(root, 'dist/bench/data.js'));

const work = mkdtempSync(join(tmpdir(), 'robotstxt-compare-'));
const corpusRobots = join(root, '..', 'shared', 'corpus', 'robots');
const realLog = join(root, '..', 'shared', 'corpus', 'logs', 'elastic-apache-combined.log');

// ---- inputs ----
const crawl = heavyTailCorpus(root, quick);
const robotsDir = join(work, 'robots');
mkdirSync(robotsDir);
for (const host of crawl.hosts) writeFileSync(join(robotsDir, `${host.name}.txt`), host.body);
/** @type {(name: string, lines: { url: string }[]) => string} */
const urlFile = (name, lines) => {
  const path = join(work, name);
  writeFileSync(path, lines.map(({ url }) => url).join('\n') + '\n');
  return path;
};
const randomUrls = urlFile('random.txt', crawl.urlLines(10, 'random', 7));
const sortedUrls = urlFile('sorted.txt', crawl.urlLines(35, 'sorted', 8));
const shop = join(work, 'shop.txt');
writeFileSync(shop, shopRobots());
const generatedLog = join(work, 'access.log');
writeFileSync(generatedLog, accessLogLines(quick ? 50_000 : 300_000).join('\n') + '\n');

/** @type {string[]} */
const corpusFiles = [];
/** @type {(dir: string) => void} */
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else corpusFiles.push(path);
  }
};
if (existsSync(corpusRobots)) walk(corpusRobots);
corpusFiles.sort();
const cases = join(work, 'cases.jsonl');
{
  const lines = [];
  for (const file of corpusFiles) {
    const text = readFileSync(file, 'latin1');
    const values = [...text.matchAll(/^\s*(?:dis)?allow\s*:\s*(\S+)/gim)].slice(0, 6).map((m) => m[1]);
    const paths = ['/', '/robots.txt', '/index.html', ...values, ...values.map((v) => `${v.replace(/[*$]/g, '')}x`)];
    for (const path of paths) {
      for (const agent of ['Googlebot', 'bingbot', 'FooBot']) {
        for (const mode of ['google', 'rfc']) lines.push(JSON.stringify({ robots: relative(corpusRobots, file), agent, url: `https://example.com${path}`, mode }));
      }
    }
  }
  writeFileSync(cases, lines.join('\n') + '\n');
}

// ---- commands ----
// one vendor's ranges: the other crawlers' requests are not checked, and the reports say why
const someRanges = join(work, 'some-ranges');
mkdirSync(someRanges, { recursive: true });
copyFileSync(join(root, 'examples/crawler-ranges/gptbot.json'), join(someRanges, 'gptbot.json'));
const commands = [
  ['check random order, default --max-bytes', ['check', '--robots-dir', robotsDir, '--agent', 'Googlebot', randomUrls]],
  ['check random order, --max-bytes 0, jsonl', ['check', '--robots-dir', robotsDir, '--agent', 'Googlebot', '--max-bytes', '0', '--format', 'jsonl', randomUrls]],
  ['check sorted, 2 threads', ['check', '--robots-dir', robotsDir, '--agent', 'Googlebot', '--threads', '2', sortedUrls]],
  ['check sorted, 2 agents, jsonl, --only disallowed, 2 threads', ['check', '--robots-dir', robotsDir, '--agent', 'Googlebot', '--agent', 'bingbot', '--format', 'jsonl', '--only', 'disallowed', '--threads', '2', sortedUrls]],
  ['check one file, jsonl, --mode rfc', ['check', '--robots', shop, '--agent', 'Googlebot', '--format', 'jsonl', '--mode', 'rfc', randomUrls]],
  ['audit generated log, table', ['audit', '--robots', shop, generatedLog]],
  ['audit generated log, json, --verify', ['audit', '--robots', shop, '--verify', '--crawler-ranges', join(root, 'examples/crawler-ranges'), '--format', 'json', generatedLog]],
  ['audit generated log, html', ['audit', '--robots', shop, '--format', 'html', generatedLog]],
  ['check --log generated log, jsonl', ['check', '--robots', shop, '--agent', 'Googlebot', '--log', '--format', 'jsonl', generatedLog]],
  ['check --usage train-ai, text, --threads 2', ['check', '--robots', join(root, 'examples/ai-robots.txt'), '--agent', 'GPTBot', '--usage', 'train-ai', '--threads', '2', randomUrls]],
  ['check --usage search, jsonl', ['check', '--robots', join(root, 'examples/ai-robots.txt'), '--agent', 'Googlebot', '--usage', 'search', '--format', 'jsonl', randomUrls]],
  ['check one file, --threads 2 on a short input (the note of fewer threads)', ['check', '--robots', shop, '--agent', 'Googlebot', '--threads', '2', join(root, 'examples/shop-urls.txt')]],
  ['audit --verify with one range file (verification notes), table', ['audit', '--robots', shop, '--verify', '--crawler-ranges', someRanges, generatedLog]],
  ['audit --verify with one range file (verification notes), html', ['audit', '--robots', shop, '--verify', '--crawler-ranges', someRanges, '--format', 'html', generatedLog]],
  ['diff --log generated log, json', ['diff', shop, join(root, 'examples/shop-robots.new.txt'), '--agent', 'Googlebot', '--log', generatedLog, '--format', 'json']],
];
// every log format of examples/logs, one robots.txt per host and a default host, as audit, check and fetch read them
for (const name of readdirSync(join(root, 'examples/logs')).sort()) {
  const file = join(root, 'examples/logs', name);
  const fields = name === 'app-custom.jsonl' ? ['--log-field', 'target=req.line', '--log-field', 'host=site', '--log-field', 'userAgent=req.ua', '--log-field', 'time=at'] : [];
  commands.push(
    [`audit --robots-dir, ${name}, json`, ['audit', '--robots-dir', join(root, 'examples/robots'), '--host', 'shop.example', '--format', 'json', ...fields, file]],
    [`audit --robots-dir --by host, ${name}, table`, ['audit', '--robots-dir', join(root, 'examples/robots'), '--host', 'shop.example', '--by', 'host', ...fields, file]],
    [`check --log --robots-dir, ${name}, jsonl`, ['check', '--robots-dir', join(root, 'examples/robots'), '--host', 'shop.example', '--agent', 'Googlebot', '--log', '--format', 'jsonl', ...fields, file]],
    [`check --log --robots, ${name}, text`, ['check', '--robots', join(root, 'examples/shop-robots.txt'), '--agent', 'Googlebot', '--log', ...fields, file]],
  );
}
if (existsSync(realLog)) {
  commands.push(
    ['audit real log, table', ['audit', '--robots', join(root, 'examples/shop-robots.txt'), realLog]],
    ['audit real log, json', ['audit', '--robots', join(root, 'examples/shop-robots.txt'), '--format', 'json', realLog]],
    ['check --log real log, text', ['check', '--robots', join(root, 'examples/shop-robots.txt'), '--agent', 'Googlebot', '--log', realLog]],
    ['diff --log real log, text', ['diff', join(root, 'examples/shop-robots.txt'), join(root, 'examples/shop-robots.new.txt'), '--agent', 'Googlebot', '--log', realLog]],
  );
}
if (corpusFiles.length > 0) {
  commands.push(['test --batch, every corpus file, both modes, 3 agents', ['test', '--batch', '--robots-root', corpusRobots, cases]]);
  for (const file of corpusFiles.filter((_, i) => i % (quick ? 100 : 20) === 0)) commands.push([`lint ${relative(corpusRobots, file)}`, ['lint', '--format', 'json', file]]);
}

// ---- runs ----
/** @type {(text: string) => string} */
const mask = (text) => text.replace(/\d+(\.\d+)? ?(ms|s)\b/g, '<time>').replace(/peak memory [\d.]+ MiB/g, 'peak memory <mem>');
let differing = 0;
for (const [name, args] of commands) {
  const runs = [before, after].map((cli) => spawnSync(process.execPath, [cli, ...args], { cwd: work, maxBuffer: 1 << 30 }));
  const [a, b] = runs;
  const same = a.status === b.status && Buffer.compare(a.stdout, b.stdout) === 0 && mask(a.stderr.toString('latin1')) === mask(b.stderr.toString('latin1'));
  if (!same) differing++;
  console.log(`${same ? 'same' : 'DIFFERENT'}\t${name}\t(exit ${a.status}, ${a.stdout.length} bytes out${same ? '' : `; other: exit ${b.status}, ${b.stdout.length} bytes`})`);
  if (!same && process.argv.includes('--show')) {
    console.log(`  stderr before: ${a.stderr.toString().slice(0, 400)}\n  stderr after:  ${b.stderr.toString().slice(0, 400)}`);
  }
}
rmSync(work, { recursive: true, force: true });
console.log(`${commands.length - differing} of ${commands.length} commands gave byte-identical output${corpusFiles.length === 0 ? ' (../shared/corpus absent: corpus files, lint and the real log left out)' : ''}`);
process.exit(differing > 0 ? 1 : 0);
