// robotstxt audit --format partial and --merge: the audit of a log split into parts (a cluster's partitions,
// each audited where it lies) is the audit of the whole log, byte for byte, in every report format.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { robotstxt, tempDir, CORPUS_LOG, corpusMissingReason } from './cli-helpers.js';
import { RobotsAudit, parseRobots, type AuditPartial } from '../src/node/index.js';

const EXAMPLES = join(__dirname, '..', 'examples');
const SHOP = join(EXAMPLES, 'shop-robots.txt');
const RANGES = join(EXAMPLES, 'crawler-ranges');

/** Splits text into `parts` pieces at line ends (as split -n l/4 does): each piece whole lines. */
function splitLines(text: string, parts: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (let k = 1; k <= parts; k++) {
    let end = k === parts ? text.length : Math.round((k * text.length) / parts);
    if (end < text.length) end = text.indexOf('\n', end) + 1 || text.length;
    pieces.push(text.slice(start, Math.max(start, end)));
    start = Math.max(start, end);
  }
  return pieces;
}

/** Audits each part from standard input with --format partial, merges them, and audits the whole from standard input: both outputs per format. */
function partsAndWhole(text: string, parts: number, options: string[], formats: string[]): { merged: Record<string, string>; whole: Record<string, string>; stderr: string } {
  const dir = tempDir();
  const files = splitLines(text, parts).map((piece, k) => {
    const file = join(dir, `part-${k}.json`);
    const run = robotstxt(['audit', ...options, '--format', 'partial', '-'], piece);
    expect(run.status, run.stderr).toBe(0);
    writeFileSync(file, run.stdout);
    return file;
  });
  const merged: Record<string, string> = {};
  const whole: Record<string, string> = {};
  let stderr = '';
  for (const format of formats) {
    const m = robotstxt(['audit', '--merge', ...files, '--format', format]);
    expect(m.status, m.stderr).toBe(0);
    merged[format] = m.stdout;
    stderr = m.stderr;
    const w = robotstxt(['audit', ...options, '--format', format, '-'], text);
    expect(w.status, w.stderr).toBe(0);
    expect(m.stderr).toBe(w.stderr);
    whole[format] = w.stdout;
  }
  return { merged, whole, stderr };
}

describe.skipIf(corpusMissingReason !== null)('the real Apache log (10,000 lines) split in 4, each part audited apart, merged', () => {
  const text = existsSync(CORPUS_LOG) ? readFileSync(CORPUS_LOG, 'latin1') : '';
  it('equals one audit of the whole log, byte for byte: JSON, table and HTML; its malformed line numbered as in the whole', { tags: ['slow'] }, () => {
    const { merged, whole, stderr } = partsAndWhole(text, 4, ['--robots', SHOP], ['json', 'table', 'html']);
    for (const format of ['json', 'table', 'html']) expect(merged[format], format).toBe(whole[format]);
    expect(stderr).toBe('robotstxt: 1 malformed log line(s) skipped (-:8899)\n');
    expect(JSON.parse(merged.json).crawlerRequests).toBe(2819);
  });
  it('with --verify (the vendors\' ranges), with --by host, and both: JSON and table', { tags: ['slow'] }, () => {
    const dir = join(tempDir(), 'robots');
    mkdirSync(dir);
    writeFileSync(join(dir, 'example.com.txt'), readFileSync(SHOP));
    for (const options of [['--robots', SHOP, '--verify', '--crawler-ranges', RANGES], ['--robots-dir', dir, '--host', 'example.com', '--by', 'host'], ['--robots-dir', dir, '--host', 'example.com', '--by', 'host', '--verify', '--crawler-ranges', RANGES]]) {
      const { merged, whole } = partsAndWhole(text, 4, options, ['json', 'table']);
      expect(merged.json, options.join(' ')).toBe(whole.json);
      expect(merged.table, options.join(' ')).toBe(whole.table);
    }
  });
});

// a small log of bots and browsers over a few hours, with malformed lines, built from seeds
const AGENTS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'Googlebot-Image/1.0',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
  'ChatGPT-User/1.0',
  'curl/8.0',
];
const PATHS = ['/cart', '/checkout/a', '/p?sort=1', '/x.pdf', '/ok', '/robots.txt', '/help/index.html', '/api/public/x', '/wp-admin/'];
const logLine = fc.oneof(
  { weight: 12, arbitrary: fc.tuple(fc.nat({ max: 6 }), fc.nat({ max: 8 }), fc.nat({ max: 5 }), fc.constantFrom(200, 301, 404, 503)).map(([a, p, hour, status]) => `10.0.0.${a} - - [17/May/2015:1${hour}:05:03 +0000] "GET ${PATHS[p]} HTTP/1.1" ${status} 1 "-" "${AGENTS[a]}"`) },
  { weight: 1, arbitrary: fc.constantFrom('garbage line', '', 'GET / HTTP/1.1') },
);

