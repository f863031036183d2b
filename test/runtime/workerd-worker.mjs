// Run in workerd (Cloudflare's runtime, installed into .runtimes/ by npm run runtimes): the runtime-neutral
// entry initialized from the .wasm as workerd hands it over (a compiled WebAssembly.Module, declared in the
// config), answering one request with the suite's results as JSON. Bundled into one module by the test.
import * as api from '../../dist/src/core/index.js';
import { runVerdictSuite } from './verdict-suite.mjs';
import wasm from 'robotstxt.wasm';

export default {
  async fetch() {
    await api.initialize(wasm);
    return Response.json({ runtime: 'workerd', results: await runVerdictSuite(api) });
  },
};
