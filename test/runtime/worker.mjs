// A module Web Worker: initializes the core in its own thread and runs the verdict suite there.
import * as api from '/dist/src/core/index.js';
import { runVerdictSuite } from './verdict-suite.mjs';

try {
  await api.initialize();
  postMessage(await runVerdictSuite(api));
} catch (error) {
  postMessage({ error: String(error) });
}
