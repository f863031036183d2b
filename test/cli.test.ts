// The command line's contract: exact output lines, exit codes and error messages.
import { describe, it, expect } from 'vitest';
import { writeFileSync, mkdirSync, readFileSync, statSync, copyFileSync, symlinkSync, utimesSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { robotstxt, tempDir, modulesLoadedBy, CLI, CORPUS_ROBOTS, corpusMissingReason } from './cli-helpers.js';
import { modelVerdict } from './model.js';

const EXAMPLES = fileURLToPath(new URL('../examples/', import.meta.url));
const dir = tempDir();
const robotsFile = join(dir, 'robots.txt');
writeFileSync(robotsFile, 'User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: Googlebot\nDisallow: /nogoogle\n');
const emptyFile = join(dir, 'empty.txt');
writeFileSync(emptyFile, '');

describe('start-up: a command loads only what it uses (the bundled bin, dist/src/bin/robotstxt.cjs)', () => {
  // every module a command loads is start-up time on every run; the heavy ones are loaded where they are used
  // (net is loaded for a piped standard input; the test's input is one; the launcher checks its code cache's
  // seal with a WebAssembly function, scripts/seal.wat: node:crypto cost 6-12 ms of every start)
  const heavyBuiltins = ['zlib', 'worker_threads', 'dns/promises', 'fs/promises', 'crypto'];
  it('check with one robots.txt: no npm package, no zlib, worker threads, network module or fs/promises (which loads readline and watchers)', () => {
    const run = modulesLoadedBy(['check', '--robots', robotsFile, '--agent', 'Googlebot', '-'], 'https://e.com/private/x\n');
    expect(run.status).toBe(0);
    expect(run.packages).toEqual([]);
    expect(heavyBuiltins.filter((name) => run.builtins.includes(name))).toEqual([]);
  });
  it('test and lint: no npm package', () => {
    expect(modulesLoadedBy(['test', robotsFile, 'Googlebot', 'https://e.com/x']).packages).toEqual([]);
    expect(modulesLoadedBy(['lint', robotsFile]).packages).toEqual([]);
  });
  it('gzip input loads zlib; many hosts on two threads load the worker pool once workers start (never for a run too short for them)', () => {
    const gz = join(dir, 'urls.txt.gz');
    writeFileSync(gz, gzipSync('https://e.com/a\n'));
    expect(modulesLoadedBy(['check', '--robots', robotsFile, '--agent', 'Googlebot', gz]).builtins).toContain('zlib');
    const many = join(dir, 'many-hosts.txt');
    writeFileSync(many, readFileSync(join(EXAMPLES, 'hosts-urls.txt'), 'latin1').repeat(Math.ceil((3 << 20) / statSync(join(EXAMPLES, 'hosts-urls.txt')).size)), 'latin1');
    const pooled = modulesLoadedBy(['check', '--robots-dir', join(EXAMPLES, 'robots'), '--agent', 'Googlebot', '--threads', '2', many], '', { ROBOTSTXT_HOSTS_THREADS_AFTER_MS: '0' });
    expect(pooled.status).toBe(0);
    expect(pooled.packages).toEqual(['piscina']);
    const short = modulesLoadedBy(['check', '--robots-dir', join(EXAMPLES, 'robots'), '--agent', 'Googlebot', '--threads', '2', many]);
    expect(short.status).toBe(0);
    expect(short.packages).toEqual([]);
  });
  it('audit without --verify or fetching: its bot lists, never the HTTP client or the worker pool', () => {
    const log = join(dir, 'bots.log');
    writeFileSync(log, '66.249.66.1 - - [10/Oct/2026:13:55:36 +0000] "GET /private/a HTTP/1.1" 200 10 "-" "Googlebot/2.1"\n');
    const run = modulesLoadedBy(['audit', '--robots', robotsFile, log]);
    expect(run.status).toBe(0);
    expect(run.packages).toEqual(expect.arrayContaining(['crawler-user-agents', 'isbot']));
    expect(run.packages.filter((name) => name === 'undici' || name === 'piscina')).toEqual([]);
  });
});

describe('start-up: the launcher runs the bundle with the code cache the build made (scripts/cli-launcher.cjs)', () => {
  /** Runs a script in a new node that requires the launcher as `launcher`; its output and status. */
  const withLauncher = (script: string) => spawnSync(process.execPath, ['-e', `const launcher = require(${JSON.stringify(CLI)});\n${script}`], { encoding: 'utf8' });
  for (const name of ['main', 'verdicts']) {
    it(`V8 of this node takes the cache the build made for the ${name} bundle`, () => {
      const run = withLauncher(`const bundle = launcher.launcherOf('${name}');
process.stdout.write(String(bundle.compileBundle(bundle.readCodeCache()).cachedDataRejected));`);
      expect([run.stdout, run.stderr, run.status]).toEqual(['false', '', 0]);
    });
    it(`the start's own path (the files read into the seal's memory and sealed there) finds the same code for the ${name} bundle, and V8 takes it`, () => {
      const run = withLauncher(`const launch = launcher.launcherOf('${name}');
const { bundle, code } = launch.readSealed();
process.stdout.write(String([bundle.equals(launch.readBundle()), code !== undefined && Buffer.from(code).equals(launch.readCodeCache()), launch.compileBundle(code, bundle).cachedDataRejected]));`);
      expect([run.stdout, run.stderr, run.status]).toEqual(['true,true,false', '', 0]);
    });
  }
  it('check and test start from the verdicts bundle, every other command and help from main', () => {
    const run = withLauncher(`process.stdout.write(['check', 'test', 'lint', 'audit', 'help', '--version', undefined].map((command) => launcher.bundleNameOf(command)).join(','));`);
    expect([run.stdout, run.stderr, run.status]).toEqual(['verdicts,verdicts,main,main,main,main,main', '', 0]);
  });
  /** A copy of the bin folder beside links to what the bundle finds relative to itself; the launcher's path in it. */
  const binCopy = (): string => {
    const root = tempDir();
    const bin = join(root, 'dist', 'src', 'bin');
    mkdirSync(bin, { recursive: true });
    for (const name of ['robotstxt.cjs', 'robotstxt-main.cjs', 'robotstxt-main.cache', 'robotstxt-verdicts.cjs', 'robotstxt-verdicts.cache']) copyFileSync(join(dirname(CLI), name), join(bin, name));
    for (const name of ['build', 'node_modules', 'package.json']) symlinkSync(join(dirname(CLI), '..', '..', '..', name), join(root, name));
    return join(bin, 'robotstxt.cjs');
  };
  it('each bundle runs its own commands: without the main bundle test and check still answer, and lint cannot start; without the verdicts bundle test cannot start; the verdicts bundle holds no other command', () => {
    const launcherCopy = binCopy();
    const bin = dirname(launcherCopy);
    const lint = (): number | null => spawnSync(process.execPath, [launcherCopy, 'lint', robotsFile], { encoding: 'utf8' }).status;
    expect(lint()).toBe(0);
    rmSync(join(bin, 'robotstxt-main.cjs'));
    rmSync(join(bin, 'robotstxt-main.cache'));
    const run = disallowedRun(launcherCopy);
    expect([run.stdout, run.stderr, run.status]).toEqual(DISALLOWED_RUN);
    const check = spawnSync(process.execPath, [launcherCopy, 'check', '--robots', robotsFile, '--agent', 'Bingbot'], { input: 'https://e.com/private/x\n', encoding: 'utf8' });
    expect([check.stdout, check.stderr, check.status]).toEqual(['disallowed\thttps://e.com/private/x\n', '', 0]);
    expect(lint()).not.toBe(0);
    const elsewhere = spawnSync(process.execPath, ['-e', `const launch = require(${JSON.stringify(launcherCopy)}).launcherOf('verdicts');
process.argv = [process.execPath, ${JSON.stringify(launcherCopy)}, 'lint', ${JSON.stringify(robotsFile)}];
launch.runBundle(launch.compileBundle(launch.readCodeCache()));`], { encoding: 'utf8' });
    expect(elsewhere.stderr).toContain('robotstxt: internal error: Error: robotstxt lint is not in the verdicts bundle (the launcher runs it with robotstxt-main.cjs)');
    expect(elsewhere.status).toBe(70);
    rmSync(join(bin, 'robotstxt-verdicts.cjs'));
    expect(disallowedRun(launcherCopy).status).not.toBe(0);
  });
  /** Whether the launcher would use the cache of the bundle test runs (verdicts): by both of its paths (readCodeCache, and the start's readSealed), which must agree. */
  const cacheState = (launcherCopy: string): string => spawnSync(process.execPath, ['-e', `const launcher = require(${JSON.stringify(launcherCopy)}).launcherOf('verdicts');
const found = [launcher.readCodeCache() !== undefined, launcher.readSealed().code !== undefined];
process.stdout.write(found[0] !== found[1] ? 'the two paths differ' : found[0] ? 'cache' : 'no cache')`], { encoding: 'utf8' }).stdout;
  const disallowedRun = (launcherCopy: string) => spawnSync(process.execPath, [launcherCopy, 'test', robotsFile, 'Bingbot', 'https://e.com/private/x'], { encoding: 'utf8' });
  const DISALLOWED_RUN = ["user-agent 'Bingbot' with URI 'https://e.com/private/x': DISALLOWED\n", '', 1];
  it('a cache made for another bundle of the same length is never used, though V8 takes it (it compares lengths only)', () => {
    const launcherCopy = binCopy();
    const bundlePath = join(dirname(launcherCopy), 'robotstxt-verdicts.cjs');
    const bundle = readFileSync(bundlePath);
    const variant = Buffer.from(bundle.toString('latin1').replaceAll('"DISALLOWED"', '"FORBIDDEN!"'), 'latin1');
    expect(variant.length).toBe(bundle.length);
    expect(variant.equals(bundle)).toBe(false);
    // the variant's code, trained on the test command and sealed for the variant, then the bundle put back
    writeFileSync(bundlePath, variant);
    const train = spawnSync(process.execPath, ['-e', `const launcher = require(${JSON.stringify(launcherCopy)}).launcherOf('verdicts');
const bundle = launcher.readBundle();
const script = launcher.compileBundle(undefined, bundle);
process.argv = [process.execPath, ${JSON.stringify(launcherCopy)}, 'test', ${JSON.stringify(robotsFile)}, 'Bingbot', 'https://e.com/private/x'];
process.on('exit', () => require('node:fs').writeFileSync(launcher.cachePath, launcher.sealCodeCache(bundle, script.createCachedData())));
launcher.runBundle(script);`], { encoding: 'utf8' });
    expect([train.stdout, train.status]).toEqual(["user-agent 'Bingbot' with URI 'https://e.com/private/x': FORBIDDEN!\n", 1]);
    expect(cacheState(launcherCopy)).toBe('cache');
    writeFileSync(bundlePath, bundle);
    expect(cacheState(launcherCopy)).toBe('no cache');
    const run = disallowedRun(launcherCopy);
    expect([run.stdout, run.stderr, run.status]).toEqual(DISALLOWED_RUN);
    // what the seal prevents: V8 takes the variant's code for this bundle
    const taken = spawnSync(process.execPath, ['-e', `const launcher = require(${JSON.stringify(launcherCopy)}).launcherOf('verdicts');
const code = require('node:fs').readFileSync(launcher.cachePath).subarray(${'robotstxt code cache 1'.length + 1 + 65 + 65});
process.stdout.write(String(launcher.compileBundle(code).cachedDataRejected));`], { encoding: 'utf8' });
    expect([taken.stdout, taken.status]).toEqual(['false', 0]);
  });
  it('a damaged cache (a byte changed in its code or its header, cut short, empty, unsealed) is never used; timestamps do not matter', () => {
    const launcherCopy = binCopy();
    const cachePath = join(dirname(launcherCopy), 'robotstxt-verdicts.cache');
    const sealed = readFileSync(cachePath);
    const later = new Date(Date.now() + 120_000);
    utimesSync(join(dirname(launcherCopy), 'robotstxt-verdicts.cjs'), later, later);
    expect(cacheState(launcherCopy)).toBe('cache');
    const damaged = [
      Buffer.concat([sealed.subarray(0, sealed.length - 100), Buffer.from([sealed[sealed.length - 100] ^ 0x10]), sealed.subarray(sealed.length - 99)]),
      Buffer.concat([sealed.subarray(0, 30), Buffer.from([sealed[30] === 0x30 ? 0x31 : 0x30]), sealed.subarray(31)]),
      sealed.subarray(0, sealed.length - 1),
      sealed.subarray(0, 100),
      Buffer.alloc(0),
      sealed.subarray(sealed.indexOf(0x0a, sealed.indexOf(0x0a, sealed.indexOf(0x0a) + 1) + 1) + 1),
    ];
    for (const bytes of damaged) {
      writeFileSync(cachePath, bytes);
      expect(cacheState(launcherCopy)).toBe('no cache');
    }
    const run = disallowedRun(launcherCopy);
    expect([run.stdout, run.stderr, run.status]).toEqual(DISALLOWED_RUN);
  });
  it('a cache V8 rejects (another Node, another bundle) costs nothing but its read: the command runs and answers as usual', () => {
    const run = withLauncher(`const script = launcher.compileBundle(Buffer.from('not a code cache'));
process.stderr.write('rejected ' + script.cachedDataRejected + '\\n');
process.argv = [process.execPath, ${JSON.stringify(CLI)}, 'test', ${JSON.stringify(robotsFile)}, 'Bingbot', 'https://e.com/private/x'];
launcher.runBundle(script);`);
    expect([run.stdout, run.stderr, run.status]).toEqual(["user-agent 'Bingbot' with URI 'https://e.com/private/x': DISALLOWED\n", 'rejected true\n', 1]);
  });
});

describe('robotstxt test (robots_main contract)', () => {
  it('prints DISALLOWED and exits 1', () => {
    const r = robotstxt(['test', robotsFile, 'Bingbot', 'https://e.com/private/x']);
    expect(r.stdout).toBe("user-agent 'Bingbot' with URI 'https://e.com/private/x': DISALLOWED\n");
    expect(r.status).toBe(1);
  });
  it('prints ALLOWED and exits 0', () => {
    const r = robotstxt(['test', robotsFile, 'Bingbot', 'https://e.com/private/ok']);
    expect(r.stdout).toBe("user-agent 'Bingbot' with URI 'https://e.com/private/ok': ALLOWED\n");
    expect(r.status).toBe(0);
  });
  it('uses the agent verbatim: a named agent ignores the * group', () => {
    expect(robotstxt(['test', robotsFile, 'googlebot', 'https://e.com/private/x']).status).toBe(0);
    expect(robotstxt(['test', robotsFile, 'Googlebot', 'https://e.com/nogoogle']).status).toBe(1);
    expect(robotstxt(['test', robotsFile, 'Googlebot/2.1', 'https://e.com/private/x']).status).toBe(1);
  });
  it('reads the whole file like robots_main (a rule past 500 KiB counts); --max-bytes cuts it', () => {
    const long = join(dir, 'long.txt');
    writeFileSync(long, `User-agent: *\n${'#'.repeat(600_000)}\nDisallow: /late\n`);
    expect(robotstxt(['test', long, 'Googlebot', 'https://e.com/late'])).toMatchObject({ status: 1, stdout: "user-agent 'Googlebot' with URI 'https://e.com/late': DISALLOWED\n" });
    expect(robotstxt(['test', '--max-bytes', '512000', long, 'Googlebot', 'https://e.com/late']).status).toBe(0);
  });
  it.skipIf(corpusMissingReason !== null)('docs.oracle.com (over 500 KiB): test answers /cd/E80817_01/ as the whole file does', () => {
    const file = join(CORPUS_ROBOTS, 'protego', 'docs.oracle.com.txt');
    const whole = modelVerdict(readFileSync(file), ['Googlebot'], Buffer.from('https://docs.oracle.com/cd/E80817_01/'), { maxBytes: 0 }).allowed;
    expect(robotstxt(['test', file, 'Googlebot', 'https://docs.oracle.com/cd/E80817_01/']).status).toBe(whole ? 0 : 1);
  });
  it('warns on stderr about an agent that is not a product token; the verdict stays the reference one', () => {
    const r = robotstxt(['test', robotsFile, 'Googlebot/2.1', 'https://e.com/nogoogle']);
    expect([r.status, r.stdout]).toEqual([0, "user-agent 'Googlebot/2.1' with URI 'https://e.com/nogoogle': ALLOWED\n"]);
    expect(r.stderr).toBe("robotstxt: warning: agent 'Googlebot/2.1' is not a product token: it matches no user-agent line, only the * group can apply (the token is 'Googlebot')\n");
    const spaced = robotstxt(['check', '--robots', robotsFile, '--agent', 'Google bot', '--agent', 'Bingbot'], '/x\n');
    expect(spaced.stderr).toBe("robotstxt: warning: agent 'Google bot' is not a product token: it matches no user-agent line, only the * group can apply (the token is 'Google')\n");
    expect(robotstxt(['test', robotsFile, '2.1', '/x']).stderr).toBe("robotstxt: warning: agent '2.1' does not start with a product token (letters, '-' and '_'): only the * group can apply\n");
  });
  it('adds the reference notice for an empty robots file', () => {
    const r = robotstxt(['test', emptyFile, 'Googlebot', '/x']);
    expect(r.stdout).toBe("user-agent 'Googlebot' with URI '/x': ALLOWED\nnotice: robots file is empty so all user-agents are allowed\n");
    expect(r.status).toBe(0);
  });
  it('--mode rfc allows /robots.txt', () => {
    writeFileSync(join(dir, 'all.txt'), 'User-agent: *\nDisallow: /\n');
    expect(robotstxt(['test', join(dir, 'all.txt'), 'a', 'https://e.com/robots.txt']).status).toBe(1);
    expect(robotstxt(['test', '--mode', 'rfc', join(dir, 'all.txt'), 'a', 'https://e.com/robots.txt']).status).toBe(0);
  });
  it('a missing file: one line naming it on stderr, exit 2', () => {
    const r = robotstxt(['test', join(dir, 'nope.txt'), 'a', '/']);
    expect(r.stderr).toBe(`robotstxt: cannot read robots file '${join(dir, 'nope.txt')}': no such file\n`);
    expect(r.stdout).toBe('');
    expect(r.status).toBe(2);
  });
  it('a directory as robots file: exit 2', () => {
    const r = robotstxt(['test', dir, 'a', '/']);
    expect(r.stderr).toBe(`robotstxt: cannot read robots file '${dir}': is a directory\n`);
    expect(r.status).toBe(2);
  });
  it('wrong argument count: exit 2', () => {
    const r = robotstxt(['test', robotsFile, 'a']);
    expect(r.stderr).toBe('robotstxt: test needs exactly 3 arguments <robots-file> <user-agent> <url>, got 2 (see robotstxt test --help)\n');
    expect(r.status).toBe(2);
  });
  it('an agent or URL that looks like an option is an agent or URL: options come before the three arguments (or --); the exit code is the verdict given', () => {
    writeFileSync(join(dir, 'private.txt'), 'User-agent: *\nDisallow: /private\n');
    const file = join(dir, 'private.txt');
    for (const args of [[file, '-h', 'https://e.com/private'], ['--', file, '--help', 'https://e.com/private'], ['--mode', 'rfc', file, '-h', 'https://e.com/private'], [file, '--batch', 'https://e.com/private']]) {
      const r = robotstxt(['test', ...args]);
      const agent = args[args.indexOf(file) + 1];
      expect([r.status, r.stdout], args.join(' ')).toEqual([1, `user-agent '${agent}' with URI 'https://e.com/private': DISALLOWED\n`]);
    }
    expect(robotstxt(['test', file, '--help', 'https://e.com/ok'])).toMatchObject({ status: 0, stdout: "user-agent '--help' with URI 'https://e.com/ok': ALLOWED\n" });
    expect(robotstxt(['test', '--help', file, 'a', '/']).stdout).toContain('Usage: robotstxt test');
  });
  it('bad option values: exit 2', () => {
    expect(robotstxt(['test', '--mode', 'strict', robotsFile, 'a', '/']).stderr).toBe("robotstxt: --mode must be google or rfc, got 'strict'\n");
    expect(robotstxt(['test', '--max-bytes=-1', robotsFile, 'a', '/']).stderr).toBe("robotstxt: --max-bytes must be a whole number from 0 to 16777216, got '-1'\n");
    expect(robotstxt(['test', '--max-bytes', '12k', robotsFile, 'a', '/']).stderr).toBe("robotstxt: --max-bytes must be a whole number from 0 to 16777216, got '12k'\n");
    expect(robotstxt(['test', '--max-bytes', '12k', robotsFile, 'a', '/']).status).toBe(2);
  });
  it('unknown command and no command: exit 2', () => {
    const r = robotstxt(['frobnicate']);
    expect(r.stderr).toBe("robotstxt: unknown command 'frobnicate' (commands: test, check, lint, usage, diff, audit, fetch, page, pages, pack, history, tester, conformance; see robotstxt --help)\n");
    expect(r.status).toBe(2);
    expect(robotstxt([]).status).toBe(2);
  });
  it('every command\'s --help lists exactly the options it parses (one spec per command declares them), each once', { tags: ['slow'] }, async () => {
    const { COMMANDS } = await import('../src/cli/commands.ts');
    const { helpText } = await import('../src/cli/command-spec.ts');
    expect(COMMANDS.map((command) => command.name)).toEqual(['test', 'check', 'lint', 'usage', 'diff', 'audit', 'fetch', 'page', 'pages', 'pack', 'history', 'tester', 'conformance']);
    for (const entry of COMMANDS) {
      const { COMMAND } = await entry.load();
      expect(COMMAND.spec.name).toBe(entry.name);
      const help = helpText(COMMAND.spec);
      // an option line: two or more spaces, then --name (the usage line and the prose mention options too)
      const listed = [...help.matchAll(/^ {2,}--([a-z][a-z-]*)/gm)].map((match) => match[1]);
      expect([...listed].sort(), `${entry.name}: options listed in --help`).toEqual(Object.keys(COMMAND.spec.options).sort());
      expect(robotstxt([entry.name, '--help']).stdout, entry.name).toBe(help + '\n');
    }
  });
  it('every documented value of every numeric option is accepted: each whole-number option\'s smallest and largest, as --help states them, and one past is refused', async () => {
    const { COMMANDS } = await import('../src/cli/commands.ts');
    const { parseCommand, helpText } = await import('../src/cli/command-spec.ts');
    let checked = 0;
    for (const entry of COMMANDS) {
      const { COMMAND } = await entry.load();
      const spec = COMMAND.spec;
      const help = helpText(spec);
      for (const [name, option] of Object.entries(spec.options)) {
        if (option.whole === undefined) continue;
        const { min, max, fallback } = option.whole;
        expect(help, `${entry.name} --${name}: its range in --help`).toContain(`${min} to ${max}`);
        // the value alone: the option's own check (what it requires is checked after, and is not asked here)
        const bare = { ...spec, oneOf: [], required: [], options: { [name]: { ...option, requires: undefined } }, positionals: { shown: '', min: 0, max: Infinity } };
        const value = (text?: string): unknown => (parseCommand(bare, text === undefined ? [] : [`--${name}`, text]).values as Record<string, unknown>)[name];
        expect(value(String(min))).toBe(min);
        expect(value(String(max))).toBe(max);
        expect(value()).toBe(fallback);
        expect(() => value(String(max + 1))).toThrow(`--${name} must be a whole number from ${min} to ${max}, got '${max + 1}'`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(15);
  });
  it('the largest --cache-mb (3072) and --max-bytes (16777216) run: check --robots-dir, test --batch', () => {
    const sites = join(dir, 'sites-max');
    mkdirSync(sites, { recursive: true });
    writeFileSync(join(sites, 'a.example.txt'), 'User-agent: *\nDisallow: /x\n');
    const check = robotstxt(['check', '--robots-dir', sites, '--agent', 'bot', '--cache-mb', '3072', '--max-bytes', '16777216'], 'https://a.example/x\nhttps://a.example/y\n');
    expect([check.status, check.stdout, check.stderr]).toEqual([0, 'disallowed\thttps://a.example/x\nallowed\thttps://a.example/y\n', '']);
    const batch = robotstxt(['test', '--batch', '--cache-mb', '3072', '--max-bytes', '16777216', '-'], '{"robotsText":"User-agent: *\\nDisallow: /x\\n","agent":"bot","url":"https://a.example/x"}\n');
    expect([batch.status, batch.stdout]).toEqual([0, '{"verdict":"disallowed","line":2}\n']);
    expect(robotstxt(['check', '--robots-dir', sites, '--agent', 'bot', '--cache-mb', '3073'], '').stderr).toBe("robotstxt: --cache-mb must be a whole number from 1 to 3072, got '3073'\n");
  });
  it('the fetch options of check and audit --help start with an option line (no lines of the --store they leave out)', () => {
    for (const command of ['check', 'audit']) {
      const lines = robotstxt([command, '--help']).stdout.split('\n');
      const header = lines.findIndex((line) => line.startsWith('Fetch options (with --fetch'));
      expect(lines[header + 1], command).toMatch(/^ {2}--timeout-ms N {10}deadline of one robots\.txt fetch/);
      expect(lines.filter((line) => line.includes('the body as served')), command).toEqual([]);
    }
  });
  it('every command\'s --help prints usage with examples and exits 0', { tags: ['slow'] }, () => {
    for (const command of ['test', 'check', 'lint', 'usage', 'diff', 'audit', 'fetch', 'page', 'pages', 'pack', 'history', 'tester', 'conformance']) {
      const r = robotstxt([command, '--help']);
      expect(r.stdout).toContain(`Usage: robotstxt ${command}`);
      expect(r.stdout).toContain('Examples:');
      expect(r.stdout).not.toContain('${'); // a placeholder that was never filled in
      // the commands that read logs say which formats they read
      if (['check', 'diff', 'audit', 'fetch'].includes(command)) expect(r.stdout).toContain('Log lines may be Apache/nginx common, combined');
      expect(r.status).toBe(0);
    }
    expect(robotstxt(['--help']).stdout).toContain('audit --robots <file> <log>...');
  });
});

describe('robotstxt check', () => {
  it('one line per input line, in order: LF, CRLF, empty lines, a last line without LF', () => {
    const input = 'https://e.com/private/x\n\nhttps://e.com/a\r\n/private/ok\nhttps://e.com/private';
    const r = robotstxt(['check', '--robots', robotsFile, '--agent', 'Bingbot'], input);
    expect(r.stdout).toBe('disallowed\thttps://e.com/private/x\nallowed\t\nallowed\thttps://e.com/a\nallowed\t/private/ok\ndisallowed\thttps://e.com/private\n');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });
  it('reads a URL file and answers malformed lines like the reference', () => {
    const urls = join(dir, 'urls.txt');
    writeFileSync(urls, 'not a url\n  /private\n/private#frag\n?x\nhttp://e.com#/private\n');
    const r = robotstxt(['check', '--robots', robotsFile, '--agent', 'x', urls]);
    expect(r.stdout).toBe('allowed\tnot a url\ndisallowed\t  /private\ndisallowed\t/private#frag\nallowed\t?x\nallowed\thttp://e.com#/private\n');
  });
  it('several --agent flags pool their groups', () => {
    const r = robotstxt(['check', '--robots', robotsFile, '--agent', 'Googlebot', '--agent', 'Bingbot'], '/nogoogle\n/private\n');
    expect(r.stdout).toBe('disallowed\t/nogoogle\nallowed\t/private\n');
  });
  it('streams large inputs across chunk boundaries without losing or reordering a line', () => {
    const lines: string[] = [];
    for (let i = 0; i < 120_000; i++) lines.push(i % 3 === 0 ? `https://e.com/private/${i}` : i % 3 === 1 ? `https://e.com/page/${'x'.repeat(i % 50)}${i}` : '');
    const r = robotstxt(['check', '--robots', robotsFile, '--agent', 'Bingbot'], lines.join('\n') + '\n');
    const out = r.stdout.split('\n');
    expect(out.length).toBe(lines.length + 1);
    expect(out[lines.length]).toBe('');
    lines.forEach((url, i) => {
      if (out[i] !== `${url.includes('/private/') ? 'disallowed' : 'allowed'}\t${url}`) expect(out[i]).toBe(`line ${i}`);
    });
  });
  it('usage errors: exit 2 with one line on stderr', () => {
    const cases: [string[], string][] = [
      [['check', '--agent', 'a'], 'robotstxt: check needs exactly one of --robots <file>, --robots-dir <dir>, --store <dir> or --pack <file>\n'],
      [['check', '--robots', robotsFile], 'robotstxt: check needs at least one --agent <token> (see robotstxt check --help)\n'],
      [['check', '--robots', robotsFile, '--agent', 'a', '--bogus'], "robotstxt: Unknown option '--bogus' (see robotstxt check --help)\n"],
      [['check', '--robots', join(dir, 'nope.txt'), '--agent', 'a'], `robotstxt: cannot read robots file '${join(dir, 'nope.txt')}': no such file\n`],
      [['check', '--robots', robotsFile, '--agent', 'a', join(dir, 'nope-urls.txt')], `robotstxt: cannot read URL file '${join(dir, 'nope-urls.txt')}': no such file\n`],
      [['check', '--robots', robotsFile, '--agent', 'a', '--missing', 'allow'], 'robotstxt: --missing applies only with --robots-dir, --store or --pack\n'],
      [['check', '--robots-dir', join(dir, 'nope'), '--agent', 'a'], `robotstxt: --robots-dir '${join(dir, 'nope')}' is not a readable directory\n`],
      [['check', '--robots', robotsFile, '--agent', '--only', 'disallowed'], 'robotstxt: --agent needs a value, got the option --only (write --agent=--only if that is the value; see robotstxt check --help)\n'],
    ];
    for (const [args, message] of cases) {
      const r = robotstxt(args, '');
      expect(r.stderr).toBe(message);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
    }
  });
});

describe('rough edges: each with its message and exit code', () => {
  it('help <command> prints that command\'s help; help <unknown> is a usage error', () => {
    expect(robotstxt(['help', 'check'])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^Usage: robotstxt check /) });
    expect(robotstxt(['help', 'lint']).stdout).toMatch(/^Usage: robotstxt lint /);
    expect(robotstxt(['help', 'nope'])).toEqual({ status: 2, stdout: '', stderr: "robotstxt: unknown command 'nope' (commands: test, check, lint, usage, diff, audit, fetch, page, pages, pack, history, tester, conformance; see robotstxt --help)\n" });
    expect(robotstxt(['help'])).toMatchObject({ status: 0, stdout: expect.stringContaining('Run robotstxt <command> --help') });
  });
  it('fetch with nothing to fetch exits 2, never "0 origin(s)" and 0', () => {
    expect(robotstxt(['fetch'], '')).toEqual({ status: 2, stdout: '', stderr: 'robotstxt: no origin to fetch: the input named none (give URLs or hosts: arguments, --urls <file>, --log <file>, or piped input)\n' });
    // a typed argument that names no origin stops the run before anything is fetched (the good argument beside it too)
    expect(robotstxt(['fetch', 'http:0/x', 'http://127.0.0.1:9'])).toEqual({ status: 2, stdout: '', stderr: 'robotstxt: argument 1: "http:0/x" is ambiguous: a URL (http://0.0.0.0/) or a host named "http" with a port; write http://<host>/ for a URL, or another host name\n' });
    // a list's line that names none: the list's other origins are fetched and the line is named on stderr
    const list = join(dir, 'one-bad.txt');
    writeFileSync(list, 'https:8080/robots\nhttp://127.0.0.1:9/\n');
    const listed = robotstxt(['fetch', '--urls', list], '');
    expect([listed.status, listed.stdout]).toEqual([0, 'disallow-all\thttp://127.0.0.1:9\trefused\tunreachable - (an origin from a log or URL list at an internal address, not fetched (127.0.0.1 is a loopback address; name it yourself, or --targets any))\n']);
    expect(listed.stderr.split('\n')[1]).toBe(`robotstxt fetch: 1 input(s) named no origin: ${list}:1 ("https:8080/robots" is ambiguous: a URL (https://0.0.31.144/) or a host named "https" with a port; write https://<host>/ for a URL, or another host name)`);
  });
  it('audit on a file that is not an access log exits 2 saying so', () => {
    const notLog = join(dir, 'not-a-log.txt');
    writeFileSync(notLog, 'User-agent: *\nDisallow: /x\n');
    expect(robotstxt(['audit', '--robots', robotsFile, notLog])).toEqual({ status: 2, stdout: '', stderr: `robotstxt: not an access log: none of the 2 line(s) of ${notLog} is a request line of a format audit reads (first: ${notLog}:1, ${notLog}:2; see robotstxt audit --help)\n` });
  });
  it('lint names the directives Google does not act on (Noindex, Nofollow, Request-rate, Clean-param, Host, Visit-time)', () => {
    const file = join(dir, 'unsupported.txt');
    writeFileSync(file, 'User-agent: *\nDisallow: /x\nNoindex: /y\nRequest-rate: 1/5\nClean-param: ref /articles\n');
    const r = robotstxt(['lint', file]);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').slice(0, 3)).toEqual([
      `${file}:3: warning: Noindex: Google stopped reading noindex in robots.txt in September 2019 (it never was a standard): the pages stay indexable. Use a robots meta tag or an X-Robots-Tag header [unsupported-directive]`,
      `${file}:4: info: Request-rate: not read by Google and not in RFC 9309 (a few crawlers read it) [unsupported-directive]`,
      `${file}:5: info: Clean-param: Yandex's directive: Google ignores it [unsupported-directive]`,
    ]);
  });
});

