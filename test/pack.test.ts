// Packs (robotstxt pack, --pack): what a pack answers is what its inputs answer, verdict for verdict, given as
// bytes or read from its file where asked (rules compiled in the pack read into the matcher's memory once per
// body for one agent in the pack's mode; bodies for other queries); a pack
// that is cut, damaged, foreign or from another format is refused in one line with exit 2; each input (a
// folder, a store, JSON lines, WARC files) is read as its command documents, its unreadable parts said.
import { describe, it, expect, beforeAll } from 'vitest';
import fc from 'fast-check';
import { readFileSync, writeFileSync, mkdirSync, copyFileSync, existsSync, readdirSync, symlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { gzipSync, crc32 } from 'node:zlib';
import { packBody, PACK_FORMAT, ENGINE_SEMANTICS, H_FORMAT, H_HEADER_CRC, H_INDEX_OFFSET, H_INDEX_LENGTH, H_INDEX_CRC, H_DATA_CRC, H_BUCKETS, H_ORIGINS, H_CAPTURES, H_BODIES, H_TOKENS, H_BLOBS, H_FLAGS, HEADER_BYTES, BLOB_BYTES, indexLayout, getU64, bytesStorage } from '../src/core/pack/index.js';
import {
  MultiHostMatcher, RobotsPack, PackWriter, openPackFile, robotsFromPack, ALLOW_ALL, DISALLOW_ALL, RobotsError,
  DEFAULT_MAX_BYTES, type RobotsHost, type RobotsSourceAnswer, type RobotsMode, type CaptureInput,
} from '../src/node/index.js';
import { withTraits } from '../src/node/hosts/index.js';
import { body, url, pattern } from './robots-arbitraries.js';
import { raw } from './helpers.js';
import { robotstxt, robotstxtAsync, tempDir, CORPUS_LOG, corpusMissingReason } from './cli-helpers.js';
import { corpusFiles } from './corpus-helpers.js';
import { createServer } from 'node:http';
import { core } from '../src/core/wasm/core.js';
import { encodeAgents } from '../src/core/wasm/bodies.js';
import { HEADER_LITERAL_OFFSET, HEADER_NODES_OFFSET } from '../src/core/constants.js';
import type { AddressInfo } from 'node:net';

const dir = tempDir();
let packs = 0;

/** One origin as the property test makes it: its key (host or host:port) and its captures, oldest first. */
interface GivenOrigin {
  key: string;
  captures: { effect: 'rules' | 'allow-all' | 'disallow-all'; body: Uint8Array }[];
}

/** The answer a folder (or a store) gives for the newest capture, as robotsFromMap looks hosts up. */
function expectedSource(origins: readonly GivenOrigin[]): (host: RobotsHost) => RobotsSourceAnswer {
  const byKey = new Map(origins.map((origin) => [origin.key, origin.captures[origin.captures.length - 1]]));
  return (host) => {
    const newest = (host.port !== null ? byKey.get(host.hostKey) : undefined) ?? byKey.get(host.host);
    if (newest === undefined) return null;
    return newest.effect === 'allow-all' ? ALLOW_ALL : newest.effect === 'disallow-all' ? DISALLOW_ALL : newest.body;
  };
}

function writePack(origins: readonly GivenOrigin[], mode: RobotsMode, maxBytes = DEFAULT_MAX_BYTES): string {
  const path = join(dir, `p${packs++}.pack`);
  const writer = new PackWriter(path, { reading: { mode, maxBytes } });
  for (const origin of origins) {
    const captures: CaptureInput[] = origin.captures.map((capture, index) => ({ time: Date.UTC(2026, 0, 1 + index), effect: capture.effect, body: capture.effect === 'rules' ? capture.body : null, status: capture.effect === 'rules' ? 200 : capture.effect === 'allow-all' ? 404 : 503, hops: 0 }));
    writer.addOrigin(origin.key, captures);
  }
  writer.finish();
  return path;
}

/** Verdicts of lines through a many-host matcher; last: as the input's last chunk (hosts met once are then not kept: a pack's rules go to the landing block). */
async function verdicts(source: (host: RobotsHost) => RobotsSourceAnswer | Promise<RobotsSourceAnswer>, agents: string[], mode: RobotsMode, lines: Uint8Array, cacheBytes?: number, last = false): Promise<number[]> {
  const matcher = new MultiHostMatcher({ agents, source, mode, ...(cacheBytes === undefined ? {} : { cacheBytes }) });
  try {
    return [...(await matcher.checkLinesWithOutput(lines, { format: 'none', last })).verdicts];
  } finally {
    matcher.close();
  }
}

// (keys a URL names only in a form that is not plain: an xn-- label, a last label WHATWG reads as a number; the
// core, which answers plain keys of a pack held in it, must leave them to the URL model as the source does)
const KEYS = ['example.com', 'h.com', 'h.com:8080', 'e.com', 'a.test', 'xn--a.com', 'b.0x1f', 'c.1'];
const HOSTS = ['http://example.com', 'https://example.com', 'https://u:p@h.com:8080', 'http://h.com', 'http://h.com:8080', 'https://e.com', 'http://a.test', 'http://none.test', 'example.com', '', 'http://xn--a.com', 'http://B.0x1F', 'http://c.1', 'http://EXAMPLE.com.', 'http://example.com:80'];
const capture = fc.record({ effect: fc.constantFrom('rules', 'rules', 'rules', 'allow-all', 'disallow-all') as fc.Arbitrary<'rules' | 'allow-all' | 'disallow-all'>, body });
const origins = fc.subarray(KEYS, { minLength: 1 }).chain((keys) => fc.tuple(...keys.map((key) => fc.array(capture, { minLength: 1, maxLength: 3 }).map((captures): GivenOrigin => ({ key, captures })))));
// paths made of the rules' own pieces (most match some rule), and URLs of any shape
const line = fc.tuple(fc.constantFrom(...HOSTS), fc.oneof({ weight: 3, arbitrary: pattern }, { weight: 1, arbitrary: url })).map(([host, rest]) => host + (rest.startsWith('/') || rest === '' ? rest : `/${rest}`));
// one agent in the pack's mode mostly: the query a pack's compiled rules answer
const AGENTS = ['Googlebot', 'googlebot', 'Bingbot', 'Googlebot-Image', 'Bot', '*', 'other'];
const query = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...AGENTS).map((agent) => [agent]) }, { weight: 1, arbitrary: fc.subarray(AGENTS, { minLength: 2, maxLength: 2 }) });

/** A blob's bytes with its literal index's table cleared (its hash seed is drawn anew per build, against hostile patterns): what two compiles of the same rules share. */
function withoutSeededIndex(blob: Uint8Array): Uint8Array {
  const copy = blob.slice();
  const view = new DataView(copy.buffer);
  const literal = view.getUint32(HEADER_LITERAL_OFFSET, true);
  if (literal !== 0) copy.fill(0, literal, view.getUint32(HEADER_NODES_OFFSET, true));
  return copy;
}

describe('a body packed: its blobs made from its line records', () => {
  it('are, byte for byte, what a compile of the body for each agent makes (its tokens, `*` and agents it names not), in either mode (property)', () => {
    fc.assert(fc.property(body, fc.constantFrom<RobotsMode>('google', 'rfc'), (bytes, mode) => {
      const blobs: Uint8Array[] = [];
      const packed = packBody(bytes, mode, (blob) => blobs.push(blob.slice()));
      expect(blobs.length).toBe(packed.blobCount);
      const blobOf = new Map(packed.tokens);
      for (const agent of ['0', ...packed.tokens.map(([token]) => token), 'googlebot', 'bingbot', 'other']) {
        const { address, length } = core().bodies.compileInWorkArea(bytes, encodeAgents([agent]), mode === 'rfc');
        const compiled = core().frame.memoryBytes().slice(address, address + length);
        expect(withoutSeededIndex(blobs[blobOf.get(agent) ?? packed.star])).toEqual(withoutSeededIndex(compiled));
      }
    }), { numRuns: 300 });
  });
});

