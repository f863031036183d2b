// npm run bench:hostile: time and peak memory of the command line on the worst inputs of the hostile-input
// sweeps, each beside a smaller or tidy input of the same kind measured in the same run, so that
// "linear in its input" and "within a stated bound" can be read off. Inputs are generated and streamed to
// the command's standard input (or are sparse files): nothing large is kept on disk.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip, gzipSync } from 'node:zlib';
import type { Writable } from 'node:stream';
import { writeSectionResults } from './results-file.js';
import { cliPath as CLI } from './cli-runs.js';

/** Loaded before the command: its peak resident memory (VmHWM) on stderr when it exits. */
const PEAK = `data:text/javascript,${encodeURIComponent('import { readFileSync } from "node:fs"; process.on("exit", () => { const m = /VmHWM:\\s+(\\d+)/.exec(readFileSync("/proc/self/status", "utf8")); process.stderr.write(`\\npeak-kib ${m ? m[1] : 0}\\n`); });')}`;

interface Run {
  seconds: number;
  peakMiB: number;
  status: number | null;
  stderr: string;
}

/** Runs the command with input produced by feed (written with backpressure), or none. */
async function run(args: string[], feed: ((input: Writable) => Promise<void>) | null): Promise<Run> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', PEAK, CLI, ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => { stderr += text; });
  child.stdin.on('error', () => { /* the command stopped reading (an input it refuses): its status says why */ });
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  stopped = false;
  void closed.then(() => {
    stopped = true;
    for (const writable of [child.stdin, ...waiting.splice(0)]) writable.emit('drain');
  });
  if (feed !== null) await feed(child.stdin).catch(() => undefined);
  child.stdin.end();
  const status = await closed;
  const peak = /peak-kib (\d+)/.exec(stderr);
  return { seconds: (performance.now() - started) / 1000, peakMiB: peak === null ? 0 : Number(peak[1]) / 1024, status, stderr: stderr.replace(/\npeak-kib \d+\n/, '').trim() };
}

/** Set when the running command has exited (it may stop reading early: an input it refuses). */
let stopped = false;
/** Streams between a feed and the command (gzip), woken when the command exits. */
const waiting: Writable[] = [];

/** Writes text pieces from next() until it returns null or the command has exited, waiting for drain. */
async function stream(output: Writable, next: () => string | Buffer | null): Promise<void> {
  for (let piece = next(); piece !== null && !stopped; piece = next()) {
    if (!output.write(piece)) await new Promise((resolve) => output.once('drain', resolve));
  }
}

const dir = mkdtempSync(join(tmpdir(), 'robotstxt-hostile-'));
const robots = join(dir, 'robots.txt');
writeFileSync(robots, 'User-agent: *\nDisallow: /private\n');
const rows: string[] = [];
const row = (what: string, r: Run, note: string): void => {
  const line = `| ${what} | ${r.seconds.toFixed(2)} s | ${r.peakMiB.toFixed(0)} MiB | ${r.status} | ${note || r.stderr.split('\n')[0].slice(0, 110)} |`;
  rows.push(line);
  console.log(line);
};

/**
 * Gzips `head`, then `bytes` bytes of the byte `fill`, then `tail` into input as they are compressed (end:
 * whether input ends with the gzip stream).
 */
async function gzipRun(input: Writable, head: string, bytes: number, fill: number, tail: string, end = true): Promise<void> {
  const gzip = createGzip({ level: 1 });
  waiting.push(gzip);
  gzip.pipe(input, { end });
  const block = Buffer.alloc(1 << 20, fill);
  gzip.write(head);
  let left = bytes;
  await stream(gzip, () => {
    if (left <= 0) return null;
    const piece = left >= block.length ? block : block.subarray(0, left);
    left -= piece.length;
    return piece;
  });
  gzip.end(tail);
  if (!stopped) await new Promise((resolve) => { gzip.on('end', resolve); input.on('close', resolve); });
}

