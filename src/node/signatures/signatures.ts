// Web Bot Auth (HTTP Message Signatures, RFC 9421, tag "web-bot-auth") verified offline, from what an access log
// recorded: a request's Signature, Signature-Input and Signature-Agent headers, its host, method and path, at the
// request's own time, against the keys the signing agents publish (a key directory, a JWKS, as served at
// /.well-known/http-message-signatures-directory, or a Signature Agent Card with its keys), kept one file per
// agent host in a folder. The signature base and its parameters come from http-message-sig, the JWK thumbprint
// (RFC 7638, the keyid) from jsonwebkey-thumbprint, Ed25519 from node's crypto; the Signature-Agent value is read
// by the project's one structured-field reader (src/core/structured-fields.ts).
import { createHash, createPublicKey, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { verifySignature, isSignatureError, SignatureErrorCode, type UntrustedSignatureCandidate } from 'http-message-sig';
import { jwkThumbprintPreCompute } from 'jsonwebkey-thumbprint';
import { RobotsError } from '../../core/errors.js';
import { readStructuredDictionary, readStructuredItem } from '../../core/structured-fields.js';
import { readFileBounded, requireDirectory } from '../robots-file.js';
import { LogLineReader, forEachChunk, type LogFieldNames, type LogRequest } from '../logs/index.js';

/** The tag a Web Bot Auth signature carries (draft-meunier-web-bot-auth-architecture). */
export const WEB_BOT_AUTH_TAG = 'web-bot-auth';
/** Bytes of a key file read at most: a directory or card is a few kilobytes; past this it is said and left out. */
const MAX_KEY_FILE_BYTES = 1 << 20;
/**
 * Characters of a Signature, Signature-Input or Signature-Agent value read at most: a Web Bot Auth signature is
 * a few hundred (an Ed25519 signature is 88 in base64); a longer one is said malformed unread, so that a log of
 * megabyte headers costs what reading it costs.
 */
export const MAX_SIGNATURE_FIELD_CHARS = 16_384;
/** Keys of one agent kept at most (a directory of more is said, its first kept). */
const MAX_KEYS_PER_AGENT = 64;

/** One public key of a signing agent: its keyid (the JWK thumbprint, and the JWK's own `kid` when it states one), its validity (ms; null: unbounded). */
export interface SigningKey {
  readonly keyid: string;
  readonly kid: string | null;
  readonly key: KeyObject;
  readonly notBeforeMs: number | null;
  readonly expiresMs: number | null;
}

/** A signing agent as its key file says it: its host, keys, and (a Signature Agent Card's) the robots.txt product token it obeys and its trigger. */
export interface SigningAgent {
  readonly host: string;
  readonly keys: readonly SigningKey[];
  readonly productToken: string | null;
  readonly trigger: string | null;
}

/**
 * How a signed request was judged. `unsigned`: no Signature or Signature-Input; `malformed`: its headers cannot be
 * read as a signature; `notChecked`: no keys of the agent it names were given (it cannot be told either way).
 */
export type SignatureVerdict = 'verified' | 'invalid' | 'expired' | 'unknownKey' | 'malformed' | 'notChecked' | 'unsigned';

/**
 * What verifySignedRequest said of one request: the verdict, the agent it names (its host), the keyid, and why when
 * not verified; the agent's product token and trigger as its card states them (whatever the verdict: an
 * impostor's row is named by the agent it claims), null when its keys were not given or state none.
 */
export interface SignatureCheck {
  readonly verdict: SignatureVerdict;
  readonly agent: string | null;
  readonly keyid: string | null;
  readonly productToken: string | null;
  readonly trigger: string | null;
  readonly reason: string | null;
}

/** The parts of a logged request a signature covers, as the log recorded them (headers null when absent). */
export interface SignedRequestFields {
  readonly signature: string | null;
  readonly signatureInput: string | null;
  readonly signatureAgent: string | null;
  /** The request's host (and port), as `@authority` signed it. */
  readonly authority: string;
  readonly method: string;
  /** The request target (path and query). */
  readonly path: string;
}

/** The agents' keys of a folder (`<host>.json` each), and what could not be read (a sentence per file or key, no prefix). */
export class SignatureKeys {
  private constructor(private readonly agents: ReadonlyMap<string, SigningAgent>, readonly problems: readonly string[]) {}

  /**
   * Reads every `<host>.json` of a folder: a key directory (JWKS: `{ "keys": [...] }`) or a Signature Agent Card
   * (its `keys`, `rfc9309-product-token`, `trigger`). Ed25519 keys (OKP) are kept; another key type, a file that
   * is neither, a link or a file over 1 MiB is said in `problems` and left out, never a crash. Once per run.
   */
  static read(directory: string): SignatureKeys {
    requireDirectory(directory, 'signatureKeys');
    const agents = new Map<string, SigningAgent>();
    const problems: string[] = [];
    for (const name of readdirSync(directory).sort()) {
      // <host>.meta.json: when robotstxt fetch --signature-keys fetched <host>.json
      if (!name.endsWith('.json') || name.endsWith('.meta.json')) continue;
      const path = join(directory, name);
      const host = name.slice(0, -'.json'.length).toLowerCase();
      if (!lstatSync(path).isFile()) {
        problems.push(`${path}: not a regular file (links are not followed): left out`);
        continue;
      }
      const json = readKeyFile(path, problems);
      if (json === undefined) continue;
      const agent = agentOfKeyFile(host, json, path, problems);
      if (agent !== null) agents.set(host, withRetiredKeys(agent, join(directory, KEY_HISTORY_FOLDER, host), problems));
    }
    return new SignatureKeys(agents, problems);
  }

  /** Keys given in code (tests, programs that fetched them): each host's JWKS or card JSON. */
  static of(files: Record<string, unknown>): SignatureKeys {
    const agents = new Map<string, SigningAgent>();
    const problems: string[] = [];
    for (const [host, json] of Object.entries(files)) {
      const agent = agentOfKeyFile(host.toLowerCase(), json, host, problems);
      if (agent !== null) agents.set(host.toLowerCase(), agent);
    }
    return new SignatureKeys(agents, problems);
  }

  /** The agent of a host, or undefined. Per signed request. */
  agent(host: string): SigningAgent | undefined {
    return this.agents.get(host);
  }

  /** The hosts whose keys were read. */
  get hosts(): string[] {
    return [...this.agents.keys()];
  }
}

/** A key file's JSON, or undefined when it cannot be read (said in problems). */
function readKeyFile(path: string, problems: string[]): unknown {
  try {
    const bytes = readFileBounded(path, MAX_KEY_FILE_BYTES + 1, 'signature key file', null, 'own');
    if (bytes.length > MAX_KEY_FILE_BYTES) {
      problems.push(`${path}: larger than ${MAX_KEY_FILE_BYTES} bytes (a key directory or card is a few kilobytes): left out`);
      return undefined;
    }
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    problems.push(`${path}: ${error instanceof SyntaxError ? 'not JSON' : (error as Error).message}: left out`);
    return undefined;
  }
}

/** The folder of a key folder where robotstxt fetch --signature-keys keeps each version of an agent's directory: `history/<host>/<time>.json`. */
export const KEY_HISTORY_FOLDER = 'history';
/** Versions of an agent's directory read at most (the newest), and keys of an agent kept at most with its retired ones. */
const MAX_KEY_VERSIONS = 100;
const MAX_KEYS_WITH_RETIRED = 256;

/**
 * An agent with the keys its directory no longer lists but an earlier version did (robotstxt fetch kept it under
 * history/<host>/, named by the time it was fetched): each valid, within its own nbf/exp, until the time of the
 * first later version without it (when it was first seen gone), so that a log older than a key rotation is
 * verified with the keys of its time and a retired key verifies nothing signed after it was seen gone.
 */
function withRetiredKeys(agent: SigningAgent, folder: string, problems: string[]): SigningAgent {
  let names: string[];
  try {
    if (!lstatSync(folder).isDirectory()) return agent;
    names = readdirSync(folder).filter((name) => name.endsWith('.json')).sort();
  } catch {
    return agent;
  }
  // 2026-12-02T17-58-00.123Z.json -> its time
  const versions = names.slice(-MAX_KEY_VERSIONS).map((name) => ({ name, ms: Date.parse(name.slice(0, -'.json'.length).replace(/T(\d\d)-(\d\d)-(\d\d)/, 'T$1:$2:$3')) })).filter((version) => Number.isFinite(version.ms));
  const current = new Set(agent.keys.map((key) => key.keyid));
  const retired = new Map<string, SigningKey>();
  versions.forEach((version, i) => {
    const path = join(folder, version.name);
    if (!lstatSync(path).isFile()) return;
    const json = readKeyFile(path, problems);
    if (json === undefined) return;
    const listed = agentOfKeyFile(agent.host, json, path, []);
    for (const key of listed?.keys ?? []) {
      if (current.has(key.keyid)) continue;
      // gone from the next version (or from the current directory, for the last one): valid until then
      const goneMs = versions.slice(i + 1).find((later) => later.ms > version.ms)?.ms ?? null;
      const expiresMs = goneMs === null ? key.expiresMs : key.expiresMs === null ? goneMs : Math.min(key.expiresMs, goneMs);
      retired.set(key.keyid, { ...key, expiresMs });
    }
  });
  if (retired.size === 0) return agent;
  return { ...agent, keys: [...agent.keys, ...[...retired.values()].slice(0, MAX_KEYS_WITH_RETIRED - agent.keys.length)] };
}

/** A key file's agent, or null (said in problems) when it holds no usable key. */
function agentOfKeyFile(host: string, json: unknown, where: string, problems: string[]): SigningAgent | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    problems.push(`${where}: neither a key directory (JWKS) nor a Signature Agent Card (a JSON object): left out`);
    return null;
  }
  const record = json as Record<string, unknown>;
  // a card holds its keys as a JWKS or a list; a directory is the JWKS itself
  const jwks = record.keys;
  const list = Array.isArray(jwks) ? jwks : typeof jwks === 'object' && jwks !== null && Array.isArray((jwks as { keys?: unknown }).keys) ? (jwks as { keys: unknown[] }).keys : null;
  if (list === null) {
    problems.push(`${where}: no "keys" list (a key directory or a Signature Agent Card has one): left out`);
    return null;
  }
  const keys: SigningKey[] = [];
  list.forEach((jwk, index) => {
    if (keys.length >= MAX_KEYS_PER_AGENT) return;
    const key = signingKeyOf(jwk);
    if (typeof key === 'string') problems.push(`${where}: key ${index + 1}: ${key}: left out`);
    else keys.push(key);
  });
  if (list.length > MAX_KEYS_PER_AGENT) problems.push(`${where}: ${list.length} keys: the first ${MAX_KEYS_PER_AGENT} kept`);
  const token = record['rfc9309-product-token'];
  const trigger = record.trigger;
  return { host, keys, productToken: typeof token === 'string' && token !== '' ? token : null, trigger: typeof trigger === 'string' ? trigger : null };
}

