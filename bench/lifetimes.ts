// npm run bench:lifetimes (also the last part of npm run bench): long-lived processes and large inputs, each
// with every verdict checked and its memory held to a stated bound (a run past a bound says so and exits 1).
//   - 100,000 MultiHostMatchers made, used and closed; 100,000 more dropped without close() while the event
//     loop turns (a crawler's I/O): the finalizers give their memory back;
//   - 1,000,000 per-agent matchers of one robots.txt, every verdict checked;
//   - robotstxt test --batch: 20,000 distinct agents over one 200 KB file of wildcard rules, and 300,000
//     distinct bodies, within --cache-mb + 100 MiB;
//   - robotstxt check --robots-dir with the largest --cache-mb (3072) over enough hosts to fill it: every line
//     equals the library's verdict for its host, and the output equals a --cache-mb 64 run's.
// Each part runs in a process of its own (peak memory from GNU time's maximum resident set size).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MultiHostMatcher, robotsFromMap, parseRobots } from '../src/node/index.js';
import '../src/node/core-node.js'; // the WebAssembly core, loaded from build/
import { core } from '../src/core/wasm/core.js';
import { cliPath } from './cli-runs.js';
import { seededRandom } from './data.js';
import { writeSectionResults } from './results-file.js';

const MiB = 1048576;
const encoder = new TextEncoder();
const part = process.argv[process.argv.indexOf('--part') + 1];

/** Memory figures sampled while a part runs. */
class MemorySampler {
  wasmStart = core().frame.memoryBytes().length;
  wasmPeak = this.wasmStart;
  rssPeak = process.memoryUsage().rss;
  heapPeak = process.memoryUsage().heapUsed;
  sample(): void {
    const usage = process.memoryUsage();
    this.wasmPeak = Math.max(this.wasmPeak, core().frame.memoryBytes().length);
    this.rssPeak = Math.max(this.rssPeak, usage.rss);
    this.heapPeak = Math.max(this.heapPeak, usage.heapUsed);
  }
  report(extra: Record<string, number>): string {
    this.sample();
    return JSON.stringify({ wasmStartMiB: this.wasmStart / MiB, wasmPeakMiB: this.wasmPeak / MiB, wasmEndMiB: core().frame.memoryBytes().length / MiB, heapPeakMiB: this.heapPeak / MiB, liveHeapBlocksMiB: core().frame.heap.liveBytes / MiB, ...extra });
  }
}

const HOST_BODIES = new Map([
  ['shop.example', 'User-agent: *\nDisallow: /private\nAllow: /private/ok\nDisallow: /*.pdf$\n'],
  ['blog.example', 'User-agent: Googlebot\nDisallow: /drafts/\n\nUser-agent: *\nDisallow: /\n'],
]);
const HOST_URLS = ['https://shop.example/private/x', 'https://shop.example/private/ok', 'https://shop.example/a.pdf', 'https://blog.example/drafts/1', 'https://blog.example/post', 'https://other.example/x', 'relative/path'];
const HOST_EXPECTED = [2, 1, 2, 2, 1, 1, 1];

/** A part: many-host matchers made and used, closed or dropped. */
async function manyHostMatchers(close: boolean): Promise<string> {
  const memory = new MemorySampler();
  const lines = encoder.encode(HOST_URLS.join('\n'));
  const source = robotsFromMap(HOST_BODIES);
  let wrong = 0;
  const started = performance.now();
  for (let i = 0; i < 100_000; i++) {
    const hosts = new MultiHostMatcher({ agents: 'Googlebot', source });
    const verdicts = await hosts.checkLines(lines);
    for (let k = 0; k < HOST_EXPECTED.length; k++) if (verdicts[k] !== HOST_EXPECTED[k]) wrong++;
    if (close) hosts.close();
    else if (i % 100 === 99) await new Promise(setImmediate); // the event loop turns, as a crawler's I/O makes it
    if (i % 1000 === 999) memory.sample();
  }
  return memory.report({ seconds: (performance.now() - started) / 1000, wrong, checked: 100_000 * HOST_EXPECTED.length });
}

/**
 * A part: a million matchers made and dropped, every verdict checked: nine in ten from a file parsed for it
 * (`parseRobots(body).matcher(agent)`, as a crawler meeting hosts makes them), one in ten from one long-lived
 * file asked for ever new agents (its kept matchers bounded); one in a hundred answers in bulk (compiled,
 * resident in the WebAssembly heap with an automaton region), the rest one URL each.
 */