/** A gzip stream of one line of `bytes` bytes (plus a short one after), written as it is compressed. */
const gzipLine = (bytes: number) => (input: Writable): Promise<void> => gzipRun(input, 'http://a/', bytes, 0x62, '\nhttp://a/private\n');

/** A log of `count` lines, each from a different bot ("compatible; Crawler<i>bot/1.0"). */
const distinctBots = (count: number) => async (input: Writable): Promise<void> => {
  let i = 0;
  await stream(input, () => {
    if (i >= count) return null;
    let text = '';
    for (const end = Math.min(count, i + 5000); i < end; i++) text += `1.2.3.4 - - [21/Nov/2026:08:00:00 +0000] "GET /private/${i} HTTP/1.1" 200 1 "-" "Mozilla/5.0 (compatible; Crawler${i}bot/1.0)"\n`;
    return text;
  });
};

/** `count` log lines, each with a different User-Agent of about `bytes` bytes. */
const longAgents = (count: number, bytes: number) => async (input: Writable): Promise<void> => {
  let i = 0;
  await stream(input, () => {
    if (i >= count) return null;
    const words = `Ab${i} `.repeat(Math.ceil(bytes / `Ab${i} `.length)).slice(0, bytes);
    i++;
    return `1.2.3.4 - - [21/Nov/2026:08:00:00 +0000] "GET /private/x HTTP/1.1" 200 1 "-" "Mozilla/5.0 (compatible; ${words} Scanbot/1.0)"\n`;
  });
};

/** A .warc.gz: a response record whose header carries a field of `bytes` bytes (its own gzip member), then a page. */
const warcHeader = (bytes: number) => async (input: Writable): Promise<void> => {
  await gzipRun(input, 'WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://a/long\r\nX-Long: ', bytes, 0x61, '\r\nContent-Length: 0\r\n\r\n\r\n\r\n', false);
  const page = Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><head><meta name="robots" content="noindex"></head></html>');
  if (!stopped) input.write(gzipSync(Buffer.concat([Buffer.from(`WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://a/page\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: ${page.length}\r\n\r\n`), page, Buffer.from('\r\n\r\n')])));
};

/** One JSON line of about 5.2 MB: 80 X-Robots-Tag headers, each 64 KiB of `part, part, ...`. */
const headerLine = (part: string) => async (input: Writable): Promise<void> => {
  const value = `${part}, `.repeat(Math.ceil((64 << 10) / (part.length + 2))).slice(0, 64 << 10);
  input.write(`${JSON.stringify({ url: 'http://a/x', headers: Array.from({ length: 80 }, () => ['X-Robots-Tag', value]) })}\n`);
};

