// The floor a pack's build is held against (bench/pack.ts): a fresh process that reads every file of a robots
// folder and compiles each body once, cold (its `*` groups, the cheapest selection; no deduplication, no
// writing). Usage: node dist/bench/compile-floor.js <folder> [maxBytes]. Prints the files and bytes read.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import '../src/node/core-node.js'; // the WebAssembly core, loaded as the command line loads it
import { core } from '../src/core/wasm/core.js';
import { encodeAgents } from '../src/core/wasm/bodies.js';

const folder = process.argv[2];
const maxBytes = Number(process.argv[3] ?? 0);
const agents = encodeAgents(['*']);
const { bodies } = core();
let files = 0;
let bytes = 0;
for (const name of readdirSync(folder)) {
  const whole = readFileSync(join(folder, name));
  const body = maxBytes > 0 ? whole.subarray(0, maxBytes) : whole;
  bodies.compileInWorkArea(body, agents, false);
  files++;
  bytes += body.length;
}
console.log(`${files} files, ${bytes} bytes compiled`);
