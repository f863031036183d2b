// The fifth sweep's command-line findings, as a new user met them: threads that do not run say why, old logs
// verified with today's range files on purpose, standard input where a file is read, several files to lint,
// a binary file given as a log, audit --merge without parts, the file a long robots.txt was cut in named once,
// misspelt options and commands answered with the nearest name. Exact lines and exit codes.
import { describe, it, expect } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { robotstxt, tempDir } from './cli-helpers.js';

const dir = tempDir();
const SHOP = join('examples', 'shop-robots.txt');

describe('threads: fewer than asked is said, with why', () => {
  it('--threads 2 with --robots-dir on a short input: one thread, and why; with --robots, the input is under 64 MiB', () => {
    const urls = join(dir, 'hosts.txt');
    writeFileSync(urls, readFileSync(join('examples', 'hosts-urls.txt')));
    const hosts = robotstxt(['check', '--robots-dir', join('examples', 'robots'), '--agent', 'Googlebot', '--threads', '2', urls]);
    expect(hosts.stderr.split('\n').filter((line) => line.includes('--threads'))).toEqual(["robotstxt: --threads 2: 1 thread ran, as the work, at the pace this thread answered alone, never looked longer than 2 s, when worker threads start (ROBOTSTXT_HOSTS_THREADS_AFTER_MS, in ms; 0 starts them at once)"]);
    const one = robotstxt(['check', '--robots', SHOP, '--agent', 'Googlebot', '--threads', '2', join('examples', 'shop-urls.txt')]);
    expect(one.stderr).toBe(`robotstxt: --threads 2: 1 thread ran, as the input (${readFileSync(join('examples', 'shop-urls.txt')).length} bytes) ended before 64 MiB, where worker threads start to pay for themselves\n`);
    // not asked: nothing said
    expect(robotstxt(['check', '--robots', SHOP, '--agent', 'Googlebot', join('examples', 'shop-urls.txt')]).stderr).toBe('');
  });
});

describe('--ranges-max-age: old logs verified on purpose', () => {
  const oldLog = join(dir, 'old.log');
  writeFileSync(oldLog, readFileSync(join('examples', 'access.log'), 'utf8').replaceAll('/2026:', '/2015:'));
  it('by default a 2015 log is not checked against 2026 files, and each stale file is named once; any decides with them; a number up to 36500 days too', () => {
    const strictReport = JSON.parse(robotstxt(['audit', '--robots', SHOP, '--verify', '--crawler-ranges', join('examples', 'crawler-ranges'), '--format', 'json', oldLog]).stdout);
    expect(strictReport.verification.impostor).toBe(0);
    const strict = robotstxt(['audit', '--robots', SHOP, '--verify', '--crawler-ranges', join('examples', 'crawler-ranges'), '--crawler-ranges', join('examples', 'crawler-ranges', 'google-common-crawlers.json'), oldLog]);
    const googleNote = strict.stdout.split('\n').find((line) => line.startsWith("verification: Googlebot and Google's common crawlers:")) ?? '';
    expect(googleNote.match(/google-common-crawlers\.json/g)?.length).toBe(1);
    expect(googleNote).toMatch(/google-common-crawlers\.json \(\d+ days\) made more than 30 days from the requests \(--ranges-max-age; any takes files of any age\)/);
    for (const age of ['any', '36500']) {
      const loose = JSON.parse(robotstxt(['audit', '--robots', SHOP, '--verify', '--crawler-ranges', join('examples', 'crawler-ranges'), '--ranges-max-age', age, '--format', 'json', oldLog]).stdout);
      expect(loose.verification.impostor, age).toBeGreaterThan(0);
      expect(loose.verification['not-checked'], age).toBe(0);
    }
    for (const bad of ['0', '36501', 'forever']) {
      const r = robotstxt(['audit', '--robots', SHOP, '--verify', '--crawler-ranges', join('examples', 'crawler-ranges'), '--ranges-max-age', bad, oldLog]);
      expect([r.status, r.stderr]).toEqual([2, `robotstxt: --ranges-max-age must be a number of days from 1 to 36500, or any, got '${bad}'\n`]);
    }
  });
});

