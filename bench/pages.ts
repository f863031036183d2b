// npm run bench:pages: robotstxt pages over a generated crawl (20,000 pages over 200 origins, a third headers
// only, HTML sizes heavy-tailed from 2 KB to 400 KB, robots meta tags, X-Robots-Tag headers and Noindex:
// lines sprinkled in), as JSON lines, as a WARC file and as a .warc.gz: pages/s of the whole judgement
// (readCrawl + answerCrawledPage, in this process) beside reading the same input alone (readCrawl), interleaved
// runs, medians; and the command end to end on the JSON lines. Writes its section of bench/RESULTS.md.
import { cpus, totalmem, tmpdir } from 'node:os';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { PageRobots, readCrawl, answerCrawledPage, type CrawlFormat } from '../src/node/page/index.js';
import { medianOf, runCli } from './cli-runs.js';
import { seededRandom } from './data.js';
import { writeSectionResults } from './results-file.js';

const PAGES = 20_000;
const ORIGINS = 200;
const RUNS = 5;
const NOW_MS = Date.parse('2026-06-01T00:00:00Z');

interface Page { url: string; headers: [string, string][]; html: string | null }

function crawl(): Page[] {
  const next = seededRandom(47);
  const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(8);
  const pages: Page[] = [];
  for (let i = 0; i < PAGES; i++) {
    const origin = `https://site${Math.floor(next() * ORIGINS)}.example`;
    const path = next() < 0.1 ? `/private/${i}` : next() < 0.05 ? `/drafts/${i}` : `/p/${i}`;
    const headers: [string, string][] = [['Date', 'Fri, 01 May 2026 00:00:00 GMT']];
    if (next() < 0.15) headers.push(['X-Robots-Tag', next() < 0.5 ? 'noindex' : 'googlebot: nosnippet, max-image-preview:large']);
    if (next() < 0.33) {
      headers.push(['Content-Type', 'application/pdf']);
      pages.push({ url: `${origin}${path}.pdf`, headers, html: null });
      continue;
    }
    headers.push(['Content-Type', 'text/html; charset=utf-8']);
    // heavy-tailed: most pages a few KB, some hundreds (Pareto, alpha 1.2, from 2 KB, at most 400 KB)
    const bytes = Math.min(400_000, Math.floor(2000 / Math.pow(1 - next(), 1 / 1.2)));
    const metas = [next() < 0.2 ? '<meta name="robots" content="noindex, nofollow">' : '', next() < 0.1 ? '<meta name="googlebot" content="max-snippet:50">' : '', next() < 0.05 ? '<meta name="content-signal" content="ai-train=no">' : ''].join('');
    const bodyMeta = next() < 0.02 ? '<meta name="robots" content="noindex">' : '';
    let body = '';
    while (body.length < bytes) body += `<p>${filler}</p>\n`;
    pages.push({ url: `${origin}${path}`, headers, html: `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Page ${i}</title>${metas}</head><body>${bodyMeta}${body}</body></html>` });
  }
  return pages;
}

function warcRecord(type: string, uri: string, block: Buffer, contentType: string): Buffer {
  const head = `WARC/1.1\r\nWARC-Type: ${type}\r\nWARC-Target-URI: ${uri}\r\nWARC-Date: 2026-05-01T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:bench>\r\nContent-Type: ${contentType}\r\nContent-Length: ${block.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), block, Buffer.from('\r\n\r\n')]);
}

function warcOf(page: Page): Buffer {
  const headerLines = page.headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const body = page.html === null ? Buffer.from('%PDF-1.4 ...') : Buffer.from(page.html);
  return warcRecord('response', page.url, Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\n${headerLines}\r\n`), body]), 'application/http; msgtype=response');
}

