// The plans of the commands beside check, audit and fetch (their own tests: check-plan, audit-plan, fetch-plan):
// what a run will do, read off its arguments alone (no file opened, nothing fetched), and every refusal before
// any output, naming the flag.
import { describe, it, expect } from 'vitest';
import { parseCommand } from '../src/cli/command-spec.js';
import { DIFF_SPEC, planDiff } from '../src/cli/diff-command.js';
import { USAGE_SPEC } from '../src/cli/usage-command.js';
import { planUsage } from '../src/cli/usage-plan.js';
import { PAGE_SPEC } from '../src/cli/page-command.js';
import { planPage } from '../src/cli/page-plan.js';
import { PAGES_SPEC, planPages } from '../src/cli/pages-command.js';
import { PACK_SPEC, planPack } from '../src/cli/pack-command.js';
import { LINT_SPEC, planLint } from '../src/cli/lint-command.js';
import { HISTORY_SPEC, planHistory } from '../src/cli/history-command.js';
import { TEST_SPEC, planTest } from '../src/cli/test-command.js';
import { CONFORMANCE_SPEC, planConformance } from '../src/cli/conformance-command.js';
import { TESTER_SPEC, planTester } from '../src/cli/tester-command.js';

const GOOGLE_READING = { mode: 'google', maxBytes: 512000 };

describe('the plan of robotstxt diff', () => {
  const plan = (args: string[]): ReturnType<typeof planDiff> => planDiff(parseCommand(DIFF_SPEC, args));
  it('two files, the URLs and logs compared, the gate', () => {
    expect(plan(['old.txt', 'new.txt', '--agent', 'Googlebot', '--log', 'a.log', '--log', 'b.log', '--fail-on', 'any', '--mode', 'rfc', '--max-bytes', '0'])).toEqual({
      agents: ['Googlebot'], reading: { mode: 'rfc', maxBytes: 0 }, rules: { kind: 'files', old: 'old.txt', new: 'new.txt' }, urls: null, logs: ['a.log', 'b.log'],
      logFields: {}, format: 'text', limit: 20, failOn: 'any',
    });
    expect(plan(['o', 'n', '--agent', 'x', '--urls', '-', '--format', 'json', '--limit', '3'])).toMatchObject({ urls: '-', format: 'json', limit: 3, failOn: null });
  });
  it('--store: the two times read before the store is', () => {
    expect(plan(['2026-11-05', '2026-11-12T10:00:00Z', '--store', 's', '--origin', 'https://example.com', '--agent', 'x', '--urls', 'u.txt']).rules).toEqual({
      kind: 'store', store: 's', origin: 'https://example.com', times: [{ text: '2026-11-05', ms: Date.parse('2026-11-05T00:00:00Z') }, { text: '2026-11-12T10:00:00Z', ms: Date.parse('2026-11-12T10:00:00Z') }],
    });
    expect(() => plan(['yesterday', '2026-11-12', '--store', 's', '--origin', 'https://example.com', '--agent', 'x', '--urls', 'u.txt'])).toThrow("with --store, <old-robots> and <new-robots> are times such as 2026-11-10 or 2026-11-10T12:00:00Z, got 'yesterday'");
  });
});