/** A JWK as a signing key, or why it is none. */
function signingKeyOf(jwk: unknown): SigningKey | string {
  if (typeof jwk !== 'object' || jwk === null) return 'not a JSON Web Key';
  const fields = jwk as Record<string, unknown>;
  if (fields.kty !== 'OKP' || fields.crv !== 'Ed25519' || typeof fields.x !== 'string') return `key type ${JSON.stringify(fields.kty ?? null)}${fields.crv === undefined ? '' : ` (${JSON.stringify(fields.crv)})`} is not an Ed25519 key (OKP), the one Web Bot Auth type read here`;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: fields.x }, format: 'jwk' });
  } catch {
    return 'its "x" is no Ed25519 public key';
  }
  const keyid = createHash('sha256').update(jwkThumbprintPreCompute({ kty: 'OKP', crv: 'Ed25519', x: fields.x })).digest('base64url');
  const seconds = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value * 1000 : null);
  return { keyid, kid: typeof fields.kid === 'string' ? fields.kid : null, key, notBeforeMs: seconds(fields.nbf), expiresMs: seconds(fields.exp) };
}

/** The host (and port) a Signature-Agent value names (signatureAgentOrigin's host). */
function signatureAgentHost(value: string): string | null {
  return signatureAgentUrl(value)?.host.toLowerCase() ?? null;
}