function perAgentMatchers(): string {
  const memory = new MemorySampler();
  let body = 'User-agent: *\nDisallow: /private\nAllow: /private/ok\nDisallow: /*.pdf$\n';
  // (product tokens are letters, '-' and '_': a digit would end the token)
  const token = (g: number): string => `named-${String.fromCharCode(97 + Math.floor(g / 26))}${String.fromCharCode(97 + (g % 26))}`;
  for (let g = 0; g < 50; g++) body += `\nUser-agent: ${token(g)}\nDisallow: /only-${g}/\nAllow: /\n`;
  const longLived = parseRobots(body);
  const urls = ['https://e.com/private/x', 'https://e.com/private/ok', 'https://e.com/only-7/a', 'https://e.com/a.pdf'];
  const lines = encoder.encode(urls.join('\n'));
  let wrong = 0;
  const started = performance.now();
  for (let i = 0; i < 1_000_000; i++) {
    const named = i % 7 === 0 ? i % 50 : -1;
    const agent = named >= 0 ? token(named) : `agent${i}`;
    const matcher = (i % 10 === 0 ? longLived : parseRobots(body)).matcher(agent);
    const expected = named >= 0 ? [1, 1, named === 7 ? 2 : 1, 1] : [2, 1, 1, 2];
    if (i % 100 === 1) {
      const verdicts = matcher.checkLines(lines); // bulk: resident in the heap, with an automaton region
      for (let k = 0; k < urls.length; k++) if (verdicts[k] !== expected[k]) wrong++;
    } else if (matcher.isAllowed(urls[i % urls.length]) !== (expected[i % urls.length] === 1)) {
      wrong++;
    }
    if (i % 10_000 === 9_999) memory.sample();
  }
  return memory.report({ seconds: (performance.now() - started) / 1000, wrong });
}

if (part === 'hosts-closed') console.log(await manyHostMatchers(true));
else if (part === 'hosts-dropped') console.log(await manyHostMatchers(false));
else if (part === 'agents') console.log(perAgentMatchers());
else await driver();

