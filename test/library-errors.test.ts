// The library's errors name the library's options; the command line says the flags that set them (one table,
// src/cli/library-errors.ts). A program that uses the library never reads a flag it has no way to give.
import { describe, it, expect } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './cli-helpers.js';
import { RobotsAudit, RobotsError, RobotsHistory, TestBatch, rulesOfDirectory } from '../src/node/index.js';
import { inCommandWords, inFlagWords } from '../src/cli/library-errors.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = tempDir();
const line = '1.2.3.4 - - [21/Nov/2026:08:00:00 +0000] "GET /a HTTP/1.1" 200 1 "-" "Mozilla/5.0 (compatible; Googlebot/2.1)"';

/** The RobotsError a call throws (fails when it throws none or another kind). */
function thrown(call: () => unknown): RobotsError {
  try {
    call();
  } catch (error) {
    if (error instanceof RobotsError) return error;
    throw error;
  }
  throw new Error('no error thrown');
}

describe('library errors in library words, command line errors in flags', () => {
  it('a line without a host: the library names defaultHost, the command line --host <name>', () => {
    const audit = new RobotsAudit(() => null, { requireHost: true });
    const error = thrown(() => audit.addLine(line, 7, 'access.log'));
    expect([error.code, error.message]).toEqual(['HOST_UNKNOWN', 'access.log:7: the line names no host (a combined line without a host field), so its robots.txt is unknown: give a default host (defaultHost), or use a log whose lines carry the host (vhost_combined, CloudFront, ALB, or JSON with a host key)']);
    expect((inCommandWords(error) as RobotsError).message).toBe('access.log:7: the line names no host (a combined line without a host field), so its robots.txt is unknown: give --host <name>, or use a log whose lines carry the host (vhost_combined, CloudFront, ALB, or JSON with a host key)');
    expect((inCommandWords(error) as RobotsError).code).toBe('HOST_UNKNOWN');
  });

  it("a folder without the host's file and missing 'error': the library says missing: 'error', the command line --missing error", () => {
    const rules = rulesOfDirectory(dir, { mode: 'google', maxBytes: 512_000, missing: 'error', warn: () => {} });
    const audit = new RobotsAudit(rules, { filePerHost: true });
    const error = thrown(() => audit.addLine(line.replace('"GET /a', '"GET http://shop.example/a'), 1));
    expect([error.code, error.message]).toEqual(['NO_ROBOTS', `no robots.txt known for http://shop.example (no file or store record of it in ${dir}; missing: 'error')`]);
    expect(inFlagWords(error.code, error.message)).toBe(`no robots.txt known for http://shop.example (no file or store record of it in ${dir}; --missing error)`);
  });

  it('a history folder that is not there, and a case outside the robots folder', () => {
    const history = thrown(() => new RobotsHistory(join(dir, 'nope'), { mode: 'google', maxBytes: 0 }));
    expect([history.code, history.message]).toEqual(['FILE_UNREADABLE', `history folder '${join(dir, 'nope')}' is not a readable directory`]);
    expect(inFlagWords(history.code, history.message)).toBe(`--robots-history '${join(dir, 'nope')}' is not a readable directory`);
    mkdirSync(join(dir, 'root'), { recursive: true });
    writeFileSync(join(dir, 'r.txt'), 'User-agent: *\nDisallow: /\n');
    const batch = new TestBatch({ root: join(dir, 'root') });
    const answer = batch.answerLine(JSON.stringify({ robots: '../r.txt', agent: 'x', url: '/a' }));
    expect(answer).toBe(`{"error":{"code":"BAD_CASE","message":"\\"robots\\" \\"../r.txt\\" is outside the robots folder ${join(dir, 'root')} (see the root option)"}}`);
    expect(inFlagWords('BAD_CASE', answer)).toBe(`{"error":{"code":"BAD_CASE","message":"\\"robots\\" \\"../r.txt\\" is outside the robots folder ${join(dir, 'root')} (see --robots-root)"}}`);
    batch.close();
  });

  it('an error of another code, or one that names no option, is said as it is', () => {
    const other = new RobotsError('INVALID_ARGUMENT', 'give a default host (defaultHost)');
    expect(inCommandWords(other)).toBe(other);
    const plain = new Error('not ours');
    expect(inCommandWords(plain)).toBe(plain);
  });

  it('no RobotsError thrown by src/core or src/node names a command line flag', () => {
    const files = (folder: string): string[] => readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile() && entry.name.endsWith('.ts')).map((entry) => join(entry.parentPath, entry.name));
    const naming = [...files('src/core'), ...files('src/node')].flatMap((file) => readFileSync(file, 'utf8').split('\n').filter((text) => /RobotsError\(/.test(text) && /[`'"][^`'"]*--[a-z]/.test(text)).map((text) => `${file}: ${text.trim()}`));
    expect(naming).toEqual([]);
  });
});
