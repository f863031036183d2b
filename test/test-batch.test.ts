// robotstxt test --batch: many robots_main questions in one process, JSON lines in and out, in order; every
// answer equal to `robotstxt test` asked one case at a time, and to the model.
import { describe, it, expect } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { robotstxt, tempDir, CLI } from './cli-helpers.js';
import { modelVerdict } from './model.js';
import { TestBatch, RobotsError } from '../src/node/index.js';

const dir = tempDir();
writeFileSync(join(dir, 'r.txt'), 'User-agent: *\nDisallow: /private\nAllow: /private/ok\n');

describe('robotstxt test --batch', () => {
  it('one answer line per input line, in order: verdicts with their deciding line, and errors on the lines that cannot be answered (exit 2)', () => {
    const cases = [
      { robots: 'r.txt', agent: 'Googlebot', url: 'https://e.com/private/x' },
      { robots: 'r.txt', agent: ['Googlebot', 'Bingbot'], url: 'https://e.com/private/ok' },
      { robotsText: 'User-agent: FooBot\nDisallow: /\n', agent: 'FooBot', url: 'https://e.com/a', mode: 'rfc' },
      { robots: 'r.txt', agent: 'Googlebot', url: 'https://e.com/public' },
    ].map((c) => JSON.stringify(c));
    const input = [...cases, 'not json', '', JSON.stringify({ robots: '../r.txt', agent: 'x', url: '/' }), JSON.stringify({ robots: 'missing.txt', agent: 'x', url: '/' }), JSON.stringify({ robots: 'r.txt', agent: 'x' }), JSON.stringify({ robots: 'r.txt', robotsText: '', agent: 'x', url: '/' }), JSON.stringify({ robots: 'r.txt', agent: [], url: '/' }), JSON.stringify({ robots: 'r.txt', agent: 'x', url: '/', mode: 'strict' }), JSON.stringify({ robots: 'r.txt', agent: 'x', url: '/', extra: 1 })].join('\r\n') + '\n';
    writeFileSync(join(dir, 'cases.jsonl'), input);
    const run = robotstxt(['test', '--batch', join(dir, 'cases.jsonl')]);
    expect(run.stdout.split('\n')).toEqual([
      '{"verdict":"disallowed","line":2}',
      '{"verdict":"allowed","line":3}',
      '{"verdict":"disallowed","line":2}',
      '{"verdict":"allowed","line":null}',
      '{"error":{"code":"BAD_CASE","message":"not a JSON object: Unexpected token \'o\', \\"not json\\" is not valid JSON"}}',
      '{"error":{"code":"BAD_CASE","message":"not a JSON object: Unexpected end of JSON input"}}',
      `{"error":{"code":"BAD_CASE","message":"\\"robots\\" \\"../r.txt\\" is outside the robots folder ${dir} (see --robots-root)"}}`,
      `{"error":{"code":"FILE_UNREADABLE","message":"cannot read robots file '${join(dir, 'missing.txt')}': no such file"}}`,
      '{"error":{"code":"BAD_CASE","message":"\\"url\\" must be a string"}}',
      '{"error":{"code":"BAD_CASE","message":"a case needs exactly one of \\"robots\\" (a file) and \\"robotsText\\" (the body)"}}',
      '{"error":{"code":"BAD_CASE","message":"\\"agent\\" must be a string or a non-empty array of strings"}}',
      '{"error":{"code":"BAD_CASE","message":"\\"mode\\" must be \\"google\\" or \\"rfc\\", got \\"strict\\""}}',
      '{"error":{"code":"BAD_CASE","message":"unknown field \\"extra\\" (fields: robots or robotsText, agent, url, mode)"}}',
      '',
    ]);
    expect(run.stderr).toBe('robotstxt: 9 of 13 cases could not be answered (their lines carry the error)\n');
    expect(run.status).toBe(2);
  });

  it('standard input, --robots-root, exit 0 when every case is answered; usage errors exit 2', () => {
    const run = robotstxt(['test', '--batch', '--robots-root', dir, '-'], `${JSON.stringify({ robots: 'r.txt', agent: 'x', url: '/private/ok/1' })}\n${JSON.stringify({ robots: join(dir, 'r.txt'), agent: 'x', url: '/private/1' })}`);
    expect([run.stdout, run.stderr, run.status]).toEqual(['{"verdict":"allowed","line":3}\n{"verdict":"disallowed","line":2}\n', '', 0]);
    expect(robotstxt(['test', '--batch', 'a.jsonl', 'b.jsonl'])).toEqual({ status: 2, stdout: '', stderr: 'robotstxt: test --batch takes at most one <cases.jsonl> (or - for standard input), got 2 arguments\n' });
    expect(robotstxt(['test', '--batch', join(dir, 'none.jsonl')]).stderr).toBe(`robotstxt: cannot read cases file '${join(dir, 'none.jsonl')}': no such file\n`);
    expect(() => new TestBatch({ root: dir }).answer({ robots: 'r.txt', agent: 'x', url: 7 })).not.toThrow();
    expect(new TestBatch({ root: dir }).answer({ robots: 'r.txt', agent: 'x', url: 7 })).toEqual({ error: { code: 'BAD_CASE', message: '"url" must be a string' } });
    expect(new RobotsError('BAD_CASE', 'x').code).toBe('BAD_CASE');
  });

  it('ROBOTSTXT_ROBOTS_ROOT (set by conformance for its batch command) is the default root; --robots-root overrides it; a path that leaves it is refused', () => {
    const cases = `${JSON.stringify({ robots: join(dir, 'r.txt'), agent: 'x', url: '/private/1' })}\n${JSON.stringify({ robots: 'r.txt', agent: 'x', url: '/private/ok/1' })}\n`;
    const withRoot = spawnSync(process.execPath, [CLI, 'test', '--batch', '-'], { input: cases, encoding: 'utf8', cwd: tmpdir(), env: { ...process.env, ROBOTSTXT_ROBOTS_ROOT: dir } });
    expect([withRoot.stdout, withRoot.status]).toEqual(['{"verdict":"disallowed","line":2}\n{"verdict":"allowed","line":3}\n', 0]);
    const elsewhere = spawnSync(process.execPath, [CLI, 'test', '--batch', '-'], { input: cases, encoding: 'utf8', cwd: tmpdir(), env: { ...process.env, ROBOTSTXT_ROBOTS_ROOT: join(dir, 'sub') } });
    expect(elsewhere.stdout.split('\n')[0]).toBe(`{"error":{"code":"BAD_CASE","message":"\\"robots\\" ${JSON.stringify(JSON.stringify(join(dir, 'r.txt'))).slice(1, -1)} is outside the robots folder ${join(dir, 'sub')} (see --robots-root)"}}`);
    expect(elsewhere.status).toBe(2);
    const overridden = spawnSync(process.execPath, [CLI, 'test', '--batch', '--robots-root', dir, '-'], { input: cases, encoding: 'utf8', cwd: tmpdir(), env: { ...process.env, ROBOTSTXT_ROBOTS_ROOT: join(dir, 'sub') } });
    expect([overridden.stdout, overridden.status]).toEqual([withRoot.stdout, 0]);
  });

  it('100,000 cases over 1,000 files in one process: every answer equals the library\'s, a sample equals robotstxt test one case at a time and the model', { tags: ['slow'], timeout: 120_000 }, () => {
    let seed = 20261123;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const words = ['a', 'b', 'shop', 'cart', 'x', 'index.html', 'search', '%7Euser', 'caf%C3%A9'];
    const agents = ['Googlebot', 'Bingbot', 'FooBot', '*'];
    const files = join(dir, 'files');
    mkdirSync(files);
    const bodies: string[] = [];
    for (let f = 0; f < 1000; f++) {
      const lines: string[] = [];
      for (let g = 0; g < 1 + Math.floor(random() * 3); g++) {
        lines.push(`User-agent: ${pick(agents)}`);
        for (let r = 0; r < 1 + Math.floor(random() * 6); r++) lines.push(`${pick(['Allow', 'Disallow', 'disallow', 'Disalow'])}: /${pick(words)}${pick(['', '/', '*', '$', `/${pick(words)}`, '*.pdf$'])}`);
      }
      bodies.push(lines.join(random() < 0.2 ? '\r\n' : '\n'));
      writeFileSync(join(files, `${f}.txt`), bodies[f]);
    }
    const cases = Array.from({ length: 100_000 }, () => {
      const file = Math.floor(random() * 1000);
      return { file, agent: pick(agents.slice(0, 3)), url: `https://e.com/${pick(words)}/${pick(words)}${pick(['', '.pdf', '?q=1'])}` };
    });
    const run = robotstxt(['test', '--batch', '--robots-root', files, '-'], cases.map((c) => JSON.stringify({ robots: `${c.file}.txt`, agent: c.agent, url: c.url })).join('\n') + '\n');
    expect(run.status).toBe(0);
    const answers = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { verdict: string; line: number | null });
    expect(answers.length).toBe(100_000);
    // the library, in this process (a TestBatch with the same files)
    const library = new TestBatch({ root: files });
    cases.forEach((c, i) => {
      if (JSON.stringify(library.answer({ robots: `${c.file}.txt`, agent: c.agent, url: c.url })) !== JSON.stringify(answers[i])) expect([i, answers[i]]).toBe('the library\'s answer');
    });
    expect(answers.filter((answer) => answer.verdict === 'disallowed').length).toBeGreaterThan(5000);
    // a sample: robotstxt test one case at a time (its exit code), and the model's verdict and line
    for (let i = 0; i < 100_000; i += 4999) {
      const c = cases[i];
      const single = robotstxt(['test', join(files, `${c.file}.txt`), c.agent, c.url]);
      expect([i, single.status]).toEqual([i, answers[i].verdict === 'allowed' ? 0 : 1]);
    }
    for (let i = 0; i < 100_000; i += 50) {
      const c = cases[i];
      const model = modelVerdict(bodies[c.file], [c.agent], c.url, { maxBytes: 0 });
      expect([i, answers[i]]).toEqual([i, { verdict: model.allowed ? 'allowed' : 'disallowed', line: model.line }]);
    }
  });
});
