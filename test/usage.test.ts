// AI usage preferences (src/core/usage.ts): Content-Usage, Content-Signal, policy tokens, the header, bulk
// answers, `robotstxt usage`, `check --usage`, and lint's group-merged finding. Exact results; every crawl
// verdict of these files is also held to the model of the reference (test/model.ts).
import { describe, it, expect } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRobots, parseContentUsageHeader, lintRobots, readContentUsage, RobotsError, runCheck, type UsageAnswer } from '../src/node/index.js';
import { Writable } from 'node:stream';
import { parseDictionary, Token } from 'structured-headers';
import { modelVerdict } from './model.js';
import { robotstxt, tempDir } from './cli-helpers.js';
import { bytes } from './helpers.js';

const usage = (body: string, url: string, agent = 'Googlebot', options = {}): UsageAnswer => parseRobots(body).usage(url, agent, options);
const categories = (body: string, url: string, agent = 'Googlebot', mode: 'google' | 'rfc' = 'google'): Record<string, string> => parseRobots(body, { mode }).usage(url, agent).usage;

/** Every crawl verdict usage() reports equals the model's (the reference's behaviour) for that body, agent and URL. */
function crawlAsReference(body: string, urls: readonly string[], agents: readonly string[], mode: 'google' | 'rfc' = 'google'): void {
  const robots = parseRobots(body, { mode });
  for (const agent of agents) {
    for (const url of urls) {
      const answer = robots.usage(url, agent);
      expect(answer.crawl, `${agent} ${url}`).toBe(modelVerdict(body, [agent], url, { mode }).allowed ? 'allowed' : 'disallowed');
      for (const [token, verdict] of Object.entries(answer.tokens)) expect(verdict, `${token} ${url}`).toBe(modelVerdict(body, [token], url, { mode }).allowed ? 'allowed' : 'disallowed');
    }
  }
}

const PATHS = `User-agent: *
Content-Usage: train-ai=n
Content-Usage: /blog/ train-ai=y, search=y
Content-Usage: /blog/*.pdf$ train-ai=n
Content-Usage: /shop/ search=y
Content-Usage: /shop/ search=n, train-ai=y
Disallow: /private/
`;