describe('merged parts = the whole (generated logs)', () => {
  it('any log, split anywhere into 1 to 5 parts: the merged JSON equals the whole\'s (RobotsAudit.partial and merged, 100 runs)', () => {
    const robots = parseRobots(readFileSync(SHOP));
    fc.assert(fc.property(fc.array(logLine, { minLength: 1, maxLength: 120 }), fc.array(fc.nat(), { maxLength: 4 }), fc.boolean(), (lines, cuts, byHost) => {
      const audit = (from: number, to: number): RobotsAudit => {
        const one = new RobotsAudit(() => robots, { byHost });
        for (let i = from; i < to; i++) one.addLine(lines[i], i - from + 1, '-');
        return one;
      };
      const whole = audit(0, lines.length);
      const points = [...new Set(cuts.map((cut) => cut % (lines.length + 1)))].sort((a, b) => a - b);
      const bounds = [0, ...points, lines.length];
      const partials: AuditPartial[] = [];
      for (let k = 0; k + 1 < bounds.length; k++) partials.push(JSON.parse(JSON.stringify(audit(bounds[k], bounds[k + 1]).partial([{ log: '-', lines: bounds[k + 1] - bounds[k] }]))) as AuditPartial);
      expect(JSON.stringify(RobotsAudit.merged(partials).report())).toBe(JSON.stringify(whole.report()));
    }), { numRuns: 100 });
  });
  it('parts of named files keep their names and line numbers; merged partials merge again (a reduce in stages)', () => {
    const dir = tempDir();
    const a = join(dir, 'a.log');
    const b = join(dir, 'b.log');
    writeFileSync(a, 'garbage\n10.0.0.1 - - [17/May/2015:10:05:03 +0000] "GET /cart HTTP/1.1" 200 1 "-" "Googlebot/2.1"\n');
    writeFileSync(b, '10.0.0.1 - - [17/May/2015:11:05:03 +0000] "GET /cart HTTP/1.1" 200 1 "-" "Googlebot/2.1"\nnot a log line\n');
    const partA = join(dir, 'a.json');
    const partB = join(dir, 'b.json');
    writeFileSync(partA, robotstxt(['audit', '--robots', SHOP, '--format', 'partial', a]).stdout);
    writeFileSync(partB, robotstxt(['audit', '--robots', SHOP, '--format', 'partial', b]).stdout);
    const merged = robotstxt(['audit', '--merge', partA, partB, '--format', 'json']);
    const whole = robotstxt(['audit', '--robots', SHOP, '--format', 'json', a, b]);
    expect(merged.stdout).toBe(whole.stdout);
    expect(JSON.parse(merged.stdout).malformed).toEqual({ count: 2, lines: [{ log: a, line: 1 }, { log: b, line: 2 }] });
    // a partial of partials, merged with nothing else: the same report
    const staged = join(dir, 'ab.json');
    writeFileSync(staged, robotstxt(['audit', '--merge', partA, partB, '--format', 'partial']).stdout);
    expect(robotstxt(['audit', '--merge', staged, '--format', 'json']).stdout).toBe(whole.stdout);
  });
  it('usage errors: a file that is no partial audit, parts made with different options, log options with --merge (exit 2, one line)', () => {
    const dir = tempDir();
    const log = join(dir, 'a.log');
    writeFileSync(log, '10.0.0.1 - - [17/May/2015:10:05:03 +0000] "GET /cart HTTP/1.1" 200 1 "-" "Googlebot/2.1"\n');
    const plain = join(dir, 'plain.json');
    const verified = join(dir, 'verified.json');
    writeFileSync(plain, robotstxt(['audit', '--robots', SHOP, '--format', 'partial', log]).stdout);
    writeFileSync(verified, robotstxt(['audit', '--robots', SHOP, '--verify', '--crawler-ranges', RANGES, '--format', 'partial', log]).stdout);
    const notPartial = robotstxt(['audit', '--merge', log]);
    expect([notPartial.status, notPartial.stdout]).toEqual([2, '']);
    expect(notPartial.stderr).toMatch(new RegExp(`^robotstxt: ${log.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a partial audit \\(robotstxt audit --format partial writes one\\): .+\\n$`));
    const mixed = robotstxt(['audit', '--merge', plain, verified]);
    expect([mixed.status, mixed.stdout, mixed.stderr]).toEqual([2, '', 'robotstxt: partial audits made with different options cannot be merged: one without --verify, without versions over time, without --by host, --missing allow, without --as-token, another with --verify, without versions over time, without --by host, --missing allow, without --as-token\n']);
    const withLogOption = robotstxt(['audit', '--merge', plain, '--since', '2015-01-01']);
    expect([withLogOption.status, withLogOption.stdout, withLogOption.stderr]).toEqual([2, '', 'robotstxt: --since does not apply with --merge (the partial audits were made with their options; --merge takes --format, --top and --output)\n']);
    const withRobots = robotstxt(['audit', '--merge', '--robots', SHOP, plain]);
    expect(withRobots.status).toBe(2);
    const none = robotstxt(['audit', '--merge']);
    expect([none.status, none.stderr]).toEqual([2, 'robotstxt: audit --merge needs at least one partial audit (a file that audit --format partial wrote, or - for standard input)\n']);
  });
  it('a damaged or edited part is refused naming the file and the field (exit 2), never merged into an invented report; the same part twice is said (a warning: empty or equal partitions are harmless)', { tags: ['slow'] }, () => {
    const dir = tempDir();
    const log = join(dir, 'a.log');
    writeFileSync(log, ['10.0.0.1 - - [17/May/2015:10:05:03 +0000] "GET /cart HTTP/1.1" 200 1 "-" "Googlebot/2.1"', '10.0.0.1 - - [17/May/2015:10:05:04 +0000] "GET /x HTTP/1.1" 200 1 "-" "GPTBot/1.0"'].join('\n') + '\n');
    const good = JSON.parse(robotstxt(['audit', '--robots', SHOP, '--format', 'partial', log]).stdout) as Record<string, unknown> & { crawlers: Record<string, unknown>[] };
    const edits: [string, (part: typeof good) => unknown, string][] = [
      ['negative', (part) => { part.crawlerRequests = -994; return part; }, '"crawlerRequests" is -994, not a count (a whole number of 0 or more)'],
      ['string', (part) => { part.crawlers[0].requests = '12'; return part; }, '"crawlers[0].requests" is "12", not a count (a whole number of 0 or more)'],
      ['fraction', (part) => { part.lines = 1.5; return part; }, '"lines" is 1.5, not a count (a whole number of 0 or more)'],
      ['share over 100%', (part) => { part.crawlers[0].disallowed = (part.crawlers[0].requests as number) + 1; return part; }, `"crawlers[0]": disallowed (${(good.crawlers[0].requests as number) + 1}) is more than requests (${good.crawlers[0].requests as number})`],
      ['not a list', (part) => { part.hours = {}; return part; }, '"hours" is {}, not a list'],
      ['missing', (part) => { delete part.untracked; return part; }, '"untracked" is missing, not an object'],
      ['a field of another shape', (part) => { part.crawlers[0].extra = 1; return part; }, '"crawlers[0].extra" is no field of a partial audit'],
      ['a number too large', (part) => { part.allowed = 2 ** 60; return part; }, `"allowed" is ${JSON.stringify(2 ** 60)}, not a count (a whole number of 0 or more)`],
      ['not an object', () => [1, 2], 'it is [1,2], not a JSON object'],
      ['another format', (part) => { part.format = 'robotstxt-wasm/audit-partial/1'; return part; }, 'its "format" is "robotstxt-wasm/audit-partial/1", not robotstxt-wasm/audit-partial/3 (a part from another version of robotstxt-wasm is made again with this one)'],
    ];
    for (const [name, edit, field] of edits) {
      const file = join(dir, `${name.replace(/\W+/g, '-')}.json`);
      writeFileSync(file, JSON.stringify(edit(structuredClone(good))));
      const r = robotstxt(['audit', '--merge', file]);
      expect([r.status, r.stdout, r.stderr], name).toEqual([2, '', `robotstxt: ${file} is not a partial audit (robotstxt audit --format partial writes one): ${field}\n`]);
    }
    const once = join(dir, 'once.json');
    const copy = join(dir, 'copy.json');
    writeFileSync(once, JSON.stringify(good));
    writeFileSync(copy, `${JSON.stringify(good, null, 1)}\n`);
    const twice = robotstxt(['audit', '--merge', once, copy, '--format', 'json']);
    expect([twice.status, twice.stderr]).toEqual([0, `robotstxt: warning: ${copy} holds the same counts as ${once}, field for field: if it is the same part given twice, its requests are counted twice\n`]);
    expect(JSON.parse(twice.stdout).crawlerRequests).toBe(2 * (good.crawlerRequests as number));
  });
});