describe('the plan of robotstxt usage', () => {
  const plan = (args: string[]): ReturnType<typeof planUsage> => planUsage(parseCommand(USAGE_SPEC, args));
  it('one file or a pack; the header read; the page described', () => {
    const one = plan(['robots.txt', 'https://example.com/a', 'https://example.com/b', '--agent', 'GPTBot', '--header', 'train-ai=n', '--purpose', 'train-ai']);
    expect(one).toMatchObject({ rules: { kind: 'file', path: 'robots.txt' }, urls: ['https://example.com/a', 'https://example.com/b'], agent: 'GPTBot', tokens: ['Google-Extended', 'Applebot-Extended'], purposes: ['train-ai'], page: null, format: 'text', reading: GOOGLE_READING });
    expect([...(one.header ?? new Map())]).toEqual([['train-ai', 'n']]);
    const packed = plan(['--pack', 'crawl.pack', 'https://example.com/a', '--agent', 'GPTBot', '--mode', 'rfc', '--page-header', 'X-Robots-Tag: noai', '--purpose', 'train-ai', '--token', 'CCBot']);
    expect(packed).toMatchObject({ rules: { kind: 'pack', file: 'crawl.pack' }, urls: ['https://example.com/a'], tokens: ['CCBot'], page: { headers: [['X-Robots-Tag', 'noai']], htmlFile: null } });
    expect(packed.rules.kind === 'pack' && [...packed.rules.given]).toEqual(['mode']);
  });
  it('what cannot be run is refused, naming the flag', () => {
    expect(() => plan(['robots.txt'])).toThrow('usage needs a <robots-file> and at least one <url>, got 1 argument(s) (see robotstxt usage --help)');
    expect(() => plan(['robots.txt', 'https://example.com/', '--agent', ' '])).toThrow("--agent must name a crawler (a product token such as GPTBot), got ''");
    expect(() => plan(['robots.txt', 'https://example.com/', '--header', 'train-ai=n,,'])).toThrow(/^--header: Content-Usage header "train-ai=n,," is not a Structured Field Dictionary \(RFC 9651\)/);
    expect(() => plan(['robots.txt', 'https://example.com/a', 'https://example.com/b', '--purpose', 'search', '--page-html', 'p.html'])).toThrow('--page-header and --page-html describe one page: give one <url>, got 2');
    expect(() => plan(['robots.txt', 'https://example.com/a', '--purpose', 'search', '--page-header', 'noai'])).toThrow("--page-header must be 'Name: value' (an HTTP header), got 'noai'");
  });
});

describe('the plan of robotstxt page', () => {
  const plan = (args: string[]): ReturnType<typeof planPage> => planPage(parseCommand(PAGE_SPEC, args));
  it('the page as given or fetched, and where its robots.txt comes from', () => {
    const given = plan(['https://example.com/a', '--agent', 'Googlebot', '--robots', 'r.txt', '--status', '404', '--header', 'X-Robots-Tag: noindex', '--html', 'a.html', '--now', '2026-11-01T00:00:00Z']);
    expect(given).toMatchObject({ url: 'https://example.com/a', agent: 'Googlebot', rules: { kind: 'file', path: 'r.txt' }, page: { kind: 'given', status: 404, headers: [['X-Robots-Tag', 'noindex']], htmlFile: 'a.html' }, nowMs: Date.parse('2026-11-01T00:00:00Z'), format: 'text' });
    expect(given.origin.origin).toBe('https://example.com');
    expect(plan(['https://example.com/a', '--agent', 'Googlebot', '--fetch', '--timeout-ms', '500', '--targets', 'any'])).toMatchObject({ rules: { kind: 'fetch' }, page: { kind: 'fetch' }, fetching: { timeoutMs: 500, userAgent: null, targets: 'any' }, nowMs: null });
    expect(plan(['https://example.com/a', '--agent', 'Googlebot', '--store', 's']).rules).toEqual({ kind: 'store', directory: 's' });
  });
  it('what cannot be run is refused, naming the flag', () => {
    expect(() => plan(['example.com/a', '--agent', 'Googlebot', '--robots', 'r.txt'])).toThrow("'example.com/a' is no http:// or https:// URL");
    expect(() => plan(['https://example.com/a', '--agent', 'Googlebot', '--agent', 'Bingbot', '--robots', 'r.txt'])).toThrow('--agent names one crawler for page, got 2');
    expect(() => plan(['https://example.com/a', '--agent', 'Googlebot', '--fetch', '--status', '200'])).toThrow("--fetch reads the page's own status, headers and HTML: --status, --header and --html apply without it");
    expect(() => plan(['https://example.com/a', '--agent', 'Googlebot', '--robots', 'r.txt', '--header', 'noindex'])).toThrow("--header must be 'Name: value' (an HTTP header), got 'noindex'");
  });
});

