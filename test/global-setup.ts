// Runs once before any test file: the tests that start the command line, workers or pages run the built
// output (dist/, build/robotstxt.wasm). When a source is newer than that output (`npm test` after an edit),
// it is built first, so that no test reads stale output; after `npm ci` (whose prepare step builds) nothing
// is built again: CI builds once. The one staleness rule is scripts/build-if-stale.mjs (npm's prepare runs it too).
import { buildIfStale } from '../scripts/build-if-stale.mjs';

export default function setup(): void {
  buildIfStale('test setup');
}