describe('a pack answers as its inputs do (property)', () => {
  it('from bytes and from its file (compiled rules for one agent in the pack\'s mode, else bodies), for one agent or several, either mode, against the bodies themselves', async () => {
    await fc.assert(fc.asyncProperty(origins, query, fc.constantFrom<RobotsMode>('google', 'rfc'), fc.constantFrom<RobotsMode | null>(null, null, null, 'google', 'rfc'), fc.array(line, { minLength: 1, maxLength: 30 }), async (given, agents, packMode, otherMode, urls) => {
      const queryMode = otherMode ?? packMode;
      const path = writePack(given, packMode);
      const lines = raw(urls.join('\n') + '\n');
      const expected = await verdicts(expectedSource(given), agents, queryMode, lines);
      const context = `pack ${packMode}, query ${queryMode} ${JSON.stringify(agents)}, origins ${JSON.stringify(given.map((origin) => [origin.key, origin.captures.map((c) => [c.effect, Buffer.from(c.body).toString('latin1')])]))}, urls ${JSON.stringify(urls)}`;
      const fromBytes = RobotsPack.fromBytes(readFileSync(path));
      expect(await verdicts(robotsFromPack(fromBytes, { agents, mode: queryMode, maxBytes: DEFAULT_MAX_BYTES }), agents, queryMode, lines), `bytes: ${context}`).toEqual(expected);
      const file = openPackFile(path);
      try {
        expect(await verdicts(robotsFromPack(file.pack, { agents, mode: queryMode, maxBytes: DEFAULT_MAX_BYTES }), agents, queryMode, lines), `file: ${context}`).toEqual(expected);
        expect(await verdicts(robotsFromPack(file.pack, { agents, mode: queryMode, maxBytes: DEFAULT_MAX_BYTES }), agents, queryMode, lines, undefined, true), `file, last chunk: ${context}`).toEqual(expected);
        // (a pack this small is held whole by any budget: the same source without its whole data reads each body's rules per host)
        const perHost = robotsFromPack(file.pack, { agents, mode: queryMode, maxBytes: DEFAULT_MAX_BYTES });
        expect(await verdicts(withTraits((host) => perHost(host), { askedAgainCheaply: true }), agents, queryMode, lines, undefined, true), `file, read per host: ${context}`).toEqual(expected);
      } finally {
        file.close();
      }
    }), { numRuns: 600 });
  });

  it('2,000 origins, each body under two names, in a 1 MiB cache: hosts evicted and met again answer alike (one copy of a body\'s rules shared, dropped, read again), from bytes and from the file, also as the input\'s last chunk', async () => {
    const first = fc.sample(fc.tuple(body, fc.constantFrom('rules', 'rules', 'rules', 'rules', 'allow-all', 'disallow-all') as fc.Arbitrary<'rules' | 'allow-all' | 'disallow-all'>), { numRuns: 1000, seed: 20261202 })
      .map(([text, effect], index): GivenOrigin => ({ key: `host${index}.test`, captures: [{ effect, body: text }] }));
    // a body of 40 KB among them, so its compiled rules are large
    first[7] = { key: 'host7.test', captures: [{ effect: 'rules', body: raw('User-agent: *\n' + Array.from({ length: 2000 }, (_, i) => `Disallow: /p${i}/*x$\n`).join('')) }] };
    const given = [...first, ...first.map((origin, index): GivenOrigin => ({ ...origin, key: `host${1000 + index}.test` }))];
    const paths = fc.sample(url, { numRuns: 20_000, seed: 7 });
    const lines = raw(paths.map((rest, index) => `http://host${(index * 7919) % 2100}.test/${rest}`).join('\n') + '\n');
    const path = writePack(given, 'google');
    const expected = await verdicts(expectedSource(given), ['Googlebot'], 'google', lines, 1 << 20);
    expect(expected.filter((verdict) => verdict === 2).length).toBeGreaterThan(1000);
    const fromBytes = RobotsPack.fromBytes(readFileSync(path));
    expect(await verdicts(robotsFromPack(fromBytes, { agents: ['Googlebot'], mode: 'google', maxBytes: DEFAULT_MAX_BYTES }), ['Googlebot'], 'google', lines, 1 << 20)).toEqual(expected);
    const file = openPackFile(path);
    try {
      expect(await verdicts(robotsFromPack(file.pack, { agents: ['Googlebot'], mode: 'google', maxBytes: DEFAULT_MAX_BYTES }), ['Googlebot'], 'google', lines, 1 << 20)).toEqual(expected);
      // as the input's last chunk: hosts met once get their rules in the landing block, in slots that cached
      // rules were evicted from (such a slot, refilled, never answers for the rules it held before)
      expect(await verdicts(robotsFromPack(file.pack, { agents: ['Googlebot'], mode: 'google', maxBytes: DEFAULT_MAX_BYTES }), ['Googlebot'], 'google', lines, 1 << 20, true)).toEqual(expected);
    } finally {
      file.close();
    }
  });

  it('a pack whose rules for the agent are within half the budget has them held (read once when the matcher opens, no read per host; no body and no other agent\'s rules), one over it read per host; both answer alike, and a budget that no longer holds it gives it up (its origins read per host), one that does takes it again', async () => {
    const given = Array.from({ length: 400 }, (_, i): GivenOrigin => ({ key: `host${i}.test`, captures: [{ effect: 'rules', body: raw(`User-agent: *\nDisallow: /p${i % 50}\nAllow: /p${i % 50}/open\n` + Array.from({ length: 120 }, (_, k) => `Disallow: /q${i % 50}-${k}*z\n`).join('')) }] }));
    // (hosts 400-409 have no entry: allowed)
    const urls = Array.from({ length: 3000 }, (_, n) => (n * 7919) % 410).map((h, n) => `http://host${h}.test/${n % 2 === 0 ? `p${h % 50}${n % 3 === 0 ? '/open' : ''}` : `q${h % 50}-3/z`}`);
    const lines = raw(urls.join('\n') + '\n');
    const expected = await verdicts(expectedSource(given), ['Googlebot'], 'google', lines);
    expect(expected.filter((verdict) => verdict === 2).length).toBeGreaterThan(500);
    const bytes = readFileSync(writePack(given, 'google'));
    // a storage that counts its reads
    let reads = 0;
    const counted = bytesStorage(bytes);
    const storage = { size: counted.size, read: (offset: number, length: number) => { reads++; return counted.read(offset, length); } };
    const pack = RobotsPack.open(storage, { verifyData: true });
    const source = robotsFromPack(pack, { agents: ['Googlebot'], mode: 'google', maxBytes: DEFAULT_MAX_BYTES });
    const dataBytes = bytes.length - HEADER_BYTES - getU64(new DataView(bytes.buffer, bytes.byteOffset), H_INDEX_LENGTH);
    // held: Googlebot's blob of each origin's newest body (here the star groups'), more than half of 1 MiB
    // and less than half of 4 with the index; less than the data, which hold the bodies too
    const agentBytes = pack.agentBlobs('Googlebot').length;
    // (each of the 50 bodies names only `*`: its one blob is held, the body is not)
    const bodiesBytes = given.slice(0, 50).reduce((sum, origin) => sum + origin.captures[0].body.length, 0);
    expect([agentBytes, agentBytes > 1 << 19]).toEqual([dataBytes - bodiesBytes, true]);
    const held = new MultiHostMatcher({ agents: ['Googlebot'], source, cacheBytes: 4 << 20 });
    const small = new MultiHostMatcher({ agents: ['Googlebot'], source, cacheBytes: 1 << 20 });
    try {
      expect(held.stats.packHeldBytes).toBeGreaterThanOrEqual(agentBytes);
      expect(held.stats.packHeldBytes).toBeLessThan(dataBytes);
      const readsAtOpen = reads;
      expect([...(await held.checkLinesWithOutput(lines, { format: 'none' })).verdicts]).toEqual(expected);
      // (every origin answered in the core, by a slot per compiled rule set of the pack made when it was held:
      // none of them in the cache, whose clock evicts only what it read)
      expect([reads - readsAtOpen, held.stats.packed, held.stats.missing, held.stats.cachedHosts]).toEqual([0, 400, 10, 0]);
      // half of 1 MiB holds less than the data: each body's rules read as hosts are met
      expect(small.stats.packHeldBytes).toBe(0);
      expect([...(await small.checkLinesWithOutput(lines, { format: 'none' })).verdicts]).toEqual(expected);
      expect(reads - readsAtOpen).toBeGreaterThanOrEqual(50);
      // a smaller budget: the data given up with every slot that pointed into it, the next lines read per host
      held.setBudget(1 << 20);
      expect([held.stats.packHeldBytes, held.stats.cachedHosts]).toEqual([0, 0]);
      const before = reads;
      expect([...(await held.checkLinesWithOutput(lines, { format: 'none' })).verdicts]).toEqual(expected);
      expect(reads - before).toBeGreaterThanOrEqual(50);
      held.setBudget(4 << 20);
      expect(held.stats.packHeldBytes).toBeGreaterThanOrEqual(agentBytes);
      expect([...(await held.checkLinesWithOutput(lines, { format: 'none', last: true })).verdicts]).toEqual(expected);
    } finally {
      held.close();
      small.close();
    }
  });

  it('a pack over the 1 MiB its data is read through has the agent\'s rules copied across the pieces, whether its data is checked as they are read or was checked at open (then only where they lie is read); each answers as its inputs, for the agent a body names and for one it does not; an index whose rule sets overlap (edited) has each copied whole, answering as read per host', async () => {
    // 40 bodies, each with a Googlebot group and a star group of ~900 rules (tens of KB compiled each)
    const given = Array.from({ length: 40 }, (_, i): GivenOrigin => ({ key: `big${i}.test`, captures: [{ effect: 'rules', body: raw(
      `User-agent: Googlebot\nDisallow: /g${i}\n` + Array.from({ length: 900 }, (_, k) => `Disallow: /x${i}-${k}*y$\n`).join('') +
      `\nUser-agent: *\nDisallow: /s${i}\n` + Array.from({ length: 900 }, (_, k) => `Allow: /s${i}/${k}*z\n`).join('')) }] }));
    const urls = given.flatMap((_, i) => [`http://big${i}.test/g${i}`, `http://big${i}.test/x${i}-${(i * 37) % 900}ay`, `http://big${i}.test/x${i}-3ay/n`, `http://big${i}.test/s${i}/${(i * 11) % 900}az`, `http://big${i}.test/s${i}/q`, `http://big${i}.test/`]);
    const lines = raw(urls.join('\n') + '\n');
    const path = writePack(given, 'google');
    for (const agent of ['Googlebot', 'Bingbot']) {
      const expected = await verdicts(expectedSource(given), [agent], 'google', lines);
      expect(new Set(expected)).toEqual(new Set([1, 2]));
      for (const dataCheckOwed of [true, false]) {
        const file = openPackFile(path, { dataCheckOwed });
        try {
          const held = file.pack.agentBlobs(agent);
          const dataBytes = file.pack.dataLength;
          expect([dataBytes > 2 << 20, held.blobs.length]).toEqual([true, 40]);
          // a rule set held lies across a piece's end (pieces of 1 MiB from the data's start)
          const view = new DataView(readFileSync(path).buffer);
          const layout = indexLayout({ buckets: view.getUint32(H_BUCKETS, true), origins: view.getUint32(H_ORIGINS, true), captures: view.getUint32(H_CAPTURES, true), bodies: view.getUint32(H_BODIES, true), tokens: view.getUint32(H_TOKENS, true), blobs: view.getUint32(H_BLOBS, true), stringBytes: 0 });
          const indexAt = getU64(view, H_INDEX_OFFSET);
          const across = [...held.blobs].some((blob) => {
            const offset = getU64(view, indexAt + layout.blobs + blob * BLOB_BYTES) - HEADER_BYTES;
            return Math.floor(offset / (1 << 20)) !== Math.floor((offset + file.pack.blobLength(blob) - 1) / (1 << 20));
          });
          expect(across).toBe(true);
          const matcher = new MultiHostMatcher({ agents: [agent], source: robotsFromPack(file.pack, { agents: [agent], mode: 'google', maxBytes: DEFAULT_MAX_BYTES }), cacheBytes: 64 << 20 });
          try {
            expect(matcher.stats.packHeldBytes).toBeGreaterThanOrEqual(held.length);
            expect([...(await matcher.checkLinesWithOutput(lines, { format: 'none' })).verdicts], `${agent}, check owed ${dataCheckOwed}`).toEqual(expected);
            expect([matcher.stats.packed, matcher.stats.cachedHosts]).toEqual([40, 0]);
          } finally {
            matcher.close();
          }
        } finally {
          file.close();
        }
      }
    }
    // an index whose two rule sets overlap (edited, every checksum made again; no writer makes it): one held
    // rule set that lies across a piece's end named again for another body; held, each is copied whole, and
    // the other body's hosts answer by the first's rules, as read per host
    const bytes = readFileSync(path);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    const layout = indexLayout({ buckets: view.getUint32(H_BUCKETS, true), origins: view.getUint32(H_ORIGINS, true), captures: view.getUint32(H_CAPTURES, true), bodies: view.getUint32(H_BODIES, true), tokens: view.getUint32(H_TOKENS, true), blobs: view.getUint32(H_BLOBS, true), stringBytes: 0 });
    const indexOffset = getU64(view, H_INDEX_OFFSET);
    const opened = openPackFile(path);
    const googlebotBlobs = [...opened.pack.agentBlobs('Googlebot').blobs];
    opened.close();
    const blobAt = (blob: number): number => indexOffset + layout.blobs + blob * BLOB_BYTES;
    const across = googlebotBlobs.findIndex((blob) => {
      const offset = getU64(view, blobAt(blob)) - HEADER_BYTES;
      return Math.floor(offset / (1 << 20)) !== Math.floor((offset + view.getUint32(blobAt(blob) + 8, true) - 1) / (1 << 20));
    });
    expect(across).toBeGreaterThan(0);
    // (the blobs are in body order: body i's Googlebot rules are googlebotBlobs[i]; body 0's now point at body `across`'s)
    bytes.copyWithin(blobAt(googlebotBlobs[0]), blobAt(googlebotBlobs[across]), blobAt(googlebotBlobs[across]) + BLOB_BYTES);
    view.setUint32(H_INDEX_CRC, crc32(bytes.subarray(indexOffset, indexOffset + getU64(view, H_INDEX_LENGTH))), true);
    view.setUint32(H_HEADER_CRC, crc32(bytes.subarray(0, H_HEADER_CRC)), true);
    const edited = join(dir, 'overlapping.pack');
    writeFileSync(edited, bytes);
    const asEdited = given.map((origin, i) => (i === 0 ? { ...origin, captures: [{ ...origin.captures[0], body: given[across].captures[0].body }] } : origin));
    // (the host names stay: big0.test now answers with body `across`'s Googlebot rules, which name other paths)
    const expected = await verdicts(expectedSource(asEdited), ['Googlebot'], 'google', lines);
    for (const dataCheckOwed of [true, false]) {
      const file = openPackFile(edited, { dataCheckOwed });
      try {
        for (const cacheBytes of [64 << 20, 1 << 20]) {
          expect(await verdicts(robotsFromPack(file.pack, { agents: ['Googlebot'], mode: 'google', maxBytes: DEFAULT_MAX_BYTES }), ['Googlebot'], 'google', lines, cacheBytes), `check owed ${dataCheckOwed}, cache ${cacheBytes}`).toEqual(expected);
        }
      } finally {
        file.close();
      }
    }
  });

  it('a pack opened to be checked piece by piece whose rules for the agent are held has each blob held checked as it is read: one damaged is refused before any line (the matcher not made), naming the pack and the blob; a damaged body, never read, is not', async () => {
    const given = Array.from({ length: 20 }, (_, i): GivenOrigin => ({ key: `host${i}.test`, captures: [{ effect: 'rules', body: raw(`User-agent: *\nDisallow: /p${i}\n`) }] }));
    const bytes = readFileSync(writePack(given, 'google'));
    const open = (of: Uint8Array): RobotsPack => RobotsPack.open(bytesStorage(of), { name: "'damaged.pack'", verifyData: false });
    const source = (pack: RobotsPack): ReturnType<typeof robotsFromPack> => robotsFromPack(pack, { agents: ['Googlebot'], mode: 'google', maxBytes: DEFAULT_MAX_BYTES });
    // the first blob held (host0.test's body's star blob) and the first body
    const pack = open(bytes);
    const first = pack.agentBlobs('Googlebot').blobs[0];
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    const index = new DataView(bytes.buffer, bytes.byteOffset + getU64(view, H_INDEX_OFFSET));
    const layout = indexLayout({ buckets: view.getUint32(H_BUCKETS, true), origins: view.getUint32(H_ORIGINS, true), captures: view.getUint32(H_CAPTURES, true), bodies: view.getUint32(H_BODIES, true), tokens: view.getUint32(H_TOKENS, true), blobs: view.getUint32(H_BLOBS, true), stringBytes: 0 });
    const blobOffset = getU64(index, layout.blobs + first * BLOB_BYTES);
    const bodyOffset = getU64(index, layout.bodies);
    const inBlob = Uint8Array.from(bytes);
    inBlob[blobOffset + 3] ^= 0xff;
    expect(() => new MultiHostMatcher({ agents: ['Googlebot'], source: source(open(inBlob)) })).toThrow(new RobotsError('PACK_INVALID', `'damaged.pack' is damaged: its blob ${first} fails its checksum (rebuild it with robotstxt pack)`));
    const inBody = Uint8Array.from(bytes);
    inBody[bodyOffset] ^= 0xff;
    const matcher = new MultiHostMatcher({ agents: ['Googlebot'], source: source(open(inBody)) });
    try {
      expect(matcher.stats.packHeldBytes).toBeGreaterThan(0);
      expect([...(await matcher.checkUrls(['http://host0.test/p0', 'http://host0.test/q', 'http://host7.test/p7']))]).toEqual([2, 1, 2]);
    } finally {
      matcher.close();
    }
  });

  it('a pack opened without the whole check (as check --pack opens it) has its data read once when held, checked as they are read; one not held is checked whole when the matcher opens (one opened to be checked piece by piece is not): a damaged one refused before any line, for one agent or several', () => {
    const given = Array.from({ length: 400 }, (_, i): GivenOrigin => ({ key: `host${i}.test`, captures: [{ effect: 'rules', body: raw(`User-agent: *\nDisallow: /p${i % 50}\n` + Array.from({ length: 120 }, (_, k) => `Disallow: /q${i % 50}-${k}*z\n`).join('')) }] }));
    const bytes = readFileSync(writePack(given, 'google'));
    const dataBytes = bytes.length - HEADER_BYTES - getU64(new DataView(bytes.buffer, bytes.byteOffset), H_INDEX_LENGTH);
    // a storage that counts the data area's bytes read
    const counting = (of: Uint8Array): { storage: { size: number; read(offset: number, length: number): Uint8Array }; dataRead: () => number } => {
      let dataRead = 0;
      const inner = bytesStorage(of);
      const storage = { size: inner.size, read: (offset: number, length: number) => {
        dataRead += Math.max(0, Math.min(offset + length, HEADER_BYTES + dataBytes) - Math.max(offset, HEADER_BYTES));
        return inner.read(offset, length);
      } };
      return { storage, dataRead: () => dataRead };
    };
    const good = counting(bytes);
    const held = new MultiHostMatcher({ agents: ['Googlebot'], source: robotsFromPack(RobotsPack.open(good.storage, { verifyData: 'owed' }), { agents: ['Googlebot'], mode: 'google', maxBytes: DEFAULT_MAX_BYTES }), cacheBytes: 4 << 20 });
    try {
      // (the whole data read once, through one buffer, for the check; only the agent's rules held)
      expect([held.stats.packHeldBytes > 0, held.stats.packHeldBytes < dataBytes, good.dataRead()]).toEqual([true, true, dataBytes]);
    } finally {
      held.close();
    }
    // not held (half of 1 MiB is less than the data): read whole once for the check when the matcher opens
    const notHeld = counting(bytes);
    const small = new MultiHostMatcher({ agents: ['Googlebot'], source: robotsFromPack(RobotsPack.open(notHeld.storage, { verifyData: 'owed' }), { agents: ['Googlebot'], mode: 'google', maxBytes: DEFAULT_MAX_BYTES }), cacheBytes: 1 << 20 });
    try {
      expect([small.stats.packHeldBytes, notHeld.dataRead()]).toEqual([0, dataBytes]);
    } finally {
      small.close();
    }
    // opened to be checked piece by piece (a pack file over 1 GiB): never read whole for a check
    const pieces = counting(bytes);
    const byPiece = new MultiHostMatcher({ agents: ['Googlebot'], source: robotsFromPack(RobotsPack.open(pieces.storage, { verifyData: false }), { agents: ['Googlebot'], mode: 'google', maxBytes: DEFAULT_MAX_BYTES }), cacheBytes: 1 << 20 });
    try {
      expect(pieces.dataRead()).toBe(0);
    } finally {
      byPiece.close();
    }
    const damaged = Uint8Array.from(bytes);
    damaged[HEADER_BYTES + dataBytes - 5] ^= 0xff;
    const refusal = new RobotsError('PACK_INVALID', "'damaged.pack' is damaged: its data fails its checksum (rebuild it with robotstxt pack)");
    for (const agents of [['Googlebot'], ['Googlebot', 'Bingbot']]) {
      const source = robotsFromPack(RobotsPack.open(bytesStorage(damaged), { name: "'damaged.pack'", verifyData: 'owed' }), { agents, mode: 'google', maxBytes: DEFAULT_MAX_BYTES });
      expect(() => new MultiHostMatcher({ agents, source, cacheBytes: 1 << 20 })).toThrow(refusal);
    }
  });

  it('a pack that does not say which kinds of origin keys it holds (built before packs said so) is looked up by every kind: store key, host:port, host', async () => {
    const given: GivenOrigin[] = [
      { key: 'https@s.test', captures: [{ effect: 'rules', body: raw('User-agent: *\nDisallow: /s\n') }] },
      { key: 'p.test:8080', captures: [{ effect: 'rules', body: raw('User-agent: *\nDisallow: /p\n') }] },
      { key: 'h.test', captures: [{ effect: 'rules', body: raw('User-agent: *\nDisallow: /h\n') }] },
    ];
    const lines = raw(['https://s.test/s', 'http://s.test/s', 'http://p.test:8080/p', 'http://p.test/p', 'https://h.test/h', 'http://h.test:81/h'].join('\n') + '\n');
    const bytes = readFileSync(writePack(given, 'google'));
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    // this build says: every kind (2 | 4 | 8 | 16); an older one said nothing (0)
    expect(view.getUint32(H_FLAGS, true)).toBe(2 | 4 | 8 | 16);
    const answers = async (packBytes: Uint8Array): Promise<number[]> => verdicts(robotsFromPack(RobotsPack.fromBytes(packBytes), { agents: ['Googlebot'], mode: 'google', maxBytes: DEFAULT_MAX_BYTES }), ['Googlebot'], 'google', lines);
    // https://s.test by its store key only (http://s.test has none: missing, allowed); p.test:8080 by host:port
    // only; h.test by host, any port
    expect(await answers(bytes)).toEqual([2, 1, 2, 1, 2, 2]);
    view.setUint32(H_FLAGS, 0, true);
    view.setUint32(H_HEADER_CRC, crc32(bytes.subarray(0, H_HEADER_CRC)), true);
    expect(await answers(bytes)).toEqual([2, 1, 2, 1, 2, 2]);
  });

  it('hosts met once (the input\'s last chunk, input host by host) get their body\'s rules in the landing block for a round, read again when met again; a host of 512 lines or more is kept', async () => {
    // 300 bodies, each its own rules (a slot left from an earlier round would answer wrongly), every tenth
    // with 400 rules (~20 KB compiled: a 1 MiB budget's 64 KiB landing block fills after a few), each under
    // two names; host0.test brings 600 lines
    const given: GivenOrigin[] = [];
    for (let i = 0; i < 300; i++) {
      const extra = i % 10 === 0 ? Array.from({ length: 400 }, (_, k) => `Disallow: /q${i}-${k}*z\n`).join('') : '';
      const text = raw(`User-agent: *\nDisallow: /p${i}\nAllow: /p${i}/open\n${extra}`);
      given.push({ key: `host${i}.test`, captures: [{ effect: 'rules', body: text }] }, { key: `twin${i}.test`, captures: [{ effect: 'rules', body: text }] });
    }
    const urls: string[] = [];
    for (const origin of given) {
      const i = Number(origin.key.replace(/\D/g, ''));
      const repeat = origin.key === 'host0.test' ? 200 : 1;
      for (let r = 0; r < repeat; r++) urls.push(`http://${origin.key}/p${i}`, `http://${origin.key}/p${i}/open`, `http://${origin.key}/q${i}-3/z`);
    }
    urls.sort(); // host by host
    const lines = raw(urls.join('\n') + '\n');
    const expected = await verdicts(expectedSource(given), ['Googlebot'], 'google', lines, 1 << 20);
    // (/p<i> of every other origin, /q<i>-3/z of the 59 other ones with the long bodies, two of host0.test's three lines 200 times)
    expect(expected.filter((verdict) => verdict === 2).length).toBe(599 + 59 + 2 * 200);
    const pack = RobotsPack.fromBytes(readFileSync(writePack(given, 'google')));
    const matcher = new MultiHostMatcher({ agents: ['Googlebot'], source: robotsFromPack(pack, { agents: ['Googlebot'], mode: 'google', maxBytes: DEFAULT_MAX_BYTES }), cacheBytes: 1 << 20 });
    try {
      const first = await matcher.checkLinesWithOutput(lines, { format: 'none', last: true });
      expect([...first.verdicts]).toEqual(expected);
      // every origin read, only host0.test's rules kept
      expect([matcher.stats.packed, matcher.stats.cachedHosts, matcher.stats.compiled]).toEqual([600, 1, 0]);
      const again = await matcher.checkLinesWithOutput(lines, { format: 'none', last: true });
      expect([...again.verdicts]).toEqual(expected);
      // read again: all but host0.test and twin0.test (its body's, found in the cache the first time)
      expect([matcher.stats.packed, matcher.stats.cachedHosts]).toEqual([600 + 598, 1]);
    } finally {
      matcher.close();
    }
  });

  it('a reading limit other than the pack\'s is refused: the pack answers with the bodies as they were cut', () => {
    const path = writePack([{ key: 'a.test', captures: [{ effect: 'rules', body: raw('User-agent: *\nDisallow: /x\n') }] }], 'google', 0);
    const pack = RobotsPack.fromBytes(readFileSync(path));
    expect(pack.maxBytes).toBe(0);
    expect(() => robotsFromPack(pack, { agents: ['bot'], mode: 'google', maxBytes: DEFAULT_MAX_BYTES })).toThrow(new RobotsError('INVALID_ARGUMENT', "the pack's bodies were read up to their end; it answers with that reading only (maxBytes 0), not 512000"));
  });
});