describe('ID_ Content-Usage: path-scoped by the longest match, like Allow/Disallow', () => {
  it('a path-less rule covers the whole group', () => {
    expect(categories(PATHS, 'https://example.com/about')).toEqual({ 'train-ai': 'disallowed', search: 'unknown' });
    expect(usage(PATHS, 'https://example.com/about').lines.usage).toEqual({ 'train-ai': [2], search: [] });
  });
  it('the longest matching path decides every category; categories it does not state are unknown', () => {
    expect(categories(PATHS, 'https://example.com/blog/post')).toEqual({ 'train-ai': 'allowed', search: 'allowed' });
    expect(categories(PATHS, 'https://example.com/blog/paper.pdf')).toEqual({ 'train-ai': 'disallowed', search: 'unknown' });
    // `$` anchors: a query after .pdf is not the pdf rule's
    expect(categories(PATHS, 'https://example.com/blog/paper.pdf?x=1')).toEqual({ 'train-ai': 'allowed', search: 'allowed' });
  });
  it('identical paths combine: n over y, per category, both lines named', () => {
    expect(categories(PATHS, 'https://example.com/shop/shoe')).toEqual({ 'train-ai': 'allowed', search: 'disallowed' });
    expect(usage(PATHS, 'https://example.com/shop/shoe').lines.usage).toEqual({ 'train-ai': [5, 6], search: [5, 6] });
  });
  it('identical paths are identical as the matcher reads them: /ä, /%C3%A4 and /%c3%a4 combine, n over y, in either order', () => {
    for (const [first, second] of [['/ä', '/%C3%A4'], ['/%C3%A4', '/ä'], ['/%c3%a4', '/ä'], ['/ä', '/%c3%a4']]) {
      for (const [yes, no] of [[first, second], [second, first]]) {
        const body = `User-agent: *\nContent-Usage: ${yes} train-ai=y\nContent-Usage: ${no} train-ai=n\n`;
        for (const mode of ['google', 'rfc'] as const) {
          expect(categories(body, 'https://example.com/%C3%A4/x', 'Googlebot', mode), `${body} ${mode}`).toEqual({ 'train-ai': 'disallowed', search: 'unknown' });
          expect(parseRobots(body, { mode }).usage('https://example.com/%C3%A4', 'Googlebot').lines.usage['train-ai']).toEqual([2, 3]);
        }
      }
    }
  });
  it('a URL the agent may not fetch gets no preference: every category unknown', () => {
    const answer = usage(PATHS, 'https://example.com/private/a');
    expect(answer.crawl).toBe('disallowed');
    expect(answer.usage).toEqual({ 'train-ai': 'unknown', search: 'unknown' });
    expect(answer.decidedBy).toEqual({ 'train-ai': 'crawl-disallowed', search: 'crawl-disallowed' });
    expect(answer.lines.crawl).toBe(7);
  });
  it('any key the file states is reported; values other than y and n state nothing', () => {
    const body = 'User-agent: *\nContent-Usage: train-ai=n, rag-ground=y, infer-user=maybe, search\n';
    expect(categories(body, 'https://example.com/')).toEqual({ 'train-ai': 'disallowed', search: 'unknown', 'rag-ground': 'allowed', 'infer-user': 'unknown' });
  });
  it('lines before any user-agent line and lines that are not valid are ignored', () => {
    expect(categories('Content-Usage: train-ai=n\nUser-agent: *\nDisallow: /x\n', 'https://example.com/')).toEqual({ 'train-ai': 'unknown', search: 'unknown' });
    expect(categories('User-agent: *\nContent-Usage: blog/ train-ai=n\nContent-Usage: Train-AI=n\n', 'https://example.com/blog/')).toEqual({ 'train-ai': 'unknown', search: 'unknown' });
  });
  it('the groups are the crawl\'s: a named group\'s rules, not the * group\'s', () => {
    const body = 'User-agent: *\nContent-Usage: train-ai=n\nAllow: /\n\nUser-agent: GPTBot\nContent-Usage: train-ai=y\nDisallow: /x\n';
    expect(categories(body, 'https://example.com/a', 'GPTBot')).toEqual({ 'train-ai': 'allowed', search: 'unknown' });
    expect(categories(body, 'https://example.com/a', 'CCBot')).toEqual({ 'train-ai': 'disallowed', search: 'unknown' });
  });
  it('paths are normalised as Allow/Disallow patterns are (percent-encoding)', () => {
    const body = 'User-agent: *\nContent-Usage: /café/ train-ai=n\n';
    expect(categories(body, 'https://example.com/caf%C3%A9/menu')).toEqual({ 'train-ai': 'disallowed', search: 'unknown' });
    expect(parseRobots('User-agent: *\nDisallow: /café/\n').isAllowed('https://example.com/caf%C3%A9/menu', 'Googlebot')).toBe(false);
  });
  it('rfc mode: the same rules (and /robots.txt is always fetchable)', () => {
    expect(categories(PATHS, 'https://example.com/blog/post', 'Googlebot', 'rfc')).toEqual({ 'train-ai': 'allowed', search: 'allowed' });
    // rfc decodes %62 (b) in the URL: /%62log/ is /blog/
    expect(categories(PATHS, 'https://example.com/%62log/post', 'Googlebot', 'rfc')).toEqual({ 'train-ai': 'allowed', search: 'allowed' });
    expect(categories(PATHS, 'https://example.com/%62log/post', 'Googlebot', 'google')).toEqual({ 'train-ai': 'disallowed', search: 'unknown' });
  });
  it('readContentUsage reads the path and the dictionary; a value that is not an RFC 9651 dictionary fails the line', () => {
    expect(readContentUsage('/a/ train-ai=n, search=y;v=1')).toEqual({ ok: true, path: '/a/', preferences: new Map([['train-ai', 'n'], ['search', 'y']]), stateNothing: [] });
    expect(readContentUsage('train-ai=n, =y')).toEqual({ ok: false, problem: 'not a Structured Field Dictionary (RFC 9651): a key must start with a lower-case letter or "*" ("=" at character 13): the line is ignored' });
    expect(readContentUsage('blog/ train-ai=n')).toEqual({ ok: false, problem: '"blog/" is not a path (a path starts with "/" or "*")' });
  });
  it('the robots.txt reader agrees with the Structured Field library on the vocabulary\'s dictionaries', () => {
    const keys = ['train-ai', 'search', 'infer-user', 'a*', 'x.y'];
    const values = ['y', 'n', 'yes', '?1', '"n"', '1'];
    for (const first of keys) {
      for (const second of keys) {
        for (const v1 of values) {
          for (const v2 of values) {
            const text = `${first}=${v1}, ${second}=${v2}`;
            const read = readContentUsage(text);
            const library = new Map<string, string>();
            for (const [key, [item]] of parseDictionary(text)) if (item instanceof Token) library.set(key, item.toString());
            expect(read.ok && read.preferences, text).toEqual(library);
          }
        }
      }
    }
  });
  it('crawl verdicts are the reference\'s in these files', () => {
    crawlAsReference(PATHS, ['https://example.com/private/a', 'https://example.com/blog/x', 'https://example.com/'], ['Googlebot', 'GPTBot']);
  });
});

describe('the HTTP Content-Usage header combines with robots.txt, n over y', () => {
  it('parsed with a Structured Field library: tokens kept, other items state nothing', () => {
    expect(parseContentUsageHeader('train-ai=n, search=y;x=1, flag, rag-ground="n"')).toEqual(new Map([['train-ai', 'n'], ['search', 'y']]));
    expect(() => parseContentUsageHeader('train-ai=n,,')).toThrow(RobotsError);
  });
  it('n from either side wins; y needs no n; a header category the file does not state is reported', () => {
    const answer = usage(PATHS, 'https://example.com/blog/post', 'Googlebot', { header: parseContentUsageHeader('search=n, train-ai=y, rag-ground=n') });
    expect(answer.usage).toEqual({ 'train-ai': 'allowed', search: 'disallowed', 'rag-ground': 'disallowed' });
    expect(answer.decidedBy).toEqual({ 'train-ai': 'both', search: 'header', 'rag-ground': 'header' });
    expect(answer.lines.usage).toEqual({ 'train-ai': [3], search: [], 'rag-ground': [] });
  });
  it('a URL the agent may not fetch: the header changes nothing (unknown)', () => {
    expect(usage(PATHS, 'https://example.com/private/a', 'Googlebot', { header: { 'train-ai': 'n' } }).usage).toEqual({ 'train-ai': 'unknown', search: 'unknown' });
  });
});

