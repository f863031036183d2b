// npm run bench:pack: many hosts from a compiled pack (robotstxt pack, check --pack) against the same files
// read from a folder (check --robots-dir) and against Google's reference library, on the crawl made only of
// the corpus's real robots.txt files (bench/heavy-tail-corpus.ts with no generated host), each file three
// times under three host names (so the pack's deduplication has its real share, as a crawl's copies of one
// CMS's file do). Whole process, each command with its URL file on standard input, one thread, --cache-mb
// CACHE_MB (the pack's rules for the agent held: within half of it); the
// reference answers the same stream through its API, its run split into parts interleaved with ours
// (alternating, medians; each part written just before it runs, as a random stream of 800,000 URLs is
// gigabytes of the reference's input). Rows: ~62 URLs per host in random host order and sorted by host (about
// 800,000 URLs each), one URL per host (what a run pays per host met, less an empty run), one URL (the time
// to the first verdict); per URL with every host loaded (each ~62-per-host stream three times less once).
// Then the random stream from a .gz file and from a pipe of 4 KiB writes beside the plain file, and the pack
// with a cache a quarter of its size (peak memory against --cache-mb + 100 MiB). Also the pack's build time
// and size beside the bodies' bytes and beside the folder's floor (a fresh process reading every file and
// compiling each once, bench/compile-floor.ts; each after a `sync`, untimed). Writes its section of
// bench/RESULTS.md. Skips, with the reason printed, when the corpus or the reference is absent.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { heavyTailCorpus, type CrawlHost } from './heavy-tail-corpus.js';
import { writeSectionResults } from './results-file.js';
import { cliPath as CLI, medianOf, runCli, timedRun } from './cli-runs.js';
import { buildReferenceOracle } from './reference-oracle.js';
import { timed, writeReferenceParts, type TimedRun } from './crawl-runs.js';
import { seededRandom } from './data.js';

const AGENT = 'Googlebot';
const root = fileURLToPath(new URL('../../', import.meta.url));
const quick = process.argv.includes('--quick');
// (seven: with five, the medians of this machine's drifting whole-process times moved the same line by 15%
// between runs: sorted 23.5-27.6x the reference in four runs of one day)
const RUNS = quick ? 1 : 7;
/** Rounds of the per-URL measure (differences of noisy whole runs: more rounds than RUNS). */
const PER_URL_ROUNDS = quick ? 1 : 9;
const COPIES = 3;
/**
 * --cache-mb of every command but the small-cache row: the pack's rules for the agent are held (read once when
 * the matcher opens, no read per host) when they (27 MB of the pack's 54 MB of data here) and the index fit in half of what the cache leaves the matcher
 * (less a window, 16 MiB here, and a .gz file's inflated window ahead, 16 MiB more); the folder gets the same.
 */
const CACHE_MB = 160;
/**
 * Rounds of the per-host line: each an empty run and a run of one URL per host, back to back. A run here
 * varies by +-15 ms (the empty run took 167-232 ms in 20 runs), as much as 1 µs a host: with 11 rounds the
 * median moved by 0.7 µs between runs. With 41, two runs an hour apart gave 2.3 and 1.8 µs, the middle half
 * of each one's rounds 1.6-2.6 µs wide, so the median itself is uncertain by about 0.3 µs; 81 rounds (two
 * minutes) bring that to about 0.2.
 */
const PER_HOST_ROUNDS = 81;

/** A command's arguments with another --cache-mb. */
const withCache = (args: readonly string[], mb: number): string[] => args.map((arg, i) => (args[i - 1] === '--cache-mb' ? String(mb) : arg));
const corpusRoot = join(root, '..', 'shared', 'corpus', 'robots');
const { oracle, referenceNote } = buildReferenceOracle(root);

const compileFloorPath = fileURLToPath(new URL('./compile-floor.js', import.meta.url));
const memoryFloorPath = fileURLToPath(new URL('./memory-floor.js', import.meta.url));

/** Writes the file system's dirty pages out (`sync`, where there is one), so that no run pays an earlier one's writeback. */
function flushFileSystem(): void {
  spawnSync('sync', [], { stdio: 'ignore' });
}

/** Part k of `count` consecutive parts of a stream (about equal line counts). */
function partOf<T>(stream: readonly T[], k: number, count: number): T[] {
  return stream.slice(Math.round((k * stream.length) / count), Math.round(((k + 1) * stream.length) / count));
}

