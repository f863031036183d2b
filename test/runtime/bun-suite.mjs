// Run by Bun (node_modules/.bin/bun): the runtime-neutral entry, initialized from the package's .wasm file.
import * as api from '../../dist/src/core-entry.js';
import { runVerdictSuite } from './verdict-suite.mjs';

await api.initialize();
process.stdout.write(JSON.stringify({ runtime: `bun ${Bun.version}`, results: await runVerdictSuite(api) }));