console.log('| input | time | peak memory | exit | outcome |\n|---|---|---|---|---|');
// 1. one long line through gzip: refused past 128 MiB (the longest line read), after reading only that much
row('check: one 64 MiB line, gzip', await run(['check', '--robots', robots, '--agent', 'x', '-'], gzipLine(64 << 20)), 'answered (2 lines)');
row('check: one 1 GiB line, gzip', await run(['check', '--robots', robots, '--agent', 'x', '-'], gzipLine(1 << 30)), '');
// 2. distinct bots: time linear in lines, memory bounded (10,000 crawlers tracked, the rest summed)
const bots = Number(process.env.HOSTILE_BOTS ?? 10_000_000);
row('audit: 1 M lines, each a different bot', await run(['audit', '--robots', robots, '-'], distinctBots(1_000_000)), 'report written');
if (bots !== 1_000_000) row(`audit: ${(bots / 1e6).toFixed(0)} M lines, each a different bot`, await run(['audit', '--robots', robots, '-'], distinctBots(bots)), 'report written');
// 3. long User-Agents: linear in their length
row('audit: 1,000 different 100-byte User-Agents', await run(['audit', '--robots', robots, '-'], longAgents(1000, 100)), 'report written');
row('audit: 1,000 different 8 KB User-Agents', await run(['audit', '--robots', robots, '-'], longAgents(1000, 8192)), 'report written');
// 4. a 3 GB robots.txt (sparse): 500 KiB read by default, as from a 500 KiB file
const small = join(dir, 'small.txt');
writeFileSync(small, Buffer.alloc(500 << 10, 0x20));
const huge = join(dir, 'huge.txt');
writeFileSync(huge, '');
rmSync(huge);
await new Promise<void>((resolve, reject) => {
  const truncate = spawn('truncate', ['-s', '3G', huge]);
  truncate.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`truncate: ${code}`))));
});
const oneUrl = async (input: Writable): Promise<void> => { input.write('http://a/private\n'); };
row('check --robots: a 500 KiB robots.txt', await run(['check', '--robots', small, '--agent', 'x', '-'], oneUrl), 'answered');
row('check --robots: a 3 GB robots.txt (sparse)', await run(['check', '--robots', huge, '--agent', 'x', '-'], oneUrl), 'answered from its first 500 KiB');
row('lint: a 3 GB robots.txt (sparse)', await run(['lint', huge], null), 'linted its first 16 MiB, said so');
// lint asks, per product token the file names, which groups decide for it: through an index made once per file
// (each query walked every group before: 12 s for a file naming 20,000 crawlers)
const namingCrawlers = (count: number): string => {
  const letters = (n: number): string => { let name = ''; do { name += String.fromCharCode(97 + (n % 26)); n = Math.floor(n / 26); } while (n > 0); return name; };
  const file = join(dir, `agents-${count}.txt`);
  writeFileSync(file, Array.from({ length: count }, (_, i) => `User-agent: bot${letters(i)}\nDisallow: /x${i}\n`).join(''));
  return file;
};
row('lint: a robots.txt naming 1,000 crawlers, a group each', await run(['lint', namingCrawlers(1000)], null), 'linted');
row('lint: a robots.txt naming 200,000 crawlers, a group each (7 MB)', await run(['lint', namingCrawlers(200_000)], null), 'linted');
// lint's group-merged finding: a user-agent line kept in the group before by a Crawl-delay, weighed from the
// group structure (each merged line parsed the file again before: an 11.6 KB file took 40 s)
const crawlerName = (n: number): string => { let name = 'bot'; do { name += String.fromCharCode(97 + (n % 26)); n = Math.floor(n / 26); } while (n > 0); return name; };
const mergedGroups = (groups: number, bytes: number): string => {
  const file = join(dir, `merged-${groups}.txt`);
  const rulesPerGroup = Math.max(1, Math.floor(bytes / groups / 26));
  writeFileSync(file, Array.from({ length: groups }, (_, g) => `User-agent: ${crawlerName(2 * g)}\nCrawl-delay: 1\nUser-agent: ${crawlerName(2 * g + 1)}\n${Array.from({ length: rulesPerGroup }, (_, r) => `Disallow: /g${String(g).padStart(4, '0')}/r${String(r).padStart(6, '0')}\n`).join('')}\n`).join(''));
  return file;
};
row('lint: 10 merged groups, 25 KiB', await run(['lint', mergedGroups(10, 25 << 10)], null), 'linted (target: 500 KiB under 2 s)');
row('lint: 200 merged groups, 500 KiB', await run(['lint', mergedGroups(200, 500 << 10)], null), 'linted (target: under 2 s)');
const oneGroupOpen = join(dir, 'one-group-open.txt');
writeFileSync(oneGroupOpen, `User-agent: ${crawlerName(0)}\n${Array.from({ length: 49_999 }, (_, i) => `Crawl-delay: 1\nUser-agent: ${crawlerName(i + 1)}\n`).join('')}Disallow: /x\n`);
row('lint: one group of 50,000 agents, each kept open by a Crawl-delay', await run(['lint', oneGroupOpen], null), 'linted (a finding per line, each weighed)');
// 5. rfc mode keeps long lines whole: a run of '*' is one star node (it cost path x stars per URL before)
const twoLongUrls = async (input: Writable): Promise<void> => { input.write(`http://a/${'y'.repeat(4096)}\nhttp://a/${'y'.repeat(4095)}x\n`); };
const starBody = (stars: number): string => { const file = join(dir, `stars-${stars}.txt`); writeFileSync(file, `User-agent: *\nDisallow: /${'*'.repeat(stars)}x\n`); return file; };
row('check --mode rfc: Disallow: /**********x, two 4 KiB URLs', await run(['check', '--robots', starBody(10), '--mode', 'rfc', '--max-bytes', '0', '--agent', 'x', '-'], twoLongUrls), 'answered');
row('check --mode rfc: 500,000 stars in one rule, two 4 KiB URLs', await run(['check', '--robots', starBody(500_000), '--mode', 'rfc', '--max-bytes', '0', '--agent', 'x', '-'], twoLongUrls), 'answered');
row('check --mode rfc: 16 MiB of stars in one rule, two 4 KiB URLs', await run(['check', '--robots', starBody((16 << 20) - 40), '--mode', 'rfc', '--max-bytes', '0', '--agent', 'x', '-'], twoLongUrls), 'answered');
// 6. CloudFront: a #Fields header of 1,000,000 names costs one map, then one probe per field and line
const cloudFront = (fields: number, lines: number) => async (input: Writable): Promise<void> => {
  const names = ['date', 'time', 'x-edge-location', 'sc-bytes', 'c-ip', 'cs-method', 'cs(Host)', 'cs-uri-stem', 'sc-status', 'cs(Referer)', 'cs(User-Agent)'];
  for (let i = names.length; i < fields; i++) names.push(`x-field-${i}`);
  input.write(`#Version: 1.0\n#Fields: ${names.join(' ')}\n`);
  let i = 0;
  await stream(input, () => {
    if (i >= lines) return null;
    let text = '';
    for (const end = Math.min(lines, i + 1000); i < end; i++) text += `2026-11-21\t08:00:00\tFRA\t100\t1.2.3.4\tGET\ta.example\t/private/${i}\t200\t-\tGooglebot/2.1\n`;
    return text;
  });
};
row('check --log: CloudFront, 33-field header, 100,000 lines', await run(['check', '--log', '--robots', robots, '--agent', 'x', '-'], cloudFront(33, 100_000)), 'answered');
row('check --log: CloudFront, 1,000,000-field header, 100,000 lines', await run(['check', '--log', '--robots', robots, '--agent', 'x', '-'], cloudFront(1_000_000, 100_000)), 'answered');
// 5. pages over WARC: a record whose header runs for 600 MB (a .warc.gz of about 0.6 MB), beside one whose header is tidy
row('pages: .warc.gz, a record with a tidy header, then a page', await run(['pages', '--robots', robots, '--agent', 'x', '--input', 'warc', '-'], warcHeader(100)), 'the page answered');
row('pages: .warc.gz, a record whose header runs 600 MB, then a page', await run(['pages', '--robots', robots, '--agent', 'x', '--input', 'warc', '-'], warcHeader(600 << 20)), 'the record said unread (past 256 KiB), the page answered');
// 6. pages: a 5.2 MB JSON line of unavailable_after parts (each part joined to the date in turn, once), beside plain rules of the same size
row('pages: a 5.2 MB line of plain X-Robots-Tag rules', await run(['pages', '--robots', robots, '--agent', 'x', '-'], headerLine('noindex')), 'answered');
row('pages: a 5.2 MB line of unavailable_after parts', await run(['pages', '--robots', robots, '--agent', 'x', '-'], headerLine('unavailable_after: soon')), 'answered');
rmSync(dir, { recursive: true, force: true });

const section = [
  '## Hostile inputs',
  '',
  `Measured by \`npm run bench:hostile\` on ${new Date().toISOString().slice(0, 10)}: each input is streamed to the command's standard input (or is a sparse file), peak memory is the command's own VmHWM. Each worst case sits beside a smaller input of the same kind from the same run.`,
  '',
  '| input | time | peak memory | exit | outcome |',
  '|---|---|---|---|---|',
  ...rows,
];
console.log(writeSectionResults('hostile', section));
