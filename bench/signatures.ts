// npm run bench:signatures: `robotstxt audit --verify --signature-keys` against the same audit without signature
// keys (the vendors' ranges of examples/crawler-ranges both times), whole process, interleaved runs, medians, on
// two JSON logs in nginx's escape=json shape: 200,000 lines of which 10,000 are signed (each signature its own,
// as agents send them), and 20,000 lines all signed (what one signed request costs: an Ed25519 verification and
// the signature base). Keys are generated here, the requests signed here. Writes its section of bench/RESULTS.md.
import { cpus, totalmem, tmpdir } from 'node:os';
import { generateKeyPairSync, sign, createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSignature } from 'http-message-sig';
import { jwkThumbprintPreCompute } from 'jsonwebkey-thumbprint';
import { medianOf, runCli } from './cli-runs.js';
import { writeSectionResults } from './results-file.js';

const RUNS = 7;
const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const BOTS = ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)'];
const START = Date.parse('2026-11-21T00:00:00Z');
const ranges = fileURLToPath(new URL('../../examples/crawler-ranges', import.meta.url));

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const x = publicKey.export({ format: 'jwk' }).x as string;
const keyid = createHash('sha256').update(jwkThumbprintPreCompute({ kty: 'OKP', crv: 'Ed25519', x })).digest('base64url');

/** Line i of a log: signed by the example agent when `signed`, else a crawler or a browser by turns. */
async function line(i: number, signed: boolean): Promise<string> {
  const time = START + i * 1000;
  const path = `/${i % 7 === 0 ? 'private' : 'products'}/${i}`;
  const record: Record<string, unknown> = { time_iso8601: new Date(time).toISOString(), remote_addr: `203.0.113.${i % 250}`, request_method: 'GET', request_uri: path, host: 'shop.example', status: 200, http_user_agent: signed ? CHROME : i % 3 === 0 ? CHROME : BOTS[i % BOTS.length] };
  if (signed) {
    const signatureAgent = '"https://crawler.example"';
    const created = Math.floor(time / 1000) - 1;
    const fields = await createSignature(
      { kind: 'request', method: 'GET', targetUri: `https://shop.example${path}`, fields: [{ name: 'signature-agent', value: signatureAgent }] },
      { label: 'sig1', components: ['@authority', '@method', '@path', 'signature-agent'], parameters: { created, expires: created + 3600, keyid, tag: 'web-bot-auth', alg: 'ed25519' }, signer: { algorithm: 'ed25519', sign: (data) => new Uint8Array(sign(null, data, privateKey)) } },
    );
    Object.assign(record, { http_signature: fields.signature, http_signature_input: fields.signatureInput, http_signature_agent: signatureAgent });
  }
  return JSON.stringify(record);
}

async function log(path: string, lines: number, signedEvery: number): Promise<void> {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(await line(i, i % signedEvery === 0));
  writeFileSync(path, out.join('\n') + '\n');
}

const work = mkdtempSync(join(tmpdir(), 'robotstxt-bench-signatures-'));
try {
  const keys = join(work, 'keys');
  mkdirSync(keys);
  writeFileSync(join(keys, 'crawler.example.json'), JSON.stringify({ 'rfc9309-product-token': 'ExampleBot', keys: [{ kty: 'OKP', crv: 'Ed25519', x }] }));
  const robots = join(work, 'robots.txt');
  writeFileSync(robots, 'User-agent: ExampleBot\nDisallow: /private\n\nUser-agent: *\nDisallow: /admin\n');
  const logs = [
    { name: '200,000 lines, 10,000 signed', file: join(work, 'mixed.jsonl'), lines: 200_000, signed: 10_000, every: 20 },
    { name: '20,000 lines, all signed', file: join(work, 'signed.jsonl'), lines: 20_000, signed: 20_000, every: 1 },
  ];
  for (const entry of logs) await log(entry.file, entry.lines, entry.every);
  const base = ['audit', '--robots', robots, '--verify', '--crawler-ranges', ranges, '--ranges-max-age', 'any', '--format', 'json'];
  const runs = new Map<string, number[]>();
  for (let run = 0; run < RUNS + 1; run++) {
    for (const entry of logs) {
      for (const [variant, extra] of [['without', []], ['with', ['--signature-keys', keys]]] as const) {
        const { seconds } = runCli([...base, ...extra, entry.file], entry.file);
        if (run > 0) runs.set(`${entry.name} ${variant}`, [...(runs.get(`${entry.name} ${variant}`) ?? []), seconds]); // the first round warms the file cache
      }
    }
  }
  const rows = logs.map((entry) => {
    const without = medianOf(runs.get(`${entry.name} without`) as number[]);
    const withKeys = medianOf(runs.get(`${entry.name} with`) as number[]);
    return `| ${entry.name} | ${without.toFixed(2)} s (${Math.round(entry.lines / without).toLocaleString('en')} lines/s) | ${withKeys.toFixed(2)} s (${Math.round(entry.lines / withKeys).toLocaleString('en')} lines/s) | ${(withKeys / without).toFixed(2)}x | ${Math.round(((withKeys - without) * 1e6) / entry.signed)} us |`;
  });
  const lines = [
    '## Signed requests in audits (`npm run bench:signatures`, bench/signatures.ts)',
    '',
    `Generated on ${new Date().toISOString().slice(0, 10)}; ${cpus().length} x ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.version}.`,
    '`robotstxt audit --robots <file> --verify --crawler-ranges examples/crawler-ranges --format json <log>` with and without',
    `\`--signature-keys <dir>\`, whole process (start-up included), median of ${RUNS} interleaved runs; nginx escape=json logs, every`,
    'signature its own (each an Ed25519 verification at the request\'s time). Without keys, signed requests are read as their User-Agents.',
    '',
    '| log | without --signature-keys | with | with / without (same run) | added per signed request |',
    '|---|---|---|---|---|',
    ...rows,
  ];
  console.log(writeSectionResults('signatures', lines));
} finally {
  rmSync(work, { recursive: true, force: true });
}
