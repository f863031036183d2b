// audit --verify --signature-keys (issue 60): a log of signed requests built here (keys generated here; valid,
// path-changed, expired, unknown-key, malformed, agent-without-keys and unsigned requests, in nginx's escape=json
// shape and in a --log-field shape) gives exact counts per row and per reason in the table, the JSON, the HTML and
// partial+merge; a signed agent is judged by the group its card claims; the signatures that verify are checked
// again by a second implementation (Cloudflare's web-bot-auth), so the audit cannot agree with itself by mistake.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { generateKeyPairSync, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSignature } from 'http-message-sig';
import { verify as webBotAuthVerify } from 'web-bot-auth';
import { verifierFromJWK } from 'web-bot-auth/crypto';
import { signatureNotes, type AuditSignatures } from '../src/node/audit/report.js';
import { CrawlerVerifier, RobotsAudit, SignatureKeys, SignedRequestJudge, parseRobots, type AuditPartial, type AuditReport, type CrawlerAudit } from '../src/node/index.js';
import { readdirSync, readFileSync } from 'node:fs';
import { LocalOrigins } from './http-origins.js';
import { robotstxt, robotstxtAsync, tempDir } from './cli-helpers.js';

const pair = (): { privateKey: KeyObject; publicJwk: JsonWebKey } => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicJwk: publicKey.export({ format: 'jwk' }) as JsonWebKey };
};
const crawlerKey = pair();
const fetcherKey = pair();
const assistantKey = pair();
const strayKey = pair();
const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const ROBOTS = 'User-agent: ExampleBot\nDisallow: /private\n\nUser-agent: *\nDisallow: /admin\n';
// the requests' time: now (the second implementation checks created..expires against the clock)
const NOW = Math.floor(Date.now() / 1000) * 1000;

async function thumbprint(jwk: JsonWebKey): Promise<string> {
  const { jwkToKeyID } = await import('web-bot-auth');
  return jwkToKeyID(jwk, (bytes) => crypto.subtle.digest('SHA-256', bytes), (hash) => Buffer.from(hash).toString('base64url'));
}

/** The key files of the agents: a card naming a crawler's product token, a card of a fetcher, a bare key directory. */
const KEY_FILES = {
  'crawler.example': { client_name: 'Example crawler', 'rfc9309-product-token': 'ExampleBot', keys: { keys: [crawlerKey.publicJwk] } },
  'agent.example': { client_name: 'Example agent', 'rfc9309-product-token': 'ExampleAgent', trigger: 'fetcher', keys: [fetcherKey.publicJwk] },
  'assistant.example': { keys: [assistantKey.publicJwk] },
};

interface Signed { signature: string; signatureInput: string; signatureAgent: string }

/** Headers of a request signed as a Web Bot Auth agent signs it (created..expires in ms). */
async function sign(key: KeyObject, keyid: string, agent: string, authority: string, path: string, created = NOW - 60_000, expires = NOW + 3_600_000): Promise<Signed> {
  const signatureAgent = `"https://${agent}"`;
  const fields = await createSignature(
    { kind: 'request', method: 'GET', targetUri: `https://${authority}${path}`, fields: [{ name: 'signature-agent', value: signatureAgent }] },
    {
      label: 'sig1', components: ['@authority', '@method', '@path', 'signature-agent'],
      parameters: { created: Math.floor(created / 1000), expires: Math.floor(expires / 1000), keyid, tag: 'web-bot-auth', alg: 'ed25519' },
      signer: { algorithm: 'ed25519', sign: (data) => new Uint8Array(cryptoSign(null, data, key)) },
    },
  );
  return { signature: fields.signature, signatureInput: fields.signatureInput, signatureAgent };
}

/** One logged request: the path as logged, its signature (null: unsigned), its User-Agent, its time. */
interface Logged { path: string; signed: Signed | null; userAgent: string; timeMs?: number; client?: string }

/**
 * The test log: per request, what the audit must say of it. Eleven requests: three verified of ExampleBot (one
 * disallowed by its group), one verified of the fetcher, one verified of a card-less agent, an invalid (path
 * changed after signing), an expired, an unknown key and a malformed one (impostors of ExampleBot), one whose
 * agent's keys were not given, and two unsigned (a browser, and a Googlebot that claims by its User-Agent).
 */