/**
 * The origin (`https://chatgpt.com`) a Signature-Agent value names: an RFC 9651 string (`"https://chatgpt.com"`), or
 * a dictionary of one such string; null for anything else (an http(s) URL only). Per signed request, and per agent
 * robotstxt fetch --signature-keys reads from a log.
 */
export function signatureAgentOrigin(value: string): string | null {
  return signatureAgentUrl(value)?.origin.toLowerCase() ?? null;
}

/** The http(s) URL a Signature-Agent value names, or null (see signatureAgentOrigin). */
function signatureAgentUrl(value: string): URL | null {
  let text: string | null = null;
  const item = readStructuredItem(value);
  if (item.ok && item.item.item.kind === 'string') text = item.item.item.value;
  else {
    const dictionary = readStructuredDictionary(value);
    if (dictionary.ok) {
      const member = dictionary.members.size === 1 ? [...dictionary.members.values()][0] : undefined;
      if (member !== undefined && member.kind === 'item' && member.item.kind === 'string') text = member.item.value;
    }
  }
  if (text === null) return null;
  try {
    const url = new URL(text);
    // a host of dots alone (`https://../` is a URL to the parser) names no agent, and no file of one
    return (url.protocol === 'https:' || url.protocol === 'http:') && !/^\.*$/.test(url.hostname) ? url : null;
  } catch {
    return null;
  }
}