describe('papercuts', () => {
  it('check --robots - and test - read the robots.txt from standard input; check --robots - with URLs on standard input too is refused', () => {
    const body = readFileSync(SHOP, 'utf8');
    expect(robotstxt(['check', '--robots', '-', '--agent', 'Googlebot', join('examples', 'shop-urls.txt')], body).stdout).toBe(robotstxt(['check', '--robots', SHOP, '--agent', 'Googlebot', join('examples', 'shop-urls.txt')]).stdout);
    const test = robotstxt(['test', '-', 'Googlebot', 'https://shop.example/cart'], body);
    expect([test.status, test.stdout]).toEqual([1, "user-agent 'Googlebot' with URI 'https://shop.example/cart': DISALLOWED\n"]);
    const both = robotstxt(['check', '--robots', '-', '--agent', 'Googlebot'], body);
    expect([both.status, both.stderr]).toEqual([2, 'robotstxt: --robots - reads the robots.txt from standard input: give the URLs as a file (standard input can be read once)\n']);
  });
  it('lint takes several files (and standard input once); one that cannot be read is named, the others linted, exit 2', () => {
    const good = join(dir, 'good.txt');
    writeFileSync(good, 'User-agent: *\nDisallow: /x\n');
    const bad = join(dir, 'bad.html');
    writeFileSync(bad, '<!DOCTYPE html><html><body>Not found</body></html>\n');
    const two = robotstxt(['lint', good, bad]);
    expect(two.status).toBe(1);
    expect(two.stdout.split('\n').filter((line) => line.endsWith('note(s)'))).toEqual([`${good}: 0 error(s), 0 warning(s), 0 note(s)`, `${bad}: 1 error(s), 0 warning(s), 0 note(s)`]);
    const missing = robotstxt(['lint', good, join(dir, 'nope.txt')]);
    expect([missing.status, missing.stdout, missing.stderr]).toEqual([2, `${good}: 0 error(s), 0 warning(s), 0 note(s)\n`, `robotstxt: cannot read robots file '${join(dir, 'nope.txt')}': no such file\n`]);
    expect(robotstxt(['lint', '-', '-'], '').stderr).toBe('robotstxt: standard input (-) can be read once\n');
  });
  it('check --log of a binary file is no access log: exit 2, as audit says', () => {
    const binary = join(dir, 'binary.log');
    writeFileSync(binary, Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919 + 13) % 256)));
    const check = robotstxt(['check', '--robots', SHOP, '--agent', 'Googlebot', '--log', binary]);
    expect(check.status).toBe(2);
    expect(check.stdout).toBe('');
    expect(check.stderr.split('\n').at(-2)).toMatch(new RegExp(`^robotstxt: not an access log: none of the \\d+ line\\(s\\) of ${binary.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is a request line of a format check --log reads \\(see robotstxt check --help\\)$`));
  });
  it('a misspelt option or command: the nearest name is offered; a name far from all is not guessed', () => {
    expect(robotstxt(['check', '--robot', SHOP]).stderr).toBe("robotstxt: Unknown option '--robot'; did you mean --robots? (see robotstxt check --help)\n");
    expect(robotstxt(['pages', '--robots-dri', 'x']).stderr).toBe("robotstxt: Unknown option '--robots-dri'; did you mean --robots-dir? (see robotstxt pages --help)\n");
    expect(robotstxt(['audit', '--zzzz']).stderr).toBe("robotstxt: Unknown option '--zzzz' (see robotstxt audit --help)\n");
    expect(robotstxt(['chekc']).stderr).toBe("robotstxt: unknown command 'chekc' (did you mean check?) (commands: test, check, lint, usage, diff, audit, fetch, page, pages, pack, history, tester, conformance; see robotstxt --help)\n");
  });
});