async function testLog(): Promise<{ requests: Logged[]; verifiedSigned: { path: string; signed: Signed; jwk: JsonWebKey }[] }> {
  const crawlerKeyid = await thumbprint(crawlerKey.publicJwk);
  const fetcherKeyid = await thumbprint(fetcherKey.publicJwk);
  const assistantKeyid = await thumbprint(assistantKey.publicJwk);
  const strayKeyid = await thumbprint(strayKey.publicJwk);
  const host = 'shop.example';
  const privateSigned = await sign(crawlerKey.privateKey, crawlerKeyid, 'crawler.example', host, '/private/a');
  const publicSigned = await sign(crawlerKey.privateKey, crawlerKeyid, 'crawler.example', host, '/public/b');
  const adminSigned = await sign(crawlerKey.privateKey, crawlerKeyid, 'crawler.example', host, '/admin/c');
  const fetcherSigned = await sign(fetcherKey.privateKey, fetcherKeyid, 'agent.example', host, '/private/d');
  const assistantSigned = await sign(assistantKey.privateKey, assistantKeyid, 'assistant.example', host, '/admin/e');
  const verifiedSigned = [
    { path: '/private/a', signed: privateSigned, jwk: crawlerKey.publicJwk },
    { path: '/public/b', signed: publicSigned, jwk: crawlerKey.publicJwk },
    { path: '/admin/c', signed: adminSigned, jwk: crawlerKey.publicJwk },
    { path: '/private/d', signed: fetcherSigned, jwk: fetcherKey.publicJwk },
    { path: '/admin/e', signed: assistantSigned, jwk: assistantKey.publicJwk },
  ];
  const requests: Logged[] = [
    ...verifiedSigned.map(({ path, signed }) => ({ path, signed, userAgent: CHROME })),
    // signed for /private/f, logged as /private/g: invalid
    { path: '/private/g', signed: await sign(crawlerKey.privateKey, crawlerKeyid, 'crawler.example', host, '/private/f'), userAgent: CHROME },
    // signed three hours ago for an hour: expired at the logged time
    { path: '/private/h', signed: await sign(crawlerKey.privateKey, crawlerKeyid, 'crawler.example', host, '/private/h', NOW - 3 * 3_600_000, NOW - 2 * 3_600_000), userAgent: CHROME },
    // a key crawler.example never published: unknown key
    { path: '/private/i', signed: await sign(strayKey.privateKey, strayKeyid, 'crawler.example', host, '/private/i'), userAgent: CHROME },
    // a Signature-Input that is no structured field: malformed
    { path: '/private/j', signed: { ...publicSigned, signatureInput: 'sig1=("@authority";created=x' }, userAgent: CHROME },
    // an agent whose keys were not given: not checked, left to the IP ranges
    { path: '/private/k', signed: await sign(strayKey.privateKey, strayKeyid, 'nobody.example', host, '/private/k'), userAgent: CHROME },
    { path: '/private/l', signed: null, userAgent: CHROME },
    { path: '/private/m', signed: null, userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
  ];
  return { requests, verifiedSigned };
}

/** A line as nginx writes it with `log_format ... escape=json` and the $http_signature, $http_signature_input, $http_signature_agent variables. */
const nginxLine = (request: Logged): string => JSON.stringify({
  time_iso8601: new Date(request.timeMs ?? NOW).toISOString(), remote_addr: request.client ?? '203.0.113.7', request_method: 'GET', request_uri: request.path, host: 'shop.example', status: 200,
  http_user_agent: request.userAgent, http_signature: request.signed?.signature ?? '', http_signature_input: request.signed?.signatureInput ?? '', http_signature_agent: request.signed?.signatureAgent ?? '',
});

/** The same request in another JSON shape, read with --log-field. */
const customLine = (request: Logged): string => JSON.stringify({
  at: new Date(request.timeMs ?? NOW).toISOString(), ip: request.client ?? '203.0.113.7', site: 'shop.example', ua: request.userAgent, code: 200,
  req: { path: request.path, method: 'GET' }, sig: request.signed === null ? {} : { value: request.signed.signature, input: request.signed.signatureInput, agent: request.signed.signatureAgent },
});
const CUSTOM_FIELDS = ['time=at', 'client=ip', 'host=site', 'userAgent=ua', 'status=code', 'target=req.path', 'method=req.method', 'signature=sig.value', 'signatureInput=sig.input', 'signatureAgent=sig.agent'];

/** A row's name, verdict counts and signature counts, as the test states them. */
const rowOf = (c: CrawlerAudit): [string, boolean, number, number, string, string] => [
  c.agent, c.impostor, c.requests, c.disallowed, Object.values(c.verification ?? {}).join('/'),
  c.signatures === null ? '-' : `${c.signatures.verified}/${c.signatures.invalid}/${c.signatures.expired}/${c.signatures.unknownKey}/${c.signatures.malformed}/${c.signatures.notChecked}`,
];

/** What the test log must give, whatever shape it is read in: rows (crawlers, then user-triggered), totals and signatures. */
function expectTestLog(report: AuditReport, log: string): void {
  expect([report.lines, report.crawlerRequests, report.otherRequests, report.disallowed, report.allowed]).toEqual([12, 11, 1, 6, 4]);
  expect(report.crawlers.map(rowOf)).toEqual([
    // the impostors of ExampleBot: judged by the group they claim (all four under /private), never counted as ExampleBot
    ['ExampleBot', true, 4, 4, '0/4/0/0', '0/1/1/1/1/0'],
    // verified, with a browser's User-Agent: /private/a disallowed by its card's group; /admin/c allowed there (its group is not *)
    ['ExampleBot', false, 3, 1, '3/0/0/0', '3/0/0/0/0/0'],
    // a card-less agent: its host names the row, judged by *: /admin/e disallowed
    ['assistant.example', false, 1, 1, '1/0/0/0', '1/0/0/0/0/0'],
    // unsigned, claimed by its User-Agent: the IP ranges decide (none given: not checked)
    ['Googlebot', false, 1, 0, '0/0/0/1', '0/0/0/0/0/0'],
    // keys not given: the IP ranges decide (the agent names no vendor: unknown), judged by *
    ['nobody.example', false, 1, 0, '0/0/1/0', '0/0/0/0/0/1'],
  ]);
  // the card says trigger fetcher: listed apart, never counted as a violator; no group of its own: *
  expect(report.userTriggered.map(rowOf)).toEqual([['ExampleAgent', false, 1, 0, '1/0/0/0', '1/0/0/0/0/0']]);
  expect([...report.crawlers, ...report.userTriggered].map((c) => c.groupLabel)).toEqual(['own group', 'own group', '*', '*', '*', '*']);
  expect(report.signatures?.counts).toEqual({ verified: 5, invalid: 1, expired: 1, unknownKey: 1, malformed: 1, notChecked: 1, rangesDisagree: 0 });
  expect(report.signatures?.failures.map((failure) => [failure.log, failure.line, failure.verdict, failure.agent])).toEqual([
    [log, 6, 'invalid', 'crawler.example'], [log, 7, 'expired', 'crawler.example'], [log, 8, 'unknownKey', 'crawler.example'], [log, 9, 'malformed', 'crawler.example'], [log, 10, 'notChecked', 'nobody.example'],
  ]);
  expect(report.signatures?.withoutKeys).toEqual([{ agent: 'nobody.example', requests: 1 }]);
  expect(report.verification).toEqual({ verified: 5, impostor: 4, unknown: 1, 'not-checked': 1 });
}

describe('audit --verify --signature-keys: signed requests judged by their signatures', async () => {
  const { requests, verifiedSigned } = await testLog();

  it('the library: exact rows and reasons for the nginx shape and a --log-field shape alike', async () => {
    for (const [lines, fields] of [[requests.map(nginxLine), undefined], [requests.map(customLine), Object.fromEntries(CUSTOM_FIELDS.map((pair) => pair.split('=')))]] as const) {
      const audit = new RobotsAudit(() => parseRobots(ROBOTS), { signatures: new SignedRequestJudge(SignatureKeys.of(KEY_FILES)), verifier: new CrawlerVerifier(), logFields: fields });
      await audit.addLines(lines, 1, 'signed.log');
      expectTestLog(audit.report(), 'signed.log');
    }
  });

  it('any log of these requests (and junk), in any order, split anywhere into 1 to 5 parts: the merged report equals the whole\'s (50 runs)', async () => {
    const pool = [...requests.map(nginxLine), 'not a log line', ''];
    const robots = parseRobots(ROBOTS);
    const keys = SignatureKeys.of(KEY_FILES);
    await fc.assert(fc.asyncProperty(fc.array(fc.nat({ max: pool.length - 1 }), { minLength: 1, maxLength: 60 }), fc.array(fc.nat(), { maxLength: 4 }), async (picks, cuts) => {
      const lines = picks.map((pick) => pool[pick]);
      const audit = async (from: number, to: number): Promise<RobotsAudit> => {
        const one = new RobotsAudit(() => robots, { signatures: new SignedRequestJudge(keys), verifier: new CrawlerVerifier() });
        await one.addLines(lines.slice(from, to), 1, '-');
        return one;
      };
      const whole = await audit(0, lines.length);
      const points = [...new Set(cuts.map((cut) => cut % (lines.length + 1)))].sort((a, b) => a - b);
      const bounds = [0, ...points, lines.length];
      const partials: AuditPartial[] = [];
      for (let k = 0; k + 1 < bounds.length; k++) partials.push(JSON.parse(JSON.stringify((await audit(bounds[k], bounds[k + 1])).partial([{ log: '-', lines: bounds[k + 1] - bounds[k] }]))) as AuditPartial);
      const merged = RobotsAudit.merged(partials).report();
      const report = whole.report();
      expect(JSON.stringify(merged)).toBe(JSON.stringify(report));
    }), { numRuns: 50 });
  });

  it('the group a card claims is read as crawlers are: Googlebot-Image follows Googlebot, and with reading token (--as-token) only its own group, else *', async () => {
    const keyid = await thumbprint(crawlerKey.publicJwk);
    const keys = SignatureKeys.of({ 'images.example': { 'rfc9309-product-token': 'Googlebot-Image', keys: [crawlerKey.publicJwk] } });
    const line = nginxLine({ path: '/photos/1', signed: await sign(crawlerKey.privateKey, keyid, 'images.example', 'shop.example', '/photos/1'), userAgent: CHROME });
    const robots = parseRobots('User-agent: Googlebot\nDisallow: /photos\n\nUser-agent: *\nDisallow: /admin\n');
    const said: [string | null, number][] = [];
    for (const reading of ['crawler', 'token'] as const) {
      const audit = new RobotsAudit(() => robots, { signatures: new SignedRequestJudge(keys), reading });
      await audit.addLines([line], 1, 'images.log');
      const row = audit.report().crawlers[0];
      said.push([row.groupLabel, row.disallowed]);
    }
    expect(said).toEqual([['follows Googlebot', 1], ['*', 0]]);
  });

  it('agents without keys: the 20 with the most requests named, the requests of the others summed (table note and JSON)', async () => {
    const keyid = await thumbprint(strayKey.publicJwk);
    const lines: string[] = [];
    for (let agent = 0; agent < 25; agent++) {
      const signed = await sign(strayKey.privateKey, keyid, `agent${agent}.example`, 'shop.example', '/p');
      // agent k sends 30 - k requests: agents 20 to 24 (10 to 6 requests) are the ones not named
      for (let i = 0; i < 30 - agent; i++) lines.push(nginxLine({ path: '/p', signed, userAgent: CHROME }));
    }
    const audit = new RobotsAudit(() => parseRobots(ROBOTS), { signatures: new SignedRequestJudge(SignatureKeys.of(KEY_FILES)) });
    await audit.addLines(lines, 1, 'many.log');
    const signatures = audit.report().signatures;
    expect(signatures?.withoutKeys.map(({ agent, requests }) => `${agent} ${requests}`)).toEqual(Array.from({ length: 20 }, (_, k) => `agent${k}.example ${30 - k}`));
    expect(signatures?.withoutKeysOthers).toBe(10 + 9 + 8 + 7 + 6);
    expect(signatureNotes(signatures as AuditSignatures)[0]).toMatch(/agent19\.example \(11\) and agents not named \(40\): their IP ranges decided/);
  });

  it('a second implementation (web-bot-auth) verifies what the audit counted verified, and refuses the path-changed one', async () => {
    for (const { path, signed, jwk } of verifiedSigned) {
      const request = new Request(`https://shop.example${path}`, { headers: { Signature: signed.signature, 'Signature-Input': signed.signatureInput, 'Signature-Agent': signed.signatureAgent } });
      await expect(webBotAuthVerify(request, await verifierFromJWK(jwk))).resolves.toBeUndefined();
    }
    const changed = requests[5].signed as Signed;
    const request = new Request('https://shop.example/private/g', { headers: { Signature: changed.signature, 'Signature-Input': changed.signatureInput, 'Signature-Agent': changed.signatureAgent } });
    await expect(webBotAuthVerify(request, await verifierFromJWK(crawlerKey.publicJwk))).rejects.toThrow();
  });

  it('the command line: table, JSON, HTML and partial + merge say the same counts', { tags: ['slow'] }, async () => {
    const dir = tempDir();
    const keys = join(dir, 'keys');
    mkdirSync(keys);
    for (const [host, file] of Object.entries(KEY_FILES)) writeFileSync(join(keys, `${host}.json`), JSON.stringify(file));
    writeFileSync(join(dir, 'robots.txt'), ROBOTS);
    const log = join(dir, 'signed.json.log');
    writeFileSync(log, requests.map(nginxLine).join('\n') + '\n');
    const audit = (...args: string[]): ReturnType<typeof robotstxt> => robotstxt(['audit', '--robots', join(dir, 'robots.txt'), '--verify', '--signature-keys', keys, ...args]);

    const json = audit('--format', 'json', log);
    expect([json.status, json.stderr]).toEqual([0, '']);
    const report = JSON.parse(json.stdout) as AuditReport;
    expectTestLog(report, log);
    expect(report.crawlers[1].signatures).toEqual({ verified: 3, invalid: 0, expired: 0, unknownKey: 0, malformed: 0, notChecked: 0, rangesDisagree: 0 });
    expect(report.crawlers[1].rules).toEqual([{ file: null, line: 2, pattern: '/private', requests: 1 }]);
    expect(report.crawlers[0].rules).toEqual([{ file: null, line: 2, pattern: '/private', requests: 4 }]);

    const table = audit(log);
    expect(table.status).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      '12 log lines: 11 crawler requests (6 disallowed, 4 allowed, 0 no rules known), 1 other requests, 0 malformed',
      'verification: 5 verified, 4 impostors, 1 unknown, 1 not checked; impostors are rows of their own',
      expect.stringMatching(/^verification: Googlebot and Google's common crawlers: 1 of 1 request\(s\) not checked/) as unknown as string,
      'signatures: 5 verified, 1 invalid, 1 expired, 1 unknown key, 1 malformed, 1 not checked (a signature that holds decides, one that fails makes an impostor; not checked: the IP ranges decide)',
      'signatures: not checked, no keys given for nobody.example (1): their IP ranges decided (get their keys with robotstxt fetch --signature-keys --store <dir> <log>, or save each as <host>.json in the folder of --signature-keys)',
    ]);
    expect(lines[5]).toBe(`signatures: not verified: ${log}:6 invalid (crawler.example): the signature does not hold for the request as logged (its host, method, path or agent changed, or another key signed it); ${log}:7 expired (crawler.example): the request's time is outside the signature's created..expires (Signature has expired); ${log}:8 unknownKey (crawler.example): crawler.example has no key "${await thumbprint(strayKey.publicJwk)}"; ${log}:9 malformed (crawler.example): its Signature or Signature-Input cannot be read (Malformed Signature-Input); ${log}:10 notChecked (nobody.example): no keys of nobody.example were given`);
    const row = (name: string): string[] => (lines.find((line) => line.startsWith(name)) ?? '').split(/\s{2,}/);
    expect(lines[6].split(/\s{2,}/)).toEqual(['crawler', 'group', 'category', 'requests', 'disallowed', 'share', '2xx/3xx/4xx/5xx', 'robots.txt', 'verified/impostor/unknown/not-checked', 'signatures verified/invalid/expired/unknown-key/malformed/not-checked', 'top rule', 'top disallowed path']);
    expect(row('ExampleBot (impostor)')).toEqual(['ExampleBot (impostor)', 'own group', 'other', '4', '4', '100.0%', '4/0/0/0', '0', '0/4/0/0', '0/1/1/1/1/0', 'line 2 /private (4)', '/private/g (1)']);
    expect(row('ExampleBot  ')).toEqual(['ExampleBot', 'own group', 'other', '3', '1', '33.3%', '1/0/0/0', '0', '3/0/0/0', '3/0/0/0/0/0', 'line 2 /private (1)', '/private/a (1)']);
    expect(row('assistant.example')).toEqual(['assistant.example', '*', 'other', '1', '1', '100.0%', '1/0/0/0', '0', '1/0/0/0', '1/0/0/0/0/0', 'line 5 /admin (1)', '/admin/e (1)']);
    expect(row('ExampleAgent')).toEqual(['ExampleAgent', '*', 'other', '1', '0', '0.0%', '0/0/0/0', '0', '1/0/0/0', '1/0/0/0/0/0']);

    const html = audit('--format', 'html', log);
    expect(html.status).toBe(0);
    expect(html.stdout).toContain('<p class="signatures">Signed requests (Web Bot Auth): 5 verified, 1 invalid, 1 expired, 1 unknown key, 1 malformed, 1 not checked.');
    expect(html.stdout).toContain('<th>signatures: verified / invalid / expired / unknown key / malformed / not checked</th>');
    expect(html.stdout).toContain('<tr class="impostor"><td>ExampleBot (impostor)</td><td>own group</td><td>other</td><td>4</td><td>4</td><td>4 / 0 / 0 / 0</td><td>0</td><td>0 / 4 / 0 / 0</td><td>0 / 1 / 1 / 1 / 1 / 0</td>');

    // the log in two parts, audited apart and merged: the report of the whole
    const first = join(dir, 'part-1.log');
    const second = join(dir, 'part-2.log');
    writeFileSync(first, requests.slice(0, 7).map(nginxLine).join('\n') + '\n');
    writeFileSync(second, requests.slice(7).map(nginxLine).join('\n') + '\n');
    const parts = [first, second].map((part, i) => {
      const result = audit('--format', 'partial', part);
      expect(result.status).toBe(0);
      const file = join(dir, `part-${i + 1}.json`);
      writeFileSync(file, result.stdout);
      return file;
    });
    const merged = robotstxt(['audit', '--merge', '--format', 'json', ...parts]);
    expect(merged.status).toBe(0);
    const mergedReport = JSON.parse(merged.stdout) as AuditReport;
    const whole = JSON.parse(audit('--format', 'json', first, second).stdout) as AuditReport;
    expect(mergedReport).toEqual(whole);
    expect(mergedReport.signatures?.failures.map((failure) => `${failure.log}:${failure.line}`)).toEqual([`${first}:6`, `${first}:7`, `${second}:1`, `${second}:2`, `${second}:3`]);
    // a part without signature keys does not merge with one with them
    const plain = robotstxt(['audit', '--robots', join(dir, 'robots.txt'), '--verify', '--signature-keys', keys, '--format', 'partial', first]);
    const unsigned = robotstxt(['audit', '--robots', join(dir, 'robots.txt'), '--format', 'partial', second]);
    writeFileSync(join(dir, 'a.json'), plain.stdout);
    writeFileSync(join(dir, 'b.json'), unsigned.stdout);
    const refused = robotstxt(['audit', '--merge', join(dir, 'a.json'), join(dir, 'b.json')]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('partial audits made with different options cannot be merged: one with --verify, with --signature-keys,');
  });

  it('beside the IP ranges: the signature decides, the ranges that disagree are counted, an address in another vendor\'s ranges is a row of its own', async () => {
    const ranges = tempDir();
    const rangeFile = (prefixes: string[]): string => JSON.stringify({ creationTime: new Date(NOW).toISOString(), prefixes: prefixes.map((prefix) => ({ ipv4Prefix: prefix })) });
    writeFileSync(join(ranges, 'gptbot.json'), rangeFile(['20.171.206.0/24']));
    writeFileSync(join(ranges, 'common-crawlers.json'), rangeFile(['66.249.64.0/27']));
    const keyid = await thumbprint(crawlerKey.publicJwk);
    // a card whose agent says it obeys GPTBot's group (GPTBot's family: verified by gptbot.json)
    const keys = SignatureKeys.of({ 'openai.example': { 'rfc9309-product-token': 'GPTBot', keys: [crawlerKey.publicJwk] }, ...KEY_FILES });
    const gpt = (path: string) => sign(crawlerKey.privateKey, keyid, 'openai.example', 'shop.example', path);
    const lines = [
      // in gptbot.json: both say verified
      { path: '/private/1', signed: await gpt('/private/1'), userAgent: CHROME, client: '20.171.206.5' },
      // outside every file: the signature decides verified, the ranges (complete for GPTBot) said impostor
      { path: '/private/2', signed: await gpt('/private/2'), userAgent: CHROME, client: '198.51.100.9' },
      // in Google's file: verified, said as a row of its own (from common-crawlers.json)
      { path: '/private/3', signed: await gpt('/private/3'), userAgent: CHROME, client: '66.249.64.5' },
      // a changed path from inside gptbot.json: the signature decides impostor, the ranges said verified
      { path: '/private/4', signed: await gpt('/private/5'), userAgent: CHROME, client: '20.171.206.5' },
      // unsigned, claimed by its User-Agent from outside the ranges: the ranges decide impostor
      { path: '/private/6', signed: null, userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', client: '198.51.100.9' },
      // an agent of no vendor, verified from Google's addresses: a row of its own
      { path: '/public/7', signed: await sign(crawlerKey.privateKey, keyid, 'crawler.example', 'shop.example', '/public/7'), userAgent: CHROME, client: '66.249.64.6' },
    ].map(nginxLine);
    const audit = new RobotsAudit(() => parseRobots('User-agent: GPTBot\nDisallow: /private\n'), { signatures: new SignedRequestJudge(keys), verifier: new CrawlerVerifier({ rangeFiles: [ranges] }) });
    await audit.addLines(lines, 1, 'mixed.log');
    const report = audit.report();
    const said = [...report.crawlers, ...report.userTriggered].map((c) => [c.agent, c.impostor, c.from, c.requests, Object.values(c.verification ?? {}).join('/'), c.signatures === null ? null : `${c.signatures.verified}/${c.signatures.invalid}/${c.signatures.notChecked}/${c.signatures.rangesDisagree}`]);
    expect(said).toEqual([
      ['GPTBot', false, null, 2, '2/0/0/0', '2/0/0/1'],
      ['GPTBot', true, null, 2, '0/2/0/0', '0/1/0/1'],
      ['GPTBot', false, 'common-crawlers.json', 1, '1/0/0/0', '1/0/0/1'],
      ['ExampleBot', false, 'common-crawlers.json', 1, '1/0/0/0', '1/0/0/0'],
    ]);
    expect(report.signatures?.counts).toEqual({ verified: 4, invalid: 1, expired: 0, unknownKey: 0, malformed: 0, notChecked: 0, rangesDisagree: 3 });
    expect(report.verification).toEqual({ verified: 4, impostor: 2, unknown: 0, 'not-checked': 0 });
  });

  it('bad input: key files that are no keys, a card of another key type, malformed headers and 10,000 requests of one unknown key are said, never verified', { tags: ['slow'] }, async () => {
    const dir = tempDir();
    const keys = join(dir, 'keys');
    mkdirSync(keys);
    writeFileSync(join(keys, 'crawler.example.json'), JSON.stringify(KEY_FILES['crawler.example']));
    writeFileSync(join(keys, 'broken.example.json'), '{"keys": [');
    writeFileSync(join(keys, 'rsa.example.json'), JSON.stringify({ 'rfc9309-product-token': 'RsaBot', keys: [{ kty: 'RSA', n: 'AQAB', e: 'AQAB' }] }));
    writeFileSync(join(dir, 'robots.txt'), ROBOTS);
    const strayKeyid = await thumbprint(strayKey.publicJwk);
    const forged = await sign(strayKey.privateKey, strayKeyid, 'crawler.example', 'shop.example', '/private/x');
    const rsaSigned = await sign(strayKey.privateKey, strayKeyid, 'rsa.example', 'shop.example', '/private/y');
    const lines = [
      // the same forged signature, logged 10,000 times a second apart (each judged at its own time)
      ...Array.from({ length: 10_000 }, (_, i) => nginxLine({ path: '/private/x', signed: forged, userAgent: CHROME, timeMs: NOW - 30_000 + i })),
      nginxLine({ path: '/private/y', signed: rsaSigned, userAgent: CHROME }),
      nginxLine({ path: '/private/z', signed: { ...forged, signature: 'sig1=:not base64!:' }, userAgent: CHROME }),
      nginxLine({ path: '/private/z', signed: { ...forged, signatureAgent: 'crawler.example' }, userAgent: CHROME }),
      '{"this is": "no request"}',
    ];
    const log = join(dir, 'forged.log');
    writeFileSync(log, lines.join('\n') + '\n');
    const result = robotstxt(['audit', '--robots', join(dir, 'robots.txt'), '--verify', '--signature-keys', keys, '--format', 'json', log]);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe([
      `robotstxt audit: signature keys: ${join(keys, 'broken.example.json')}: not JSON: left out`,
      `robotstxt audit: signature keys: ${join(keys, 'rsa.example.json')}: key 1: key type "RSA" is not an Ed25519 key (OKP), the one Web Bot Auth type read here: left out`,
      `robotstxt: 1 malformed log line(s) skipped (${log}:10004)`,
      '',
    ].join('\n'));
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.signatures?.counts).toEqual({ verified: 0, invalid: 0, expired: 0, unknownKey: 10_001, malformed: 2, notChecked: 0, rangesDisagree: 0 });
    expect(report.signatures?.keyProblems.length).toBe(2);
    expect(report.signatures?.failures.length).toBe(100);
    expect(report.signatures?.failures[0]).toEqual({ log, line: 1, verdict: 'unknownKey', agent: 'crawler.example', reason: `crawler.example has no key "${strayKeyid}"` });
    expect([report.malformed.count, report.malformed.lines]).toEqual([1, [{ log, line: 10_004 }]]);
    const missing = robotstxt(['audit', '--robots', join(dir, 'robots.txt'), '--verify', '--signature-keys', join(dir, 'nope'), log]);
    expect([missing.stdout, missing.stderr, missing.status]).toEqual(['', `robotstxt: --signature-keys '${join(dir, 'nope')}' is not a readable directory\n`, 2]);
    expect([...report.crawlers, ...report.userTriggered].map((c) => [c.agent, c.impostor, c.requests, c.verification?.verified])).toEqual([
      ['ExampleBot', true, 10_001, 0],
      // a card whose only key is of another type: its agent has no key of that keyid
      ['RsaBot', true, 1, 0],
      // no agent named: its row says so
      ['unnamed signer', true, 1, 0],
    ]);
  });
});

describe('robotstxt fetch --signature-keys (local servers): the agents a log names, their directories kept with their times', () => {
  it('fetches each agent once, keeps fresh ones, keeps versions, refuses an internal agent read from a log under the default targets; audit --store uses them', { tags: ['slow'] }, async () => {
    let directory = JSON.stringify({ keys: [crawlerKey.publicJwk] });
    const origins = await LocalOrigins.start([
      (request, response) => {
        if (request.url === '/.well-known/http-message-signatures-directory') response.writeHead(200, { 'content-type': 'application/http-message-signatures-directory+json' }).end(directory);
        else response.writeHead(404).end();
      },
      (_request, response) => response.writeHead(404).end('no keys here'),
      // never answers
      () => undefined,
      // 2 MiB of keys, and then a page that is no key directory
      (request, response) => response.writeHead(200).end(request.headers['x-probe'] === undefined ? JSON.stringify({ keys: Array.from({ length: 30_000 }, () => crawlerKey.publicJwk) }) : ''),
      (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>keys elsewhere</html>'),
    ]);
    try {
      const dir = tempDir();
      const store = join(dir, 'store');
      const [first, second] = [origins.key(0), origins.key(1)];
      const keyid = await thumbprint(crawlerKey.publicJwk);
      // agents at http:// origins (the local servers): the signature covers the Signature-Agent as logged
      const signedHttp = async (index: number, path: string): Promise<Logged> => {
        const agent = `"http://${origins.key(index)}"`;
        const fields = await createSignature(
          { kind: 'request', method: 'GET', targetUri: `https://shop.example${path}`, fields: [{ name: 'signature-agent', value: agent }] },
          { label: 'sig1', components: ['@authority', '@method', '@path', 'signature-agent'], parameters: { created: Math.floor(NOW / 1000) - 60, expires: Math.floor(NOW / 1000) + 3600, keyid, tag: 'web-bot-auth', alg: 'ed25519' }, signer: { algorithm: 'ed25519', sign: (data) => new Uint8Array(cryptoSign(null, data, crawlerKey.privateKey)) } },
        );
        return { path, userAgent: CHROME, signed: { signature: fields.signature, signatureInput: fields.signatureInput, signatureAgent: agent } };
      };
      const log = join(dir, 'signed.json.log');
      writeFileSync(log, [await signedHttp(0, '/a'), await signedHttp(0, '/b'), await signedHttp(1, '/c'), { path: '/d', userAgent: CHROME, signed: { ...(await signedHttp(0, '/d')).signed as Signed, signatureAgent: 'not a url' } }].map(nginxLine).join('\n') + '\n');
      const fetch = (...args: string[]) => robotstxtAsync(['fetch', '--signature-keys', '--store', store, ...args]);

      // read from a log, internal addresses are refused unless --targets any
      const refused = await fetch('--log', log);
      expect(refused.stdout.split('\n')[0]).toMatch(new RegExp(`^failed\t${first}\tfetched\t- 0 keys \\(.*127\\.0\\.0\\.1.*\\)$`));
      expect(refused.status).toBe(1);
      expect(origins.requests).toEqual([]);

      const fetched = await fetch('--log', log, '--targets', 'any');
      expect(fetched.stdout).toBe(`ok\t${first}\tfetched\t200 1 keys\nfailed\t${second}\tfetched\t404 0 keys (HTTP 404)\n`);
      expect(fetched.stderr).toBe(`robotstxt fetch: ${log}:4: its Signature-Agent is no https:// URL in an RFC 9651 string: no agent to fetch\nrobotstxt fetch: 2 signing agent(s): 1 fetched, 0 fresh in the store, 1 failed\n`);
      expect(fetched.status).toBe(1);
      expect(JSON.parse(readFileSync(join(store, 'signature-keys', `${first}.json`), 'utf8'))).toEqual({ keys: [crawlerKey.publicJwk] });
      expect(JSON.parse(readFileSync(join(store, 'signature-keys', `${first}.meta.json`), 'utf8'))).toMatchObject({ url: `http://${first}/.well-known/http-message-signatures-directory`, status: 200 });

      // named as an argument: fetched as named; fresh in the store: not fetched again
      const requestsBefore = origins.requests.length;
      const again = await fetch(`http://${first}`);
      expect([again.stdout, again.status]).toEqual([`ok\t${first}\tfresh\t200 1 keys\n`, 0]);
      expect(origins.requests.length).toBe(requestsBefore);

      // a new directory: a new version, both kept with their times
      directory = JSON.stringify({ keys: [crawlerKey.publicJwk, fetcherKey.publicJwk] });
      const rotated = await fetch('--force', `http://${first}`);
      expect(rotated.stdout).toBe(`ok\t${first}\tfetched\t200 2 keys (a new version: the one before is kept in history)\n`);
      expect(readdirSync(join(store, 'signature-keys', 'history', first)).length).toBe(2);

      // audit --store --verify reads <store>/signature-keys: the agent's signed requests verified
      writeFileSync(join(dir, 'robots.txt'), ROBOTS);
      const audit = robotstxt(['audit', '--store', store, '--host', 'shop.example', '--missing', 'allow', '--verify', '--format', 'json', log]);
      const report = JSON.parse(audit.stdout) as AuditReport;
      expect(report.signatures?.counts).toMatchObject({ verified: 2, notChecked: 1, malformed: 1 });
      // the unhappy servers: one that never answers (the deadline), one too large, one that serves a page
      // (the silent one alone under a short deadline: the others keep the default, however loaded the machine)
      const silent = await fetch('--timeout-ms', '500', `http://${origins.key(2)}`);
      expect([silent.stdout.replace(/\t\S+\t/, '\t<agent>\t'), silent.status]).toEqual([expect.stringMatching(/^failed\t<agent>\tfetched\t- 0 keys \(.*(timed out|timeout).*\)\n$/), 1]);
      const unhappy = await fetch(`http://${origins.key(3)}`, `http://${origins.key(4)}`);
      expect(unhappy.stdout.split('\n').filter((text) => text !== '').map((text) => text.replace(/\t\S+\t/, '\t<agent>\t'))).toEqual([
        'failed\t<agent>\tfetched\t200 0 keys (larger than 1048576 bytes)',
        'failed\t<agent>\tfetched\t200 0 keys (no key directory: not JSON)',
      ]);
      expect(unhappy.status).toBe(1);
      const dots = robotstxt(['fetch', '--signature-keys', '--store', store, 'https://../']);
      expect([dots.stderr, dots.status]).toEqual([`robotstxt: 'https://../' names no signing agent (an https:// origin or a host name, as a Signature-Agent names it)\n`, 2]);
      const bad = robotstxt(['fetch', '--signature-keys', '--store', store, 'ftp://x']);
      expect([bad.stderr, bad.status]).toEqual([`robotstxt: 'ftp://x' names no signing agent (an https:// origin or a host name, as a Signature-Agent names it)\n`, 2]);
    } finally {
      await origins.close();
    }
  });
});