describe('the plan of robotstxt pages', () => {
  const plan = (args: string[]): ReturnType<typeof planPages> => planPages(parseCommand(PAGES_SPEC, args));
  it('the crawl inputs, the rules, the output', () => {
    expect(plan(['--agent', 'Googlebot', '--robots-dir', 'd', 'a.warc.gz', 'b.jsonl', '--traps-only', '--summary-json', 's.json'])).toMatchObject({ agent: 'Googlebot', inputs: ['a.warc.gz', 'b.jsonl'], inputFormat: 'auto', rules: { kind: 'directory', directory: 'd' }, format: 'jsonl', trapsOnly: true, summaryJson: 's.json', nowMs: null, reading: GOOGLE_READING });
    expect(plan(['--agent', 'Googlebot', '--robots', 'r.txt', '--input', 'warc', '--format', 'text'])).toMatchObject({ inputs: ['-'], inputFormat: 'warc', rules: { kind: 'file', path: 'r.txt' }, format: 'text', summaryJson: null });
    expect(plan(['--agent', 'Googlebot', '--pack', 'p.pack', 'c.jsonl']).rules.kind).toBe('pack');
  });
  it('what cannot be run is refused, naming the flag', () => {
    expect(() => plan(['--agent', 'a', '--agent', 'b', '--robots', 'r.txt'])).toThrow('--agent names one crawler for pages, got 2');
    expect(() => plan(['--agent', 'a', '--robots', 'r.txt', '-', '-'])).toThrow('standard input (-) can be read once');
  });
});

describe('the plan of robotstxt pack', () => {
  const plan = (args: string[]): ReturnType<typeof planPack> => planPack(parseCommand(PACK_SPEC, args));
  it('its input, its reading, the time a store is judged at', () => {
    expect(plan(['--store', 's', '--out', 'o.pack', '--now', '2026-11-01T00:00:00Z', '--mode', 'rfc'])).toEqual({ out: 'o.pack', reading: { mode: 'rfc', maxBytes: 512000 }, input: { kind: 'directory', directory: 's' }, nowMs: Date.parse('2026-11-01T00:00:00Z') });
    expect(plan(['--jsonl', 'a.jsonl', '--jsonl', '-', '--out', 'o.pack']).input).toEqual({ kind: 'jsonl', files: ['a.jsonl', '-'] });
    expect(plan(['--warc', 'a.warc.gz', '--out', 'o.pack'])).toMatchObject({ input: { kind: 'warc', files: ['a.warc.gz'] }, nowMs: null });
  });
  it('what cannot be run is refused, naming the flag', () => {
    expect(() => plan(['--robots-dir', 'd', '--out', 'o.pack', '--now', '2026-11-01'])).toThrow("--now judges a store's records: it applies with --store only");
    expect(() => plan(['--jsonl', '-', '--jsonl', '-', '--out', 'o.pack'])).toThrow('standard input (-) can be read once');
  });
});

