// robotstxt lint: each check, exact output lines, JSON, exit codes, and every real corpus file.
import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { lintRobots, parseRobots, RobotsError } from '../src/node/index.js';
import { robotstxt, tempDir, CORPUS_ROBOTS, corpusMissingReason } from './cli-helpers.js';
import { bytes, raw } from './helpers.js';

const codes = (body: Uint8Array | string): string[] => lintRobots(typeof body === 'string' ? bytes(body) : body, { maxBytes: 0 }).findings.map((f) => `${f.line} ${f.severity} ${f.code}`);

describe('lintRobots finds', () => {
  it('unknown directives, typos, missing colons, lines without separator, rules before any user-agent', () => {
    expect(codes('Disallow: /early\nUser-agent: *\nDisalow: /a\nDisallow /b\nfoo: bar\njunk\n: x\n')).toEqual([
      '1 error rule-outside-group', '3 warning typo-key', '4 warning missing-colon', '5 warning unknown-directive', '6 error no-separator', '7 error empty-key',
    ]);
  });
  it('patterns that never match (neither / nor *), but not empty values', () => {
    expect(codes('User-agent: *\nDisallow: private\nDisallow:\nAllow: *.pdf\n')).toEqual(['2 error pattern-never-matches']);
  });
  it('over-long lines, NUL bytes, a BOM, bytes that are not UTF-8', () => {
    expect(codes(bytes([0xef, 0xbb, 0xbf], 'User-agent: *\nDisallow: /', 'a'.repeat(17000), '\nDisallow: /x', [0], 'y\n'))).toEqual(['1 info bom', '2 warning line-truncated', '3 warning nul-byte']);
    expect(codes(raw('User-agent: *\nDisallow: /caf\xe9\n'))).toEqual(['2 warning not-utf8']);
  });
  it('a file over 500 KiB: the finding is on the line where crawlers stop reading', () => {
    expect(codes('User-agent: *\n' + '#'.repeat(600000) + '\n')).toEqual(['2 warning line-truncated', '2 warning file-too-large']);
    const report = lintRobots(bytes('User-agent: *\n' + 'Disallow: /abcdefgh\n'.repeat(30000)), { maxBytes: 0 });
    expect(report.findings.find((f) => f.code === 'file-too-large')).toEqual({ line: 25601, severity: 'warning', code: 'file-too-large', message: 'file is 600014 bytes: Google and RFC 9309 crawlers read only the first 512000 (500 KiB), which end in this line: it and the lines after it are ignored' });
  });
  it('HTML served as robots.txt: one clear error, not a finding per line', () => {
    expect(lintRobots(bytes('<!DOCTYPE html>\n<html><body>Not found</body></html>\n'), { maxBytes: 0 }).findings).toEqual([
      { line: 1, severity: 'error', code: 'html', message: 'the file is HTML (an error page served as robots.txt?): crawlers find no rules in it; 4 other finding(s) on its lines not listed' },
    ]);
    expect(codes('  <html>\n<head><title>x</title></head>\n')).toEqual(['1 error html']);
    expect(codes('<html>\n<p>\nDisallow: /x\n</p>\n')[0]).toBe('1 error html');
    // an error page after blank lines and a <div> (www.worldbank.org in the corpus)
    expect(codes('\n\n<div class="e"><!DOCTYPE html>\n<html lang="en">\n<head><title>Error page</title></head>\n')).toEqual(['1 error html']);
  });
  it('UTF-16 (with or without a byte order mark) and XML: one clear error each', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('User-agent: *\nDisallow: /private\n', 'utf16le')]);
    expect(lintRobots(utf16, { maxBytes: 0 }).findings.map((f) => `${f.line} ${f.severity} ${f.code}`)).toEqual(['1 error utf16']);
    expect(codes(Buffer.from('User-agent: *\nDisallow: /private\n', 'utf16le'))).toEqual(['1 error utf16']);
    expect(codes('<?xml version="1.0"?>\n<urlset></urlset>\n')).toEqual(['1 error xml']);
  });
  it('user-agent values that are not product tokens (spaces, junk): only the token is compared', () => {
    expect(lintRobots(bytes('User-agent: Google bot\nUser-agent: Googlebot/2.1\nUser-agent: Mozilla/5.0 (compatible; contxbot/1.0)\nUser-agent: 360Spider\nDisallow: /x\n'), { maxBytes: 0 }).findings).toEqual([
      { line: 1, severity: 'warning', code: 'agent-not-a-token', message: 'user-agent "Google bot": crawlers compare only its product token "Google" (the rest, after a space, is ignored)' },
      { line: 3, severity: 'warning', code: 'agent-browser-word', message: 'user-agent "Mozilla/5.0 (compatible; contxbot/1.0)": "Mozilla" is a browser or platform word, not a crawler\'s product token: no crawler follows this group (audit counts no request for it)' },
      { line: 4, severity: 'warning', code: 'agent-not-a-token', message: 'user-agent "360Spider" has no product token (letters, \'-\' and \'_\' first): it names no crawler' },
    ]);
  });
  it('user-agent lines named after browser or platform words (Linux, MSIE 6.0) claim no crawler', () => {
    expect(codes('User-agent: Linux\nUser-agent: MSIE 6.0\nUser-agent: MSIECrawler\nDisallow: /\n')).toEqual(['1 warning agent-browser-word', '2 warning agent-browser-word']);
  });
  it('content-signal and content-usage values are checked against their drafts', () => {
    expect(lintRobots(bytes('User-agent: *\nContent-Signal: search=yes, ai-train=no, ai-input=yes\nContent-Signal: search=maybe, ai-everything=no\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=yes\nContent-Usage:\nAllow: /\n')).findings).toEqual([
      { line: 3, severity: 'warning', code: 'content-signal-invalid', message: 'content-signal: search=maybe: the value must be yes or no' },
      { line: 3, severity: 'info', code: 'content-signal-invalid', message: 'content-signal: "ai-everything" is not one of search, ai-input, ai-train: reported as written' },
      { line: 5, severity: 'warning', code: 'content-usage-invalid', message: 'content-usage: train-ai=yes: the value must be y or n' },
      { line: 6, severity: 'warning', code: 'content-usage-invalid', message: 'content-usage: no preferences (key=value, ...) given' },
    ]);
  });
  it('sitemap lines as the parser reads them: "Sitemaps:" is the sitemap key (keys match by prefix), its URL checked whole', () => {
    expect(codes('User-agent: *\nDisallow: /x\nSitemaps: https://a.com/s.xml\n')).toEqual([]);
    expect(codes('Sitemap: /relative.xml\n')).toEqual(['1 warning sitemap-not-absolute']);
  });
  it('non-numeric crawl-delay and sitemaps that are not absolute URLs', () => {
    expect(codes('User-agent: *\nCrawl-delay: 2.5\nCrawl-delay: soon\nSitemap: https://e.com/s.xml\nSitemap: /s.xml\nSitemap: e.com/s.xml\n')).toEqual([
      '3 warning crawl-delay-not-a-number', '5 warning sitemap-not-absolute', '6 warning sitemap-not-absolute',
    ]);
  });
  it('rules that can never decide: an equal or longer opposite rule that matches every URL they match', () => {
    const report = lintRobots(bytes('User-agent: *\nAllow: /a\nDisallow: /a\nDisallow: /b\nAllow: /b*\nAllow: /c\nDisallow: /c*\nAllow: /d/e\nDisallow: /d\nAllow: /f\nAllow: /f\n'));
    expect(report.findings.map((f) => `${f.line} ${f.code}`)).toEqual(['3 never-decides', '4 never-decides', '6 never-decides', '11 duplicate-rule']);
    expect(report.findings[0].message).toBe('disallow "/a" can never decide: allow "/a" (line 2) matches every URL it matches with equal priority');
    // an allow is shadowed only by a strictly longer disallow (ties go to allow); /d/e is more specific than /d
  });
  it('only within the groups that apply to the same agent', () => {
    expect(codes('User-agent: a\nAllow: /x\n\nUser-agent: b\nDisallow: /x\n')).toEqual([]);
    expect(codes('User-agent: a\nAllow: /x\n\nUser-agent: a\nDisallow: /x\n')).toEqual(['5 warning never-decides']);
  });
  it('nothing in a clean file', () => {
    expect(codes('User-agent: *\nDisallow: /private/\nAllow: /private/public\n\nSitemap: https://e.com/sitemap.xml\n')).toEqual([]);
  });
});