/**
 * The signing agents named by the signed requests of logs (JSON lines with a Signature-Agent), as origins, first
 * seen first with their request counts, and the lines whose Signature-Agent names none. For robotstxt fetch
 * --signature-keys: once per run.
 */
export async function signingAgentsOf(logs: readonly string[], options: { fields?: LogFieldNames } = {}): Promise<{ agents: { origin: string; requests: number }[]; unread: { where: string; why: string }[] }> {
  const agents = new Map<string, number>();
  const unread: { where: string; why: string }[] = [];
  for (const log of logs) {
    const reader = new LogLineReader({ fields: options.fields });
    let number = 0;
    await forEachChunk(log, 'log file', (chunk) => {
      for (const entry of reader.readChunk(chunk, { withHost: true, defaultHost: null })) {
        number++;
        if (entry === null || entry === 'header' || entry === 'blank') continue;
        const value = entry.request.signed?.signatureAgent ?? null;
        if (value === null || value === '') continue;
        const origin = signatureAgentOrigin(value);
        if (origin === null) {
          if (unread.length < 100) unread.push({ where: `${log}:${number}`, why: 'its Signature-Agent is no https:// URL in an RFC 9651 string' });
          continue;
        }
        if (agents.has(origin) || agents.size < MAX_AGENTS_READ) agents.set(origin, (agents.get(origin) ?? 0) + 1);
      }
    });
  }
  return { agents: [...agents].map(([origin, requests]) => ({ origin, requests })), unread };
}

/** Signing agents a log names that signingAgentsOf keeps (each a fetch): past this, the rest are left out. */
const MAX_AGENTS_READ = 10_000;

/** Why a key was not used: its agent has no key of that keyid, or the key was not valid at the request's time. */
class KeyRefusal {
  constructor(readonly verdict: 'unknownKey' | 'expired' | 'invalid' | 'notChecked', readonly reason: string) {}
}