describe('the plans of robotstxt lint, history, test, conformance and tester', () => {
  it('lint: its files, the mode, the output; standard input once', () => {
    expect(planLint(parseCommand(LINT_SPEC, ['a.txt', '-', '--mode', 'rfc', '--format', 'json']))).toEqual({ files: ['a.txt', '-'], mode: 'rfc', format: 'json' });
    expect(() => planLint(parseCommand(LINT_SPEC, ['-', '-']))).toThrow('standard input (-) can be read once');
  });
  it('history: the store and origin, the agents (every agent by default), the URLs', () => {
    expect(planHistory(parseCommand(HISTORY_SPEC, ['example.com', '--store', 's', '--scheme', 'http', '--urls', 'u.txt', '--agent', 'Googlebot']))).toEqual({ store: 's', origin: 'example.com', scheme: 'http', agents: ['Googlebot'], urls: 'u.txt', reading: GOOGLE_READING, format: 'text' });
    expect(planHistory(parseCommand(HISTORY_SPEC, ['https://example.com', '--store', 's']))).toMatchObject({ scheme: null, agents: ['*'], urls: null });
  });
  it('test: one question, or a batch rooted by --robots-root, ROBOTSTXT_ROBOTS_ROOT, the cases file\'s folder or the working folder', () => {
    expect(planTest(parseCommand(TEST_SPEC, ['r.txt', 'Googlebot', 'https://example.com/']), {}, '/work')).toEqual({ kind: 'one', file: 'r.txt', agent: 'Googlebot', url: 'https://example.com/', reading: { mode: 'google', maxBytes: 0 } });
    const batch = (args: string[], env: NodeJS.ProcessEnv = {}): ReturnType<typeof planTest> => planTest(parseCommand(TEST_SPEC, ['--batch', ...args]), env, '/work');
    expect(batch(['cases/c.jsonl'])).toEqual({ kind: 'batch', input: 'cases/c.jsonl', root: '/work/cases', reading: { mode: 'google', maxBytes: 0 }, cacheBytes: 64 << 20 });
    expect(batch([])).toMatchObject({ input: '-', root: '/work' });
    expect(batch([], { ROBOTSTXT_ROBOTS_ROOT: '/corpus' })).toMatchObject({ root: '/corpus' });
    expect(batch(['--robots-root', 'files', 'c.jsonl'], { ROBOTSTXT_ROBOTS_ROOT: '/corpus' })).toMatchObject({ root: 'files' });
    expect(() => planTest(parseCommand(TEST_SPEC, ['r.txt', 'Googlebot']), {}, '/work')).toThrow('test needs exactly 3 arguments <robots-file> <user-agent> <url>, got 2 (see robotstxt test --help)');
    expect(() => batch(['a.jsonl', 'b.jsonl'])).toThrow('test --batch takes at most one <cases.jsonl> (or - for standard input), got 2 arguments');
    expect(() => batch(['--robots-root', ''])).toThrow('--robots-root must name a folder');
  });
  it('conformance: the implementation, the cases, the report', () => {
    expect(planConformance(parseCommand(CONFORMANCE_SPEC, ['--command', 'my-parser {robots} {agent} {url}', '--robots-dir', 'd', '--per-file', '3', '--jobs', '2', '--format', 'json']))).toEqual({
      implementation: { kind: 'command', value: 'my-parser {robots} {agent} {url}', name: null }, builtIn: true, robotsDir: { directory: 'd', perFile: 3, files: 1000 }, timeoutMs: expect.any(Number), jobs: 2, format: 'json',
    });
    expect(planConformance(parseCommand(CONFORMANCE_SPEC, ['--module', 'a.mjs', '--name', 'Mine']))).toMatchObject({ implementation: { kind: 'module', value: 'a.mjs', name: 'Mine' }, robotsDir: null });
    expect(() => planConformance(parseCommand(CONFORMANCE_SPEC, ['--module', 'a.mjs', '--suite', 'none']))).toThrow('--suite none needs --robots-dir (no cases otherwise)');
    expect(() => planConformance(parseCommand(CONFORMANCE_SPEC, ['--module', 'a.mjs', '--name', ' ']))).toThrow('--name must not be empty');
  });
  it('tester: build a folder, or serve on this machine by default', () => {
    expect(planTester(parseCommand(TESTER_SPEC, ['--build', 'site']))).toEqual({ kind: 'build', folder: 'site' });
    expect(planTester(parseCommand(TESTER_SPEC, []))).toEqual({ kind: 'serve', host: '127.0.0.1', port: 8311 });
    expect(planTester(parseCommand(TESTER_SPEC, ['--port', '0', '--host', '::1']))).toEqual({ kind: 'serve', host: '::1', port: 0 });
  });
});