describe('robotstxt lint', () => {
  const dir = tempDir();
  const bad = join(dir, 'bad.txt');
  writeFileSync(bad, 'User-agent: *\nDisallow: nope\nCrawl-delay: x\n');
  const clean = join(dir, 'clean.txt');
  writeFileSync(clean, 'User-agent: *\nDisallow: /private/\n');
  it('prints one line per finding and a summary; exit 1 with errors', () => {
    const r = robotstxt(['lint', bad]);
    expect(r.stdout).toBe([
      `${bad}:2: error: "nope" starts with neither "/" nor "*": it never matches any URL [pattern-never-matches]`,
      `${bad}:3: warning: crawl-delay "x" is not a number of seconds: ignored [crawl-delay-not-a-number]`,
      `${bad}: 1 error(s), 1 warning(s), 0 note(s)`,
    ].join('\n') + '\n');
    expect(r.status).toBe(1);
  });
  it('exit 0 without errors', () => {
    const r = robotstxt(['lint', clean]);
    expect(r.stdout).toBe(`${clean}: 0 error(s), 0 warning(s), 0 note(s)\n`);
    expect(r.status).toBe(0);
  });
  it('--format json', () => {
    const r = robotstxt(['lint', '--format', 'json', bad]);
    expect(JSON.parse(r.stdout)).toEqual({
      file: bad, errors: 1, warnings: 1, infos: 0,
      findings: [
        { line: 2, severity: 'error', code: 'pattern-never-matches', message: '"nope" starts with neither "/" nor "*": it never matches any URL' },
        { line: 3, severity: 'warning', code: 'crawl-delay-not-a-number', message: 'crawl-delay "x" is not a number of seconds: ignored' },
      ],
    });
  });
  it('reads standard input with -', () => {
    const r = robotstxt(['lint', '-'], 'User-agent: *\nDisallow: nope\n');
    expect([r.status, r.stdout]).toEqual([1, '-:2: error: "nope" starts with neither "/" nor "*": it never matches any URL [pattern-never-matches]\n-: 1 error(s), 0 warning(s), 0 note(s)\n']);
  });
  it('usage and file errors: exit 2', () => {
    expect(robotstxt(['lint']).stderr).toBe('robotstxt: lint needs at least one <robots-file> (- for standard input; see robotstxt lint --help)\n');
    expect(robotstxt(['lint', join(dir, 'nope')]).status).toBe(2);
    expect(robotstxt(['lint', '--format', 'xml', bad]).stderr).toBe("robotstxt: --format must be text or json, got 'xml'\n");
    expect(robotstxt(['lint', '--help']).stdout).toContain('Examples:');
  });
});