/**
 * Judges one logged request's Web Bot Auth signature at the request's time (atMs): `verified` when it holds for
 * a key of the agent its Signature-Agent names, valid then, covering `@authority` (and `signature-agent`) with
 * the tag web-bot-auth, and the request falls within its created..expires; `invalid` when it does not hold (a
 * changed host, path or agent) or misses what Web Bot Auth requires; `expired` outside its window (or its key's);
 * `unknownKey` when the agent has no key of that keyid; `notChecked` when no keys of the agent were given;
 * `malformed` when its headers are no signature; `unsigned`
 * without one. Never throws for what a log holds. Per signed request.
 */
export async function verifySignedRequest(fields: SignedRequestFields, keys: SignatureKeys, atMs: number): Promise<SignatureCheck> {
  let card: SigningAgent | undefined;
  const none = (verdict: SignatureVerdict, reason: string | null, agent: string | null = null, keyid: string | null = null): SignatureCheck => ({ verdict, agent, keyid, productToken: card?.productToken ?? null, trigger: card?.trigger ?? null, reason });
  if (fields.signature === null || fields.signatureInput === null || fields.signature === '' || fields.signatureInput === '') return none('unsigned', null);
  if (!Number.isFinite(atMs)) throw new RobotsError('INVALID_ARGUMENT', 'atMs must be the request\'s time in milliseconds');
  const long = (['signature', 'signatureInput', 'signatureAgent'] as const).find((name) => (fields[name]?.length ?? 0) > MAX_SIGNATURE_FIELD_CHARS);
  if (long !== undefined) return none('malformed', `its ${long === 'signature' ? 'Signature' : long === 'signatureInput' ? 'Signature-Input' : 'Signature-Agent'} is longer than ${MAX_SIGNATURE_FIELD_CHARS} characters (a Web Bot Auth one is a few hundred): not read`);
  if (fields.method === '' || fields.authority === '') return none('malformed', `the log line records no request ${fields.method === '' ? 'method' : 'host'}: the signed request cannot be rebuilt`);
  const agentHost = fields.signatureAgent === null ? null : signatureAgentHost(fields.signatureAgent);
  if (agentHost === null) return none('malformed', fields.signatureAgent === null ? 'no Signature-Agent: the signing agent is not named' : 'its Signature-Agent is no https:// URL in an RFC 9651 string');
  const agent = card = keys.agent(agentHost);
  let used: SigningKey | null = null;
  let keyid: string | null = null;
  const resolveVerifier = (candidate: UntrustedSignatureCandidate): { algorithm: string; verify(data: Uint8Array, signature: Uint8Array): Promise<boolean> } => {
    keyid = candidate.parameters.keyid ?? null;
    if (candidate.parameters.tag !== WEB_BOT_AUTH_TAG) throw new KeyRefusal('invalid', `its tag is ${JSON.stringify(candidate.parameters.tag ?? null)}, not "${WEB_BOT_AUTH_TAG}"`);
    if (agent === undefined) throw new KeyRefusal('notChecked', `no keys of ${agentHost} were given`);
    const key = agent.keys.find((known) => known.keyid === keyid || (known.kid !== null && known.kid === keyid));
    if (key === undefined) throw new KeyRefusal('unknownKey', `${agentHost} has no key ${JSON.stringify(keyid)}`);
    if ((key.notBeforeMs !== null && atMs < key.notBeforeMs) || (key.expiresMs !== null && atMs > key.expiresMs)) throw new KeyRefusal('expired', `the key ${JSON.stringify(keyid)} of ${agentHost} was not valid at the request's time`);
    used = key;
    // on libuv's thread pool (node's callback form): a chunk's signatures are verified on every core at once
    return { algorithm: 'ed25519', verify: (data, signature) => new Promise<boolean>((resolve, reject) => cryptoVerify(null, data, key.key, signature, (error, valid) => (error === null ? resolve(valid) : reject(error)))) };
  };
  const message = {
    kind: 'request' as const, method: fields.method, targetUri: `https://${fields.authority}${fields.path.startsWith('/') ? fields.path : `/${fields.path}`}`,
    fields: [{ name: 'signature', value: fields.signature }, { name: 'signature-input', value: fields.signatureInput }, ...(fields.signatureAgent === null ? [] : [{ name: 'signature-agent', value: fields.signatureAgent }])],
  };
  try {
    await verifySignature(message, {
      policy: { algorithms: ['ed25519'], requiredComponents: ['@authority', 'signature-agent'], requiredParameters: ['created', 'expires', 'keyid', 'tag'], now: Math.floor(atMs / 1000) },
      resolveVerifier,
    });
  } catch (error) {
    if (!isSignatureError(error)) return none('malformed', `its signature cannot be read (${(error as Error).message})`, agentHost, keyid);
    if (error.code === SignatureErrorCode.ResolverFailed && error.cause instanceof KeyRefusal) return none(error.cause.verdict, error.cause.reason, agentHost, keyid);
    if (error.code === SignatureErrorCode.VerificationFailed) return none('invalid', 'the signature does not hold for the request as logged (its host, method, path or agent changed, or another key signed it)', agentHost, keyid);
    if (error.code === SignatureErrorCode.PolicyViolation && /expired|in the future/.test(error.message)) return none('expired', `the request's time is outside the signature's created..expires (${error.message})`, agentHost, keyid);
    if (error.code === SignatureErrorCode.PolicyViolation) return none('invalid', `it misses what Web Bot Auth requires (${error.message})`, agentHost, keyid);
    return none('malformed', `its Signature or Signature-Input cannot be read (${error.message})`, agentHost, keyid);
  }
  return { verdict: 'verified', agent: agentHost, keyid: (used as SigningKey | null)?.keyid ?? keyid, productToken: agent?.productToken ?? null, trigger: agent?.trigger ?? null, reason: null };
}