/**
 * body with bit 0 of some of its comment's letters flipped so that its CRC-32 is crc (the CRC is affine in the
 * bits: each flip changes it by a fixed amount, so a set of flips is found by elimination over GF(2)).
 */
function withCrc32(body: Uint8Array, crc: number): Uint8Array {
  const letters = [...body.keys()].filter((i) => body[i] >= 0x61 && body[i] <= 0x7a && body.lastIndexOf(0x23, i) > body.lastIndexOf(0x0a, i)).slice(0, 64);
  const base = crc32(body);
  // rows: [the CRC change of a set of flips, the set as a bit mask over letters]
  const rows: [number, bigint][] = letters.map((at, k) => {
    const flipped = body.slice();
    flipped[at] ^= 1;
    return [(crc32(flipped) ^ base) >>> 0, 1n << BigInt(k)];
  });
  let want: [number, bigint] = [(crc ^ base) >>> 0, 0n];
  for (let bit = 31; bit >= 0; bit--) {
    const pivot = rows.findIndex(([value]) => ((value >>> bit) & 1) === 1);
    if (pivot < 0) continue;
    const [value, mask] = rows.splice(pivot, 1)[0];
    for (const row of rows) if (((row[0] >>> bit) & 1) === 1) { row[0] = (row[0] ^ value) >>> 0; row[1] ^= mask; }
    if (((want[0] >>> bit) & 1) === 1) want = [(want[0] ^ value) >>> 0, want[1] ^ mask];
  }
  if (want[0] !== 0) throw new Error('no set of flips gives that CRC-32');
  const forged = body.slice();
  letters.forEach((at, k) => { if (((want[1] >> BigInt(k)) & 1n) === 1n) forged[at] ^= 1; });
  return forged;
}

