// Web Bot Auth signatures verified offline (src/node/verify/signatures.ts): requests signed here with keys
// generated here, judged at their logged time: verified, invalid (a changed path, host or agent), expired,
// unknownKey, malformed, unsigned; key folders whose files are not all keys. The signatures that verify are
// checked again with a second implementation (Cloudflare's web-bot-auth, over WebCrypto), so that the library
// cannot agree with itself by mistake.
import { describe, it, expect } from 'vitest';
import { generateKeyPairSync, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSignature } from 'http-message-sig';
import { verify as webBotAuthVerify } from 'web-bot-auth';
import { verifierFromJWK } from 'web-bot-auth/crypto';
import { SignatureKeys, verifySignedRequest, signedRequestOf, parseLogLine, LogLineReader, type SignedRequestFields } from '../src/node/index.js';
import { tempDir } from './cli-helpers.js';

const pair = (): { privateKey: KeyObject; publicJwk: JsonWebKey } => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicJwk: publicKey.export({ format: 'jwk' }) as JsonWebKey };
};
const agentKey = pair();
const otherKey = pair();
const AGENT = '"https://chatgpt.com"';
const T0 = Date.parse('2026-11-21T10:00:00Z');

/** The keyid of a public key: its RFC 7638 thumbprint, as the second implementation computes it. */
async function thumbprint(jwk: JsonWebKey): Promise<string> {
  const { jwkToKeyID } = await import('web-bot-auth');
  return jwkToKeyID(jwk, (bytes) => crypto.subtle.digest('SHA-256', bytes), (hash) => Buffer.from(hash).toString('base64url'));
}

/** A request signed as a Web Bot Auth agent signs it: @authority @method @path signature-agent, created..expires (ms), tag web-bot-auth. */
async function signed(options: { key?: KeyObject; keyid: string; created?: number; expires?: number; tag?: string; agent?: string; authority?: string; path?: string }): Promise<SignedRequestFields> {
  const created = options.created ?? T0;
  const agent = options.agent ?? AGENT;
  const authority = options.authority ?? 'shop.example';
  const path = options.path ?? '/private/a?x=1';
  const fields = await createSignature(
    { kind: 'request', method: 'GET', targetUri: `https://${authority}${path}`, fields: [{ name: 'signature-agent', value: agent }] },
    {
      label: 'sig1', components: ['@authority', '@method', '@path', 'signature-agent'],
      parameters: { created: Math.floor(created / 1000), expires: Math.floor((options.expires ?? created + 3_600_000) / 1000), keyid: options.keyid, tag: options.tag ?? 'web-bot-auth', alg: 'ed25519' },
      signer: { algorithm: 'ed25519', sign: (data) => new Uint8Array(cryptoSign(null, data, options.key ?? agentKey.privateKey)) },
    },
  );
  return { signature: fields.signature, signatureInput: fields.signatureInput, signatureAgent: agent, authority, method: 'GET', path };
}

