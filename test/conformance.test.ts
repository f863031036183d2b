// robotstxt conformance: the built-in suite states the reference's verdicts (this package's engine must give
// every one), a run of robotstxt itself through each contract finds no difference, a deliberately wrong
// adapter is reported with exactly its planted classes, and a hanging or missing implementation is bounded.
import { describe, expect, it } from 'vitest';
import { writeFileSync, mkdirSync, copyFileSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { builtInSuite } from '../src/core/conformance-suite.js';
import { splitCommand, commandName } from '../src/node/conformance/index.js';
import { printable } from '../src/node/conformance/index.js';
import { parseRobots } from '../src/node/index.js';
import { CLI, robotstxt, robotstxtAsync, tempDir, CORPUS_ROBOTS, corpusMissingReason } from './cli-helpers.js';
import { until } from './helpers.js';
import { CHROMIUM, chromiumFlags, canRun } from './browser.js';

const suite = builtInSuite();
const NODE_CLI = `'${process.execPath}' '${CLI}'`;
const LIBRARY = pathToFileURL(fileURLToPath(new URL('../dist/src/node/index.js', import.meta.url))).href;

describe('the built-in suite', () => {
  it('every case states the verdict this package gives (the reference\'s), ids are unique and say their label', () => {
    const wrong = suite.filter((testCase) => (parseRobots(testCase.body, { maxBytes: 0 }).matcher(testCase.agent).isAllowed(testCase.url) ? 'allowed' : 'disallowed') !== testCase.expected);
    expect(wrong.map((testCase) => testCase.id)).toEqual([]);
    expect(new Set(suite.map((testCase) => testCase.id)).size).toBe(suite.length);
    for (const testCase of suite) expect(testCase.id.startsWith(testCase.label === 'google' ? 'GoogleOnly_' : 'ID_'), testCase.id).toBe(true);
    expect(suite.length).toBeGreaterThanOrEqual(100);
    // both verdicts in every class (a class whose cases all say the same could not catch an always-allow)
    for (const cls of new Set(suite.map((testCase) => testCase.class))) {
      expect(new Set(suite.filter((testCase) => testCase.class === cls).map((testCase) => testCase.expected)).size, cls).toBe(2);
    }
  });
});

describe('docs/specification.md', () => {
  it('names only tests of test/spec.test.ts and cases of the suite that exist (a renamed test breaks the doc, not silently)', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const doc = readFileSync(join(root, 'docs', 'specification.md'), 'utf8');
    const specTests = [...readFileSync(join(root, 'test', 'spec.test.ts'), 'utf8').matchAll(/\bit\(['`]((?:ID|GoogleOnly)_[A-Za-z0-9]+)/g)].map((match) => match[1]);
    const ids = suite.map((testCase) => testCase.id);
    const named = [...doc.matchAll(/`((?:ID|GoogleOnly)_[A-Za-z0-9_]*\*?)/g)].map((match) => match[1]);
    expect(named.length).toBeGreaterThan(80);
    const missing = named.filter((name) => {
      if (name.endsWith('*')) return !ids.some((id) => id.startsWith(name.slice(0, -1)));
      return !specTests.includes(name) && !ids.includes(name);
    });
    expect(missing).toEqual([]);
  });
});

describe('command templates', () => {
  it('are split like a shell splits words and quotes, without a shell', () => {
    expect(splitCommand(`node  'my dir/cli.js' test "%robots%" %url% %user-agent%`)).toEqual(['node', 'my dir/cli.js', 'test', '%robots%', '%url%', '%user-agent%']);
    expect(splitCommand(`a ''`)).toEqual(['a', '']);
    expect(() => splitCommand(`a 'b`)).toThrow(/unclosed ' quote/);
    expect(commandName(['node', '/x/y/robots_main.mjs', '%robots%'])).toBe('robots_main.mjs');
    expect(commandName(['/usr/local/bin/robots_main', '%robots%'])).toBe('robots_main');
  });
  it('bodies and URLs print as readable, exact text', () => {
    expect(printable(Uint8Array.from([0xef, 0x55, 0x0a, 0x09, 0x22]))).toBe('"\\xEFU\\n\\t\\""');
    expect(printable('\uFEFFcafé\r\n')).toBe('"\\uFEFFcafé\\r\\n"');
    expect(printable('x'.repeat(10), 4)).toBe('"xxxx"... (10 bytes in all)');
  });
});

describe('robotstxt conformance against robotstxt itself: no difference through any contract', () => {
  it('--command (one process per case, Google\'s runner contract): every case agrees, exit 0', { tags: ['slow'] }, async () => {
    const r = await robotstxtAsync(['conformance', '--command', `${NODE_CLI} test %robots% %user-agent% %url%`], '', 120_000);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`robotstxt conformance: robotstxt.cjs, --command '${NODE_CLI} test %robots% %user-agent% %url%' (one process per case), against the reference (this package's engine)`);
    expect(lines[1]).toBe(`cases: ${suite.length} (${suite.length} from the built-in suite): ${suite.length} agree, 0 differ, 0 failed`);
    expect(r.stdout).not.toContain('Where it differs');
    expect(r.stdout).toMatch(/\nspeed: robotstxt\.cjs: \d+ cases in [\d.]+ s \([\d,]+ cases\/s, through its contract\); this package's engine: [\d.]+ s \([\d,]+ cases\/s, in-process, files parsed once\)\n$/);
  });
  it.skipIf(corpusMissingReason !== null)('--batch-command (robotstxt test --batch) over the suite and cases from real files: exit 0, JSON report', () => {
    const r = robotstxt(['conformance', '--batch-command', `${NODE_CLI} test --batch`, '--robots-dir', join(CORPUS_ROBOTS, 'protego'), '--files', '150', '--per-file', '8', '--format', 'json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.cases).toBeGreaterThan(suite.length + 500);
    expect([report.agreed, report.differed, report.failed, report.differences]).toEqual([report.cases, 0, 0, []]);
    expect(report.byLabel.map((entry: { label: string }) => entry.label)).toEqual(['standard', 'google', 'corpus']);
    expect(report.sources[1]).toMatch(/^\d+ from the files of .*protego$/);
  });
});

/** A module that answers through this package but ignores `$` and matches user-agent lines by substring. */
function toyAdapter(dir: string): string {
  const path = join(dir, 'toy.mjs');
  writeFileSync(path, `import { parseRobots } from '${LIBRARY}';
export default function isAllowed(text, agent, url, bytes) {
  // planted: a $ at the end of a rule is dropped
  const body = Buffer.from(Buffer.from(bytes).toString('latin1').replace(/\\$(?=[ \\t]*(#[^\\r\\n]*)?(\\r\\n|\\r|\\n|$))/g, ''), 'latin1');
  const robots = parseRobots(body, { maxBytes: 0 });
  // planted: a group applies when its token is anywhere in the agent
  const named = robots.groups.flatMap((group) => group.agents).filter((line) => !line.global && line.productToken !== '' && agent.toLowerCase().includes(line.productToken.toLowerCase())).map((line) => line.productToken);
  return robots.matcher(named.length > 0 ? [...new Set(named)] : agent).isAllowed(url);
}
`);
  return path;
}

describe('a deliberately wrong adapter (--module)', () => {
  const dir = tempDir();
  const toy = toyAdapter(dir);
  it('is reported with exactly its planted classes, each with its smallest case, exit 1', () => {
    const r = robotstxt(['conformance', '--module', toy, '--name', 'toy']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    const text = r.stdout;
    expect(text.split('\n')[1]).toBe(`cases: ${suite.length} (${suite.length} from the built-in suite): ${suite.length - 8} agree, 8 differ, 0 failed`);
    const differing = text.slice(text.indexOf('Where it differs')).split('\n').filter((line) => /^[a-z].*: \d+ differ/.test(line));
    expect(differing).toEqual([
      'user-agent matching: 5 differ, 0 failed (ID_UserAgent_NoPrefixMatch, ID_UserAgent_GroupNotAppliedToLongerName, GoogleOnly_UserAgent_QueryWithVersionMatchesNothingSpecific, GoogleOnly_UserAgent_FullUserAgentStringMatchesNoGroup, GoogleOnly_UserAgent_FullUserAgentStringGetsGlobal)',
      'end anchor ($): 3 differ, 0 failed (ID_Dollar_NotEndOfPath, ID_Dollar_QueryIsPartOfPath, ID_Dollar_OnlyDollar)',
    ]);
    expect(text).toContain([
      'user-agent matching: 5 differ, 0 failed (ID_UserAgent_NoPrefixMatch, ID_UserAgent_GroupNotAppliedToLongerName, GoogleOnly_UserAgent_QueryWithVersionMatchesNothingSpecific, GoogleOnly_UserAgent_FullUserAgentStringMatchesNoGroup, GoogleOnly_UserAgent_FullUserAgentStringGetsGlobal)',
      '  case:     ID_UserAgent_GroupNotAppliedToLongerName',
      '  body:     "User-agent: Foo\\nDisallow: /a\\n"',
      '  agent:    FooBot',
      '  url:      "https://example.com/a"',
      '  expected: allowed',
      '  got:      disallowed',
      '',
      'end anchor ($): 3 differ, 0 failed (ID_Dollar_NotEndOfPath, ID_Dollar_QueryIsPartOfPath, ID_Dollar_OnlyDollar)',
      '  case:     ID_Dollar_OnlyDollar',
      '  body:     "User-agent: *\\nDisallow: /$\\n"',
      '  agent:    FooBot',
      '  url:      "https://example.com/a"',
      '  expected: allowed',
      '  got:      disallowed',
    ].join('\n'));
    expect(text).toMatch(/\nuser-agent matching +14 +9 +5 +0\n/);
    // the toy over-matches agents (disallowing what the reference allows) and drops $ (both ways)
    expect(text.split('\n')[4]).toBe('direction: 1 allowed where the reference disallows (fetches what the site forbade), 7 disallowed where it allows');
    expect(text).toMatch(/\nend anchor \(\$\) +7 +4 +3 +0\n/);
  });
  it('JSON and HTML reports carry the same differences; the page is self-contained', { tags: ['slow'], timeout: 90_000 }, () => {
    const json = JSON.parse(robotstxt(['conformance', '--module', toy, '--format', 'json']).stdout);
    expect(json.differences.map((entry: { id: string }) => entry.id)).toEqual(['ID_UserAgent_NoPrefixMatch', 'ID_UserAgent_GroupNotAppliedToLongerName', 'GoogleOnly_UserAgent_QueryWithVersionMatchesNothingSpecific', 'GoogleOnly_UserAgent_FullUserAgentStringMatchesNoGroup', 'GoogleOnly_UserAgent_FullUserAgentStringGetsGlobal', 'ID_Dollar_NotEndOfPath', 'ID_Dollar_QueryIsPartOfPath', 'ID_Dollar_OnlyDollar']);
    expect(json.byClass.find((entry: { class: string }) => entry.class === 'end anchor ($)').example).toEqual({ id: 'ID_Dollar_OnlyDollar', class: 'end anchor ($)', label: 'standard', body: '"User-agent: *\\nDisallow: /$\\n"', agent: 'FooBot', url: 'https://example.com/a', expected: { verdict: 'allowed', line: null }, got: { verdict: 'disallowed' } });
    const html = robotstxt(['conformance', '--module', toy, '--format', 'html']);
    expect(html.status).toBe(1);
    expect(html.stdout).toContain(`<p id="summary">${suite.length} cases: ${suite.length - 8} agree, 8 differ, 0 failed.</p>`);
    expect(html.stdout).toContain('<h3>end anchor ($): 3 differ, 0 failed</h3>');
    expect(html.stdout).not.toMatch(/<script|src=|href=/);
    // as headless Chromium renders it (when present): the same summary and sections in its DOM
    const chromium = CHROMIUM;
    if (chromium === null) {
      if (process.env.CI === 'true') throw new Error('rendering the conformance page needs Chromium (apt-get install chromium; .ci/run installs it): CI=true must not pass without it');
      console.warn('skipped: rendering the conformance page needs Chromium (apt-get install chromium; .ci/run installs it)');
      return;
    }
    const page = join(dir, 'report.html');
    writeFileSync(page, html.stdout);
    const dom = spawnSync(chromium, [...chromiumFlags(join(dir, 'chromium-profile')), '--dump-dom', pathToFileURL(page).href], { encoding: 'utf8', timeout: 60_000 }).stdout;
    expect(dom).toContain(`<p id="summary">${suite.length} cases: ${suite.length - 8} agree, 8 differ, 0 failed.</p>`);
    expect(dom).toContain('<h3>user-agent matching: 5 differ, 0 failed</h3>');
    expect(dom).toContain('<tr class="bad"><td>end anchor ($)</td><td>7</td><td>4</td><td>3</td><td>0</td></tr>');
  });
});

describe('bounded: hanging, crashing and missing implementations', () => {
  const dir = tempDir();
  const robotsDir = join(dir, 'robots');
  mkdirSync(robotsDir);
  writeFileSync(join(robotsDir, 'one.txt'), 'User-agent: *\nDisallow: /a\nAllow: /a/b\n');
  it('a module that never returns for one case: that case is asked once more, then a timeout (a failure, never a difference), its worker killed, the next worker answers the rest', { tags: ['slow'] }, () => {
    const path = join(dir, 'hang.mjs');
    writeFileSync(path, `import { parseRobots } from '${LIBRARY}';
export default function (text, agent, url, bytes) {
  if (text === 'User-agent: *\\r\\nDisallow: /a\\r\\n' && url.endsWith('/a')) while (true) {}
  return parseRobots(bytes, { maxBytes: 0 }).matcher(agent).isAllowed(url);
}
`);
    // the hanging case fails at its deadline and the run goes on (without one the command never ends); 5 s a case, so no other case fails on a loaded machine
    const r = robotstxt(['conformance', '--module', path, '--timeout-ms', '5000']);
    expect(r.status).toBe(1);
    expect(r.stdout.split('\n')[1]).toBe(`cases: ${suite.length} (${suite.length} from the built-in suite): ${suite.length - 1} agree, 0 differ, 1 failed`);
    expect(r.stdout).toContain('line endings: 0 differ, 1 failed (ID_LineEndings_CRLF)\n  case:     ID_LineEndings_CRLF\n');
    expect(r.stdout).toContain('  got:      timeout (no answer within 5000 ms)\n');
  });
  it('a command that sleeps is killed at the timeout; one that crashes is an error with its stderr', () => {
    const sleeper = robotstxt(['conformance', '--suite', 'none', '--robots-dir', robotsDir, '--per-file', '2', '--timeout-ms', '200', '--command', `sh -c 'sleep 5' %robots% %url% %user-agent%`]);
    expect(sleeper.status).toBe(1);
    expect(sleeper.stdout.split('\n')[1]).toBe(`cases: 2 (2 from the files of ${robotsDir}): 0 agree, 0 differ, 2 failed`);
    expect(sleeper.stdout).toContain('  got:      timeout (no exit within 200 ms)\n');
    const crasher = robotstxt(['conformance', '--suite', 'none', '--robots-dir', robotsDir, '--per-file', '1', '--command', `sh -c 'echo broken >&2; exit 3' %robots% %url% %user-agent%`]);
    expect(crasher.status).toBe(1);
    expect(crasher.stdout).toContain('  got:      error (exit 3: broken)\n');
  });
  it('a batch command that exits after one answer: the case it left is an error, a new process answers the rest', () => {
    const path = join(dir, 'once.mjs');
    writeFileSync(path, `process.stdin.once('data', () => { process.stdout.write('{"verdict":"disallowed"}\\n'); process.exit(0); });\n`);
    const r = robotstxt(['conformance', '--suite', 'none', '--robots-dir', robotsDir, '--per-file', '4', '--batch-command', `'${process.execPath}' '${path}'`, '--format', 'json']);
    expect(r.status).toBe(1);
    // every process answers its first case "disallowed" and exits: cases 1 and 3 are answered, 2 and 4 failed
    const report = JSON.parse(r.stdout);
    expect([report.agreed, report.differed, report.failed]).toEqual([1, 1, 2]);
    expect(report.differences.filter((entry: { got: { failure?: string } }) => entry.got.failure !== undefined).map((entry: { id: string; got: unknown }) => [entry.id, entry.got])).toEqual([
      ['Corpus_one.txt_1_2', { failure: 'error', detail: 'the batch command ended (exit 0)' }],
      ['Corpus_one.txt_1_4', { failure: 'error', detail: 'the batch command ended (exit 0)' }],
    ]);
  });
  it('a batch command that writes an endless line (no line end) fails its case with small memory; a new process answers the rest', () => {
    const path = join(dir, 'endless.mjs');
    writeFileSync(path, `let first = true;
process.stdin.on('data', () => {
  if (!first) return;
  first = false;
  const chunk = 'x'.repeat(1 << 20);
  const write = () => { while (process.stdout.write(chunk)); process.stdout.once('drain', write); };
  write();
});
`);
    const run = spawnSync('/usr/bin/time', ['-f', 'peak-kib %M', process.execPath, CLI, 'conformance', '--suite', 'none', '--robots-dir', robotsDir, '--per-file', '2', '--batch-command', `'${process.execPath}' '${path}'`, '--timeout-ms', '5000', '--format', 'json'], { encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.differences.map((entry: { got: unknown }) => entry.got)).toEqual([
      { failure: 'error', detail: 'an answer line longer than 65536 bytes (no line end): not an answer' },
      { failure: 'error', detail: 'an answer line longer than 65536 bytes (no line end): not an answer' },
    ]);
    expect(Number(/peak-kib (\d+)/.exec(run.stderr)?.[1])).toBeLessThan(200 * 1024);
  });
  it('placeholders are replaced in one pass: a case URL that holds %user-agent% or %robots% is sent as it is', async () => {
    const tricky = join(dir, 'tricky');
    mkdirSync(tricky, { recursive: true });
    writeFileSync(join(tricky, 'placeholders.txt'), 'User-agent: *\nDisallow: /a%user-agent%b\nAllow: /%robots%/x\n');
    const r = await robotstxtAsync(['conformance', '--suite', 'none', '--robots-dir', tricky, '--per-file', '8', '--command', `${NODE_CLI} test %robots% %user-agent% %url%`, '--format', 'json'], '', 60_000);
    const report = JSON.parse(r.stdout);
    expect(report.cases).toBeGreaterThanOrEqual(4);
    expect([report.agreed, report.differed, report.failed, r.status]).toEqual([report.cases, 0, 0, 0]);
  });
  it('a --command timeout ends the whole process group at the deadline: a wrapper whose real process hangs does not hold the run, and leaves nothing running', async () => {
    const marker = `${process.pid}${Date.now() % 100000}`;
    // a run that waited for the grandchild (it waited 25 s before) would be killed here long before its hour: no status
    const r = await robotstxtAsync(['conformance', '--suite', 'none', '--robots-dir', robotsDir, '--per-file', '1', '--timeout-ms', '1000', '--command', `sh -c 'sleep 3600.${marker}; exit 0' %robots% %url% %user-agent%`], '', 120_000);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('  got:      timeout (no exit within 1000 ms)\n');
    await until(() => spawnSync('pgrep', ['-f', `sleep 3600.${marker}`], { encoding: 'utf8' }).stdout === '', 'the hanging grandchild to be gone', 30_000);
  });
  it('SIGTERM during a run: the implementation\'s processes end and the cases folder is removed', async () => {
    const marker = `${process.pid}${Date.now() % 100000}`;
    const hang = join(dir, 'hang-batch.sh');
    writeFileSync(hang, `#!/bin/sh\nsleep 30.${marker} &\nwait\n`);
    const temporary = join(dir, `tmp-${marker}`);
    mkdirSync(temporary);
    const child = spawn(process.execPath, [CLI, 'conformance', '--suite', 'none', '--robots-dir', robotsDir, '--per-file', '2', '--timeout-ms', '60000', '--batch-command', `sh '${hang}'`], { env: { ...process.env, TMPDIR: temporary }, stdio: 'ignore' });
    // wait until the implementation runs (its cases folder is made, its sleep started)
    await until(() => spawnSync('pgrep', ['-f', `sleep 30.${marker}`], { encoding: 'utf8' }).stdout !== '', 'the implementation to run');
    expect(readdirSync(temporary)).toHaveLength(1);
    const ended = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGTERM');
    expect(await ended).toBe('SIGTERM');
    await until(() => spawnSync('pgrep', ['-f', `sleep 30.${marker}`], { encoding: 'utf8' }).stdout === '', 'the implementation\'s processes to be gone', 2000);
    expect(readdirSync(temporary)).toEqual([]);
  });
  it('a batch command runs in the folder it was typed in: a script named without a / is found (node impl.mjs), its own relative files too; case files come by absolute path', () => {
    const here = join(dir, 'typed-here');
    mkdirSync(here, { recursive: true });
    writeFileSync(join(here, 'settings.json'), '{"maxBytes": 0}\n');
    writeFileSync(join(here, 'impl.mjs'), `import { parseRobots } from '${LIBRARY}';
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { createInterface } from 'node:readline';
const settings = JSON.parse(readFileSync('settings.json', 'utf8'));
for await (const line of createInterface({ input: process.stdin })) {
  const c = JSON.parse(line);
  if (!isAbsolute(c.robots) || process.cwd() !== ${JSON.stringify(here)}) throw new Error('not absolute or not in the typed folder: ' + c.robots);
  const allowed = parseRobots(readFileSync(c.robots), settings).matcher(c.agent).isAllowed(c.url);
  process.stdout.write(JSON.stringify({ verdict: allowed ? 'allowed' : 'disallowed' }) + '\\n');
}
`);
    const r = spawnSync(process.execPath, [CLI, 'conformance', '--batch-command', `'${process.execPath}' impl.mjs`, '--format', 'json'], { cwd: here, encoding: 'utf8', timeout: 120_000 });
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout);
    expect([report.agreed, report.failed]).toEqual([suite.length, 0]);
  });
  it('no such command or module, or a bad option: exit 2 with one line', { tags: ['slow'] }, () => {
    expect(robotstxt(['conformance', '--command', 'no-such-program-here %robots% %url% %user-agent%'])).toEqual({ status: 2, stdout: '', stderr: "robotstxt: cannot run 'no-such-program-here': no such command\n" });
    expect(robotstxt(['conformance', '--command', 'robots_main %robots% %url%'])).toEqual({ status: 2, stdout: '', stderr: "robotstxt: --command must contain %robots%, %url% and %user-agent%, got \"robots_main %robots% %url%\"\n" });
    expect(robotstxt(['conformance'])).toEqual({ status: 2, stdout: '', stderr: "robotstxt: conformance needs exactly one of --command '<cmd>', --batch-command '<cmd>' or --module <file.mjs>\n" });
    expect(robotstxt(['conformance', '--module', join(dir, 'absent.mjs')])).toEqual({ status: 2, stdout: '', stderr: `robotstxt: --module '${join(dir, 'absent.mjs')}' is not a readable file\n` });
    const noExport = join(dir, 'empty.mjs');
    writeFileSync(noExport, 'export const x = 1;\n');
    expect(robotstxt(['conformance', '--module', noExport])).toEqual({ status: 2, stdout: '', stderr: `robotstxt: cannot load the module '${noExport}': it exports no function (default export or isAllowed)\n` });
    expect(robotstxt(['conformance', '--module', noExport, '--timeout-ms', '50']).stderr).toBe("robotstxt: --timeout-ms must be a whole number from 100 to 600000, got '50'\n");
    expect(robotstxt(['conformance', '--module', noExport, '--jobs', '2']).stderr).toBe('robotstxt: --jobs applies only with --command\n');
    expect(robotstxt(['conformance', '--module', noExport, '--format', 'xml']).stderr).toBe("robotstxt: --format must be text, json or html, got 'xml'\n");
  });
});

describe.skipIf(corpusMissingReason !== null)('cases from real files', () => {
  it('name the file and rule they come from, and are asked for an agent the file names', () => {
    const dir = tempDir();
    copyFileSync(join(CORPUS_ROBOTS, 'protego', readFirstFile(join(CORPUS_ROBOTS, 'protego'))), join(dir, 'a.txt'));
    const r = robotstxt(['conformance', '--suite', 'none', '--robots-dir', dir, '--per-file', '8', '--batch-command', `${NODE_CLI} test --batch`, '--format', 'json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).cases).toBe(8);
  });
});

/** The first file (in name order) with at least two rules: the generator skips files without any. */
function readFirstFile(dir: string): string {
  return readdirSync(dir).sort().find((name) => parseRobots(readFileSync(join(dir, name))).groups.some((group) => group.rules.length >= 2)) as string;
}

describe('a timed-out case is never a difference', () => {
  it('a batch command slow once on a case (a loaded machine): the case is asked again and agrees; slow every time: a failure, 0 differ', { tags: ['slow'], timeout: 120_000 }, () => {
    const dir = tempDir();
    const robotsDir = join(dir, 'robots');
    mkdirSync(robotsDir);
    writeFileSync(join(robotsDir, 'one.txt'), 'User-agent: *\nDisallow: /a\nAllow: /a/b\n');
    // answers as the reference; on its second case it first sleeps 30 s: the first time only (a marker file), or
    // always. The deadline (8 s) is far from both: a process started on a loaded machine answers well within it,
    // and the sleep always passes it
    const adapter = (always: boolean): string => {
      const path = join(dir, always ? 'slow-always.mjs' : 'slow-once.mjs');
      writeFileSync(path, `import { existsSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseRobots } from '${LIBRARY}';
let seen = 0;
createInterface({ input: process.stdin }).on('line', (line) => {
  const { robots, agent, url } = JSON.parse(line);
  const answer = JSON.stringify({ verdict: parseRobots(readFileSync(robots)).isAllowed(url, agent) ? 'allowed' : 'disallowed' }) + '\\n';
  seen++;
  const marker = '${join(dir, 'slept')}' + ${always ? 'seen' : "''"};
  // answers stay in order: the process blocks, as a slow parser does
  if (seen === 2 && !existsSync(marker)) { writeFileSync(marker, ''); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30000); }
  process.stdout.write(answer);
});
import { readFileSync } from 'node:fs';
`);
      return path;
    };
    const once = robotstxt(['conformance', '--suite', 'none', '--robots-dir', robotsDir, '--per-file', '4', '--timeout-ms', '8000', '--batch-command', `'${process.execPath}' '${adapter(false)}'`, '--format', 'json']);
    expect([once.status, JSON.parse(once.stdout).agreed, JSON.parse(once.stdout).differed, JSON.parse(once.stdout).failed]).toEqual([0, 4, 0, 0]);
    const always = robotstxt(['conformance', '--suite', 'none', '--robots-dir', robotsDir, '--per-file', '4', '--timeout-ms', '8000', '--batch-command', `'${process.execPath}' '${adapter(true)}'`, '--format', 'json']);
    const report = JSON.parse(always.stdout);
    // each new process sleeps on its own second case: the retried one answers (it is that process's first); never a difference
    expect([always.status === 0 || always.status === 1, report.differed, report.direction]).toEqual([true, 0, { allowsForbidden: 0, forbidsAllowed: 0 }]);
  });
  it('--module names a folder: one line says so', () => {
    expect(robotstxt(['conformance', '--module', tempDir()]).stderr).toMatch(/^robotstxt: --module '.+' is a folder: name the module file in it \(an \.mjs or \.js file exporting \(robotsText, agent, url\) => boolean\)\n$/);
  });
});

/** The committed table's row for an implementation: its standard (ID_) and Google-only cells. */
function committedRow(name: string): { standard: string; google: string } | null {
  const table = readFileSync(fileURLToPath(new URL('../docs/conformance.md', import.meta.url)), 'utf8');
  const row = table.split('\n').find((line) => line.startsWith(`| ${name} (`));
  if (row === undefined) return null;
  const cells = row.split(' | ');
  return { standard: cells[2], google: cells[3] };
}

const OTHER_LANGUAGES = [
  { name: 'Python urllib.robotparser', adapter: 'python-robotparser.py', install: 'python3' },
  { name: 'protego', adapter: 'python-protego.py', install: 'python3-protego' },
  { name: 'WWW::RobotRules', adapter: 'perl-www-robotrules.pl', install: 'libwww-robotrules-perl' },
  { name: 'webrobots', adapter: 'ruby-webrobots.rb', install: 'ruby-webrobots' },
];
const ADAPTERS = fileURLToPath(new URL('../conformance/', import.meta.url));
const installed = OTHER_LANGUAGES.every((other) => spawnSync(join(ADAPTERS, other.adapter), ['--version']).status === 0);

describe.skipIf(!canRun(installed, 'the parsers of other languages (conformance/*.py, *.pl, *.rb)', `apt-get install ${OTHER_LANGUAGES.map((other) => other.install).join(' ')} (.ci/run installs them)`))('the parsers of other languages, as the committed table says', () => {
  for (const other of OTHER_LANGUAGES) {
    it(`${other.name}: its answers to the built-in suite are its row of docs/conformance.md (ID_ and GoogleOnly_ cells)`, { tags: ['slow'] }, () => {
      const r = robotstxt(['conformance', '--batch-command', join(ADAPTERS, other.adapter), '--format', 'json']);
      const report = JSON.parse(r.stdout) as { failed: number; byLabel: { label: string; cases: number; agreed: number }[] };
      const cell = (label: string): string => {
        const entry = report.byLabel.find((item) => item.label === label) as { cases: number; agreed: number };
        return `${entry.agreed} of ${entry.cases}${entry.agreed === entry.cases ? '' : ` (${entry.cases - entry.agreed} differ)`}`;
      };
      expect({ standard: cell('standard'), google: cell('google') }).toEqual(committedRow(other.name));
    });
  }
});

const ORACLE_BUILD = fileURLToPath(new URL('../../shared/reference-oracle/build.sh', import.meta.url));
const oracleMissing = existsSync(ORACLE_BUILD) ? null : `skipped: ${ORACLE_BUILD} is absent (the reference lives beside the repository, not in it)`;
if (oracleMissing !== null) console.warn(oracleMissing);

describe.skipIf(oracleMissing !== null)("the built-in suite, answered by Google's reference library itself", () => {
  it('every case (the cases of issue 48 among them) gets the verdict the suite states, from the reference built from ../shared/reference-oracle', { tags: ['slow'], timeout: 300_000 }, async () => {
    const { buildReferenceOracle } = await import('../bench/reference-oracle.js');
    const { oracle, referenceNote } = buildReferenceOracle(fileURLToPath(new URL('..', import.meta.url)));
    expect(referenceNote).toBe('');
    const r = robotstxt(['conformance', '--batch-command', `'${process.execPath}' '${join(ADAPTERS, 'reference-oracle.mjs')}' '${oracle}'`, '--format', 'json']);
    const report = JSON.parse(r.stdout) as { cases: number; agreed: number };
    expect([r.status, report.cases, report.agreed]).toEqual([0, suite.length, suite.length]);
    for (const id of ['ID_Groups_BlankLineBetweenAgentsKeepsOneGroup', 'GoogleOnly_Groups_InvalidAgentTokenKeepsGroupOpen', 'ID_Percent_QueryEncodedSlashNotDecoded', 'GoogleOnly_UserAgent_FullUserAgentStringGetsGlobal', 'ID_Longest_TieOfWildcardPatternsGoesToAllow']) expect(suite.some((entry) => entry.id === id)).toBe(true);
  });
});