describe('a pack\'s bodies: each distinct body written once, two bodies one only when their bytes are equal', () => {
  it('bodies of the same length and CRC-32 but other bytes each keep their own rules; equal bodies are written once, whether the first is still in the writer\'s buffer or already in the file', async () => {
    const comment = '# ' + 'abcdefghijklmnopqrstuvwxyz'.repeat(3) + '\n';
    const first = raw(`User-agent: *\nDisallow: /p0\n${comment}`);
    // five more bodies of first's length and CRC-32, each disallowing its own path
    const forged = [1, 2, 3, 4, 5].map((n) => withCrc32(raw(`User-agent: *\nDisallow: /p${n}\n${comment}`), crc32(first)));
    for (const body of forged) expect([body.length, crc32(body), Buffer.from(body).equals(first)]).toEqual([first.length, crc32(first), false]);
    // a body of 1.5 MB (written to the file at once, not buffered) and enough others to push the first ones out of the buffer
    const large = raw(`User-agent: *\nDisallow: /large\n# ${'x'.repeat(1_500_000)}\n`);
    const fillers = Array.from({ length: 40 }, (_, n) => raw(`User-agent: *\nDisallow: /filler${n}\n# ${'y'.repeat(40_000)}\n`));
    const given: [string, Uint8Array][] = [
      ['p0.test', first], ['twin-p0.test', first], ...forged.map((body, n): [string, Uint8Array] => [`p${n + 1}.test`, body]), ['large.test', large],
      ...fillers.map((body, n): [string, Uint8Array] => [`filler${n}.test`, body]),
      ['again-p0.test', first], ['again-p2.test', forged[1]], ['again-large.test', large], ['again-p5.test', forged[4]],
    ];
    const path = join(dir, `p${packs++}.pack`);
    const writer = new PackWriter(path, { reading: { mode: 'google', maxBytes: 0 } });
    for (const [key, body] of given) writer.addOrigin(key, [{ time: null, effect: 'rules', body, status: 200, hops: 0 }]);
    const written = writer.finish();
    // six bodies share a key: the first four are compared with (DEDUP_CANDIDATES), so p5 met again is written again, never lost
    expect([written.origins, written.bodies, written.bodiesGiven]).toEqual([given.length, 1 + 5 + 1 + 40 + 1, given.length]);
    const pack = RobotsPack.fromBytes(readFileSync(path));
    const paths = ['/p0', '/p1', '/p2', '/p3', '/p4', '/p5', '/large', '/filler0'];
    const lines = raw(given.map(([key]) => paths.map((p) => `https://${key}${p}`)).flat().join('\n') + '\n');
    const expected = await verdicts(expectedSource(given.map(([key, body]) => ({ key, captures: [{ effect: 'rules', body }] }))), ['Googlebot'], 'google', lines, undefined, false);
    // each origin disallows one of the paths asked, its own (a p-body merged with another would disallow another's)
    const disallowed = expected.map((verdict, i) => [verdict, i] as const).filter(([verdict]) => verdict === expected[0]).map(([, i]) => `${given[Math.floor(i / paths.length)][0]} ${paths[i % paths.length]}`);
    expect(expected[0]).not.toBe(expected[1]); // p0.test: /p0 disallowed, /p1 allowed
    expect(disallowed.slice(0, 8)).toEqual(['p0.test /p0', 'twin-p0.test /p0', 'p1.test /p1', 'p2.test /p2', 'p3.test /p3', 'p4.test /p4', 'p5.test /p5', 'large.test /large']);
    expect(disallowed.slice(-4)).toEqual(['again-p0.test /p0', 'again-p2.test /p2', 'again-large.test /large', 'again-p5.test /p5']);
    expect(disallowed.length).toBe(given.length - 39); // fillers disallow /fillerN: only filler0's is asked
    expect(await verdicts(robotsFromPack(pack, { agents: ['Googlebot'], mode: 'google', maxBytes: 0 }), ['Googlebot'], 'google', lines)).toEqual(expected);
  });
});

