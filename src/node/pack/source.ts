// A pack as what the readers of many hosts ask: the many-host matcher's source (check --pack, the library's
// multi-host matcher), and each origin's robots.txt as a file (audit --pack, pages --pack). An origin is looked
// up as a robots directory names its files (src/node/hosts/sources.ts robotsFromDirectory): the store's file
// key first, then `host:port` when the URL names a port that is not its scheme's default, then `host` (the
// core looks up a plain key's origin the same way, assembly/pack-hosts.ts, when the pack's rules for the agent are held).
import { RobotsError } from '../../core/errors.js';
import { ALL_ALLOWED, ALL_DISALLOWED, FLAG_HOST_KEYS, FLAG_PORT_KEYS, FLAG_STORE_KEYS, type RobotsPack, type PackCapture, type AgentBlobs } from '../../core/pack/index.js';
import type { CoreIndex } from '../../core/engine.js';
import { asciiLowerCase, parseRobots, type RobotsTxt } from '../../core/robots.js';
import { ParsedRobotsCache } from '../../core/parsed-robots-cache.js';
import type { RobotsMode } from '../../core/parser.js';
import { ALLOW_ALL, DISALLOW_ALL, CompiledRules, FULL_VERDICT_BODY, NO_RULES_KNOWN, withTraits, type HostsSpec, type RobotsHost, type RobotsSource, type HeldData } from '../hosts/index.js';
import { openPackFile } from './file.js';
import type { UrlOrigin } from '../../core/url-model.js';

/** The pack's record of an origin, looked up as a directory's files are (store key, host:port, host): its index, or -1. Per origin. */
export function packOriginOf(pack: RobotsPack, origin: UrlOrigin): number {
  // (the kinds of keys a pack holds none of are not looked up: a folder's pack has no store keys)
  if (pack.mayHoldKeys(FLAG_STORE_KEYS)) {
    const stored = pack.originIndex(origin.fileKey);
    if (stored >= 0) return stored;
  }
  if (origin.port !== null && pack.mayHoldKeys(FLAG_PORT_KEYS)) {
    const withPort = pack.originIndex(origin.hostKey);
    if (withPort >= 0) return withPort;
  }
  return pack.mayHoldKeys(FLAG_HOST_KEYS) ? pack.originIndex(origin.host) : -1;
}

/**
 * The pack as a many-host source for an agent query: per origin its newest capture: when the query is one
 * agent in the pack's mode, the rules compiled for it already (CompiledRules, no compile: answered where they
 * lie when the matcher holds the agent's rules of the whole pack, a small pack's; else read from the pack straight
 * into the matcher's memory, once per distinct body while it stays cached); else the body (answered or compiled by the
 * matcher as a folder's file is); ALLOW_ALL and DISALLOW_ALL for what a fetch found; null when the pack has no
 * entry (the missing policy applies). Once per matcher.
 */
export function robotsFromPack(pack: RobotsPack, options: { agents: readonly string[]; mode: RobotsMode; maxBytes: number }): RobotsSource {
  if (options.maxBytes !== pack.maxBytes) throw new RobotsError('INVALID_ARGUMENT', `the pack's bodies were read up to ${pack.maxBytes === 0 ? 'their end' : `${pack.maxBytes} bytes`}; it answers with that reading only (maxBytes ${pack.maxBytes}), not ${options.maxBytes}`);
  const single = options.agents.length === 1 && options.mode === pack.mode ? asciiLowerCase(options.agents[0]) : null;
  // several agents or the other mode: the bodies, which the matcher answers from directly or compiles as it
  // does a folder's files
  if (single === null) return packBodies(pack);
  // one answer per blob, made when first asked (at most the pack's blob count): an origin met again, or
  // another of the same body, makes no new object
  const answers = new Map<number, CompiledRules>();
  // per body, the blob of the agent (-1: not looked up yet): origins of one body search its tokens once
  const bodyBlobs = new Int32Array(pack.bodyCount).fill(-1);
  // what the matcher may hold: the agent's blob of each body (looked up when the policy first asks its length)
  let agentBlobs: AgentBlobs | null = null;
  let coreIndex: CoreIndex | null = null;
  const blobsOfAgent = (): AgentBlobs => (agentBlobs ??= pack.agentBlobs(single));
  const heldData: HeldData = {
    indexLength: pack.indexLength,
    get length() { return blobsOfAgent().length; },
    fill: (target) => pack.agentBlobsInto(blobsOfAgent(), target),
    get index() { return (coreIndex ??= pack.coreIndex(single, blobsOfAgent())); },
  };
  /** The rules of a body's blob for the agent: one object per blob, made when first asked. */
  const rulesOf = (body: number): CompiledRules => {
    let blob = bodyBlobs[body];
    if (blob < 0) bodyBlobs[body] = blob = pack.blobIndex(body, single);
    let answer = answers.get(blob);
    if (answer === undefined) answers.set(blob, answer = new CompiledRules(blob, pack.blobLength(blob), (target) => pack.blobInto(blob, target), { data: heldData, blob }));
    return answer;
  };
  return withTraits((host: RobotsHost) => {
    const newest = newestOf(pack, host);
    return typeof newest === 'number' ? rulesOf(newest) : newest;
  }, { askedAgainCheaply: true, heldData, checkData: () => pack.verifyData() });
}