/**
 * The per-URL cost of `check --pack` in random host order over sorted, with every host loaded (the issue's
 * measure: the stream run again after its hosts are loaded; here each stream three times in one file less the
 * stream once, halved, so each host's one-time load is off and the difference is two copies' worth of signal),
 * and beside it the same ratio with only the empty run off (which counts each host's load as its URLs' cost).
 * Each round times once and thrice back to back, random then sorted; the differences are taken within a round
 * (this machine drifts by a third between minutes), and the medians over PER_URL_ROUNDS rounds.
 * files: the random stream's and the sorted stream's URL files; args: the command (input `-`).
 */
function perUrlWithHostsLoaded(files: string[], args: string[], emptySeconds: number, urls: number): string {
  const thrice = files.map((file) => {
    const tripled = `${file}.thrice`;
    const bytes = readFileSync(file);
    writeFileSync(tripled, Buffer.concat([bytes, bytes, bytes]));
    return tripled;
  });
  const once: number[][] = [[], []];
  const marginal: number[][] = [[], []];
  for (let r = 0; r < PER_URL_ROUNDS; r++) {
    for (const k of [0, 1]) {
      const first = runCli(args, files[k]).seconds;
      once[k].push(first);
      marginal[k].push((runCli(args, thrice[k]).seconds - first) / 2);
    }
  }
  const statsLine = runCli([...args.slice(0, -1), '--stats', '-'], thrice[0]).stderr;
  const stats = statsLine.match(/(\d+) evicted, (\d+) cached/);
  const held = /rules for the agent held/.test(statsLine);
  const [randomOnce, sortedOnce, randomCopy, sortedCopy] = [...once, ...marginal].map(medianOf);
  const roundRatios = marginal[0].map((seconds, r) => seconds / marginal[1][r]).sort((a, b) => a - b);
  const us = (seconds: number): string => (seconds * 1e6 / urls).toFixed(2);
  const cache = stats === null ? 'the cache not reported' : held && stats[1] === '0' ? 'the pack\'s rules for the agent held, nothing evicted: its later copies load no host again' : stats[1] === '0' ? `the random stream's ${stats[2]} rule sets stay cached, none evicted: its later copies load no host again` : `the random stream evicted ${stats[1]} rule sets: its later copies load some hosts again`;
  return `Per URL with every host loaded (as the issue measures it, the stream run again once its hosts are loaded: here each ~62-per-host stream three times in one file, less once, halved; ${PER_URL_ROUNDS} rounds, each timing once and thrice back to back, differences within the round, medians; ${cache}), \`check --pack\`: random host order ${us(randomCopy)} µs, sorted by host ${us(sortedCopy)} µs: **${(randomCopy / sortedCopy).toFixed(2)}x** (the rounds' own ratios ${roundRatios[0].toFixed(2)}-${roundRatios[roundRatios.length - 1].toFixed(2)}x, middle half ${roundRatios[Math.floor(roundRatios.length / 4)].toFixed(2)}-${roundRatios[Math.floor((roundRatios.length * 3) / 4)].toFixed(2)}x; once: ${randomOnce.toFixed(3)} s and ${sortedOnce.toFixed(3)} s). With only the empty run off instead (${emptySeconds.toFixed(3)} s; each host's one-time load, its rule set read into fresh memory, then counts as its URLs' cost): ${((randomOnce - emptySeconds) / (sortedOnce - emptySeconds)).toFixed(2)}x.`;
}

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
    // the build and its floor alternating (the machine drifts); each build writes a new file (the one before
    // removed first, untimed: replacing a pack costs the old file's unlink, about 11 ms for this one here);
    // the file system's dirty pages written out before each (untimed): the build does not wait for its 54 MB
    // to reach the disk (src/node/pack-build/writer.ts), and that writeback must not land in the next run
    const builds: number[] = [];
    const floors: number[] = [];
    let summary = '';
    for (let r = 0; r < RUNS; r++) {
      rmSync(pack, { force: true });
      flushFileSystem();
      const built = runCli(['pack', '--robots-dir', robotsDir, '--out', pack, '--max-bytes', '0'], empty);
      builds.push(built.seconds);
      summary = built.stderr.trim();
      flushFileSystem();
      const floorRun = timedRun(process.execPath, [compileFloorPath, robotsDir, '0'], empty);
      if (floorRun.status !== 0) throw new Error(`bench/compile-floor.ts failed (exit ${floorRun.status}): ${floorRun.stderr}`);
      floors.push(floorRun.seconds);
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
    const commands: [string, string[]][] = [
      ['--robots-dir', ['check', '--robots-dir', robotsDir, '--agent', AGENT, '--max-bytes', '0', '--threads', '1', '--cache-mb', String(CACHE_MB), '-']],
      ['--pack', ['check', '--pack', pack, '--agent', AGENT, '--threads', '1', '--cache-mb', String(CACHE_MB), '-']],
    ];
    const rows: string[] = [];
    const seconds = new Map<string, number>();
    const streams = [
      // (per corpus file: its lines are spread over its COPIES host names)
      ['~62 per host, random host order', streamOf(62 * COPIES, 'random', 7)],
      ['~62 per host, sorted by host', streamOf(62 * COPIES, 'sorted', 11)],
      ['one per host, random host order', shuffledOnes],
      ['one URL', shuffledOnes.slice(0, 1)],
    ] as const;
    const urlFiles: string[] = [];
    for (const [label, stream] of streams) {
      const urlFile = join(dir, `urls-${rows.length}.txt`);
      urlFiles.push(urlFile);
      writeFileSync(urlFile, stream.map((line) => line.url).join('\n') + '\n');
      const runs = new Map<string, TimedRun[]>([['reference', []], ...commands.map(([name]): [string, TimedRun[]] => [name, []])]);
      for (let r = 0; r < RUNS; r++) {
        // the reference's part r, written now and removed after it ran
        const [part] = await writeReferenceParts(join(dir, `reference-${rows.length}-${r}`), partOf(stream, r, RUNS), hosts, AGENT, 0, 1);
        (runs.get('reference') as TimedRun[]).push(await timed(oracle, [], part));
        rmSync(part);
        for (const [name, args] of commands) (runs.get(name) as TimedRun[]).push(await timed(process.execPath, [CLI, ...args], urlFile));
      }
      const reference = (runs.get('reference') as TimedRun[]).reduce((sum, run) => sum + run.seconds, 0);
      const cells = commands.map(([name]) => {
        const own = runs.get(name) as TimedRun[];
        const median = medianOf(own.map((run) => run.seconds));
        seconds.set(`${label} ${name}`, median);
        return `${median.toFixed(3)} s (**${(reference / median).toFixed(1)}x**, ${Math.max(...own.map((run) => run.peakMiB)).toFixed(0)} MiB)`;
      });
      const row = `| ${label} (${stream.length.toLocaleString('en')} URLs) | ${reference.toFixed(3)} s | ${cells.join(' | ')} |`;
      rows.push(row);
      console.log(row);
    }
    // the pack's rules for the agent held (read when the matcher opens): what --stats says of the one-URL run
    const heldStats = runCli([...commands[1][1].slice(0, -1), '--stats', '-'], urlFiles[3]).stderr.match(/from the pack \(its rules for the agent held: ([\d.]+ [KM]iB)\)/);
    const held = heldStats === null ? `read per host as met (not held with --cache-mb ${CACHE_MB})` : `held (${heldStats[1]} with the index: ${AGENT}'s compiled rules of each body, no body and no other agent's rules; read once when the matcher opens, the whole data's checksum with them: part of the empty run; no read per host)`;
    // an empty run (start-up and opening): a host's cost is the one-per-host run less it, both back to back in
    // each round (the machine drifts between minutes: a difference of medians taken apart moves with it)
    const emptyRuns = new Map<string, number>();
    flushFileSystem(); // (the reference's parts, written and removed above, are not written back during the rounds)
    const perHost = commands.map(([name, args]) => {
      const empties: number[] = [];
      const differences: number[] = [];
      for (let r = 0; r < PER_HOST_ROUNDS; r++) {
        const emptySeconds = runCli(args, empty).seconds;
        empties.push(emptySeconds);
        differences.push(runCli(args, urlFiles[2]).seconds - emptySeconds);
      }
      emptyRuns.set(name, medianOf(empties));
      const sorted = [...differences].sort((a, b) => a - b);
      const us = (seconds: number): string => (seconds * 1e6 / hosts.length).toFixed(1);
      return `${name} ${us(medianOf(differences))} µs (middle half of the rounds ${us(sorted[Math.floor(sorted.length / 4)])}-${us(sorted[Math.floor((sorted.length * 3) / 4)])} µs; empty run ${(emptyRuns.get(name) as number).toFixed(3)} s)`;
    });
    // per URL with every host loaded, as the issue measured it (perUrlWithHostsLoaded: each ~62-per-host stream
    // three times in one file less once; the later copies meet every host loaded already, no eviction: --stats)
    const perUrlLine = perUrlWithHostsLoaded(urlFiles.slice(0, 2), commands[1][1], emptyRuns.get('--pack') as number, streams[0][1].length);
    // the random stream from a .gz file and through a pipe of small writes, beside the plain file (alternating)
    const randomFile = urlFiles[0];
    const gzFile = `${randomFile}.gz`;
    writeFileSync(gzFile, gzipSync(readFileSync(randomFile), { level: 6 }));
    const inputRows: string[] = [];
    for (const [name, args] of commands) {
      const plain: number[] = [];
      const gz: number[] = [];
      const piped: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        plain.push((await timed(process.execPath, [CLI, ...args], randomFile)).seconds);
        gz.push((await timed(process.execPath, [CLI, ...args.slice(0, -1), gzFile], empty)).seconds);
        piped.push((await timed('/bin/sh', ['-c', `dd bs=4096 status=none | exec "$0" "$@"`, process.execPath, CLI, ...args], randomFile)).seconds);
      }
      const base = medianOf(plain);
      const cell = (values: number[]): string => `${medianOf(values).toFixed(3)} s (**${(medianOf(values) / base).toFixed(2)}x**)`;
      inputRows.push(`| check ${name} | ${base.toFixed(3)} s | ${cell(gz)} | ${cell(piped)} |`);
    }
    // a pack 4x (and more) the cache: blobs evicted and read again, memory within --cache-mb + 100 MiB
    const smallCache = Math.max(1, Math.floor(packBytes / 4 / 1048576) - 1);
    const smallRuns = new Map<string, TimedRun[]>(commands.map(([name]) => [name, []]));
    for (let r = 0; r < RUNS; r++) {
      for (const [name, args] of commands) (smallRuns.get(name) as TimedRun[]).push(await timed(process.execPath, [CLI, ...withCache(args, smallCache)], randomFile));
    }
    const smallCell = (name: string): string => {
      const runs = smallRuns.get(name) as TimedRun[];
      return `check ${name} ${medianOf(runs.map((run) => run.seconds)).toFixed(3)} s, peak ${Math.max(...runs.map((run) => run.peakMiB)).toFixed(0)} MiB`;
    };
    const smallLine = `With --cache-mb ${smallCache} (the pack is ${(packBytes / 1048576 / smallCache).toFixed(1)}x the cache; bound ${smallCache + 100} MiB), ~62 per host in random host order: ${commands.map(([name]) => smallCell(name)).join('; ')}`;
    // what was timed answers alike: each stream's output with the pack byte-equal to the folder's, also with the small cache
    const outputOf = (args: string[], input: string, name: string): Buffer => {
      const out = join(dir, `${name}.out`);
      const run = timedRun(process.execPath, [CLI, ...args], input, out);
      if (run.status !== 0) throw new Error(`robotstxt ${args.join(' ')} failed (exit ${run.status}): ${run.stderr}`);
      return readFileSync(out);
    };
    const [folderArgs, packArgs] = commands.map(([, args]) => args);
    for (const [i, urlFile] of urlFiles.entries()) {
      const byFolder = outputOf(folderArgs, urlFile, `folder-${i}`);
      const variants: [string, string[]][] = [['--pack', packArgs], ...(i === 0 ? [[`--pack --cache-mb ${smallCache}`, withCache(packArgs, smallCache)] as [string, string[]]] : [])];
      for (const [label, args] of variants) {
        if (!outputOf(args, urlFile, `pack-${i}`).equals(byFolder)) throw new Error(`check ${label} answered ${streams[i][0]} otherwise than check --robots-dir: not a figure to publish`);
      }
    }
    const build = medianOf(builds);
    const floor = medianOf(floors);
    // the machine's own floor under a pack's per-host cost: each distinct body met puts its blob into fresh memory
    // (page faults) with one read; shared by the hosts of that body
    const memoryRun = spawnSync(process.execPath, [memoryFloorPath, pack, AGENT], { encoding: 'utf8' });
    if (memoryRun.status !== 0) throw new Error(`bench/memory-floor.ts failed (exit ${memoryRun.status}): ${memoryRun.stderr}`);
    const memory = JSON.parse(memoryRun.stdout) as { faultUsPerPage: number; preadUs: number; blobs: number; blobBytes: number };
    // the agent's distinct blobs read once each (one read each) into fresh memory, shared by the hosts of their bodies
    const hostFloorUs = ((memory.blobBytes / 4096) * memory.faultUsPerPage + memory.blobs * memory.preadUs) / hosts.length;
    const memoryLine = `A pack read per host instead (one over half the cache, as with the default --cache-mb 64 here) meets this machine's floor (bench/memory-floor.ts, a fresh process): the first touch of a fresh 4 KiB page ${memory.faultUsPerPage.toFixed(1)} µs, a 2 KiB read from the page cache ${memory.preadUs.toFixed(1)} µs. A run that meets every host then reads ${AGENT}'s ${memory.blobs.toLocaleString('en')} distinct compiled rule sets, ${(memory.blobBytes / 1e6).toFixed(1)} MB (${Math.round(memory.blobBytes / 4096).toLocaleString('en')} pages), once each, one read each, into fresh memory: at least **${hostFloorUs.toFixed(1)} µs per host** before any code of ours runs.`;
    lines.push(
      `Measured by \`npm run bench:pack\` (bench/pack.ts) on ${new Date().toISOString().slice(0, 10)}; ${cpus().length} x ${cpus()[0]?.model.trim() ?? 'unknown CPU'}; Node ${process.version}. The crawl: the corpus's ${corpus.hosts.length.toLocaleString('en')} real files, each under ${COPIES} host names (${hosts.length.toLocaleString('en')} hosts, ${(bodyBytes / 1e6).toFixed(1)} MB of bodies), read whole (\`--max-bytes 0\`); agent ${AGENT}; one thread; \`--cache-mb ${CACHE_MB}\` for both commands (but the small-cache row): the pack's rules for the agent are ${held}; whole process, medians of ${RUNS} runs, each of ours after a part of the reference's (Google's library built from ../shared/reference-oracle, answering the same stream through its API; its time is the sum of its parts). Ratios: the reference's time over ours.`,
      '',
      `The pack: built in ${build.toFixed(2)} s (median of ${RUNS}, alternating with the floor, each a new file, each after a \`sync\`; ${(build * 1e6 / hosts.length).toFixed(0)} µs per host), **${(build / floor).toFixed(2)}x** the folder's floor (${floor.toFixed(2)} s: a fresh process reading every file and compiling each once, bench/compile-floor.ts); ${(packBytes / 1e6).toFixed(1)} MB for ${(bodyBytes / 1e6).toFixed(1)} MB of bodies (**${(packBytes / bodyBytes).toFixed(2)}x**). \`${summary.replace(/\S*crawl\.pack/, 'crawl.pack')}\``,
      '',
      '| URLs | reference | check --robots-dir | check --pack |',
      '|---|---|---|---|',
      ...rows,
      '',
      `Per host met (one URL per host less an empty run, over ${hosts.length.toLocaleString('en')} hosts; ${PER_HOST_ROUNDS} rounds, each an empty run and a run of one URL per host back to back, the difference taken within the round, medians): ${perHost.join('; ')}.`,
      '',
      memoryLine,
      '',
      perUrlLine,
      '',
      'The ~62-per-host random stream from a plain file, a `.gz` file (gzip -6) and a pipe of 4 KiB writes (`dd bs=4096 | robotstxt check ... -`), alternating; ratios: time over the plain file\'s:',
      '',
      '| command | plain file | .gz file | pipe of 4 KiB writes |',
      '|---|---|---|---|',
      ...inputRows,
      '',
      `${smallLine}.`,
      '',
      `Outputs: each stream's \`check --pack\` output byte-equal to \`check --robots-dir\`'s, and with --cache-mb ${smallCache} for the random stream (checked by this run; it stops otherwise).`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(writeSectionResults('pack', lines));