describe('files larger than one compile (16 MiB): lint names their real size and the line where it stops', () => {
  // 17.8 MB of CR-only lines (old Mac line ends, which the parser reads as line ends): two rules, then
  // 10-byte comment lines
  const body = 'User-agent: *\rDisallow: /x\r' + '# comment\r'.repeat(1_780_000);
  const limit = 16 << 20;
  // the line that holds byte 16 MiB: one more than the line ends before it
  const stopLine = (body.slice(0, limit).match(/\r/g) as string[]).length + 1;
  const stopMessage = `file is ${body.length} bytes, larger than 16 MiB: linting stops at this line (crawlers read only the first 500 KiB)`;
  it('lintRobots: the cut at the last whole line before 16 MiB, and fileBytes in both size findings', () => {
    expect([body.length, stopLine]).toEqual([17_800_027, 1_677_721]);
    const report = lintRobots(raw(body), { maxBytes: 0 });
    expect(report.findings).toEqual([
      { line: 51200, severity: 'warning', code: 'file-too-large', message: 'file is 17800027 bytes: Google and RFC 9309 crawlers read only the first 512000 (500 KiB), which end in this line: it and the lines after it are ignored' },
      { line: 1_677_721, severity: 'warning', code: 'file-too-large-to-lint', message: stopMessage },
    ]);
    const firstPart = raw(body.slice(0, 1000));
    expect(lintRobots(firstPart, { maxBytes: 0, fileBytes: 5_000_000 }).findings.map((f) => f.message)).toEqual(['file is 5000000 bytes: Google and RFC 9309 crawlers read only the first 512000 (500 KiB), which end in this line: it and the lines after it are ignored']);
    expect(() => lintRobots(firstPart, { fileBytes: 999 })).toThrow(new RobotsError('INVALID_ARGUMENT', "fileBytes must be a whole number of at least the body's 1000 bytes, got 999"));
  });
  it('200,000 rules that repeat one another lint in linear time (each names the first: duplicate-rule; was quadratic)', () => {
    const repeated = 'User-agent: *\n' + 'Disallow: /x\n'.repeat(200_000);
    const findings = lintRobots(raw(repeated), { maxBytes: 0 }).findings;
    expect(findings.length).toBe(200_000); // 199,999 repeats, and the file is over 500 KiB
    expect(findings.at(-1)).toEqual({ line: 200_001, severity: 'info', code: 'duplicate-rule', message: 'disallow "/x" repeats line 2' });
  });
  it('robotstxt lint: a file and standard input give the same findings', { tags: ['slow'] }, () => {
    const file = join(tempDir(), 'large-cr.txt');
    writeFileSync(file, body, 'latin1');
    const fromFile = robotstxt(['lint', file]);
    expect(fromFile.stdout.split('\n').filter((line) => line.includes('[file-too-large-to-lint]'))).toEqual([`${file}:${stopLine}: warning: ${stopMessage} [file-too-large-to-lint]`]);
    expect(fromFile.status).toBe(0);
    const fromInput = robotstxt(['lint', '-'], raw(body));
    expect(fromInput.stdout.split('\n').filter((line) => line.includes('file-too-large'))).toEqual(fromFile.stdout.split('\n').filter((line) => line.includes('file-too-large')).map((line) => line.replace(file, '-')));
  });
});

