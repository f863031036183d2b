// The library speaks data: its errors carry the option they are about (RobotsError.option), its notes, tables
// and refusals name options through the caller's words (OptionWords), and the command line says the flags that
// set them (one table, src/cli/option-words.ts). A program that uses the library never reads a flag it has no
// way to give; no string literal of src/core or src/node holds a flag or the command line's `robotstxt:`.
import { describe, it, expect } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './cli-helpers.js';
import { RobotsAudit, RobotsError, RobotsHistory, TestBatch, rulesOfDirectory } from '../src/node/index.js';
import ts from 'typescript';
import { refusalSentence } from '../src/node/fetch/index.js';
import { contractSentence } from '../src/node/conformance/index.js';
import { noRulesSentence } from '../src/node/audit/index.js';
import { inCommandWords, flagWords } from '../src/cli/option-words.js';

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
    expect([error.code, error.message, error.option]).toEqual(['HOST_UNKNOWN', 'access.log:7: the line names no host (a combined line without a host field), so its robots.txt is unknown: give defaultHost, or use a log whose lines carry the host (vhost_combined, CloudFront, ALB, or JSON with a host key)', { name: 'defaultHost' }]);
    expect((inCommandWords(error) as RobotsError).message).toBe('access.log:7: the line names no host (a combined line without a host field), so its robots.txt is unknown: give --host <name>, or use a log whose lines carry the host (vhost_combined, CloudFront, ALB, or JSON with a host key)');
    expect((inCommandWords(error) as RobotsError).code).toBe('HOST_UNKNOWN');
  });

  it("a folder without the host's file and missing 'error': the library says missing 'error', the command line --missing error", () => {
    const rules = rulesOfDirectory(dir, { reading: { mode: 'google', maxBytes: 512_000 }, missing: 'error', warn: () => {} });
    const audit = new RobotsAudit(rules, { filePerHost: true });
    const error = thrown(() => audit.addLine(line.replace('"GET /a', '"GET http://shop.example/a'), 1));
    expect([error.code, error.message, error.option]).toEqual(['NO_ROBOTS', `no robots.txt known for http://shop.example (no file or store record of it in ${dir}; missing 'error')`, { name: 'missing', value: 'error' }]);
    expect(error.sayOption(flagWords)).toBe(`no robots.txt known for http://shop.example (no file or store record of it in ${dir}; --missing error)`);
  });

  it('a history folder that is not there, and a case outside the robots folder', () => {
    const history = thrown(() => new RobotsHistory(join(dir, 'nope'), { reading: { mode: 'google', maxBytes: 0 } }));
    expect([history.code, history.message]).toEqual(['FILE_UNREADABLE', `historyDirectory '${join(dir, 'nope')}' is not a readable directory`]);
    expect(history.sayOption(flagWords)).toBe(`--robots-history '${join(dir, 'nope')}' is not a readable directory`);
    mkdirSync(join(dir, 'root'), { recursive: true });
    writeFileSync(join(dir, 'r.txt'), 'User-agent: *\nDisallow: /\n');
    const batch = new TestBatch({ root: join(dir, 'root') });
    const answer = batch.answerLine(JSON.stringify({ robots: '../r.txt', agent: 'x', url: '/a' }));
    expect(answer).toBe(`{"error":{"code":"BAD_CASE","message":"\\"robots\\" \\"../r.txt\\" is outside the robots folder ${join(dir, 'root')} (see root)"}}`);
    batch.close();
    // the command line's batch speaks its flags
    const flagged = new TestBatch({ root: join(dir, 'root'), optionWords: flagWords });
    expect(flagged.answerLine(JSON.stringify({ robots: '../r.txt', agent: 'x', url: '/a' }))).toBe(`{"error":{"code":"BAD_CASE","message":"\\"robots\\" \\"../r.txt\\" is outside the robots folder ${join(dir, 'root')} (see --robots-root)"}}`);
    flagged.close();
  });

  it('an error that names no option is said as it is', () => {
    const other = new RobotsError('INVALID_ARGUMENT', 'give a default host (defaultHost)');
    expect(inCommandWords(other)).toBe(other);
    const plain = new Error('not ours');
    expect(inCommandWords(plain)).toBe(plain);
  });

  it('a note, a table, a refusal and a contract name options in the caller\'s words: the library\'s names by default, the flags from the command line', () => {
    expect(refusalSentence({ code: 'internal-from-content', where: '127.0.0.1 is a loopback address' })).toBe("an origin from a log or URL list at an internal address, not fetched (127.0.0.1 is a loopback address; name it yourself, or targets 'any')");
    expect(refusalSentence({ code: 'internal-from-content', where: '127.0.0.1 is a loopback address' }, flagWords)).toBe('an origin from a log or URL list at an internal address, not fetched (127.0.0.1 is a loopback address; name it yourself, or --targets any)');
    expect(contractSentence({ option: 'batchCommand', target: 'robotstxt test --batch' })).toBe("batchCommand 'robotstxt test --batch' (JSON lines)");
    expect(contractSentence({ option: 'batchCommand', target: 'robotstxt test --batch' }, flagWords)).toBe("--batch-command 'robotstxt test --batch' (JSON lines)");
    const report = { noRulesKnown: { requests: 2, origins: ['http://a.example'], judged: 'not judged' } } as unknown as Parameters<typeof noRulesSentence>[0];
    expect(noRulesSentence(report)).toBe("2 crawler request(s) with no rules known (no robots.txt file, a file that could not be read, an origin never fetched, or a time before the first version), first http://a.example: not judged, not counted as allowed (missing 'disallow' judges them, missing 'error' stops)");
    expect(noRulesSentence(report, flagWords)).toBe('2 crawler request(s) with no rules known (no robots.txt file, a file that could not be read, an origin never fetched, or a time before the first version), first http://a.example: not judged, not counted as allowed (--missing disallow judges them, --missing error stops)');
    expect(flagWords({ name: 'reading', value: 'token' })).toBe('--as-token');
    expect(flagWords({ name: 'noSuchOption', value: 'x' })).toBe("noSuchOption 'x'");
  });

  it('no string literal of src/core or src/node holds a command line flag or the command line\'s robotstxt: prefix (comments aside)', () => {
    const files = (folder: string): string[] => readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile() && entry.name.endsWith('.ts')).map((entry) => join(entry.parentPath, entry.name));
    const found: string[] = [];
    for (const file of [...files('src/core'), ...files('src/node')]) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
      const visit = (node: ts.Node): void => {
        if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
          const text = node.text;
          if (/(^|[^\w-])--[a-z]/.test(text) || /\brobotstxt:/.test(text)) found.push(`${file.slice(ROOT.length)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${text}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(found).toEqual([]);
  });
});