describe('verifySignedRequest: one verdict per signed request, at its logged time', async () => {
  const keyid = await thumbprint(agentKey.publicJwk);
  const otherKeyid = await thumbprint(otherKey.publicJwk);
  const keys = SignatureKeys.of({
    'chatgpt.com': { keys: [agentKey.publicJwk] },
    // a card: its keys, the robots.txt group it obeys, its trigger (the same key, to tell a changed agent from an unknown key)
    'agent.example': { client_name: 'Example Agent', 'rfc9309-product-token': 'ExampleAgent', trigger: 'fetcher', keys: { keys: [agentKey.publicJwk] } },
  });

  it('verified: the signature holds for a key of the agent it names, within created..expires', async () => {
    expect(await verifySignedRequest(await signed({ keyid }), keys, T0 + 60_000)).toEqual({ verdict: 'verified', agent: 'chatgpt.com', keyid, productToken: null, trigger: null, reason: null });
    expect(await verifySignedRequest(await signed({ keyid, agent: '"https://agent.example"' }), keys, T0)).toMatchObject({ verdict: 'verified', agent: 'agent.example', productToken: 'ExampleAgent', trigger: 'fetcher' });
    // the dictionary form of Signature-Agent names its agent too
    expect(await verifySignedRequest(await signed({ keyid, agent: 'sig1="https://chatgpt.com"' }), keys, T0)).toMatchObject({ verdict: 'verified', agent: 'chatgpt.com' });
  });

  it('invalid: a changed path, host or agent, or a signature that is no Web Bot Auth one', async () => {
    const good = await signed({ keyid });
    const invalid = { verdict: 'invalid', reason: 'the signature does not hold for the request as logged (its host, method, path or agent changed, or another key signed it)' };
    expect(await verifySignedRequest({ ...good, path: '/private/b?x=1' }, keys, T0)).toMatchObject(invalid);
    expect(await verifySignedRequest({ ...good, authority: 'other.example' }, keys, T0)).toMatchObject(invalid);
    expect(await verifySignedRequest({ ...good, method: 'POST' }, keys, T0)).toMatchObject(invalid);
    expect(await verifySignedRequest({ ...good, signatureAgent: '"https://agent.example"' }, keys, T0)).toMatchObject({ ...invalid, agent: 'agent.example' });
    expect(await verifySignedRequest(await signed({ keyid, tag: 'other' }), keys, T0)).toMatchObject({ verdict: 'invalid', reason: 'its tag is "other", not "web-bot-auth"' });
  });

  it('expired: the request\'s time outside the signature\'s window, or its key\'s', async () => {
    const good = await signed({ keyid });
    expect(await verifySignedRequest(good, keys, T0 + 3_600_000 + 1_000)).toMatchObject({ verdict: 'expired', reason: 'the request\'s time is outside the signature\'s created..expires (Signature has expired)' });
    expect(await verifySignedRequest(good, keys, T0 - 1_000)).toMatchObject({ verdict: 'expired', reason: 'the request\'s time is outside the signature\'s created..expires (Signature was created in the future)' });
    const retired = SignatureKeys.of({ 'chatgpt.com': { keys: [{ ...agentKey.publicJwk, exp: T0 / 1000 - 1 }] } });
    expect(await verifySignedRequest(good, retired, T0)).toMatchObject({ verdict: 'expired', reason: `the key "${keyid}" of chatgpt.com was not valid at the request's time` });
  });

  it('unknownKey: the agent has no key of that keyid; notChecked: no keys were given for it', async () => {
    expect(await verifySignedRequest(await signed({ keyid: otherKeyid, key: otherKey.privateKey }), keys, T0)).toEqual({ verdict: 'unknownKey', agent: 'chatgpt.com', keyid: otherKeyid, productToken: null, trigger: null, reason: `chatgpt.com has no key "${otherKeyid}"` });
    // an impostor of a card's agent still names the agent it claims (its product token and trigger)
    expect(await verifySignedRequest(await signed({ keyid: otherKeyid, key: otherKey.privateKey, agent: '"https://agent.example"' }), keys, T0)).toMatchObject({ verdict: 'unknownKey', productToken: 'ExampleAgent', trigger: 'fetcher' });
    expect(await verifySignedRequest(await signed({ keyid, agent: '"https://nobody.example"' }), keys, T0)).toEqual({ verdict: 'notChecked', agent: 'nobody.example', keyid, productToken: null, trigger: null, reason: 'no keys of nobody.example were given' });
  });

  it('unsigned and malformed: said, never verified, never a throw', async () => {
    const good = await signed({ keyid });
    expect(await verifySignedRequest({ ...good, signature: null, signatureInput: null }, keys, T0)).toMatchObject({ verdict: 'unsigned' });
    expect(await verifySignedRequest({ ...good, signatureAgent: null }, keys, T0)).toMatchObject({ verdict: 'malformed', reason: 'no Signature-Agent: the signing agent is not named' });
    expect(await verifySignedRequest({ ...good, signatureAgent: 'chatgpt.com' }, keys, T0)).toMatchObject({ verdict: 'malformed', reason: 'its Signature-Agent is no https:// URL in an RFC 9651 string' });
    expect(await verifySignedRequest({ ...good, signatureAgent: '"https://../"' }, keys, T0)).toMatchObject({ verdict: 'malformed', reason: 'its Signature-Agent is no https:// URL in an RFC 9651 string' });
    const said = async (signatureInput: string): Promise<[string, string | null]> => {
      const { verdict, reason } = await verifySignedRequest({ ...good, signatureInput }, keys, T0);
      return [verdict, reason];
    };
    expect(await said('sig1=("@authority";created=x')).toEqual(['malformed', 'its Signature or Signature-Input cannot be read (Malformed Signature-Input)']);
    expect(await said('nonsense')).toEqual(['malformed', 'its Signature or Signature-Input cannot be read (Signature-Input members must be inner lists)']);
    expect(await said('\u0000')).toEqual(['malformed', 'its Signature or Signature-Input cannot be read (Field signature-input is not ASCII field content)']);
    expect(await said('sig1=("@authority" "signature-agent");created=1')).toEqual(['invalid', 'it misses what Web Bot Auth requires (Required parameter expires is absent)']);
    expect(await said('sig1=("@authority");created=1;expires=2000000000;keyid="k";tag="web-bot-auth"')).toEqual(['invalid', 'it misses what Web Bot Auth requires (Required component "signature-agent" is absent)']);
    expect((await verifySignedRequest({ ...good, signature: 'sig1=:not base64!:' }, keys, T0)).verdict).toBe('malformed');
    // a header of megabytes is not read: said at once
    expect(await verifySignedRequest({ ...good, signatureInput: `sig1=(${'"@authority" '.repeat(400_000)})` }, keys, T0)).toMatchObject({ verdict: 'malformed', reason: 'its Signature-Input is longer than 16384 characters (a Web Bot Auth one is a few hundred): not read' });
    expect((await verifySignedRequest({ ...good, signature: `sig1=:${'A'.repeat(20_000)}:` }, keys, T0)).reason).toBe('its Signature is longer than 16384 characters (a Web Bot Auth one is a few hundred): not read');
  });

  it('10,000 requests signed by a key nobody published: every one unknownKey', { tags: ['slow'] }, async () => {
    const forged = await signed({ keyid: otherKeyid, key: otherKey.privateKey });
    const verdicts = new Map<string, number>();
    for (let i = 0; i < 10_000; i++) {
      const { verdict } = await verifySignedRequest(forged, keys, T0 + i);
      verdicts.set(verdict, (verdicts.get(verdict) ?? 0) + 1);
    }
    expect([...verdicts]).toEqual([['unknownKey', 10_000]]);
  });

  it('a second implementation (web-bot-auth over WebCrypto) agrees: what verifies here verifies there, a changed path fails there too', async () => {
    const now = Date.now();
    const fresh = await signed({ keyid, created: now - 60_000, expires: now + 3_600_000 });
    const asRequest = (fields: SignedRequestFields): Request => new Request(`https://${fields.authority}${fields.path}`, { method: fields.method, headers: { Signature: fields.signature as string, 'Signature-Input': fields.signatureInput as string, 'Signature-Agent': fields.signatureAgent as string } });
    expect((await verifySignedRequest(fresh, keys, now)).verdict).toBe('verified');
    await expect(webBotAuthVerify(asRequest(fresh), await verifierFromJWK(agentKey.publicJwk))).resolves.toBeUndefined();
    const changed = { ...fresh, path: '/other' };
    expect((await verifySignedRequest(changed, keys, now)).verdict).toBe('invalid');
    await expect(webBotAuthVerify(asRequest(changed), await verifierFromJWK(agentKey.publicJwk))).rejects.toThrow();
  });
});