describe.skipIf(corpusMissingReason !== null)('lint on real files', () => {
  it('every corpus file lints without throwing; HTML error pages are flagged', { tags: ['slow'] }, () => {
    let html = 0;
    for (const folder of readdirSync(CORPUS_ROBOTS)) {
      for (const name of readdirSync(join(CORPUS_ROBOTS, folder))) {
        const report = lintRobots(readFileSync(join(CORPUS_ROBOTS, folder, name)), { maxBytes: 0 });
        expect(report.errors + report.warnings + report.infos).toBe(report.findings.length);
        if (report.findings.some((f) => f.code === 'html')) html++;
      }
    }
    expect(html).toBeGreaterThan(0);
  });
});

// group-merged is weighed from the group structure (src/core/lint.ts groupsMerged); the model parses the file
// again with an empty Disallow closing the group before the merged line and compares each agent's rule lines
describe('lint group-merged: the structural weighing agrees with parsing the file again', () => {
  const MERGED_PREFIX = 'may fetch. End the group';
  /** The model: the agents of the merged line's group whose rule lines differ once the group ends before that line. */
  function changedByParsing(body: string, line: number): string[] {
    const robots = parseRobots(body, { maxBytes: 0 });
    const lines = body.split('\n');
    const meant = parseRobots([...lines.slice(0, line - 1), 'disallow:', ...lines.slice(line - 1)].join('\n'), { maxBytes: 0 });
    try {
      const group = robots.groups.find((candidate) => candidate.agents.some((agent) => agent.line === line));
      if (group === undefined) throw new Error(`no group has line ${line}`);
      const named = [...new Set([...group.agents].sort((a, b) => a.line - b.line).map((agent) => (agent.global ? '*' : agent.productToken)).filter((token) => token !== ''))];
      const unique = new Map<string, string>();
      for (const token of named) if (!unique.has(token.toLowerCase())) unique.set(token.toLowerCase(), token);
      const rulesOf = (file: typeof robots, token: string): string => [...new Set(file.groupsFor(token === '*' ? 'robotstxt-lint-unnamed-agent' : token)
        .flatMap((g) => g.rules).filter((rule) => !(rule.kind === 'disallow' && rule.value.length === 0))
        .map((rule) => `${rule.kind}:${Buffer.from(rule.value).toString('latin1')}`))].sort().join('\n');
      return [...unique.values()].filter((token) => rulesOf(robots, token) !== rulesOf(meant, token));
    } finally {
      robots.close();
      meant.close();
    }
  }
  const mergedFindings = (body: string): { line: number; changed: string[] }[] => lintRobots(bytes(body), { maxBytes: 0 }).findings.filter((f) => f.code === 'group-merged').map((f) => {
    const named = /this changes what (.*) may fetch/.exec(f.message);
    expect(f.severity).toBe(named === null ? 'warning' : 'error');
    return { line: f.line, changed: named === null ? [] : named[1].replace(/ and \d+ more$/, '').split(', ') };
  });
  const lineKinds = ['User-agent: a', 'User-agent: A', 'user-agent: b', 'User-agent: *', 'User-agent: a/2.1', 'User-agent: *bot', 'User-agent: c d', 'User-agent: ',
    'Crawl-delay: 1', 'Sitemap: https://example.com/s.xml', 'Content-Signal: ai-train=no', 'Disallow: /x', 'Disallow: /y', 'Allow: /x', 'Disallow:', 'Allow:', '', '# c', 'Foo: bar'];
  it('on 3,000 generated files, every merged line: the same agents changed, in the same order, and the same severity', () => {
    fc.assert(fc.property(fc.array(fc.constantFrom(...lineKinds), { maxLength: 24 }), (kinds) => {
      const body = kinds.join('\n') + '\n';
      for (const { line, changed } of mergedFindings(body)) expect(changed, `line ${line} of\n${body}`).toEqual(changedByParsing(body, line).slice(0, 10));
    }), { numRuns: 3_000, seed: 45 });
  });
  it('an agent named by another group too changes only when this group has a rule that group lacks', () => {
    const body = 'User-agent: a\nCrawl-delay: 1\nUser-agent: b\nDisallow: /x\nDisallow: /y\n\nUser-agent: a\nDisallow: /x\n';
    expect(lintRobots(bytes(body), { maxBytes: 0 }).findings.filter((f) => f.code === 'group-merged').map((f) => `${f.line} ${f.severity} ${f.message.slice(f.message.indexOf(': this') + 2)}`))
      .toEqual([`3 error this changes what a ${MERGED_PREFIX} before this line with its own rules (an empty "Disallow:" allows everything)`]);
    expect(changedByParsing(body, 3)).toEqual(['a']);
    const covered = 'User-agent: a\nCrawl-delay: 1\nUser-agent: b\nDisallow: /x\n\nUser-agent: A\nDisallow: /x\nAllow: /z\n';
    expect(mergedFindings(covered)).toEqual([{ line: 3, changed: [] }]);
    expect(changedByParsing(covered, 3)).toEqual([]);
  });
});