const ROBOTS = join('examples', 'robots');
const HOSTS_URLS = join('examples', 'hosts-urls.txt');

/** The hosts part of check --pack --stats over HOSTS_URLS for Googlebot (up to the evictions). */
function hostsStats(pack: string, cacheMb: string): string {
  const stats = robotstxt(['check', '--pack', pack, '--agent', 'Googlebot', '--stats', '--cache-mb', cacheMb, HOSTS_URLS]).stderr.split('\n').find((line) => line.startsWith('robotstxt: stats: ')) ?? '';
  return stats.replace(/^.*; hosts: /, '').replace(/, \d+ evicted.*$/, '');
}

describe('robotstxt pack and check --pack', () => {
  const pack = join(dir, 'examples.pack');
  // the examples' pack, for every test here (the first makes it again and reads what pack says)
  beforeAll(() => {
    expect(robotstxt(['pack', '--robots-dir', ROBOTS, '--out', pack]).status).toBe(0);
  });
  it('packs a robots folder; check --pack answers every line as check --robots-dir does, for each crawler and output', () => {
    const made = robotstxt(['pack', '--robots-dir', ROBOTS, '--out', pack]);
    expect(made.status).toBe(0);
    expect(made.stderr).toMatch(new RegExp(`^robotstxt pack: 5 origins \\(5 captures\\), 5 distinct bodies \\([\\d.]+ kB of [\\d.]+ kB given\\), 11 compiled rule sets \\([\\d.]+ kB\\); ${pack.replaceAll('.', '\\.')}: [\\d.]+ kB\n$`));
    const runs: [string, string[]][] = [['Googlebot', []], ['Googlebot', ['--format', 'jsonl']], ['Bingbot', ['--only', 'disallowed']], ['GPTBot', []], ['GPTBot', ['--format', 'jsonl']], ['other', ['--missing', 'disallow']]];
    for (const [agent, extra] of runs) {
      const byDir = robotstxt(['check', '--robots-dir', ROBOTS, '--agent', agent, ...extra, HOSTS_URLS]);
      const byPack = robotstxt(['check', '--pack', pack, '--agent', agent, ...extra, HOSTS_URLS]);
      expect([byPack.status, byPack.stdout], `${agent} ${extra.join(' ')}`).toEqual([byDir.status, byDir.stdout]);
      expect(byDir.stdout.length, `${agent} ${extra.join(' ')}`).toBeGreaterThan(extra[0] === '--only' ? 10 : 100);
    }
    // a pack this small has its rules for the agent held (within half the cache; a pack over half of it is read per host: below)
    expect(hostsStats(pack, '64')).toBe('0 compiled, 0 answered from their file, 6 from the pack (its rules for the agent held: 25 KiB), 1 without robots.txt');
    // what the folder calls a host with no file, the pack calls an origin without an entry
    expect(robotstxt(['check', '--pack', pack, '--agent', 'Googlebot', HOSTS_URLS]).stderr.split('\n')).toContain(`robotstxt: 1 origin(s) have no entry in the pack ${pack} (https://nofile.example): their URLs were answered as allowed (--missing allow; --missing disallow or error for hosts whose rules must be known)`);
  });

  it('a pack larger than the cache (--cache-mb 1, a compiled rule set of 1 MB among small ones) answers alike', () => {
    const big = join(dir, 'big');
    mkdirSync(big);
    for (const name of ['shop.example', 'blog.example', 'docs.example']) copyFileSync(join(ROBOTS, `${name}.txt`), join(big, `${name}.txt`));
    // 400 KB of rules (its compiled rules larger still) make the pack larger than the cache
    writeFileSync(join(big, 'news.example.txt'), 'User-agent: *\n' + Array.from({ length: 20_000 }, (_, i) => `Disallow: /n${i}$\n`).join(''));
    const bigPack = join(dir, 'big.pack');
    expect(robotstxt(['pack', '--robots-dir', big, '--out', bigPack]).status).toBe(0);
    const byDir = robotstxt(['check', '--robots-dir', big, '--agent', 'Googlebot', '--cache-mb', '1', HOSTS_URLS]);
    const byPack = robotstxt(['check', '--pack', bigPack, '--agent', 'Googlebot', '--cache-mb', '1', HOSTS_URLS]);
    expect([byPack.status, byPack.stdout]).toEqual([byDir.status, byDir.stdout]);
    // over half the cache: read per host, never held
    expect(hostsStats(bigPack, '1')).toBe('0 compiled, 0 answered from their file, 5 from the pack, 2 without robots.txt');
  });

  it('pages --pack and page --pack answer each page as --robots-dir and --store do; an origin without an entry is counted', { tags: ['slow'] }, () => {
    const crawl = join('examples', 'pages', 'crawl.jsonl');
    const withOther = join(dir, 'crawl-other.jsonl');
    writeFileSync(withOther, readFileSync(crawl, 'utf8') + JSON.stringify({ url: 'https://elsewhere.example/a', status: 200, headers: { 'Content-Type': 'text/html' } }) + '\n');
    for (const format of ['jsonl', 'text']) {
      const byDir = robotstxt(['pages', '--robots-dir', ROBOTS, '--agent', 'Googlebot', '--format', format, '--now', '2026-12-01T00:00:00Z', withOther]);
      const byPack = robotstxt(['pages', '--pack', pack, '--agent', 'Googlebot', '--format', format, '--now', '2026-12-01T00:00:00Z', withOther]);
      expect([byPack.status, byPack.stdout, byPack.stderr], format).toEqual([byDir.status, byDir.stdout, byDir.stderr]);
      expect(byPack.stdout.split('\n').length).toBeGreaterThan(6);
    }
    const one = ['https://shop.example/cart/x', '--agent', 'Googlebot', '--header', 'X-Robots-Tag: noindex'];
    const byPack = robotstxt(['page', ...one, '--pack', pack]);
    const byRobots = robotstxt(['page', ...one, '--robots', join(ROBOTS, 'shop.example.txt')]);
    expect([byPack.status, byPack.stdout]).toEqual([byRobots.status, byRobots.stdout]);
    expect(byPack.stdout).toMatch(/disallowed/);
    const none = robotstxt(['page', 'https://elsewhere.example/', '--agent', 'Googlebot', '--pack', pack]);
    expect(none.stderr).toBe(`robotstxt: the pack ${pack} has no entry of https://elsewhere.example: its URLs are answered as allowed\n`);
  });

  it('a pack that is cut, damaged, no pack, or missing is refused in one line, exit 2, before any line is answered', () => {
    const bytes = readFileSync(pack);
    const cut = join(dir, 'cut.pack');
    writeFileSync(cut, bytes.subarray(0, 1000));
    const damaged = join(dir, 'damaged.pack');
    const flipped = Buffer.from(bytes);
    flipped[bytes.length - 500] ^= 0x20;
    writeFileSync(damaged, flipped);
    const header = join(dir, 'header.pack');
    const otherHeader = Buffer.from(bytes);
    otherHeader[20] ^= 1;
    writeFileSync(header, otherHeader);
    // a pack of another format, its header otherwise whole (its checksum made again)
    const older = join(dir, 'older.pack');
    const olderHeader = Buffer.from(bytes);
    olderHeader.writeUInt32LE(PACK_FORMAT + 1, H_FORMAT);
    olderHeader.writeUInt32LE(crc32(olderHeader.subarray(0, H_HEADER_CRC)), H_HEADER_CRC);
    writeFileSync(older, olderHeader);
    const gzipped = join(dir, 'pack.gz');
    writeFileSync(gzipped, gzipSync(bytes));
    const cases: [string, string][] = [
      [cut, `robotstxt: '${cut}' is cut or damaged: 1000 bytes where its header says ${bytes.length} (rebuild it with robotstxt pack)\n`],
      [damaged, `robotstxt: '${damaged}' is damaged: its index fails its checksum (rebuild it with robotstxt pack)\n`],
      [header, `robotstxt: '${header}' is damaged: its header fails its checksum (rebuild it with robotstxt pack)\n`],
      [older, `robotstxt: '${older}' was packed by another version of robotstxt-wasm (format ${PACK_FORMAT + 1}, engine ${ENGINE_SEMANTICS.toString(16)}; this one reads format ${PACK_FORMAT}, engine ${ENGINE_SEMANTICS.toString(16)}): rebuild it with robotstxt pack\n`],
      [gzipped, `robotstxt: '${gzipped}' is not a robots.txt pack (robotstxt pack makes one)\n`],
      [join('examples', 'shop-robots.txt'), "robotstxt: 'examples/shop-robots.txt' is not a robots.txt pack (robotstxt pack makes one)\n"],
      [join(dir, 'absent.pack'), `robotstxt: cannot read pack '${join(dir, 'absent.pack')}': no such file\n`],
      [dir, `robotstxt: cannot read pack '${dir}': is a directory\n`],
    ];
    for (const [index, [file, message]] of cases.entries()) {
      // every refusal by check; audit's (the same opening) for the first three
      const commands = [['check', '--pack', file, '--agent', 'Googlebot', HOSTS_URLS], ...(index < 3 ? [['audit', '--pack', file, join('examples', 'access.log')]] : [])];
      for (const command of commands) {
        const result = robotstxt(command);
        expect([result.status, result.stdout, result.stderr], command.join(' ')).toEqual([2, '', message]);
      }
    }
  });

  it('a pack a crash left half on disk (the build does not fsync: pages never written read as zeros) is refused in one line, exit 2: its header, its data or its index zeroed', () => {
    const bytes = readFileSync(pack);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    const indexOffset = getU64(view, H_INDEX_OFFSET);
    const zeroed = (name: string, from: number, to: number): string => {
      const file = join(dir, name);
      const copy = Buffer.from(bytes);
      copy.fill(0, from, to);
      writeFileSync(file, copy);
      return file;
    };
    const cases: [string, string][] = [
      [zeroed('all-zeros.pack', 0, bytes.length), 'is not a robots.txt pack (robotstxt pack makes one)'],
      [zeroed('data-zeros.pack', HEADER_BYTES, indexOffset), 'is damaged: its data fails its checksum (rebuild it with robotstxt pack)'],
      [zeroed('index-zeros.pack', indexOffset, bytes.length), 'is damaged: its index fails its checksum (rebuild it with robotstxt pack)'],
    ];
    for (const [file, message] of cases) {
      const result = robotstxt(['check', '--pack', file, '--agent', 'Googlebot', HOSTS_URLS]);
      expect([result.status, result.stdout, result.stderr]).toEqual([2, '', `robotstxt: '${file}' ${message}\n`]);
    }
  });

  it('a damaged body: the file refused at open, before any line is answered; a pack opened without the whole check refuses the piece when it is read, naming the pack', () => {
    const bytes = readFileSync(pack);
    const damaged = join(dir, 'damaged-body.pack');
    const flipped = Buffer.from(bytes);
    // the first body starts right after the 96-byte header
    flipped[100] ^= 0x20;
    writeFileSync(damaged, flipped);
    const whole = robotstxt(['check', '--pack', damaged, '--agent', 'Googlebot', HOSTS_URLS]);
    expect([whole.status, whole.stdout, whole.stderr]).toEqual([2, '', `robotstxt: '${damaged}' is damaged: its data fails its checksum (rebuild it with robotstxt pack)\n`]);
    expect(() => openPackFile(damaged)).toThrow(`'${damaged}' is damaged: its data fails its checksum (rebuild it with robotstxt pack)`);
    const piecewise = RobotsPack.open(bytesStorage(flipped), { name: 'the flipped pack' });
    expect(() => { for (let body = 0; body < piecewise.bodyCount; body++) piecewise.body(body); }).toThrow('the flipped pack is damaged: its body 0 fails its checksum (rebuild it with robotstxt pack)');
    // a blob damaged: refused when read into its target, and again when asked again
    const blobFlipped = Buffer.from(bytes);
    const intact = RobotsPack.fromBytes(bytes);
    const blobOffset = bytes.indexOf(Buffer.from(intact.blobAt(0)));
    expect(blobOffset).toBeGreaterThan(0);
    blobFlipped[blobOffset] ^= 0x01;
    const blobs = RobotsPack.open(bytesStorage(blobFlipped), { name: 'the other pack' });
    const target = new Uint8Array(blobs.blobLength(0));
    expect(() => blobs.blobInto(0, target)).toThrow('the other pack is damaged: its blob 0 fails its checksum (rebuild it with robotstxt pack)');
    expect(() => blobs.blobInto(0, target)).toThrow('the other pack is damaged: its blob 0 fails its checksum (rebuild it with robotstxt pack)');
    const good = new Uint8Array(intact.blobLength(0));
    intact.blobInto(0, good);
    expect(good).toEqual(intact.blobAt(0));
  });

  it('a pack whose compiled rules were edited with every checksum made again: the core cannot match them, and the pack is named (exit 2), never the input', () => {
    const bytes = Buffer.from(readFileSync(pack));
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    const indexOffset = getU64(view, H_INDEX_OFFSET);
    const indexLength = getU64(view, H_INDEX_LENGTH);
    const layout = indexLayout({ buckets: view.getUint32(H_BUCKETS, true), origins: view.getUint32(H_ORIGINS, true), captures: view.getUint32(H_CAPTURES, true), bodies: view.getUint32(H_BODIES, true), tokens: view.getUint32(H_TOKENS, true), blobs: view.getUint32(H_BLOBS, true), stringBytes: 0 });
    for (let blob = 0; blob < view.getUint32(H_BLOBS, true); blob++) {
      const at = indexOffset + layout.blobs + blob * BLOB_BYTES;
      const offset = getU64(view, at);
      const length = view.getUint32(at + 8, true);
      bytes.fill(0xff, offset + 16, offset + length); // past each blob's first 16 bytes: offsets no blob holds
      view.setUint32(at + 12, crc32(bytes.subarray(offset, offset + length)), true);
    }
    view.setUint32(H_INDEX_CRC, crc32(bytes.subarray(indexOffset, indexOffset + indexLength)), true);
    view.setUint32(H_DATA_CRC, crc32(bytes.subarray(HEADER_BYTES, indexOffset)), true);
    view.setUint32(H_HEADER_CRC, crc32(bytes.subarray(0, H_HEADER_CRC)), true);
    const edited = join(dir, 'edited.pack');
    writeFileSync(edited, bytes);
    const result = robotstxt(['check', '--pack', edited, '--agent', 'Googlebot', HOSTS_URLS]);
    expect([result.status, result.stdout, result.stderr]).toEqual([2, '', `robotstxt: '${edited}' holds compiled rules the core cannot match (the WebAssembly core trapped in matchGroups: memory access out of bounds): rebuild it with robotstxt pack\n`]);
  });

  it('a pack whose index names a capture, a body or a product token past its sections (edited, every checksum made again) is refused in one line naming the pack and the record (exit 2): the core, which answers a held pack\'s origins itself, leaves such an origin to the pack\'s reader', () => {
    const cases: [string, string, (view: DataView, at: (section: 'origins' | 'captures' | 'bodies', record: number) => number, counts: { origins: number; captures: number; bodies: number }) => void][] = [
      ['capture', 'a capture', (view, at, counts) => { for (let i = 0; i < counts.origins; i++) view.setUint32(at('origins', i) + 16, 0x1000_0000, true); }],
      ['body', 'a body', (view, at, counts) => { for (let i = 0; i < counts.captures; i++) view.setInt32(at('captures', i) + 8, 0x7fff_fff0, true); }],
      ['token', 'a product token', (view, at, counts) => { for (let i = 0; i < counts.bodies; i++) view.setUint32(at('bodies', i) + 20, 0x1000_0000, true); }],
    ];
    for (const [name, what, edit] of cases) {
      const bytes = Buffer.from(readFileSync(pack));
      const view = new DataView(bytes.buffer, bytes.byteOffset);
      const indexOffset = getU64(view, H_INDEX_OFFSET);
      const indexLength = getU64(view, H_INDEX_LENGTH);
      const counts = { origins: view.getUint32(H_ORIGINS, true), captures: view.getUint32(H_CAPTURES, true), bodies: view.getUint32(H_BODIES, true) };
      const layout = indexLayout({ buckets: view.getUint32(H_BUCKETS, true), ...counts, tokens: view.getUint32(H_TOKENS, true), blobs: view.getUint32(H_BLOBS, true), stringBytes: 0 });
      const sizes = { origins: 20, captures: 24, bodies: 32 };
      edit(view, (section, record) => indexOffset + layout[section] + record * sizes[section], counts);
      view.setUint32(H_INDEX_CRC, crc32(bytes.subarray(indexOffset, indexOffset + indexLength)), true);
      view.setUint32(H_HEADER_CRC, crc32(bytes.subarray(0, H_HEADER_CRC)), true);
      const edited = join(dir, `edited-${name}.pack`);
      writeFileSync(edited, bytes);
      const result = robotstxt(['check', '--pack', edited, '--agent', 'Googlebot', HOSTS_URLS]);
      expect([result.status, result.stdout, result.stderr], name).toEqual([2, '', `robotstxt: '${edited}' is damaged: its index names ${what} outside it (rebuild it with robotstxt pack)\n`]);
    }
  });

  it('usage --pack answers each URL by its origin\'s file in the pack, as usage with that file does; an origin without an entry as without robots.txt, named; a URL without an origin named, exit 2', () => {
    const urls = ['https://shop.example/cart', 'https://blog.example/drafts/x', 'https://docs.example/'];
    const byPack = robotstxt(['usage', '--pack', pack, ...urls, '--agent', 'GPTBot', '--format', 'json']);
    const byFiles = urls.map((url) => robotstxt(['usage', join(ROBOTS, `${new URL(url).host}.txt`), url, '--agent', 'GPTBot', '--format', 'json']).stdout).join('');
    expect([byPack.status, byPack.stdout, byPack.stderr]).toEqual([0, byFiles, '']);
    expect(JSON.parse(byPack.stdout.split('\n')[0]).crawl).toBe('disallowed');
    const purposes = robotstxt(['usage', '--pack', pack, 'https://shop.example/products/x', '--purpose', 'train-ai', '--agent', 'GPTBot']);
    expect(purposes.stdout).toBe(robotstxt(['usage', join(ROBOTS, 'shop.example.txt'), 'https://shop.example/products/x', '--purpose', 'train-ai', '--agent', 'GPTBot']).stdout);
    const none = robotstxt(['usage', '--pack', pack, 'https://nofile.example/a', '/relative', '--agent', 'GPTBot', '--format', 'json']);
    expect([none.status, JSON.parse(none.stdout).crawl, none.stdout.split('\n').length, none.stderr]).toEqual([2, 'allowed', 2,
      `robotstxt: 1 origin(s) have no entry in the pack ${pack} (https://nofile.example): their URLs were answered as with no robots.txt (every URL allowed, usage unknown)\nrobotstxt: '/relative' names no http:// or https:// origin: not answered (with --pack, a URL's origin says whose robots.txt answers it)\n`]);
    expect(robotstxt(['usage', '--pack', pack])).toEqual({ status: 2, stdout: '', stderr: 'robotstxt: usage --pack needs at least one <url>, got 0 (see robotstxt usage --help)\n' });
  });

  it('a folder with a link to a file, a link to a FIFO, a FIFO and a folder named as files: the link read through, the others said and left out (exit 1), nothing held', () => {
    const folder = join(dir, 'odd-folder');
    mkdirSync(folder);
    writeFileSync(join(folder, 'real.test.txt'), 'User-agent: *\nDisallow: /r\n');
    symlinkSync(join(folder, 'real.test.txt'), join(folder, 'link.test.txt'));
    execFileSync('mkfifo', [join(folder, 'fifo.test.txt')]);
    symlinkSync(join(folder, 'fifo.test.txt'), join(folder, 'fifolink.test.txt'));
    mkdirSync(join(folder, 'folder.test.txt'));
    const out = join(dir, 'odd.pack');
    const made = robotstxt(['pack', '--robots-dir', folder, '--out', out]);
    const said = made.stderr.split('\n');
    expect([made.status, said.slice(0, -2).sort()]).toEqual([1, [
      `robotstxt pack: ${join(folder, 'fifo.test.txt')}: cannot read robots file '${join(folder, 'fifo.test.txt')}': not a regular file (a pipe, a device or a socket)`,
      `robotstxt pack: ${join(folder, 'fifolink.test')}: cannot read robots file '${join(folder, 'fifolink.test.txt')}': not a regular file (a pipe, a device or a socket)`,
      `robotstxt pack: ${join(folder, 'folder.test.txt')}: cannot read robots file '${join(folder, 'folder.test.txt')}': is a directory`,
    ]]);
    expect(said.at(-2)).toMatch(/^robotstxt pack: 2 origins \(2 captures\), 1 distinct bodies/);
    const answers = robotstxt(['check', '--pack', out, '--agent', 'bot', '-'], 'http://real.test/r\nhttp://link.test/r\nhttp://link.test/x\nhttp://fifo.test/r\n');
    expect([answers.status, answers.stdout]).toEqual([0, 'disallowed\thttp://real.test/r\ndisallowed\thttp://link.test/r\nallowed\thttp://link.test/x\nallowed\thttp://fifo.test/r\n']);
  });

  it('an input with no origin\'s robots.txt in it writes nothing (exit 2), never an empty pack that answers every URL as missing', () => {
    const out = join(dir, 'nothing.pack');
    const notWarc = robotstxt(['pack', '--warc', join('examples', 'shop-robots.txt'), '--out', out]);
    expect([notWarc.status, notWarc.stderr]).toEqual([2, `robotstxt pack: examples/shop-robots.txt bytes 0-end: damaged (no WARC record starts there): any record there is not read\nrobotstxt pack: no origin's robots.txt was read from the input; 0 WARC records, 0 responses (0 redirect targets, 0 other): ${out} not written\n`]);
    const emptyFolder = join(dir, 'empty-folder');
    mkdirSync(emptyFolder);
    const empty = robotstxt(['pack', '--robots-dir', emptyFolder, '--out', out]);
    expect([empty.status, empty.stderr]).toEqual([2, `robotstxt pack: no origin's robots.txt was read from the input: ${out} not written\n`]);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((name) => name.startsWith('nothing.pack'))).toEqual([]);
  });

  it('check --pack with --max-bytes other than the pack\'s, or with --robots-dir, is a usage error', () => {
    const other = robotstxt(['check', '--pack', pack, '--agent', 'Googlebot', '--max-bytes', '1000', HOSTS_URLS]);
    expect([other.status, other.stderr]).toEqual([2, `robotstxt: --max-bytes 1000: the pack's bodies were read up to 512000 bytes, and it answers with that reading (leave --max-bytes out, or pack again)\n`]);
    const both = robotstxt(['check', '--pack', pack, '--robots-dir', ROBOTS, '--agent', 'Googlebot', HOSTS_URLS]);
    expect(both.status).toBe(2);
    expect(both.stderr).toBe('robotstxt: check needs exactly one of --robots <file>, --robots-dir <dir>, --store <dir> or --pack <file>\n');
  });
});

