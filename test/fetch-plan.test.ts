// robotstxt fetch's plan (src/cli/fetch-plan.ts): what a run will do, read off its arguments alone, with nothing
// read or fetched; every refusal before any request, naming the flag.
import { describe, it, expect } from 'vitest';
import { planFetch } from '../src/cli/fetch-plan.js';
import { FETCH_SPEC } from '../src/cli/fetch-command.js';
import { parseCommand } from '../src/cli/command-spec.js';

const plan = (args: string[], stdinIsTerminal = true): ReturnType<typeof planFetch> => planFetch(parseCommand(FETCH_SPEC, args), stdinIsTerminal);

describe('the plan of robotstxt fetch', () => {
  it('origins from arguments, URL files, logs and piped input; the store; the output', () => {
    expect(plan(['--store', 's', 'example.com', '--urls', 'u.txt', '--log', 'a.log', '--host', 'shop.example', '--format', 'jsonl'])).toMatchObject({
      ranges: null, inputs: { args: ['example.com'], stdin: false, urlFiles: ['u.txt'], logs: ['a.log'] }, defaultHost: 'shop.example', store: 's', format: 'jsonl', watch: null, force: false,
    });
    expect(plan(['example.com', '-']).inputs.stdin).toBe(true);
    expect(plan([], false).inputs).toEqual({ args: [], stdin: true, urlFiles: [], logs: [] });
    expect(plan(['--store', 's', '--fail-on-change', 'w.txt', '--agent', 'Googlebot', 'a.example']).watch).toEqual({ file: 'w.txt', agents: ['Googlebot'] });
    expect(plan(['--store', 's', '--fail-on-change', 'w.txt', 'a.example']).watch).toEqual({ file: 'w.txt', agents: ['*'] });
  });

  it('--crawler-ranges: the store and the range file URLs given', () => {
    expect(plan(['--crawler-ranges', '--store', 's', '--ranges-url', 'gptbot=https://example.com/gptbot.json']).ranges).toEqual({ store: 's', urls: new Map([['gptbot', 'https://example.com/gptbot.json']]) });
  });

  it('--signature-keys: the store, the agents named and the logs read for more', () => {
    expect(plan(['--signature-keys', '--store', 's', '--log', 'a.jsonl', 'https://agent.example']).signatureKeys).toEqual({ store: 's', agents: ['https://agent.example'], logs: ['a.jsonl'] });
    expect(plan(['--store', 's', 'example.com']).signatureKeys).toBeNull();
  });

  it('what cannot be run is refused, naming the flag', () => {
    expect(() => plan([])).toThrow('fetch needs URLs or hosts: arguments, --urls <file>, --log <file>, or piped input (see robotstxt fetch --help)');
    expect(() => plan(['--crawler-ranges', '--store', 's', 'example.com'])).toThrow('--crawler-ranges fetches only the range files: give no URLs or hosts');
    expect(() => plan(['--crawler-ranges', '--store', 's', '--ranges-url', 'gptbot=ftp://x'])).toThrow("--ranges-url must be <id>=<http(s) URL>, got 'gptbot=ftp://x'");
    expect(() => plan(['--signature-keys', 'example.com'])).toThrow('--signature-keys applies only with --store');
    expect(() => plan(['--signature-keys', '--store', 's'])).toThrow('--signature-keys needs the signing agents: --log <file> (JSON lines with their Signature-Agent), or their origins or hosts as arguments');
    expect(() => plan(['--signature-keys', '--store', 's', '-'])).toThrow('--signature-keys reads agents from arguments and --log files, not standard input');
    expect(() => plan(['--signature-keys', '--crawler-ranges', '--store', 's'])).toThrow('cannot be given together');
    expect(() => plan(['--user-agent', ' ', 'example.com'])).toThrow('--user-agent must be 1 to 1024 characters: tab, printable ASCII and Latin-1 only (no line breaks or control characters)');
  });
});