describe('robotstxt check --robots-dir', () => {
  const robotsDir = join(dir, 'sites');
  mkdirSync(robotsDir);
  writeFileSync(join(robotsDir, 'a.com.txt'), 'User-agent: *\nDisallow: /a\n');
  writeFileSync(join(robotsDir, 'b.com.txt'), 'User-agent: *\nDisallow: /b\n');
  writeFileSync(join(robotsDir, 'b.com:8080.txt'), 'User-agent: *\nDisallow: /port\n');
  mkdirSync(join(robotsDir, 'broken.com.txt'));
  const input = [
    'https://a.com/a', 'https://A.COM/a', 'https://b.com/a', 'https://b.com/b', 'http://user:pw@b.com:8080/port',
    'http://b.com:8080/b', 'http://b.com:9090/b', 'https://c.com/a', '/relative/a', '',
  ].join('\n') + '\n';
  it('picks <host>.txt per URL, <host>:<port>.txt first; missing hosts are allowed by default', () => {
    const r = robotstxt(['check', '--robots-dir', robotsDir, '--agent', 'x'], input);
    expect(r.stdout).toBe([
      'disallowed\thttps://a.com/a', 'disallowed\thttps://A.COM/a', 'allowed\thttps://b.com/a', 'disallowed\thttps://b.com/b',
      'disallowed\thttp://user:pw@b.com:8080/port', 'allowed\thttp://b.com:8080/b', 'disallowed\thttp://b.com:9090/b',
      'allowed\thttps://c.com/a', 'allowed\t/relative/a', 'allowed\t',
    ].join('\n') + '\n');
    // hosts without a file are said too (as --missing's help says), with the first of them
    expect(r.stderr).toBe(`robotstxt: 2 line(s) named no host (lines 9, 10): answered as allowed (--no-host allow; URLs need http:// or https:// and a host)\nrobotstxt: 1 host(s) have no robots.txt file in ${robotsDir} (https://c.com): their URLs were answered as allowed (--missing allow; --missing disallow or error for hosts whose rules must be known)\n`);
    expect(r.status).toBe(0);
  });
  it('--missing disallow answers hosts without a file (and relative URLs) as disallowed', () => {
    const r = robotstxt(['check', '--robots-dir', robotsDir, '--agent', 'x', '--missing', 'disallow'], 'https://c.com/a\nhttps://a.com/z\n/rel\n');
    expect(r.stdout).toBe('disallowed\thttps://c.com/a\nallowed\thttps://a.com/z\ndisallowed\t/rel\n');
  });
  it('an unreadable robots file in the directory is an error naming it', () => {
    const r = robotstxt(['check', '--robots-dir', robotsDir, '--agent', 'x'], 'https://broken.com/\n');
    expect(r.stderr).toBe(`robotstxt: cannot read robots file '${join(robotsDir, 'broken.com.txt')}': is a directory\n`);
    expect(r.status).toBe(2);
  });
});