describe('signed requests read from JSON log lines', async () => {
  const keyid = await thumbprint(agentKey.publicJwk);
  const keys = SignatureKeys.of({ 'chatgpt.com': { keys: [agentKey.publicJwk] } });
  const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
  /** A line as nginx writes it with log_format escape=json and the three $http_signature* variables. */
  const nginxLine = (fields: SignedRequestFields | null, path: string, host = 'shop.example:8443'): string => JSON.stringify({
    time_iso8601: '2026-11-21T10:05:00+00:00', remote_addr: '203.0.113.7', request_method: 'GET', request_uri: path, host, status: 200, http_user_agent: CHROME,
    http_signature: fields?.signature ?? '', http_signature_input: fields?.signatureInput ?? '', http_signature_agent: fields?.signatureAgent ?? '',
  });

  it('nginx escape=json keys by default: the host with its port is the signed authority; a changed path is invalid; an unsigned line has none', async () => {
    const fields = await signed({ keyid, authority: 'shop.example:8443', path: '/private/a?x=1' });
    const request = parseLogLine(nginxLine(fields, '/private/a?x=1'));
    expect(request?.signed).toEqual({ signature: fields.signature, signatureInput: fields.signatureInput, signatureAgent: AGENT, authority: 'shop.example:8443' });
    expect(request?.host).toBe('shop.example');
    expect(await verifySignedRequest(signedRequestOf(request!)!, keys, request!.timeMs!)).toMatchObject({ verdict: 'verified', agent: 'chatgpt.com' });
    const moved = parseLogLine(nginxLine(fields, '/private/b?x=1'));
    expect((await verifySignedRequest(signedRequestOf(moved!)!, keys, moved!.timeMs!)).verdict).toBe('invalid');
    const unsigned = parseLogLine(nginxLine(null, '/private/a'));
    expect([unsigned?.signed, signedRequestOf(unsigned!)]).toEqual([undefined, null]);
  });

  it('--log-field names for another shape: signature, signatureInput and signatureAgent', async () => {
    const fields = await signed({ keyid, authority: 'app.example', path: '/x' });
    const reader = new LogLineReader({ fields: { target: 'req.path', method: 'req.method', host: 'site', time: 'at', userAgent: 'ua', signature: 'sig.value', signatureInput: 'sig.input', signatureAgent: 'sig.agent' } });
    const line = { at: '2026-11-21T10:00:30Z', site: 'app.example', ua: CHROME, req: { path: '/x', method: 'GET' }, sig: { value: fields.signature, input: fields.signatureInput, agent: fields.signatureAgent } };
    const verdictOf = async (text: string): Promise<unknown> => {
      const request = reader.read(text);
      return request === null || request === 'header' ? null : verifySignedRequest(signedRequestOf(request)!, keys, request.timeMs!);
    };
    expect(await verdictOf(JSON.stringify(line))).toMatchObject({ verdict: 'verified', agent: 'chatgpt.com' });
    // a line without the method: the signed request cannot be rebuilt, said and never verified
    expect(await verdictOf(JSON.stringify({ ...line, req: { path: '/x' } }))).toMatchObject({ verdict: 'malformed', reason: 'the log line records no request method: the signed request cannot be rebuilt' });
  });
});

