// What this machine charges for memory and reads, below any code of ours (bench/pack.ts prints it beside the
// per-host cost of a pack): the first touch of a fresh page of WebAssembly memory (a page fault), and a
// 2 KiB pread from the page cache into a buffer already touched; and, given a pack and an agent, what a run
// that meets every origin of the pack must read for that agent: the distinct compiled rule sets (blobs) of
// the origins' newest captures, and their bytes. Run in a fresh process: node dist/bench/memory-floor.js
// <pack> <agent>; prints {"faultUsPerPage", "preadUs" (medians of 3), "origins", "blobs", "blobBytes"}.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { openPackFile } from '../src/node/pack/index.js';

const file = process.argv[2];
const agent = (process.argv[3] ?? 'Googlebot').toLowerCase();
const size = statSync(file).size;
const PAGES = 16 * 1024; // 64 MiB
const faults: number[] = [];
const preads: number[] = [];
for (let round = 0; round < 3; round++) {
  const bytes = new Uint8Array(new WebAssembly.Memory({ initial: PAGES * 4096 / 65536 }).buffer);
  let started = performance.now();
  for (let at = 0; at < bytes.length; at += 4096) bytes[at] = 1;
  faults.push(((performance.now() - started) * 1000) / PAGES);
  const fd = openSync(file, 'r');
  const into = new Uint8Array(4096);
  const reads = 10_000;
  started = performance.now();
  for (let i = 0; i < reads; i++) readSync(fd, into, 0, 2048, (i * 5003) % Math.max(1, size - 2048));
  preads.push(((performance.now() - started) * 1000) / reads);
  closeSync(fd);
}
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[1];
const { pack, close } = openPackFile(file);
const blobs = new Set<number>();
let blobBytes = 0;
for (let origin = 0; origin < pack.originCount; origin++) {
  const body = pack.latestBody(origin);
  if (body < 0) continue; // (every URL allowed or disallowed: no rules read)
  const blob = pack.blobIndex(body, agent);
  if (blobs.has(blob)) continue;
  blobs.add(blob);
  blobBytes += pack.blobLength(blob);
}
close();
console.log(JSON.stringify({ faultUsPerPage: median(faults), preadUs: median(preads), origins: pack.originCount, blobs: blobs.size, blobBytes }));
