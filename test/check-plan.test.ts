// robotstxt check's plan (src/cli/check-plan.ts): what a run will do, read off its arguments alone, with no
// file opened; every refusal before any output, naming the flag.
import { describe, it, expect } from 'vitest';
import { planCheck } from '../src/cli/check-plan.js';
import { CHECK_SPEC } from '../src/cli/check-command.js';
import { parseCommand } from '../src/cli/command-spec.js';

const plan = (args: string[], env: NodeJS.ProcessEnv = {}): ReturnType<typeof planCheck> => planCheck(parseCommand(CHECK_SPEC, args), env);

describe('the plan of robotstxt check', () => {
  it('one robots.txt: its path, the threads asked, the output, the reading', () => {
    const one = plan(['--robots', 'r.txt', '--agent', 'Googlebot', '--agent', 'Bingbot', '--only', 'disallowed', '--format', 'jsonl', '--threads', '2', 'urls.txt']);
    expect(one).toMatchObject({ agents: ['Googlebot', 'Bingbot'], rules: { kind: 'file', path: 'r.txt' }, input: 'urls.txt', threads: 2, threadsGiven: true, format: 'jsonl', only: 'disallowed', log: null, usage: null, reading: { mode: 'google', maxBytes: 512000 } });
    expect(plan(['--robots', 'r.txt', '--agent', 'x', '-']).input).toBeNull();
    expect(plan(['--robots', 'r.txt', '--agent', 'x']).only).toBe('all');
  });

  it('a folder, a store, a pack: one thread unless asked; --no-host follows --missing (allow when it says error)', () => {
    expect(plan(['--robots-dir', 'd', '--agent', 'x'])).toMatchObject({ rules: { kind: 'hosts', directory: 'd', store: false, pack: null, fetch: null }, threads: 1, threadsGiven: false, missing: 'allow', noHost: 'allow' });
    expect(plan(['--store', 's', '--agent', 'x', '--missing', 'disallow'])).toMatchObject({ rules: { kind: 'hosts', directory: 's', store: true }, missing: 'disallow', noHost: 'disallow' });
    expect(plan(['--pack', 'p.pack', '--agent', 'x', '--missing', 'error'])).toMatchObject({ rules: { kind: 'hosts', directory: '', pack: 'p.pack' }, noHost: 'allow' });
    expect([...plan(['--pack', 'p.pack', '--agent', 'x', '--mode', 'rfc']).readingGiven]).toEqual(['mode']);
    const fetching = plan(['--store', 's', '--fetch', '--agent', 'x', '--user-agent', 'ExampleBot/1.0']);
    expect(fetching.rules.kind === 'hosts' && fetching.rules.fetch?.userAgent).toBe('ExampleBot/1.0');
  });

  it('--log with its host and fields; --usage a category', () => {
    expect(plan(['--robots', 'r.txt', '--agent', 'x', '--log', '--host', 'shop.example', '--log-field', 'target=req']).log).toEqual({ defaultHost: 'shop.example', fields: { target: 'req' } });
    expect(plan(['--robots', 'r.txt', '--agent', 'x', '--usage', 'train-ai'])).toMatchObject({ usage: 'train-ai', threads: 1 });
    expect(plan(['--robots', 'r.txt', '--agent', 'x', '--usage', 'search', '--threads', '4'])).toMatchObject({ usage: 'search', threads: 1, threadsGiven: true });
  });

  it('ROBOTSTXT_HOSTS_THREADS_AFTER_MS read and checked', () => {
    expect(plan(['--robots-dir', 'd', '--agent', 'x'], { ROBOTSTXT_HOSTS_THREADS_AFTER_MS: '0' }).hostsThreadsAfterMs).toBe(0);
    expect(plan(['--robots-dir', 'd', '--agent', 'x']).hostsThreadsAfterMs).toBeNull();
    expect(() => plan(['--robots-dir', 'd', '--agent', 'x'], { ROBOTSTXT_HOSTS_THREADS_AFTER_MS: '1.5' })).toThrow('ROBOTSTXT_HOSTS_THREADS_AFTER_MS must be a whole number of milliseconds from 0 to 3600000, got "1.5"');
  });

  it('what cannot be run is refused, naming the flag', () => {
    expect(() => plan(['--robots', '-', '--agent', 'x'])).toThrow('--robots - reads the robots.txt from standard input: give the URLs as a file (standard input can be read once)');
    expect(() => plan(['--store', 's', '--fetch', '--threads', '2', '--agent', 'x'])).toThrow('--fetch runs in one thread (--threads 1)');
    expect(() => plan(['--robots-dir', 'd', '--threads', '2', '--cache-mb', '8', '--agent', 'x'])).toThrow(/^--threads 2 with --robots-dir needs --cache-mb \d+ or more \(each worker thread's own memory is paid from it\), got 8$/);
    expect(() => plan(['--robots', 'r.txt', '--agent', 'x', '--usage', 'Train'])).toThrow("--usage must name a category such as train-ai or search (a lower-case key), got 'Train'");
    expect(() => plan(['--robots', 'r.txt', '--agent', ' '])).toThrow("--agent must name a crawler (a product token such as Googlebot), got ' '");
  });
});