describe('SignatureKeys.read: a folder of key directories and cards', () => {
  it('reads JWKS and cards; what is not a key is said and left out', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'chatgpt.com.json'), JSON.stringify({ keys: [agentKey.publicJwk] }));
    writeFileSync(join(dir, 'Agent.Example.json'), JSON.stringify({ 'rfc9309-product-token': 'ExampleAgent', trigger: 'fetcher', keys: [agentKey.publicJwk, { kty: 'RSA', n: 'x', e: 'AQAB' }, { kty: 'OKP', crv: 'Ed25519', x: '!!' }] }));
    writeFileSync(join(dir, 'broken.example.json'), '{ "keys": [');
    writeFileSync(join(dir, 'nokeys.example.json'), JSON.stringify({ client_name: 'x' }));
    writeFileSync(join(dir, 'list.example.json'), '[1, 2]');
    writeFileSync(join(dir, 'huge.example.json'), ' '.repeat((1 << 20) + 1));
    writeFileSync(join(dir, 'notes.txt'), 'not a key file');
    mkdirSync(join(dir, 'folder.example.json'));
    symlinkSync(join(dir, 'chatgpt.com.json'), join(dir, 'link.example.json'));
    const keys = SignatureKeys.read(dir);
    expect(keys.hosts.sort()).toEqual(['agent.example', 'chatgpt.com']);
    expect(keys.agent('agent.example')).toMatchObject({ productToken: 'ExampleAgent', trigger: 'fetcher' });
    expect(keys.agent('agent.example')?.keys.length).toBe(1);
    expect(keys.problems).toEqual([
      `${join(dir, 'Agent.Example.json')}: key 2: key type "RSA" is not an Ed25519 key (OKP), the one Web Bot Auth type read here: left out`,
      `${join(dir, 'Agent.Example.json')}: key 3: its "x" is no Ed25519 public key: left out`,
      `${join(dir, 'broken.example.json')}: not JSON: left out`,
      `${join(dir, 'folder.example.json')}: not a regular file (links are not followed): left out`,
      `${join(dir, 'huge.example.json')}: larger than 1048576 bytes (a key directory or card is a few kilobytes): left out`,
      `${join(dir, 'link.example.json')}: not a regular file (links are not followed): left out`,
      `${join(dir, 'list.example.json')}: neither a key directory (JWKS) nor a Signature Agent Card (a JSON object): left out`,
      `${join(dir, 'nokeys.example.json')}: no "keys" list (a key directory or a Signature Agent Card has one): left out`,
    ]);
    const keyid = await thumbprint(agentKey.publicJwk);
    expect((await verifySignedRequest(await signed({ keyid }), keys, T0)).verdict).toBe('verified');
  });

  it('keys an earlier version of a directory listed (history/<host>/<time>.json, as robotstxt fetch keeps them) verify until the version that dropped them', async () => {
    const dir = tempDir();
    const history = join(dir, 'history', 'chatgpt.com');
    mkdirSync(history, { recursive: true });
    writeFileSync(join(history, '2026-11-01T00-00-00.000Z.json'), JSON.stringify({ keys: [agentKey.publicJwk] }));
    writeFileSync(join(history, '2026-11-21T12-00-00.000Z.json'), JSON.stringify({ keys: [otherKey.publicJwk] }));
    writeFileSync(join(dir, 'chatgpt.com.json'), JSON.stringify({ keys: [otherKey.publicJwk] }));
    const keys = SignatureKeys.read(dir);
    expect([keys.hosts, keys.problems]).toEqual([['chatgpt.com'], []]);
    const keyid = await thumbprint(agentKey.publicJwk);
    // signed before the rotation was seen: verified with the retired key
    expect((await verifySignedRequest(await signed({ keyid }), keys, T0 + 60_000)).verdict).toBe('verified');
    // signed after it (12:00): the retired key was not valid then
    const late = await signed({ keyid, created: T0 + 3 * 3_600_000 });
    expect(await verifySignedRequest(late, keys, T0 + 3 * 3_600_000 + 60_000)).toMatchObject({ verdict: 'expired', reason: `the key "${keyid}" of chatgpt.com was not valid at the request's time` });
    // the current key verifies whenever
    const otherKeyid = await thumbprint(otherKey.publicJwk);
    expect((await verifySignedRequest(await signed({ keyid: otherKeyid, key: otherKey.privateKey, created: T0 + 3 * 3_600_000 }), keys, T0 + 3 * 3_600_000 + 60_000)).verdict).toBe('verified');
  });

  it('a folder that is none is refused, naming it', () => {
    expect(() => SignatureKeys.read(join(tempDir(), 'nope'))).toThrow(/^signatureKeys '.*nope' is not a readable directory$/);
  });
});
