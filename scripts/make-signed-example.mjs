// Writes examples/signed/: the keys of two signing agents (keys/<host>.json: a Signature Agent Card naming the
// robots.txt group its crawler obeys, and a card of a user-triggered fetcher) and a log of their signed requests
// in nginx's escape=json shape (access.jsonl), for the audit --signature-keys example of docs/logs-and-audit.md.
// The key pairs are made afresh each run and the private keys are not kept: run it again and every file changes
// together. The requests are signed for their logged times (2026-11-21), which is when an audit verifies them.
// Usage: node scripts/make-signed-example.mjs
import { generateKeyPairSync, sign, createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createSignature } from 'http-message-sig';
import { jwkThumbprintPreCompute } from 'jsonwebkey-thumbprint';

const folder = fileURLToPath(new URL('../examples/signed/', import.meta.url));
const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
rmSync(folder, { recursive: true, force: true });
mkdirSync(`${folder}keys`, { recursive: true });

/** An agent's key pair, its public JWK and keyid (RFC 7638 thumbprint). */
function agentKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const x = /** @type {string} */ (publicKey.export({ format: 'jwk' }).x);
  const keyid = createHash('sha256').update(jwkThumbprintPreCompute({ kty: 'OKP', crv: 'Ed25519', x })).digest('base64url');
  return { privateKey, jwk: { kty: 'OKP', crv: 'Ed25519', x }, keyid };
}
const crawler = agentKey();
const fetcher = agentKey();
const forger = agentKey();
writeFileSync(`${folder}keys/crawler.example.json`, JSON.stringify({ client_name: 'Example crawler', 'rfc9309-product-token': 'ExampleBot', keys: { keys: [crawler.jwk] } }, null, 2) + '\n');
writeFileSync(`${folder}keys/agent.example.json`, JSON.stringify({ client_name: 'Example agent', 'rfc9309-product-token': 'ExampleAgent', trigger: 'fetcher', keys: { keys: [fetcher.jwk] } }, null, 2) + '\n');
writeFileSync(`${folder}robots.txt`, 'User-agent: ExampleBot\nDisallow: /private\n\nUser-agent: *\nDisallow: /admin\n');

/**
 * A logged request: signed by `key` as `agent` for `signedPath` at `time`, logged with `path`.
 * @param {string} time
 * @param {string} path
 * @param {{ key?: ReturnType<typeof agentKey> | null, agent?: string, signedPath?: string, userAgent?: string }} [options]
 */
async function line(time, path, { key = null, agent = '', signedPath = path, userAgent = CHROME } = {}) {
  const record = { time_iso8601: time, remote_addr: '203.0.113.7', request_method: 'GET', request_uri: path, host: 'shop.example', status: 200, http_user_agent: userAgent, http_signature: '', http_signature_input: '', http_signature_agent: '' };
  if (key !== null) {
    const signatureAgent = `"https://${agent}"`;
    const created = Math.floor(Date.parse(time) / 1000) - 5;
    const fields = await createSignature(
      { kind: 'request', method: 'GET', targetUri: `https://shop.example${signedPath}`, fields: [{ name: 'signature-agent', value: signatureAgent }] },
      { label: 'sig1', components: ['@authority', '@method', '@path', 'signature-agent'], parameters: { created, expires: created + 3600, keyid: key.keyid, tag: 'web-bot-auth', alg: 'ed25519' }, signer: { algorithm: 'ed25519', sign: (data) => new Uint8Array(sign(null, data, key.privateKey)) } },
    );
    Object.assign(record, { http_signature: fields.signature, http_signature_input: fields.signatureInput, http_signature_agent: signatureAgent });
  }
  return JSON.stringify(record);
}

const lines = [
  await line('2026-11-21T10:00:00Z', '/private/report', { key: crawler, agent: 'crawler.example' }),
  await line('2026-11-21T10:01:00Z', '/products/1', { key: crawler, agent: 'crawler.example' }),
  await line('2026-11-21T10:02:00Z', '/admin/settings', { key: fetcher, agent: 'agent.example' }),
  // signed for /products/2, logged as /private/orders: the signature does not hold
  await line('2026-11-21T10:03:00Z', '/private/orders', { key: crawler, agent: 'crawler.example', signedPath: '/products/2' }),
  // a key crawler.example never published
  await line('2026-11-21T10:04:00Z', '/private/users', { key: forger, agent: 'crawler.example' }),
  await line('2026-11-21T10:05:00Z', '/products/3'),
];
writeFileSync(`${folder}access.jsonl`, lines.join('\n') + '\n');
console.log(`wrote ${folder}: keys/crawler.example.json, keys/agent.example.json, robots.txt, access.jsonl (${lines.length} lines)`);
