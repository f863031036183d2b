// robotstxt audit's plan (src/cli/audit-plan.ts): what a run will do, read off its arguments alone, with no
// file opened; every refusal before any log is read, naming the flag.
import { describe, it, expect } from 'vitest';
import { planAudit, withVerifyValue } from '../src/cli/audit-plan.js';
import { AUDIT_SPEC } from '../src/cli/audit-command.js';
import { parseCommand } from '../src/cli/command-spec.js';

const plan = (args: string[]): ReturnType<typeof planAudit> => planAudit(parseCommand(AUDIT_SPEC, withVerifyValue(args)));

describe('the plan of robotstxt audit', () => {
  it('where the rules come from: one file, a folder, a store (fetched or not), a history, a pack', () => {
    expect(plan(['--robots', 'r.txt', 'a.log']).rules).toEqual({ kind: 'file', path: 'r.txt' });
    expect(plan(['--robots-dir', 'd', 'a.log']).rules).toEqual({ kind: 'folder', directory: 'd', store: null, fetch: null });
    expect(plan(['--store', 's', 'a.log']).rules).toEqual({ kind: 'folder', directory: 's', store: 's', fetch: null });
    const fetching = plan(['--store', 's', '--fetch', '--user-agent', 'ExampleBot/1.0', 'a.log']).rules;
    expect(fetching.kind === 'folder' && fetching.fetch?.userAgent).toBe('ExampleBot/1.0');
    expect(plan(['--robots-history', 'h', 'a.log']).rules).toEqual({ kind: 'history', directory: 'h' });
    expect(plan(['--pack', 'p.pack', '--mode', 'rfc', 'a.log'])).toMatchObject({ rules: { kind: 'pack', file: 'p.pack' }, readingGiven: new Set(['mode']) });
  });

  it('the report, the reading of crawlers, the window and the verification asked', () => {
    expect(plan(['--robots-dir', 'd', '--top', '3', '--format', 'json', '--by', 'host', '--as-token', '--since', '2026-11-01', '--until', '2026-11-02', 'a.log', 'b.log'])).toMatchObject({
      logs: ['a.log', 'b.log'], top: 3, format: 'json', byHost: true, asToken: true, sinceMs: Date.parse('2026-11-01'), untilMs: Date.parse('2026-11-02'), verify: null, defaultHost: null,
    });
    expect(plan(['--robots', 'r.txt', '--verify', 'a.log']).verify).toEqual({ dns: false, rangeFiles: [], dnsProbe: undefined, rangesMaxAgeDays: 30, signatureKeys: null });
    expect(plan(['--robots', 'r.txt', '--verify', 'dns', '--ranges-max-age', 'any', '--crawler-ranges', 'x', 'a.log']).verify).toEqual({ dns: true, rangeFiles: ['x'], dnsProbe: undefined, rangesMaxAgeDays: 'any', signatureKeys: null });
    expect(plan(['--robots', 'r.txt', '--verify', '--signature-keys', 'keys', 'a.log']).verify).toEqual({ dns: false, rangeFiles: [], dnsProbe: undefined, rangesMaxAgeDays: 30, signatureKeys: 'keys' });
  });

  it('what cannot be run is refused, naming the flag', () => {
    expect(() => plan(['--store', 's', '--fetch', '-'])).toThrow('--fetch reads the logs twice (hosts first): give log files, not standard input');
    expect(() => plan(['--robots', 'r.txt', '--since', '2026-11-02', '--until', '2026-11-01', 'a.log'])).toThrow('--until must be later than --since');
    expect(() => plan(['--robots', 'r.txt', '--since', 'yesterday', 'a.log'])).toThrow("--since must be a time such as 2026-11-01, 2026-11-01T08:00:00Z or seconds since 1970, got 'yesterday'");
    expect(() => plan(['--robots-dir', 'd', '--host', 'https://shop.example', 'a.log'])).toThrow("--host names a host (shop.example, or shop.example:8080), got 'https://shop.example': requests of lines that name no host are judged as http://<host>");
    expect(() => plan(['--robots', 'r.txt', '--verify', '--ranges-max-age', '0', 'a.log'])).toThrow("--ranges-max-age must be a number of days from 1 to 36500, or any, got '0'");
    expect(() => plan(['--robots', 'r.txt', '--signature-keys', 'keys', 'a.log'])).toThrow('--signature-keys applies only with --verify');
  });
});