describe('Content-Signal: group-scoped, file-wide lines as defaults, several lines most restrictive', () => {
  const SIGNALS = `Content-Signal: search=yes, ai-train=no, use=reference
User-agent: *
Content-Signal: ai-input=yes
Content-Signal: ai-input=no, search=yes
Allow: /

User-agent: Bingbot
Content-Signal: ai-train=yes, USE=full
Disallow: /x
`;
  it('in the * group: its lines decide the keys they state, file-wide lines the rest', () => {
    const answer = usage(SIGNALS, 'https://example.com/', 'GPTBot');
    expect(answer.contentSignal).toEqual({ search: 'yes', 'ai-train': 'no', use: 'reference', 'ai-input': 'no' });
    expect(answer.lines.contentSignal).toEqual({ search: [4], 'ai-train': [1], use: [1], 'ai-input': [3, 4] });
  });
  it('in a named group: its own lines (keys lower-cased, unknown keys as written)', () => {
    const answer = usage(SIGNALS, 'https://example.com/', 'Bingbot');
    expect(answer.contentSignal).toEqual({ search: 'yes', 'ai-train': 'yes', use: 'full' });
    expect(answer.lines.contentSignal).toEqual({ search: [1], 'ai-train': [8], use: [8] });
  });
  it('file-wide only', () => {
    expect(usage('Content-Signal: ai-train=no\nUser-agent: *\nDisallow: /a\n', 'https://example.com/').contentSignal).toEqual({ 'ai-train': 'no' });
  });
  it('a value that is neither yes nor no states nothing', () => {
    expect(usage('User-agent: *\nContent-Signal: ai-train=maybe, search=YES\n', 'https://example.com/').contentSignal).toEqual({ search: 'yes' });
  });
  it('crawl verdicts are the reference\'s in this file', () => {
    crawlAsReference(SIGNALS, ['https://example.com/', 'https://example.com/x'], ['GPTBot', 'Bingbot']);
  });
});

describe('policy tokens: ordinary groups, named or *', () => {
  const TOKENS = 'User-agent: *\nDisallow: /private/\n\nUser-agent: Google-Extended\nDisallow: /\n\nUser-agent: CCBot\nAllow: /\n';
  it('default tokens: Google-Extended through its own group, Applebot-Extended through *', () => {
    const answer = usage(TOKENS, 'https://example.com/a');
    expect(answer.tokens).toEqual({ 'Google-Extended': 'disallowed', 'Applebot-Extended': 'allowed' });
    expect(answer.tokenGroups).toEqual({ 'Google-Extended': 'named', 'Applebot-Extended': '*' });
    expect(answer.lines.tokens).toEqual({ 'Google-Extended': 5, 'Applebot-Extended': null });
    expect(usage(TOKENS, 'https://example.com/private/x').tokens).toEqual({ 'Google-Extended': 'disallowed', 'Applebot-Extended': 'disallowed' });
  });
  it('named tokens; a file with no * group: none', () => {
    expect(usage(TOKENS, 'https://example.com/private/x', 'Googlebot', { tokens: ['CCBot'] }).tokens).toEqual({ CCBot: 'allowed' });
    const alone = usage('User-agent: Google-Extended\nDisallow: /\n', 'https://example.com/', 'Googlebot', { tokens: ['Applebot-Extended'] });
    expect(alone.tokenGroups).toEqual({ 'Applebot-Extended': 'none' });
    expect(alone.tokens).toEqual({ 'Applebot-Extended': 'allowed' });
  });
  it('usage never changes a crawl verdict; crawl verdicts are the reference\'s', () => {
    crawlAsReference(TOKENS, ['https://example.com/a', 'https://example.com/private/x'], ['Googlebot', 'Google-Extended', 'CCBot']);
  });
});

describe('usage in bulk: one call per matcher per batch, the same answers as one URL at a time', () => {
  it('usageLines equals answer() for every URL, for each category', () => {
    const robots = parseRobots(PATHS);
    const urls = ['https://example.com/', 'https://example.com/blog/a', 'https://example.com/blog/a.pdf', 'https://example.com/shop/x', 'https://example.com/private/y', '', 'not a url', '/blog/relative'];
    const policy = robots.usagePolicy('Googlebot');
    for (const category of ['train-ai', 'search', 'rag-ground']) {
      const bulk = policy.usageLines(bytes(urls.join('\n') + '\n'), category);
      urls.forEach((url, i) => {
        const one = robots.usage(url, 'Googlebot');
        expect(bulk.crawl[i], url).toBe(one.crawl === 'allowed' ? 1 : 2);
        expect(['unknown', 'allowed', 'disallowed'][bulk.usage[i]], `${category} ${url}`).toBe(one.usage[category] ?? 'unknown');
        expect(bulk.lines[i], `${category} ${url}`).toBe(one.lines.usage[category]?.[0] ?? 0);
      });
    }
  });
});