/**
 * The signed parts of a logged request (a JSON line's Signature, Signature-Input and Signature-Agent, its host
 * as sent, method and target), or null when the line recorded no signature. Per log line.
 */
export function signedRequestOf(request: LogRequest): SignedRequestFields | null {
  const signed = request.signed;
  if (signed === undefined || signed === null) return null;
  return { signature: signed.signature, signatureInput: signed.signatureInput, signatureAgent: signed.signatureAgent, authority: signed.authority ?? request.host ?? '', method: request.method, path: request.target };
}

/** Checks of signed requests kept (and this many characters of their keys); then the table starts again. */
const CHECK_CACHE = 10_000;
const CHECK_CACHE_CHARS = 16 << 20;

/**
 * Judges the signed requests of a log (an audit's): verifySignedRequest of each, at its logged time, with the
 * same signature of the same request at the same time judged once (a log that repeats one forged signature pays
 * for it once); a line without a time is notChecked (the signature's window cannot be checked). Bounded. One per
 * audit.
 */
export class SignedRequestJudge {
  private readonly checks = new Map<string, SignatureCheck>();
  private checkChars = 0;

  constructor(readonly keys: SignatureKeys) {}

  /** The check of a logged request's signature, or null when its line recorded none. Per log line. */
  async check(request: LogRequest): Promise<SignatureCheck | null> {
    const fields = signedRequestOf(request);
    if (fields === null) return null;
    if (request.timeMs === null) {
      const agent = fields.signatureAgent === null ? null : signatureAgentHost(fields.signatureAgent);
      const card = agent === null ? undefined : this.keys.agent(agent);
      return { verdict: 'notChecked', agent, keyid: null, productToken: card?.productToken ?? null, trigger: card?.trigger ?? null, reason: 'its log line records no time: the signature\'s window cannot be checked' };
    }
    const key = `${request.timeMs}\n${fields.method}\n${fields.authority}\n${fields.path}\n${fields.signatureAgent ?? ''}\n${fields.signatureInput ?? ''}\n${fields.signature ?? ''}`;
    let check = this.checks.get(key);
    if (check === undefined) {
      check = await verifySignedRequest(fields, this.keys, request.timeMs);
      if (this.checks.size >= CHECK_CACHE || this.checkChars + key.length > CHECK_CACHE_CHARS) {
        this.checks.clear();
        this.checkChars = 0;
      }
      this.checks.set(key, check);
      this.checkChars += key.length;
    }
    return check;
  }
}
