// npm run bench:pack: many hosts from a compiled pack (robotstxt pack, check --pack) against the same files
// read from a folder (check --robots-dir) and against Google's reference library, on the crawl made only of
// the corpus's real robots.txt files (bench/heavy-tail-corpus.ts with no generated host), each file three
// times under three host names (so the pack's deduplication has its real share, as a crawl's copies of one
// CMS's file do). Whole process, each command with its URL file on standard input, one thread; the
// reference answers the same stream through its API, its run split into parts interleaved with ours
// (alternating, medians). Rows: ~10 URLs per host in random host order, ~37 sorted by host, and one URL per
// host (what a run pays per host met). Also the pack's build time and size beside the bodies' bytes, and
// the time inside the run per host (--stats). Writes its section of bench/RESULTS.md. Skips, with the reason
// printed, when the corpus or the reference is absent.
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { heavyTailCorpus, type CrawlHost } from './heavy-tail-corpus.js';
import { writeSectionResults } from './results-file.js';
import { cliPath as CLI, medianOf as median, runCli } from './cli-runs.js';
import { buildReferenceOracle } from './reference-oracle.js';
import { timed, writeReferenceParts, type TimedRun } from './crawl-runs.js';
import { seededRandom } from './data.js';

const AGENT = 'Googlebot';
const root = fileURLToPath(new URL('../../', import.meta.url));
const quick = process.argv.includes('--quick');
const RUNS = quick ? 1 : 5;
const COPIES = 3;
const corpusRoot = join(root, '..', 'shared', 'corpus', 'robots');
const { oracle, referenceNote } = buildReferenceOracle(root);

