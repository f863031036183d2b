// Times one command as a shell would: started by this small process (node dist/bench/child-timer.js <input>
// <output or -> <command> [args...]), its wall seconds, exit status and stderr printed as one JSON line. Why
// not from the benchmark itself: starting a child forks the parent first, and a benchmark that holds a few
// GB (corpora, URL lists, matchers measured in-process) takes ~75 ms to fork on the 2-core machine (a parent
// with 2 GB touched: `node -e 0` 127 ms instead of 51), which every figure of a short command would carry.
// Used by bench/cli-runs.ts and bench/crawl-runs.ts, once per timed run.
import { closeSync, openSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const [inputFile, outputFile, command, ...args] = process.argv.slice(2);
const input = openSync(inputFile, 'r');
const output = outputFile === '-' ? 'ignore' : openSync(outputFile, 'w');
const started = performance.now();
const result = spawnSync(command, args, { stdio: [input, output, 'pipe'], encoding: 'utf8', maxBuffer: 1 << 26 });
const seconds = (performance.now() - started) / 1000;
closeSync(input);
if (typeof output === 'number') closeSync(output);
process.stdout.write(JSON.stringify({ seconds, status: result.status, stderr: result.stderr ?? '' }) + '\n');