/**
 * The pack as a source of bodies (never compiled rules): per origin its newest capture's body, ALLOW_ALL or
 * DISALLOW_ALL for what a fetch found, null when the pack has no entry. Readers that parse each origin's file
 * themselves (page --pack, pages --pack) and matchers the compiled rules do not fit. Once per reader.
 */
export function packBodies(pack: RobotsPack): RobotsSource {
  return withTraits((host: RobotsHost) => {
    const newest = newestOf(pack, host);
    return typeof newest === 'number' ? pack.body(newest) : newest;
  }, { askedAgainCheaply: true, checkData: () => pack.verifyData() });
}

/** What an origin's newest capture holds: its body's index, what a fetch found (ALLOW_ALL, DISALLOW_ALL), or null when the pack has no entry. Per origin met. */
function newestOf(pack: RobotsPack, host: RobotsHost): number | typeof ALLOW_ALL | typeof DISALLOW_ALL | null {
  const origin = packOriginOf(pack, host);
  if (origin < 0) return null;
  const body = pack.latestBody(origin);
  return body === ALL_DISALLOWED ? DISALLOW_ALL : body === ALL_ALLOWED ? ALLOW_ALL : body;
}

/** The capture of an origin in force at a time (the newest seen at or before it; the first when all are later, or no time is given). Per request judged. */
export function captureAt(captures: readonly PackCapture[], timeMs: number | null): PackCapture {
  if (timeMs === null) return captures[captures.length - 1];
  let found = captures[0];
  for (const capture of captures) if (capture.time === null || capture.time <= timeMs) found = capture;
  return found;
}

/** The source of a check thread's spec with a pack (HostsSpec.pack): the pack opened once per thread (openPackFile keeps it). Per thread. */
export function packSourceForSpec(spec: HostsSpec): RobotsSource {
  // (the data's whole check left to the matcher: done as it holds them, or when it opens: one read of them)
  return robotsFromPack(openPackFile(spec.pack as string, { dataCheckOwed: true }).pack, { agents: spec.agents, ...spec.reading });
}

/**
 * Each origin's robots.txt in force at a time, as audit --pack and pages --pack read a pack: the capture in force
 * then (captureAt), its body parsed once and kept (parsed files within KEPT_BYTES, least recently used out, closed
 * when dropped);
 * null for a capture of no robots.txt (every URL allowed), the file of `Disallow: /` for an unreachable one, and
 * NO_RULES_KNOWN for an origin the pack has no entry of. Once per run.
 */
export function packRobotsAt(pack: RobotsPack, reading: { mode: RobotsMode; maxBytes: number }): PackRobots {
  // a file dropped is closed (after the batch that may still use it, for an audit that holds them: files.holdDropped)
  const files = new ParsedRobotsCache<RobotsTxt>(KEPT_BYTES, (robots) => robots, (robots) => robots.bytesRead + 1024);
  let disallowAll: RobotsTxt | null = null;
  const at = (origin: UrlOrigin | null, timeMs: number | null): RobotsTxt | null | typeof NO_RULES_KNOWN => {
    if (origin === null) return NO_RULES_KNOWN;
    const index = packOriginOf(pack, origin);
    if (index < 0) return NO_RULES_KNOWN;
    const capture = captureAt(pack.captures(index), timeMs);
    if (capture.effect === 'allow-all' || (capture.effect === 'rules' && capture.body === null)) return null;
    if (capture.effect === 'disallow-all') return disallowAll ??= parseRobots(FULL_VERDICT_BODY.disallow, reading);
    const key = String(capture.body);
    let robots = files.get(key);
    if (robots === undefined) files.set(key, robots = parseRobots(pack.body(capture.body as number), reading));
    return robots;
  };
  return { at, files, close: () => { files.close(); disallowAll?.close(); } };
}

/** A pack's files by origin and time (packRobotsAt), the cache they are kept in, and its close (every file kept, closed). */
export interface PackRobots {
  at(origin: UrlOrigin | null, timeMs: number | null): RobotsTxt | null | typeof NO_RULES_KNOWN;
  readonly files: ParsedRobotsCache<RobotsTxt>;
  close(): void;
}

/** Parsed files of a pack kept at once (their bodies' bytes, about). */
const KEPT_BYTES = 64 << 20;