const lines: string[] = ['## Many hosts from a pack', ''];
if (!existsSync(corpusRoot) || referenceNote !== '') {
  const reason = !existsSync(corpusRoot) ? `${corpusRoot} is absent` : referenceNote;
  console.warn(`skipped: the pack benchmark: ${reason}`);
  lines.push(`Skipped on ${new Date().toISOString().slice(0, 10)}: ${reason}.`);
} else {
  const corpus = heavyTailCorpus(root, quick, 0);
  // each real file under COPIES names: host i of copy c is `c-<name>`
  const hosts: CrawlHost[] = [];
  for (let copy = 0; copy < COPIES; copy++) for (const host of corpus.hosts) hosts.push({ ...host, name: `c${copy}-${host.name}` });
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-pack-bench-'));
  try {
    const robotsDir = join(dir, 'robots');
    mkdirSync(robotsDir);
    let bodyBytes = 0;
    for (const host of hosts) {
      writeFileSync(join(robotsDir, `${host.name}.txt`), host.body);
      bodyBytes += host.body.length;
    }
    const pack = join(dir, 'crawl.pack');
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '');
    const builds: number[] = [];
    let summary = '';
    for (let r = 0; r < RUNS; r++) {
      const built = runCli(['pack', '--robots-dir', robotsDir, '--out', pack, '--max-bytes', '0'], empty);
      builds.push(built.seconds);
      summary = built.stderr.trim();
    }
    const packBytes = statSync(pack).size;
    const random = seededRandom(5);
    /** URL streams over the copies: the corpus's own streams, each line's host moved to a random copy. */
    const streamOf = (perHost: number, order: 'random' | 'sorted', seed: number): { host: number; url: string }[] => {
      const base = corpus.urlLines(perHost, order, seed, 'even', true);
      return base.map(({ host, url }) => {
        const copy = order === 'sorted' ? host % COPIES : Math.floor(random() * COPIES);
        const name = corpus.hosts[host].name;
        return { host: copy * corpus.hosts.length + host, url: url.replace(`https://${name}`, `https://c${copy}-${name}`) };
      });
    };
    const oneEach = hosts.map((host, index) => ({ host: index, url: `https://${host.name}${host.paths[0] ?? '/'}` }));
    const shuffledOnes = [...oneEach].sort(() => random() - 0.5);
    const rows: string[] = [];
    const inside: string[] = [];
    for (const [label, stream] of [
      ['~10 per host, random host order', streamOf(10, 'random', 7)],
      ['~37 per host, sorted by host', streamOf(37, 'sorted', 11)],
      ['one per host, random host order', shuffledOnes],
    ] as const) {
      const urlFile = join(dir, `urls-${rows.length}.txt`);
      writeFileSync(urlFile, stream.map((line) => line.url).join('\n') + '\n');
      const parts = await writeReferenceParts(join(dir, `reference-${rows.length}`), stream, hosts, AGENT, 0, RUNS);
      const runs = new Map<string, TimedRun[]>([['reference', []], ['--robots-dir', []], ['--pack', []], ['--pack --cache-mb 256', []]]);
      const commands: [string, string[]][] = [
        ['--robots-dir', ['check', '--robots-dir', robotsDir, '--agent', AGENT, '--max-bytes', '0', '--threads', '1', '-']],
        ['--pack', ['check', '--pack', pack, '--agent', AGENT, '--threads', '1', '-']],
        ['--pack --cache-mb 256', ['check', '--pack', pack, '--agent', AGENT, '--threads', '1', '--cache-mb', '256', '-']],
      ];
      for (let r = 0; r < RUNS; r++) {
        (runs.get('reference') as TimedRun[]).push(await timed(oracle, [], parts[r]));
        for (const [name, args] of commands) (runs.get(name) as TimedRun[]).push(await timed(process.execPath, [CLI, ...args], urlFile));
      }
      for (const part of parts) rmSync(part);
      const reference = (runs.get('reference') as TimedRun[]).reduce((sum, run) => sum + run.seconds, 0);
      const cells = commands.map(([name]) => {
        const own = runs.get(name) as TimedRun[];
        const seconds = median(own.map((run) => run.seconds));
        return `${seconds.toFixed(3)} s (**${(reference / seconds).toFixed(1)}x**, ${Math.max(...own.map((run) => run.peakMiB)).toFixed(0)} MiB)`;
      });
      const row = `| ${label} (${stream.length.toLocaleString('en')} URLs) | ${reference.toFixed(3)} s | ${cells.join(' | ')} |`;
      rows.push(row);
      console.log(row);
      // inside the run: --stats's seconds, no process start
      for (const [name, args] of commands) {
        const seconds = median(Array.from({ length: RUNS }, () => Number(/lines in ([\d.]+) s/.exec(runCli([...args.slice(0, -1), '--stats', '-'], urlFile).stderr)?.[1] ?? 'NaN')));
        inside.push(`${label}, ${name}: ${seconds.toFixed(3)} s (${(seconds * 1e6 / hosts.length).toFixed(1)} µs per host)`);
      }
    }
    lines.push(
      `Measured by \`npm run bench:pack\` (bench/pack.ts) on ${new Date().toISOString().slice(0, 10)}; ${cpus().length} x ${cpus()[0]?.model.trim() ?? 'unknown CPU'}; Node ${process.version}. The crawl: the corpus's ${corpus.hosts.length.toLocaleString('en')} real files, each under ${COPIES} host names (${hosts.length.toLocaleString('en')} hosts, ${(bodyBytes / 1e6).toFixed(1)} MB of bodies), read whole (\`--max-bytes 0\`); one thread; whole process, medians of ${RUNS} runs, each of ours after a part of the reference's (Google's library built from ../shared/reference-oracle, answering the same stream through its API; its time is the sum of its parts). Ratios: the reference's time over ours.`,
      '',
      `The pack: built in ${median(builds).toFixed(2)} s (median of ${RUNS}), ${(packBytes / 1e6).toFixed(1)} MB for ${(bodyBytes / 1e6).toFixed(1)} MB of bodies (${(packBytes / bodyBytes).toFixed(2)}x). \`${summary.replace(/\S*crawl\.pack/, 'crawl.pack')}\``,
      '',
      '| URLs | reference | check --robots-dir | check --pack (default cache: read in pages) | check --pack --cache-mb 256 (read whole) |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      `Inside the run (--stats, no process start; medians): ${inside.join('; ')}.`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(writeSectionResults('pack', lines));