/** Runs a command under GNU time: its exit status, stdout and stderr, and peak resident memory in MiB. */
function measured(command: string, args: string[], stdinFile: string | null = null, stdoutFile: string | null = null): { status: number | null; stdout: string; stderr: string; peakMiB: number; seconds: number } {
  const started = performance.now();
  const shell = `/usr/bin/time -f 'peak-kib %M' "$@"${stdinFile === null ? '' : ` < '${stdinFile}'`}${stdoutFile === null ? '' : ` > '${stdoutFile}'`}`;
  const result = spawnSync('sh', ['-c', shell, 'sh', command, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const peak = /peak-kib (\d+)/.exec(result.stderr);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr.replace(/peak-kib \d+\n?/, ''), peakMiB: peak === null ? NaN : Number(peak[1]) / 1024, seconds: (performance.now() - started) / 1000 };
}

async function driver(): Promise<void> {
  const failures: string[] = [];
  const bound = (what: string, value: number, limit: number): string => {
    if (!(value <= limit)) failures.push(`${what}: ${value.toFixed(1)} MiB, over the bound of ${limit} MiB`);
    return `${value.toFixed(0)} MiB (bound ${limit})`;
  };
  const rows: string[] = [];
  const self = fileURLToPath(import.meta.url);

  // in-process parts
  const parts = [
    { name: 'hosts-closed', what: '100,000 `MultiHostMatcher`s made, used (7 URLs of 2 hosts) and closed', rssBound: 200, wasmBound: 4 },
    { name: 'hosts-dropped', what: '100,000 `MultiHostMatcher`s made, used and dropped without `close()`, the event loop turning every 100', rssBound: 600, wasmBound: 400 },
    { name: 'agents', what: '1,000,000 per-agent matchers made and dropped (`parseRobots(body).matcher(agent)`, 1 in 10 from one long-lived file; 1 in 100 in bulk)', rssBound: 250, wasmBound: 80 },
  ];
  for (const { name, what, rssBound, wasmBound } of parts) {
    const run = measured(process.execPath, ['--max-old-space-size=256', self, '--part', name]);
    if (run.status !== 0) throw new Error(`part ${name} failed (exit ${run.status}): ${run.stderr}`);
    const figures = JSON.parse(run.stdout.trim().split('\n').at(-1) as string) as Record<string, number>;
    if (figures.wrong !== 0) failures.push(`${name}: ${figures.wrong} wrong verdicts`);
    console.log(name, JSON.stringify(figures), `peak ${run.peakMiB.toFixed(0)} MiB`);
    rows.push(`| ${what} | ${figures.seconds.toFixed(1)} s | ${figures.wrong} | ${figures.wasmPeakMiB.toFixed(1)} MiB, ${bound(`${name} WebAssembly memory`, figures.wasmPeakMiB, wasmBound)} at the end ${figures.wasmEndMiB.toFixed(1)} | ${bound(`${name} peak RSS`, run.peakMiB, rssBound)} |`);
  }

  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-lifetimes-'));
  const random = seededRandom(32);
  try {
    // test --batch: 20,000 agents over one 200 KB file of wildcard rules
    let wild = 'User-agent: *\n';
    for (let i = 0; wild.length < 200_000; i++) wild += `Disallow: /*${i.toString(36)}*x$\nAllow: /a${i}*b\n`;
    for (let g = 0; g < 20; g++) wild += `\nUser-agent: agent${g * 997}\nDisallow: /g${g}\n`;
    writeFileSync(join(dir, 'wild.txt'), wild);
    const agentCases = Array.from({ length: 20_000 }, (_, i) => ({ robots: 'wild.txt', agent: `agent${i}`, url: `https://e.com/${random() < 0.3 ? 'a' : 'g'}${Math.floor(random() * 3000).toString(36)}q${random() < 0.5 ? 'x' : 'b'}` }));
    const batchRows: { what: string; cases: { robots?: string; robotsText?: string; agent: string; url: string }[] }[] = [
      { what: '`test --batch --cache-mb 64`: 20,000 distinct agents over one 200 KB file of wildcard rules', cases: agentCases },
    ];
    // test --batch: 300,000 distinct bodies
    const bodyCases = Array.from({ length: 300_000 }, (_, i) => ({ robotsText: `User-agent: *\nDisallow: /p${i}/\nDisallow: /*.${(i % 977).toString(36)}$\nAllow: /p${i}/open\n# ${'x'.repeat(i % 200)}\n`, agent: 'bot', url: `https://e.com/p${i}/${random() < 0.5 ? 'open' : 'shut'}.${(i % 977).toString(36)}` }));
    batchRows.push({ what: '`test --batch --cache-mb 64`: 300,000 distinct bodies (`robotsText`, 100-300 bytes each)', cases: bodyCases });
    for (const { what, cases } of batchRows) {
      const casesFile = join(dir, 'cases.jsonl');
      writeFileSync(casesFile, cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
      const answersFile = join(dir, 'answers.jsonl');
      const run = measured(process.execPath, [cliPath, 'test', '--batch', '--cache-mb', '64', casesFile], null, answersFile);
      if (run.status !== 0) failures.push(`${what}: exit ${run.status} ${run.stderr.trim()}`);
      const answers = readFileSync(answersFile, 'utf8').trimEnd().split('\n');
      let wrong = answers.length === cases.length ? 0 : Math.abs(answers.length - cases.length);
      const parsed = new Map<string, ReturnType<typeof parseRobots>>();
      cases.forEach((c, i) => {
        const text = c.robotsText ?? wild;
        let robots = parsed.get(text);
        if (robots === undefined) {
          robots = parseRobots(text, { maxBytes: 0 });
          if (c.robotsText === undefined) parsed.set(text, robots);
        }
        const explanation = robots.matcher(c.agent).explain(c.url);
        if (answers[i] !== JSON.stringify({ verdict: explanation.allowed ? 'allowed' : 'disallowed', line: explanation.rule?.line ?? null })) wrong++;
      });
      if (wrong !== 0) failures.push(`${what}: ${wrong} answers differ from the library's`);
      console.log(what, `${run.seconds.toFixed(1)} s, peak ${run.peakMiB.toFixed(0)} MiB, ${wrong} wrong`);
      rows.push(`| ${what} | ${run.seconds.toFixed(1)} s | ${wrong} of ${cases.length} | | ${bound(what, run.peakMiB, 64 + 100)} |`);
    }

    // check --robots-dir with the largest --cache-mb over enough hosts to fill it (and again with 64)
    const HOSTS = 1200; // about 3.3 GB of compiled rules: more than the largest cache holds
    const robotsDir = join(dir, 'robots');
    mkdirSync(robotsDir);
    const urls: string[] = [];
    const bodies: string[] = [];
    for (let h = 0; h < HOSTS; h++) {
      const rules = ['User-agent: *'];
      for (let i = 0, size = 0; size < 400_000; i++) {
        const rule = i % 5 === 0 ? `Allow: /${(h + i).toString(36)}*ok` : `Disallow: /${(h * 7 + i).toString(36)}*q${i % 97}*$`;
        rules.push(rule);
        size += rule.length + 1;
      }
      bodies.push(rules.join('\n') + '\n');
      writeFileSync(join(robotsDir, `h${h}.example.txt`), bodies[h]);
      for (let u = 0; u < 100; u++) urls.push(`https://h${h}.example/${(h * 7 + u * 3).toString(36)}x${u}q${u % 97}z${u % 3 === 0 ? '' : '/'}${u % 5 === 0 ? `${(h + u).toString(36)}ok` : ''}`);
    }
    for (let i = urls.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [urls[i], urls[j]] = [urls[j], urls[i]];
    }
    const urlFile = join(dir, 'urls.txt');
    writeFileSync(urlFile, urls.join('\n') + '\n');
    const outputs: string[] = [];
    for (const cacheMb of [3072, 64]) {
      const outputFile = join(dir, `out-${cacheMb}.txt`);
      const run = measured(process.execPath, [cliPath, 'check', '--robots-dir', robotsDir, '--agent', 'Googlebot', '--cache-mb', String(cacheMb), '--stats', urlFile], null, outputFile);
      if (run.status !== 0) failures.push(`check --cache-mb ${cacheMb}: exit ${run.status} ${run.stderr.trim()}`);
      outputs.push(readFileSync(outputFile, 'utf8'));
      const stats = /hosts: .*/.exec(run.stderr)?.[0] ?? run.stderr.trim();
      console.log(`check --cache-mb ${cacheMb}: ${run.seconds.toFixed(1)} s, peak ${run.peakMiB.toFixed(0)} MiB; ${stats}`);
      rows.push(`| \`check --robots-dir --cache-mb ${cacheMb}\`: ${urls.length} URLs of ${HOSTS} hosts (400 KB of wildcard rules each), random order; ${stats.replace(/\|/g, '/')} | ${run.seconds.toFixed(1)} s | (below) | | ${bound(`check --cache-mb ${cacheMb}`, run.peakMiB, cacheMb + 100)} |`);
    }
    // every line against the library's verdict for its host's body
    const expected = new Map<number, Uint8Array>();
    const byHost = new Map<number, number[]>();
    urls.forEach((url, i) => {
      const host = Number(/^https:\/\/h(\d+)\./.exec(url)?.[1]);
      (byHost.get(host) ?? byHost.set(host, []).get(host) as number[]).push(i);
    });
    for (const [host, indexes] of byHost) {
      const verdicts = parseRobots(bodies[host]).matcher('Googlebot').checkLines(encoder.encode(indexes.map((i) => urls[i]).join('\n')));
      indexes.forEach((index, k) => expected.set(index, verdicts.subarray(k, k + 1)));
    }
    const wanted = urls.map((url, i) => `${(expected.get(i) as Uint8Array)[0] === 1 ? 'allowed' : 'disallowed'}\t${url}`);
    const wrong = outputs.map((output) => {
      const lines = output.split('\n');
      return wanted.filter((line, i) => line !== lines[i]).length + (lines.length === wanted.length + 1 ? 0 : 1);
    });
    if (wrong.some((count) => count !== 0)) failures.push(`check --robots-dir: ${wrong.join(' and ')} lines differ from the library's verdicts`);
    rows.push(`| both runs against the library (\`parseRobots(body).matcher('Googlebot')\` per host) | | ${wrong[0]} and ${wrong[1]} of ${urls.length}; outputs ${outputs[0] === outputs[1] ? 'identical' : 'DIFFERENT'} | | |`);
    if (outputs[0] !== outputs[1]) failures.push('check --robots-dir: the --cache-mb 3072 and 64 outputs differ');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const date = new Date().toISOString().slice(0, 10);
  const lines = [
    '## Long lives and large inputs',
    '',
    `Measured by \`npm run bench:lifetimes\` (the last part of \`npm run bench\`) on ${date}. Each part runs in a process of its own; peak RSS is GNU time's maximum resident set size, the WebAssembly figures are the instance's linear memory sampled while it runs. A part past its bound fails the run.`,
    '',
    '| part | time | wrong verdicts | WebAssembly memory (peak) | peak RSS |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    failures.length === 0 ? 'Every bound held.' : `Bounds broken: ${failures.join('; ')}.`,
  ];
  console.log(writeSectionResults('lifetimes', lines));
  if (failures.length > 0) {
    console.error(`bench:lifetimes: ${failures.join('; ')}`);
    process.exitCode = 1;
  }
}
