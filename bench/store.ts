// npm run bench:store: what the store costs per origin as it grows to a million origins (src/node/store/store.ts).
// For 10,000, 100,000 and 1,000,000 generated origins, in a new folder each: writing each origin as a fetch
// writes it (RobotsStore.write: the record, the body, the version log, under the origin's lock), then reading
// 10,000 origins at random as check --store reads them (robotsFromDirectory: record and body) and as audit
// --store reads their versions (readStoredVersions). Microseconds per origin, medians of the batches of
// 10,000; the 10,000-origin row is the comparison (target: the 1,000,000 row within 2x of it). The HTTP part
// of a fetch does not depend on how many origins the store holds: `npm run bench:fetch` measures it.
// 3,000 origins are written and read first in a folder of their own (a warm-up, not measured). --quick: 1,000,
// 10,000 and 100,000. Writes its section of bench/RESULTS.md.
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { RobotsStore, readStoredVersions } from '../src/node/store/index.js';
import { robotsFromDirectory, robotsHostOf } from '../src/node/hosts/index.js';
import { originOf } from '../src/core/url-model.js';
import { seededRandom } from './data.js';
import { medianOf } from './cli-runs.js';
import { writeSectionResults } from './results-file.js';
import type { OriginRecord } from '../src/core/fetch-rules.js';

const quick = process.argv.includes('--quick');
const SIZES = quick ? [1_000, 10_000, 100_000] : [10_000, 100_000, 1_000_000];
const BATCH = quick ? 1_000 : 10_000;
const NOW = Date.parse('2026-11-28T00:00:00Z');

const originName = (i: number): string => `https://site-${i}.example`;
const bodyOf = (i: number): Buffer => Buffer.from(`User-agent: *\nDisallow: /private/${i % 97}/\nDisallow: /*?session=\n\nUser-agent: Googlebot\nAllow: /\nDisallow: /nogoogle/${i}\n\nSitemap: https://site-${i}.example/sitemap.xml\n`);
function recordOf(i: number): OriginRecord {
  const origin = originName(i);
  return { origin, url: `${origin}/robots.txt`, mode: 'google', checkedAt: NOW, outcome: 'ok', status: 200, error: null, finalUrl: `${origin}/robots.txt`, hops: 0, kept: 'body', keptAt: NOW, etag: `"${i}"`, lastModified: null, cacheMaxAgeMs: null, failingSince: null, failures: 0 };
}

interface Row { origins: number; writeUs: number; readUs: number; versionsUs: number; bytes: number }
const rows: Row[] = [];
// a warm-up in a folder of its own (not measured): the first row is not the one that pays V8's compiling
{
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-bench-store-warm-'));
  try {
    const store = new RobotsStore(dir);
    for (let i = 0; i < 3_000; i++) store.write(originOf(originName(i))?.fileKey as string, recordOf(i), bodyOf(i));
    const source = robotsFromDirectory(dir, { maxBytes: 0, now: NOW });
    for (let i = 0; i < 3_000; i++) {
      source(robotsHostOf(originOf(originName(i)) as NonNullable<ReturnType<typeof originOf>>));
      readStoredVersions(dir, originOf(originName(i))?.fileKey as string);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
for (const size of SIZES) {
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-bench-store-'));
  try {
    const store = new RobotsStore(dir);
    const writes: number[] = [];
    for (let start = 0; start < size; start += BATCH) {
      const began = performance.now();
      for (let i = start; i < Math.min(size, start + BATCH); i++) store.write(originOf(originName(i))?.fileKey as string, recordOf(i), bodyOf(i));
      writes.push((1000 * (performance.now() - began)) / Math.min(BATCH, size - start));
    }
    // reads of origins at random, as check --store (a source asked per host) and audit --store (versions) read them
    const random = seededRandom(size);
    const picks = Array.from({ length: BATCH }, () => Math.floor(random() * size));
    const source = robotsFromDirectory(dir, { maxBytes: 0, now: NOW });
    const reads: number[] = [];
    const versionReads: number[] = [];
    for (let pass = 0; pass < 3; pass++) {
      let began = performance.now();
      for (const i of picks) {
        const answer = source(robotsHostOf(originOf(originName(i)) as NonNullable<ReturnType<typeof originOf>>));
        if (!(answer instanceof Uint8Array) || answer.length !== bodyOf(i).length) throw new Error(`store read of origin ${i} gave ${String(answer)}`);
      }
      reads.push((1000 * (performance.now() - began)) / picks.length);
      began = performance.now();
      for (const i of picks) if (readStoredVersions(dir, originOf(originName(i))?.fileKey as string)?.versions.length !== 1) throw new Error(`versions of origin ${i}`);
      versionReads.push((1000 * (performance.now() - began)) / picks.length);
    }
    const du = spawnSync('du', ['-sb', dir], { encoding: 'utf8' }).stdout.split('\t')[0];
    rows.push({ origins: size, writeUs: medianOf(writes), readUs: medianOf(reads), versionsUs: medianOf(versionReads), bytes: Number(du) });
    console.log(rows[rows.length - 1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const base = rows[0];
const fs = statfsSync(tmpdir());
const lines = [
  '## The store as it grows (`npm run bench:store`, bench/store.ts)',
  '',
  `Measured on ${new Date().toISOString().slice(0, 10)}; ${cpus().length} x ${cpus()[0]?.model.trim() ?? 'unknown CPU'}; Node ${process.version}; a new folder in ${tmpdir()} (block size ${fs.bsize}) for each size. After a warm-up of 3,000 origins in a folder of their own, per origin: writing it as a fetch does (RobotsStore.write: record, body, version log, under its lock; medians of batches of ${BATCH.toLocaleString('en')}), reading it as check --store does (robotsFromDirectory: record and body) and reading its versions as audit --store does (readStoredVersions), ${BATCH.toLocaleString('en')} origins at random, medians of 3 passes. The HTTP part of a fetch does not depend on the store's size (\`npm run bench:fetch\`).`,
  '',
  `| origins | write | read (check --store) | versions (audit --store) | on disk | vs the ${base.origins.toLocaleString('en')} row (write / read / versions) | target |`,
  '|---|---|---|---|---|---|---|',
  ...rows.map((row) => {
    const ratios = [row.writeUs / base.writeUs, row.readUs / base.readUs, row.versionsUs / base.versionsUs];
    return `| ${row.origins.toLocaleString('en')} | ${row.writeUs.toFixed(1)} µs | ${row.readUs.toFixed(1)} µs | ${row.versionsUs.toFixed(1)} µs | ${(row.bytes / 1e6).toFixed(0)} MB | ${ratios.map((r) => `${r.toFixed(2)}x`).join(' / ')} | ${row === base ? '' : Math.max(...ratios) <= 2 ? 'within 2x: met' : 'within 2x: **not met**'} |`;
  }),
];
console.log(writeSectionResults('store', lines));
