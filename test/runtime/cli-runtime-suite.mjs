// Run by Bun and by Deno (installed into .runtimes/ by npm run runtimes): the runtime-neutral entry,
// initialized from the package's .wasm file; prints the runtime's name and the suite's results as JSON.
import * as api from '../../dist/src/core/index.js';
import { runVerdictSuite } from './verdict-suite.mjs';

await api.initialize();
const runtime = typeof Bun !== 'undefined' ? `bun ${Bun.version}` : typeof Deno !== 'undefined' ? `deno ${Deno.version.deno}` : 'unknown';
const text = JSON.stringify({ runtime, results: await runVerdictSuite(api) });
if (typeof Deno !== 'undefined') await Deno.stdout.write(new TextEncoder().encode(text));
else process.stdout.write(text);