const work = mkdtempSync(join(tmpdir(), 'robotstxt-bench-pages-'));
try {
  const pages = crawl();
  const robotsDir = join(work, 'robots');
  mkdirSync(robotsDir);
  for (let i = 0; i < ORIGINS; i++) writeFileSync(join(robotsDir, `site${i}.example.txt`), `User-agent: *\nDisallow: /private/\nNoindex: /drafts/\nAllow: /\n\nUser-agent: Googlebot\nDisallow: /private/\nDisallow: /*.pdf$\n`);
  const inputs: [string, string, CrawlFormat][] = [
    ['JSON lines', join(work, 'crawl.jsonl'), 'jsonl'],
    ['WARC', join(work, 'crawl.warc'), 'warc'],
    ['WARC, gzip per record', join(work, 'crawl.warc.gz'), 'warc'],
  ];
  writeFileSync(inputs[0][1], pages.map((page) => JSON.stringify(page)).join('\n') + '\n');
  const records = pages.map(warcOf);
  writeFileSync(inputs[1][1], Buffer.concat(records));
  writeFileSync(inputs[2][1], Buffer.concat(records.map((record) => gzipSync(record))));

  const readAlone = async (path: string, format: CrawlFormat): Promise<number> => {
    const start = performance.now();
    let count = 0;
    for await (const record of readCrawl(path, format)) if (record.kind === 'page') count++;
    if (count !== PAGES) throw new Error(`read ${count} pages of ${PAGES}`);
    return (performance.now() - start) / 1000;
  };
  const judged = async (path: string, format: CrawlFormat): Promise<number> => {
    const start = performance.now();
    const robotsOf = new PageRobots({ agent: 'Googlebot', reading: { mode: 'google', maxBytes: 512 * 1024 }, nowMs: NOW_MS, directory: robotsDir });
    let count = 0;
    try {
      for await (const record of readCrawl(path, format)) {
        if (record.kind !== 'page') continue;
        await answerCrawledPage(record, path, robotsOf, { agent: 'Googlebot', nowMs: NOW_MS });
        count++;
      }
    } finally {
      robotsOf.close();
    }
    if (count !== PAGES) throw new Error(`judged ${count} pages of ${PAGES}`);
    return (performance.now() - start) / 1000;
  };
  const times: Record<string, { read: number[]; judged: number[] }> = {};
  for (let run = 0; run < RUNS + 1; run++) {
    for (const [name, path, format] of inputs) {
      const read = await readAlone(path, format);
      const judge = await judged(path, format);
      if (run === 0) continue; // the first round warms the file cache and the JIT
      (times[name] ??= { read: [], judged: [] }).read.push(read);
      times[name].judged.push(judge);
    }
  }
  const cli: number[] = [];
  for (let run = 0; run < RUNS; run++) cli.push(runCli(['pages', '--robots-dir', robotsDir, '--agent', 'Googlebot', '--now', '2026-06-01T00:00:00Z', inputs[0][1]], inputs[0][1]).seconds);
  const htmlPages = pages.filter((page) => page.html !== null);
  const htmlMb = htmlPages.reduce((sum, page) => sum + (page.html?.length ?? 0), 0) / 1e6;
  const rows = inputs.map(([name, path]) => {
    const read = medianOf(times[name].read);
    const judge = medianOf(times[name].judged);
    return `| ${name} | ${(statSync(path).size / 1e6).toFixed(0)} MB | ${Math.round(PAGES / read).toLocaleString('en')} | ${Math.round(PAGES / judge).toLocaleString('en')} | ${(judge / read).toFixed(2)}x |`;
  });
  const lines = [
    '## Pages of a crawl (`npm run bench:pages`, bench/pages.ts)',
    '',
    `Generated on ${new Date().toISOString().slice(0, 10)}; ${cpus().length} x ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.version}.`,
    `${PAGES.toLocaleString('en')} pages over ${ORIGINS} origins (each its robots.txt from a folder), ${htmlPages.length.toLocaleString('en')} with HTML (${htmlMb.toFixed(0)} MB, heavy-tailed`,
    'sizes 2 KB to 400 KB), the rest headers only; robots meta tags, X-Robots-Tag and Noindex: lines sprinkled in. In one',
    `process, median of ${RUNS} interleaved runs: reading the input alone (readCrawl) beside judging every page (readCrawl +`,
    'answerCrawledPage: robots.txt, headers, the head\'s meta tags with parse5 when the page has a `<meta`, traps).',
    '',
    '| input | size | pages/s, read alone | pages/s, judged | judged / read (time) |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    `The command end to end (\`robotstxt pages --robots-dir <dir> --agent Googlebot crawl.jsonl\`, output discarded, start-up included): ${Math.round(PAGES / medianOf(cli)).toLocaleString('en')} pages/s (median of ${RUNS}).`,
  ];
  console.log(writeSectionResults('pages', lines));
} finally {
  rmSync(work, { recursive: true, force: true });
}
