// The second half of the corpus's engine-against-model check (the first half is in corpus.test.ts): split so
// that the two test workers share the slowest check. Skips (with a printed reason) without the corpus.
import { describe, it, expect } from 'vitest';
import { corpusMissingReason } from './cli-helpers.js';
import { corpusFiles, engineAgreesWithModel } from './corpus-helpers.js';

describe.skipIf(corpusMissingReason !== null)('real robots.txt files, second half', () => {
  const files = corpusMissingReason === null ? corpusFiles() : [];
  it('engine and model agree on URLs made from the rules of the second half of the files (3 agents, google mode)', () => {
    expect(files.length).toBeGreaterThan(4000);
    expect(engineAgreesWithModel(files.slice(files.length >> 1))).toBeGreaterThan(20000);
  }, 180_000);
});