describe.skipIf(corpusMissingReason !== null)('command line on real robots.txt files (../shared/corpus)', () => {
  const files = ['ropensci/robots_google.txt', 'ropensci/robots_wikipedia.txt', 'crawler-commons/twitter.com-robots.txt', 'protego/archive.org.txt', 'protego/about.gitlab.com.txt', 'crawler-commons/robots-with-utf8-bom.txt', 't1gor/market-yandex-Windows-1251.txt']
    .map((name) => join(CORPUS_ROBOTS, name));
  for (const file of files) {
    it(`check and test agree with the model on URLs made from ${file.slice(CORPUS_ROBOTS.length + 1)}`, () => {
      const body = readFileSync(file);
      const values = String.fromCharCode(...body.subarray(0, 200000)).split(/\r\n|\r|\n/).map((l) => /^\s*(?:dis)?allow\s*:\s*(\S*)/i.exec(l)?.[1]).filter((v): v is string => v !== undefined);
      const urls = [...new Set(values)].slice(0, 40).flatMap((v) => [`https://site.example${v.replace(/\*/g, 'x').replace(/\$$/, '')}`, `https://site.example${v.replace(/\*/g, '/z/').replace(/\$$/, '')}?q=1`]);
      urls.push('https://site.example/', 'https://site.example/robots.txt');
      for (const agent of ['Googlebot', 'Bingbot', 'SomeBot']) {
        const r = robotstxt(['check', '--robots', file, '--agent', agent], urls.join('\n'));
        const expected = urls.map((u) => `${modelVerdict(body, [agent], u).allowed ? 'allowed' : 'disallowed'}\t${u}`).join('\n') + '\n';
        expect(r.stdout).toBe(expected);
      }
      const one = robotstxt(['test', file, 'Googlebot', urls[0]]);
      const allowed = modelVerdict(body, ['Googlebot'], urls[0]).allowed;
      expect(one.stdout.split('\n')[0]).toBe(`user-agent 'Googlebot' with URI '${urls[0]}': ${allowed ? 'ALLOWED' : 'DISALLOWED'}`);
      expect(one.status).toBe(allowed ? 0 : 1);
    });
  }
});