describe('robotstxt usage and check --usage', () => {
  const folder = tempDir();
  const file = join(folder, 'robots.txt');
  writeFileSync(file, 'Content-Signal: ai-train=no\nUser-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y\nDisallow: /private/\n\nUser-agent: Google-Extended\nDisallow: /\n');
  it('--format json: one object per URL per line', () => {
    const result = robotstxt(['usage', file, 'https://example.com/blog/a', 'https://example.com/private/a', '--agent', 'GPTBot', '--format', 'json', '--header', 'search=n']);
    expect(result.status).toBe(0);
    expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual([
      { url: 'https://example.com/blog/a', agent: 'GPTBot', crawl: 'allowed', usage: { 'train-ai': 'allowed', search: 'disallowed' }, contentSignal: { 'ai-train': 'no' }, tokens: { 'Google-Extended': 'disallowed', 'Applebot-Extended': 'allowed' }, tokenGroups: { 'Google-Extended': 'named', 'Applebot-Extended': '*' }, decidedBy: { 'train-ai': 'robots.txt', search: 'header' }, licenses: [], lines: { crawl: null, usage: { 'train-ai': [4], search: [] }, contentSignal: { 'ai-train': [1] }, tokens: { 'Google-Extended': 8, 'Applebot-Extended': null } } },
      { url: 'https://example.com/private/a', agent: 'GPTBot', crawl: 'disallowed', usage: { 'train-ai': 'unknown', search: 'unknown' }, contentSignal: { 'ai-train': 'no' }, tokens: { 'Google-Extended': 'disallowed', 'Applebot-Extended': 'disallowed' }, tokenGroups: { 'Google-Extended': 'named', 'Applebot-Extended': '*' }, decidedBy: { 'train-ai': 'crawl-disallowed', search: 'crawl-disallowed' }, licenses: [], lines: { crawl: 5, usage: { 'train-ai': [], search: [] }, contentSignal: { 'ai-train': [1] }, tokens: { 'Google-Extended': 8, 'Applebot-Extended': 5 } } },
    ]);
  });
  it('text: a table per URL', () => {
    expect(robotstxt(['usage', file, 'https://example.com/a', '--token', 'Google-Extended']).stdout).toBe([
      'https://example.com/a (agent *)',
      '  crawl                    allowed     no rule',
      '  usage train-ai           disallowed  line 3',
      '  usage search             unknown     nothing says',
      '  content-signal ai-train  no          line 1',
      '  token Google-Extended    disallowed  its own group, line 8',
      '',
    ].join('\n'));
  });
  it('a header that is not a dictionary, a missing URL: usage errors (exit 2)', () => {
    const bad = robotstxt(['usage', file, 'https://example.com/', '--header', 'train-ai=n,,']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^robotstxt: --header: Content-Usage header "train-ai=n,," is not a Structured Field Dictionary \(RFC 9651\)/);
    expect(robotstxt(['usage', file]).stderr).toBe('robotstxt: usage needs a <robots-file> and at least one <url>, got 1 argument(s) (see robotstxt usage --help)\n');
  });
  it('check --usage train-ai: a column in text, a field in jsonl, one line per input line; the file-wide ai-train=no outranks the /blog/ rule\'s y', () => {
    const input = 'https://example.com/a\nhttps://example.com/blog/x\nhttps://example.com/private/y\n\n';
    const text = robotstxt(['check', '--robots', file, '--agent', 'GPTBot', '--usage', 'train-ai', '-'], input);
    expect(text.status).toBe(0);
    expect(text.stdout).toBe('allowed\tdisallowed\thttps://example.com/a\nallowed\tdisallowed\thttps://example.com/blog/x\ndisallowed\tunknown\thttps://example.com/private/y\nallowed\tdisallowed\t\n');
    const jsonl = robotstxt(['check', '--robots', file, '--agent', 'GPTBot', '--usage', 'train-ai', '--format', 'jsonl', '-'], input);
    expect(jsonl.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual([
      { input: 1, url: 'https://example.com/a', verdict: 'allowed', rule: null, usage: { category: 'train-ai', verdict: 'disallowed', line: 3, source: 'content-usage' } },
      { input: 2, url: 'https://example.com/blog/x', verdict: 'allowed', rule: null, usage: { category: 'train-ai', verdict: 'disallowed', line: 1, source: 'content-signal' } },
      { input: 3, url: 'https://example.com/private/y', verdict: 'disallowed', rule: { kind: 'disallow', line: 5, pattern: '/private/' }, usage: { category: 'train-ai', verdict: 'unknown', line: null, source: null } },
      { input: 4, url: '', verdict: 'allowed', rule: null, usage: { category: 'train-ai', verdict: 'disallowed', line: 3, source: 'content-usage' } },
    ]);
  });
  it('check --usage: only with --robots, not with --only or --log; a category is a lower-case key', () => {
    expect(robotstxt(['check', '--robots', file, '--agent', 'GPTBot', '--usage', 'Train', '-'], '').stderr).toBe("robotstxt: --usage must name a category such as train-ai or search (a lower-case key), got 'Train'\n");
    expect(robotstxt(['check', '--robots', file, '--agent', 'GPTBot', '--usage', 'train-ai', '--only', 'allowed', '-'], '').status).toBe(2);
    expect(robotstxt(['check', '--robots-dir', folder, '--agent', 'GPTBot', '--usage', 'train-ai', '-'], '').status).toBe(2);
  });
});

describe('check\'s pipeline answers the usage column (the library call check --usage makes)', () => {
  const robots = parseRobots('Content-Signal: ai-train=no\nUser-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y\nDisallow: /private/\n');
  const chunks = ['https://example.com/a\nhttps://example.com/private/y\n', 'https://example.com/blog/x\n', '\n'];
  /** A LineChunkSource handing out these chunks, one per call. */
  const source = (): { next(target: Uint8Array): Promise<Uint8Array | null> } => {
    let index = 0;
    return { next: async (target) => {
      if (index === chunks.length) return null;
      const bytes = new TextEncoder().encode(chunks[index++]);
      target.set(bytes);
      return target.subarray(0, bytes.length);
    } };
  };
  const run = async (format: 'text' | 'jsonl', threads: number, only: 'all' | 'allowed' = 'all'): Promise<{ text: string; lines: number; threadsUsed: number; fewerThreads: unknown }> => {
    const written: Buffer[] = [];
    const output = new Writable({ write(chunk, _encoding, done) { written.push(Buffer.from(chunk)); done(); } });
    const target = { kind: 'robots' as const, matcher: robots.matcher(['GPTBot']), usage: { policy: robots.usagePolicy(['GPTBot']), category: 'train-ai' } };
    const outcome = await runCheck(source(), { target, threads, format, only, log: null, inputBytes: 1 << 30 }, output, () => undefined);
    return { text: Buffer.concat(written).toString(), lines: outcome.lines, threadsUsed: outcome.threadsUsed, fewerThreads: outcome.fewerThreads };
  };
  it('text: three columns in input order over chunks; with threads asked, this thread answers (no worker, no note of fewer threads)', async () => {
    expect(await run('text', 2)).toEqual({ text: 'allowed\tdisallowed\thttps://example.com/a\ndisallowed\tunknown\thttps://example.com/private/y\nallowed\tdisallowed\thttps://example.com/blog/x\nallowed\tdisallowed\t\n', lines: 4, threadsUsed: 1, fewerThreads: null });
  });
  it('jsonl: input numbers run on across chunks, the usage field before each closing brace', async () => {
    const { text } = await run('jsonl', 1);
    expect(text.trim().split('\n').map((line) => { const { input, verdict, usage } = JSON.parse(line); return { input, verdict, usage }; })).toEqual([
      { input: 1, verdict: 'allowed', usage: { category: 'train-ai', verdict: 'disallowed', line: 3, source: 'content-usage' } },
      { input: 2, verdict: 'disallowed', usage: { category: 'train-ai', verdict: 'unknown', line: null, source: null } },
      { input: 3, verdict: 'allowed', usage: { category: 'train-ai', verdict: 'disallowed', line: 1, source: 'content-signal' } },
      { input: 4, verdict: 'allowed', usage: { category: 'train-ai', verdict: 'disallowed', line: 3, source: 'content-usage' } },
    ]);
  });
  it('a filter with the usage column is refused before any output, naming the option', async () => {
    await expect(run('text', 1, 'allowed')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', option: { name: 'usage' }, message: 'usage answers every line of a URL list in text or jsonl (no filter, no log lines)' });
  });
});

describe('lint: group-merged, its severity by whether a verdict changes', () => {
  const merged = (body: string): string[] => lintRobots(bytes(body), { maxBytes: 0 }).findings.filter((f) => f.code === 'group-merged').map((f) => `${f.line} ${f.severity}`);
  it('Content-Signal between two user-agent lines: an error (* is disallowed everything), as the reference decides', () => {
    const body = 'User-agent: *\nContent-Signal: search=yes, ai-train=no\n\nUser-agent: badbot\nDisallow: /\n';
    expect(merged(body)).toEqual(['4 error']);
    expect(parseRobots(body).isAllowed('https://example.com/', 'Googlebot')).toBe(false);
    expect(modelVerdict(body, ['Googlebot'], 'https://example.com/').allowed).toBe(false);
    expect(lintRobots(bytes(body), { maxBytes: 0 }).findings.find((f) => f.code === 'group-merged')?.message).toBe('user-agent "badbot" does not start a new group: only an Allow or Disallow line ends one, and line 2 (content-signal) is neither, so the group of "*" goes on and its rules apply to every agent of it: this changes what * may fetch. End the group before this line with its own rules (an empty "Disallow:" allows everything)');
  });
  it('Content-Usage, Crawl-delay and Sitemap lines keep a group open too', () => {
    expect(merged('User-agent: *\nContent-Usage: train-ai=n\nUser-agent: badbot\nDisallow: /\n')).toEqual(['3 error']);
    expect(merged('User-agent: *\nCrawl-delay: 5\nUser-agent: badbot\nDisallow: /\n')).toEqual(['3 error']);
    expect(merged('User-agent: *\nSitemap: https://example.com/sitemap.xml\nUser-agent: badbot\nDisallow: /\n')).toEqual(['3 error']);
  });
  it('a warning when no agent of the merged group gets other rules', () => {
    expect(merged('User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /x\nUser-agent: a\nDisallow: /x\n')).toEqual(['3 warning']);
    expect(merged('User-agent: a\nCrawl-delay: 5\nUser-agent: b\n')).toEqual(['3 warning']);
  });
  it('a group of 50,000 user-agent lines each kept open by a Crawl-delay: a finding each, every one weighed', () => {
    // product tokens are letters, '-' and '_' only: "a0" and "a1" are both the crawler "a", which keeps /x
    const sameToken = ['User-agent: a0'];
    for (let i = 1; i < 50_000; i++) sameToken.push('Crawl-delay: 1', `User-agent: a${i}`);
    sameToken.push('Disallow: /x');
    const kept = lintRobots(bytes(sameToken.join('\n') + '\n'), { maxBytes: 0 }).findings.filter((f) => f.code === 'group-merged');
    expect(kept.length).toBe(49_999);
    expect(kept[0].message).toContain('so the group of "a0" goes on');
    expect(kept[49_998].message).toContain('so the group of "a0", "a1", "a2" and 49996 more goes on and its rules apply to every agent of it; here it changes nothing any of them may fetch');
    expect(kept.filter((f) => f.severity === 'warning').length).toBe(49_999);
    // fifty thousand crawlers: each one before a merged line loses /x if the group ended there
    const name = (n: number): string => { let text = 'bot'; do { text += String.fromCharCode(97 + (n % 26)); n = Math.floor(n / 26); } while (n > 0); return text; };
    const distinct = [`User-agent: ${name(0)}`];
    for (let i = 1; i < 50_000; i++) distinct.push('Crawl-delay: 1', `User-agent: ${name(i)}`);
    distinct.push('Disallow: /x');
    const changing = lintRobots(bytes(distinct.join('\n') + '\n'), { maxBytes: 0 }).findings.filter((f) => f.code === 'group-merged');
    expect(changing.length).toBe(49_999);
    expect(changing.filter((f) => f.severity === 'error').length).toBe(49_999);
    expect(changing[0].message).toContain(': this changes what bota may fetch.');
    expect(changing[49_998].message).toContain(': this changes what bota, botb, botc, botd, bote, botf, botg, both, boti, botj and 49989 more may fetch.');
  });
  it('consecutive user-agent lines and a group after rules are no finding', () => {
    expect(merged('User-agent: a\nUser-agent: b\nDisallow: /x\nCrawl-delay: 1\n\nUser-agent: c\nDisallow: /\n')).toEqual([]);
  });
  it('invalid Content-Usage and Content-Signal values stay warnings; a path that is not a path is reported; outside any group', () => {
    expect(lintRobots(bytes('Content-Usage: train-ai=n\nUser-agent: *\nContent-Usage: blog/ train-ai=n\nContent-Signal: ai-train=maybe, use=reference\nAllow: /\n'), { maxBytes: 0 }).findings).toEqual([
      { line: 1, severity: 'warning', code: 'content-usage-outside-group', message: 'content-usage before any user-agent line: it belongs to no group and applies to no crawler (put it in a group, such as User-agent: *)' },
      { line: 3, severity: 'warning', code: 'content-usage-invalid', message: 'content-usage: "blog/" is not a path (a path starts with "/" or "*")' },
      { line: 4, severity: 'warning', code: 'content-signal-invalid', message: 'content-signal: ai-train=maybe: the value must be yes or no' },
      { line: 4, severity: 'info', code: 'content-signal-invalid', message: 'content-signal: "use" is not one of search, ai-input, ai-train: reported as written' },
    ]);
  });
});

describe('one answer per purpose: check --usage and audit combine Content-Usage and Content-Signal the same way', () => {
  const dir = tempDir();
  const robotsFile = join(dir, 'robots.txt');
  // file-wide ai-train=no and search=yes; a /blog/ rule says train-ai=y and a /search rule search=n
  writeFileSync(robotsFile, 'Content-Signal: search=yes, ai-train=no, ai-input=no\nUser-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y, search=y\nContent-Usage: /search search=n\nDisallow: /cart\n');
  const PATHS = ['/products/a', '/blog/b', '/blog/c?x=1', '/search?q=tea', '/cart', '/about', '/search/help'];
  const AGENTS: Record<string, { userAgent: string; purpose: string }> = {
    GPTBot: { userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', purpose: 'train-ai' },
    Googlebot: { userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', purpose: 'search' },
    'ChatGPT-User': { userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot', purpose: 'ai-input' },
  };
  const logFile = join(dir, 'purposes.log');
  writeFileSync(logFile, Object.values(AGENTS).flatMap(({ userAgent }) => PATHS.map((path) => `192.0.2.1 - - [26/Nov/2026:10:00:00 +0000] "GET ${path} HTTP/1.1" 200 10 "-" "${userAgent}"`)).join('\n') + '\n');
  const urlsFile = join(dir, 'urls.txt');
  writeFileSync(urlsFile, PATHS.map((path) => `https://shop.example${path}`).join('\n') + '\n');
  it('per crawler and purpose, the requests check --usage answers disallowed are the requests audit counts against the preference, by the same statement', { tags: ['slow'] }, () => {
    const report = JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--format', 'json', '--top', '0', logFile]).stdout);
    const rows = [...report.crawlers, ...report.userTriggered] as { agent: string; usage: { purpose: string; against: number; by: { source: string; line: number; preference: string; requests: number }[] } | null }[];
    for (const [agent, { purpose }] of Object.entries(AGENTS)) {
      const lines = robotstxt(['check', '--robots', robotsFile, '--agent', agent, '--usage', purpose, '--format', 'jsonl', urlsFile]).stdout.trim().split('\n').map((line) => JSON.parse(line) as { usage: { verdict: string; line: number | null; source: string | null } });
      const fromCheck = new Map<string, number>();
      for (const line of lines) if (line.usage.verdict === 'disallowed') fromCheck.set(`${line.usage.source} ${line.usage.line}`, (fromCheck.get(`${line.usage.source} ${line.usage.line}`) ?? 0) + 1);
      const row = rows.find((c) => c.agent === agent);
      expect(row?.usage?.purpose, agent).toBe(purpose);
      expect(new Map(row?.usage?.by.map((by) => [`${by.source} ${by.line}`, by.requests])), agent).toEqual(fromCheck);
    }
    // what each purpose comes to: the signal's no outranks the /blog/ rule's y; the /search rule's n outranks the signal's yes
    const verdicts = (agent: string, purpose: string): string[] => robotstxt(['check', '--robots', robotsFile, '--agent', agent, '--usage', purpose, urlsFile]).stdout.trim().split('\n').map((line) => line.split('\t')[1]);
    expect(verdicts('GPTBot', 'train-ai')).toEqual(['disallowed', 'disallowed', 'disallowed', 'disallowed', 'unknown', 'disallowed', 'disallowed']);
    expect(verdicts('Googlebot', 'search')).toEqual(['allowed', 'allowed', 'allowed', 'disallowed', 'unknown', 'allowed', 'disallowed']);
    expect(verdicts('ChatGPT-User', 'ai-input')).toEqual(['disallowed', 'disallowed', 'disallowed', 'disallowed', 'unknown', 'disallowed', 'disallowed']);
    // robotstxt usage --purpose and the library's mayUse give the same verdict and deciding statement, URL by URL
    const urls = PATHS.map((path) => `https://shop.example${path}`);
    for (const [agent, { purpose }] of Object.entries(AGENTS)) {
      const fromUsage = robotstxt(['usage', robotsFile, ...urls, '--agent', agent, '--purpose', purpose, '--format', 'json']).stdout.trim().split('\n').map((line) => JSON.parse(line).purposes[0] as { verdict: string; decidedBy: { source: string; line: number } | null });
      const fromCheck = robotstxt(['check', '--robots', robotsFile, '--agent', agent, '--usage', purpose, '--format', 'jsonl', urlsFile]).stdout.trim().split('\n').map((line) => JSON.parse(line).usage as { verdict: string; line: number | null; source: string | null });
      expect(fromUsage.map((answer) => [answer.verdict, answer.decidedBy?.source ?? null, answer.decidedBy?.line ?? null]), agent).toEqual(fromCheck.map((answer) => [answer.verdict, answer.source, answer.line]));
      const robots = parseRobots(readFileSync(robotsFile));
      expect(urls.map((url) => robots.mayUse(url, agent, purpose).verdict), agent).toEqual(fromCheck.map((answer) => answer.verdict));
      robots.close();
    }
    const jsonl = JSON.parse(robotstxt(['check', '--robots', robotsFile, '--agent', 'GPTBot', '--usage', 'train-ai', '--format', 'jsonl', urlsFile]).stdout.split('\n')[1]);
    expect(jsonl.usage).toEqual({ category: 'train-ai', verdict: 'disallowed', line: 1, source: 'content-signal' });
  });
});

describe('RSL License lines: reported by usage and lint, never judged', () => {
  const body = 'License: https://example.com/license.xml\nUser-agent: *\nDisallow: /x\nLicense: terms.xml\n';
  it('usage lists every License line with its line, whatever group it stands in; the crawl verdicts do not change', () => {
    const robots = parseRobots(body);
    expect(robots.usage('https://example.com/a', 'GPTBot').licenses).toEqual([{ url: 'https://example.com/license.xml', line: 1 }, { url: 'terms.xml', line: 4 }]);
    expect([robots.isAllowed('https://example.com/a', 'GPTBot'), robots.isAllowed('https://example.com/x', 'GPTBot')]).toEqual([true, false]);
    const dir = tempDir();
    writeFileSync(join(dir, 'robots.txt'), body);
    expect(robotstxt(['usage', join(dir, 'robots.txt'), 'https://example.com/a']).stdout.split('\n').filter((line) => line.includes('license'))).toEqual([
      '  license (RSL)            reported    https://example.com/license.xml, line 1',
      '  license (RSL)            reported    terms.xml, line 4',
    ]);
  });
  it('lint: an info with the URL, a warning for a value that is no absolute URL, no unknown-directive', () => {
    expect(lintRobots(bytes(body), { maxBytes: 0 }).findings).toEqual([
      { line: 1, severity: 'info', code: 'license', message: 'license: RSL licence terms at https://example.com/license.xml: reported, not judged (no crawl verdict changes; crawlers that read RSL fetch the terms)' },
      { line: 4, severity: 'warning', code: 'license-invalid', message: 'license: "terms.xml" is not an absolute http(s) URL: RSL expects the URL of the licence terms' },
    ]);
  });
});

describe("mayUse with the page's own statements (noai, the content-signal meta tag)", () => {
  const file = parseRobots('Content-Signal: search=yes, ai-train=yes\nUser-agent: *\nContent-Usage: /blog/ train-ai=y\nDisallow: /private/\n');
  const page = (noai: boolean, contentSignal: Record<string, string> = {}) => ({ noai, noimageai: false, contentSignal });
  it('noai refuses AI training and AI input over the file\'s yes; search stays the file\'s; a content-signal meta tag weighs per key; a URL not fetched has no purpose verdict', () => {
    const url = 'https://example.com/blog/a';
    expect(file.mayUse(url, 'GPTBot', 'train-ai', { page: page(true) })).toMatchObject({ verdict: 'disallowed', decidedBy: { source: 'page', statement: 'noai', line: null, verdict: 'disallowed' } });
    expect(file.mayUse(url, 'GPTBot', 'train-ai', { page: page(true) }).statements.map((statement) => `${statement.source} ${statement.statement}`)).toEqual(['content-usage train-ai=y', 'content-signal ai-train=yes', 'page noai']);
    expect(file.mayUse(url, 'GPTBot', 'ai-input', { page: page(true) }).verdict).toBe('disallowed');
    expect(file.mayUse(url, 'GPTBot', 'search', { page: page(true) }).verdict).toBe('allowed');
    expect(file.mayUse(url, 'GPTBot', 'search', { page: page(false, { search: 'no' }) })).toMatchObject({ verdict: 'disallowed', decidedBy: { source: 'page', statement: 'content-signal search=no' } });
    expect(file.mayUse(url, 'GPTBot', 'ai-input', { page: page(false, { 'ai-input': 'yes' }) })).toMatchObject({ verdict: 'allowed', decidedBy: { source: 'page', statement: 'content-signal ai-input=yes' } });
    expect(file.mayUse('https://example.com/private/a', 'GPTBot', 'train-ai', { page: page(true) })).toMatchObject({ crawl: 'disallowed', verdict: 'unknown', statements: [] });
    expect(() => file.mayUse(url, 'GPTBot', 'train-ai', { pages: 1 } as never)).toThrow('unknown option "pages" in mayUse options (known: header, page)');
  });
  it('robotstxt usage --purpose with --page-header and --page-html: the same verdicts; one URL only', () => {
    const dir = tempDir();
    const robotsPath = join(dir, 'robots.txt');
    writeFileSync(robotsPath, 'Content-Signal: search=yes, ai-train=yes\nUser-agent: *\nContent-Usage: /blog/ train-ai=y\nDisallow: /private/\n');
    const html = join(dir, 'page.html');
    writeFileSync(html, '<html><head><meta name="robots" content="noai"><meta name="content-signal" content="search=no"></head><body><meta name="content-signal" content="ai-input=no"></body></html>');
    const r = robotstxt(['usage', robotsPath, 'https://example.com/blog/a', '--agent', 'GPTBot', '--purpose', 'train-ai', '--purpose', 'search', '--page-html', html]);
    expect([r.status, r.stdout]).toEqual([0, 'https://example.com/blog/a (agent GPTBot)\n  crawl             allowed\n  purpose train-ai  disallowed  page noai, over content-usage train-ai=y (line 3), over content-signal ai-train=yes (line 1)\n  purpose search    disallowed  page content-signal search=no, over content-signal search=yes (line 1)\n']);
    const headers = robotstxt(['usage', robotsPath, 'https://example.com/blog/a', '--agent', 'GPTBot', '--purpose', 'ai-input', '--page-header', 'X-Robots-Tag: gptbot: noai', '--format', 'json']);
    expect(JSON.parse(headers.stdout).purposes[0]).toMatchObject({ purpose: 'ai-input', verdict: 'disallowed', decidedBy: { source: 'page', statement: 'noai' } });
    expect(robotstxt(['usage', robotsPath, 'https://example.com/a', 'https://example.com/b', '--purpose', 'search', '--page-header', 'X-Robots-Tag: noai']).stderr).toBe('robotstxt: --page-header and --page-html describe one page: give one <url>, got 2\n');
    expect(robotstxt(['usage', robotsPath, 'https://example.com/a', '--page-header', 'X-Robots-Tag: noai']).stderr).toBe('robotstxt: --page-header applies only with --purpose\n');
  });
});