describe('pack inputs', () => {
  it('JSON lines: captures by time, statuses read by the fetch rules; audit --pack judges each request by the capture in force then', () => {
    const fetches = join(dir, 'fetches.jsonl');
    writeFileSync(fetches, [
      JSON.stringify({ url: 'http://shop.example/robots.txt', status: 200, body: 'User-agent: *\nDisallow: /cart\n', time: '2026-03-01T00:00:00Z' }),
      JSON.stringify({ url: 'http://shop.example/robots.txt', status: 200, body: 'User-agent: *\nDisallow: /\n', time: '2026-03-10T12:00:00Z' }),
      JSON.stringify({ url: 'https://down.example/robots.txt', status: 503, time: '2026-03-01T00:00:00Z' }),
      JSON.stringify({ url: 'https://gone.example/robots.txt', status: 404, time: '2026-03-01T00:00:00Z' }),
      '{"url": "https://bad.example/robots.txt", "status": "ok"}',
      'not json',
      '',
    ].join('\n'));
    const pack = join(dir, 'jsonl.pack');
    const made = robotstxt(['pack', '--jsonl', fetches, '--out', pack]);
    expect(made.status).toBe(1);
    expect(made.stderr.split('\n').slice(0, 2)).toEqual([`robotstxt pack: ${fetches}:5: "status" is no HTTP status`, `robotstxt pack: ${fetches}:6: no JSON (Unexpected token 'o', "not json" is not valid JSON)`]);
    expect(made.stderr.split('\n')[2]).toMatch(/^robotstxt pack: 3 origins \(4 captures\), 2 distinct bodies/);
    // check: the newest capture
    const urls = 'http://shop.example/cart\nhttp://shop.example/about\nhttps://down.example/x\nhttps://gone.example/x\n';
    expect(robotstxt(['check', '--pack', pack, '--agent', 'Googlebot'], urls).stdout).toBe('disallowed\thttp://shop.example/cart\ndisallowed\thttp://shop.example/about\ndisallowed\thttps://down.example/x\nallowed\thttps://gone.example/x\n');
    // audit: the rules in force at each request
    const log = join(dir, 'shop.log');
    writeFileSync(log, [
      '66.249.66.1 - - [05/Mar/2026:10:00:00 +0000] "GET /about HTTP/1.1" 200 10 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"',
      '66.249.66.1 - - [05/Mar/2026:10:00:01 +0000] "GET /cart HTTP/1.1" 200 10 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"',
      '66.249.66.1 - - [20/Mar/2026:10:00:00 +0000] "GET /about HTTP/1.1" 200 10 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"',
    ].join('\n') + '\n');
    const audit = JSON.parse(robotstxt(['audit', '--pack', pack, '--host', 'shop.example', '--format', 'json', log]).stdout);
    const google = audit.crawlers.find((crawler: { agent: string }) => crawler.agent === 'Googlebot');
    expect([google.requests, google.disallowed]).toEqual([3, 2]);
  });

  it('WARC files of robots.txt fetches: redirects followed inside them, an HTML target read as rules (as Google reads it), every fetch a capture, a cut record said', () => {
    const warc = join(dir, 'robots.warc.gz');
    const record = (uri: string, date: string, status: number, headers: [string, string][], payload: string): Buffer => {
      const block = Buffer.from(`HTTP/1.1 ${status} X\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${payload}`, 'latin1');
      const head = ['WARC/1.0', 'WARC-Type: response', `WARC-Target-URI: ${uri}`, `WARC-Date: ${date}`, 'Content-Type: application/http; msgtype=response', `Content-Length: ${block.length}`];
      return gzipSync(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), block, Buffer.from('\r\n\r\n')]));
    };
    const damaged = gzipSync(Buffer.from('WARC/1.0\r\nWARC-Type: response\r\n')).subarray(0, 20);
    writeFileSync(warc, Buffer.concat([
      record('http://a.example/robots.txt', '2026-04-01T00:00:00Z', 301, [['Location', 'https://a.example/robots.txt']], ''),
      record('https://a.example/robots.txt', '2026-04-01T00:00:01Z', 200, [], 'User-agent: *\nDisallow: /a-private\n'),
      record('http://html.example/robots.txt', '2026-04-01T00:00:00Z', 302, [['Location', '/home']], ''),
      record('http://html.example/home', '2026-04-01T00:00:01Z', 200, [['Content-Type', 'text/html']], '<html><body>Welcome</body></html>'),
      record('http://lost.example/robots.txt', '2026-04-01T00:00:00Z', 301, [['Location', 'http://elsewhere.example/robots.txt']], ''),
      record('http://down.example/robots.txt', '2026-04-01T00:00:00Z', 500, [], ''),
      damaged,
      record('http://page.example/index.html', '2026-04-01T00:00:00Z', 200, [], 'x'),
      record('https://a.example/robots.txt', '2026-04-02T00:00:00Z', 200, [], 'User-agent: *\nDisallow: /\n'),
    ]));
    const pack = join(dir, 'warc.pack');
    const made = robotstxt(['pack', '--warc', warc, '--out', pack]);
    expect(made.status).toBe(1);
    const lines = made.stderr.trimEnd().split('\n');
    expect(lines.slice(0, -1).sort()).toEqual([
      'robotstxt pack: http://lost.example/robots.txt: redirected (301) to http://elsewhere.example/robots.txt, which the input does not hold: this fetch gives no capture',
      'robotstxt pack: http://page.example/index.html: a response that is no origin\'s /robots.txt and no redirect of one led to: not packed',
      `robotstxt pack: ${warc} bytes 1144-1164: damaged (a damaged gzip member (invalid literal/length code)): any record there is not read`,
      `robotstxt pack: ${warc} record 7: a record cannot be read (it lies in a damaged gzip member (invalid literal/length code) (from byte 1144))`,
    ].sort());
    expect(lines[lines.length - 1]).toMatch(/^robotstxt pack: 4 origins \(5 captures\), 4 distinct bodies .*; 9 WARC records, 8 responses \(1 redirect targets, 1 other\)$/);
    const urls = 'http://a.example/a-private\nhttps://a.example/x\nhttp://html.example/x\nhttp://lost.example/x\nhttp://down.example/x\n';
    expect(robotstxt(['check', '--pack', pack, '--agent', 'Googlebot'], urls).stdout).toBe('disallowed\thttp://a.example/a-private\ndisallowed\thttps://a.example/x\nallowed\thttp://html.example/x\nallowed\thttp://lost.example/x\ndisallowed\thttp://down.example/x\n');
  });

  it('a store filled by fetch at three times: audit --pack judges each request by the version then in force, as audit --store does', { tags: ['slow'] }, async () => {
    let body = readFileSync(join('examples', 'robots-history', 'shop.example', '2026-11-01.txt'));
    const server = createServer((request, response) => {
      if (request.url !== '/robots.txt') { response.writeHead(404); response.end(); return; }
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const store = tempDir();
    try {
      for (const [now, file] of [['2026-11-01T00:00:00Z', '2026-11-01.txt'], ['2026-11-10T12:00:00Z', '2026-11-10T12-00-00Z.txt'], ['2026-11-14T00:00:00Z', '2026-11-14.txt']]) {
        body = readFileSync(join('examples', 'robots-history', 'shop.example', file));
        const fetched = await robotstxtAsync(['fetch', '--store', store, '--scheme', 'http', `127.0.0.1:${port}`, '--now', now]);
        expect(fetched.status, fetched.stderr).toBe(0);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const pack = join(dir, 'store.pack');
    const made = robotstxt(['pack', '--store', store, '--now', '2026-11-15T00:00:00Z', '--out', pack]);
    expect([made.status, made.stderr]).toEqual([0, expect.stringMatching(/^robotstxt pack: 1 origins \(3 captures\), 3 distinct bodies/)]);
    const log = join('examples', 'logs', 'history.log');
    const byStore = robotstxt(['audit', '--store', store, '--host', `127.0.0.1:${port}`, '--format', 'json', log]);
    const byPack = robotstxt(['audit', '--pack', pack, '--host', `127.0.0.1:${port}`, '--format', 'json', log]);
    expect(byPack.status).toBe(0);
    const figures = (text: string): unknown => { const report = JSON.parse(text); return [report.crawlers, report.history.versions]; };
    expect(figures(byPack.stdout)).toEqual(figures(byStore.stdout));
    expect(JSON.parse(byPack.stdout).history.versions.map((version: { requests: number; disallowed: number }) => [version.requests, version.disallowed])).toEqual([[2, 1], [3, 2], [4, 2]]);
  });
});

describe.skipIf(corpusMissingReason !== null)('the real Apache log (10,000 lines) and real robots.txt files', () => {
  it('audit --pack equals audit --robots-dir, JSON and table, by host too; with two captures, each request by the one in force', { tags: ['slow'] }, () => {
    const folder = join(dir, 'real');
    mkdirSync(folder);
    // the log's one site under a real file of the corpus (one with rules for the crawlers the log holds)
    const body = corpusFiles().map((file) => readFileSync(file)).find((bytes) => /Disallow: \/\w/.test(bytes.toString('latin1')) && bytes.length > 2000) as Buffer;
    writeFileSync(join(folder, 'semicomplete.com.txt'), body);
    const pack = join(dir, 'real.pack');
    expect(robotstxt(['pack', '--robots-dir', folder, '--out', pack]).status).toBe(0);
    for (const extra of [['--format', 'json'], ['--format', 'table'], ['--format', 'json', '--by', 'host']]) {
      const byDir = robotstxt(['audit', '--robots-dir', folder, '--host', 'semicomplete.com', ...extra, CORPUS_LOG]);
      const byPack = robotstxt(['audit', '--pack', pack, '--host', 'semicomplete.com', ...extra, CORPUS_LOG]);
      expect([byPack.status, byPack.stdout, byPack.stderr], extra.join(' ')).toEqual([byDir.status, byDir.stdout, byDir.stderr]);
    }
    const whole = JSON.parse(robotstxt(['audit', '--pack', pack, '--host', 'semicomplete.com', '--format', 'json', CORPUS_LOG]).stdout);
    expect([whole.crawlerRequests, whole.disallowed > 0]).toEqual([2819, true]);
    // two captures: everything allowed until 17 May 2015 12:00, then the real file
    const fetches = join(dir, 'real.jsonl');
    writeFileSync(fetches, [
      JSON.stringify({ url: 'http://semicomplete.com/robots.txt', status: 404, time: '2015-05-01T00:00:00Z' }),
      JSON.stringify({ url: 'http://semicomplete.com/robots.txt', status: 200, body: body.toString('latin1'), time: '2015-05-17T12:00:00Z' }),
    ].join('\n') + '\n');
    const timed = join(dir, 'real-timed.pack');
    expect(robotstxt(['pack', '--jsonl', fetches, '--out', timed]).status).toBe(0);
    const report = JSON.parse(robotstxt(['audit', '--pack', timed, '--host', 'semicomplete.com', '--format', 'json', CORPUS_LOG]).stdout);
    const versions = report.history.versions.map((version: { from: string; requests: number }) => version.from);
    expect(versions).toEqual(['2015-05-01T00:00:00.000Z', '2015-05-17T12:00:00.000Z']);
    const first = report.history.versions[0];
    expect(first.disallowed).toBe(0);
    expect(first.requests + report.history.versions[1].requests + report.history.either).toBeGreaterThan(2000);
  });
});
