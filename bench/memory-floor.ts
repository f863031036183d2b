// What this machine charges for memory and reads, below any code of ours (bench/pack.ts prints it beside the
// per-host cost of a pack): the first touch of a fresh page of WebAssembly memory (a page fault), and a
// 2 KiB pread from the page cache into a buffer already touched. Run in a fresh process: node
// dist/bench/memory-floor.js <file of at least 1 MB>; prints {"faultUsPerPage": ..., "preadUs": ...}, medians of 3.
import { closeSync, openSync, readSync, statSync } from 'node:fs';

const file = process.argv[2];
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
console.log(JSON.stringify({ faultUsPerPage: median(faults), preadUs: median(preads) }));
