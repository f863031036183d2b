// WARC files read record by record, bounded and never silent (src/node/warc/): a record's header has a bound,
// a damaged or cut gzip member is said with its offset and reading goes on at the next member, a wrong
// Content-Length makes its record unread and the next one read, payloads are decoded (gzip, deflate, br) or
// said. A property test cuts, flips and re-frames generated files (plain, a gzip member per record, gzipped
// whole) and holds the reader to its promise: no record is judged from another record's bytes, and a record
// that is not given back is accounted for (said unread, or inside a stretch said damaged).
import { describe, it, expect } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, brotliCompressSync, deflateSync, createGzip } from 'node:zlib';
import { Readable } from 'node:stream';
import { readWarc, type WarcItem } from '../src/node/warc/index.js';
import { robotstxt, tempDir } from './cli-helpers.js';

const dir = tempDir();
const robotsFile = join(dir, 'robots.txt');
writeFileSync(robotsFile, 'User-agent: *\nDisallow: /private/\n');

/** A record written by hand: headers in order, the block, CRLF CRLF; `length` overrides Content-Length. */
function record(type: string, uri: string, block: Buffer, options: { length?: string; contentType?: string } = {}): Buffer {
  const headers = ['WARC/1.1', `WARC-Type: ${type}`, `WARC-Target-URI: ${uri}`, 'WARC-Date: 2026-05-01T00:00:00Z', `Content-Type: ${options.contentType ?? 'application/http; msgtype=response'}`, `Content-Length: ${options.length ?? block.length}`];
  return Buffer.concat([Buffer.from(`${headers.join('\r\n')}\r\n\r\n`, 'latin1'), block, Buffer.from('\r\n\r\n')]);
}

/** An HTTP response block. */
function response(status: number, headers: [string, string][], body: Buffer | string): Buffer {
  const head = `HTTP/1.1 ${status} X\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), typeof body === 'string' ? Buffer.from(body) : body]);
}

async function items(bytes: Uint8Array, payloadBytes = 1 << 20, chunk = 4096): Promise<WarcItem[]> {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += chunk) chunks.push(bytes.subarray(at, at + chunk));
  const out: WarcItem[] = [];
  for await (const item of readWarc(Readable.from(chunks), { payloadBytes })) out.push(item);
  return out;
}

/** Items in a short form: `record 2 https://... 200 <payload text>`, `unread 3 ...: reason`, `damaged 10-20: reason`. */
function brief(list: WarcItem[]): string[] {
  return list.map((item) => item.kind === 'record'
    ? `record ${item.record.number} ${item.record.targetUri} ${item.record.http?.status ?? '-'} ${Buffer.from(item.record.payload).toString('latin1')}`
    : item.kind === 'unread' ? `unread ${item.number} ${item.targetUri}: ${item.reason}` : `damaged ${item.from}-${item.to}: ${item.reason}`);
}

const page = (n: number, body = `page ${n}`): Buffer => record('response', `https://example.com/${n}`, response(200, [['Content-Type', 'text/html']], body));

describe('a wrong Content-Length: the record is said unread, the next one is read', () => {
  const next = page(2);
  const block = response(200, [['Content-Type', 'text/html']], 'page one body');
  it('too small, negative, not a number, missing, two of them, too large: each its reason; record 2 read every time', async () => {
    const cases: [string, Buffer, string][] = [
      ['too small', record('response', 'https://example.com/1', block, { length: String(block.length - 5) }), `unread 1 https://example.com/1: its Content-Length ${block.length - 5} does not end where the record ends (the bytes after its block are not CRLF CRLF)`],
      ['negative', record('response', 'https://example.com/1', block, { length: '-40' }), 'unread 1 https://example.com/1: its Content-Length "-40" is no byte count'],
      ['not a number', record('response', 'https://example.com/1', block, { length: 'many' }), 'unread 1 https://example.com/1: its Content-Length "many" is no byte count'],
      ['too large', record('response', 'https://example.com/1', block, { length: String(block.length + 60) }), `unread 1 https://example.com/1: its Content-Length ${block.length + 60} does not end where the record ends (the bytes after its block are not CRLF CRLF)`],
    ];
    for (const [name, first, reason] of cases) {
      for (const chunk of [7, 4096]) {
        expect(brief(await items(Buffer.concat([first, next]), 1 << 20, chunk)), `${name}, chunks of ${chunk}`).toEqual([reason, 'record 2 https://example.com/2 200 page 2']);
      }
    }
    const none = Buffer.from(record('response', 'https://example.com/1', block).toString('latin1').replace(/Content-Length: \d+\r\n/, ''), 'latin1');
    expect(brief(await items(Buffer.concat([none, next])))).toEqual(['unread 1 https://example.com/1: it has no Content-Length', 'record 2 https://example.com/2 200 page 2']);
  });
  it('too large by more than the rest of the file: the record is cut short, and the records it swallowed are read again from their start', async () => {
    const swallowing = record('response', 'https://example.com/1', block, { length: String(block.length + 10_000_000) });
    for (const chunk of [5, 4096]) {
      expect(brief(await items(Buffer.concat([swallowing, next, page(3)]), 1 << 20, chunk))).toEqual(['unread 1 https://example.com/1: the file ends inside it: cut short?', 'record 2 https://example.com/2 200 page 2', 'record 3 https://example.com/3 200 page 3']);
    }
  });
  it('in a .warc.gz (a member per record), a Content-Length past its member: unread, the next member read', async () => {
    const swallowing = record('response', 'https://example.com/1', block, { length: String(block.length + 100) });
    expect(brief(await items(Buffer.concat([gzipSync(swallowing), gzipSync(next)])))).toEqual([`unread 1 https://example.com/1: its block runs past the end of its gzip member (its Content-Length ${block.length + 100} is wrong, or the member was cut)`, 'record 2 https://example.com/2 200 page 2']);
  });
});

describe('robotstxt pages over such files: exit 1, the bad record said, the next page answered', () => {
  it('a Content-Length that is no number, and a header that runs for 64 MB in a .warc.gz', async () => {
    const html = '<html><head><meta name="robots" content="noindex"></head></html>';
    const next = record('response', 'https://example.com/next', response(200, [['Content-Type', 'text/html']], html));
    const notNumber = join(dir, 'not-a-number.warc');
    writeFileSync(notNumber, Buffer.concat([record('response', 'https://example.com/first', response(200, [], 'x'), { length: 'twelve' }), next]));
    const r = robotstxt(['pages', '--robots', robotsFile, '--agent', 'Googlebot', '--format', 'text', notNumber]);
    expect([r.status, r.stdout]).toEqual([1, `unread\t${notNumber}\t1\t"WARC record 1 of '${notNumber}' (https://example.com/first) cannot be read (its Content-Length \\"twelve\\" is no byte count)"\nallowed\tseen\tnot-indexable\t200\t-\thttps://example.com/next\n`]);
    const gzip = createGzip();
    const parts: Buffer[] = [];
    gzip.on('data', (chunk: Buffer) => parts.push(chunk));
    const done = new Promise((resolve) => gzip.on('end', resolve));
    gzip.write('WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.com/long\r\nX-Long: ');
    const junk = Buffer.alloc(1 << 20, 0x61);
    for (let i = 0; i < 64; i++) gzip.write(junk);
    gzip.end('\r\n\r\n');
    await done;
    const bomb = join(dir, 'header-bomb.warc.gz');
    writeFileSync(bomb, Buffer.concat([...parts, gzipSync(next)]));
    const b = robotstxt(['pages', '--robots', robotsFile, '--agent', 'Googlebot', '--format', 'text', bomb]);
    expect([b.status, b.stdout]).toEqual([1, `unread\t${bomb}\t1\t"WARC record 1 of '${bomb}' (https://example.com/long) cannot be read (its WARC header runs past 256 KiB)"\nallowed\tseen\tnot-indexable\t200\t-\thttps://example.com/next\n`]);
  });
});

describe('bounds', () => {
  it('a header of 64 MB (a 64 KB .warc.gz): the record is said unread at 256 KiB, the next one read; memory stays bounded (bench:hostile measures it)', async () => {
    const gzip = createGzip();
    const parts: Buffer[] = [];
    gzip.on('data', (chunk: Buffer) => parts.push(chunk));
    const done = new Promise((resolve) => gzip.on('end', resolve));
    gzip.write('WARC/1.1\r\nWARC-Type: response\r\nX-Long: ');
    const junk = Buffer.alloc(1 << 20, 0x61);
    for (let i = 0; i < 64; i++) gzip.write(junk);
    gzip.end('\r\n\r\n');
    await done;
    const file = Buffer.concat([...parts, gzipSync(page(2))]);
    expect(file.length).toBeLessThan(200_000);
    expect(brief(await items(file, 1 << 20, 1 << 16))).toEqual(['unread 1 null: its WARC header runs past 256 KiB', 'record 2 https://example.com/2 200 page 2']);
  });
});

describe('damaged and cut .warc.gz files: every record after the damage is read or said', () => {
  const members = [1, 2, 3, 4].map((n) => gzipSync(page(n)));
  const offsets = members.map((_, i) => members.slice(0, i).reduce((sum, member) => sum + member.length, 0));
  it('a member with flipped bytes in its deflate data: its record unread, the stretch said from its offset to the next member, the rest read', async () => {
    const damaged = Buffer.from(members[1]);
    for (let i = 20; i < damaged.length - 10; i += 3) damaged[i] ^= 0x55;
    const out = brief(await items(Buffer.concat([members[0], damaged, members[2], members[3]])));
    expect(out[0]).toBe('record 1 https://example.com/1 200 page 1');
    expect(out.slice(-2)).toEqual(['record 2 https://example.com/3 200 page 3', 'record 3 https://example.com/4 200 page 4'].map((line, i) => line.replace(/^record \d+/, `record ${Number(out.at(-2)?.split(' ')[1]) + i}`)));
    expect(out.some((line) => line.startsWith(`damaged ${offsets[1]}-${offsets[2]}: a damaged gzip member`))).toBe(true);
  });
  it('a member whose CRC fails (its data decodes, wrongly): the record it holds is never given, but said', async () => {
    const badCrc = Buffer.from(members[1]);
    badCrc[badCrc.length - 6] ^= 0xff; // the CRC32 of the trailer
    expect(brief(await items(Buffer.concat([members[0], badCrc, members[2]])))).toEqual([
      'record 1 https://example.com/1 200 page 1',
      `unread 2 https://example.com/2: it lies in a damaged gzip member (incorrect data check) (from byte ${offsets[1]})`,
      `damaged ${offsets[1]}-${offsets[2]}: a damaged gzip member (incorrect data check)`,
      'record 3 https://example.com/3 200 page 3',
    ]);
  });
  it('a file cut inside a member: the records before read, the cut one said, the stretch said to the end', async () => {
    const cut = Buffer.concat([members[0], members[1], members[2].subarray(0, 30)]);
    expect(brief(await items(cut))).toEqual([
      'record 1 https://example.com/1 200 page 1',
      'record 2 https://example.com/2 200 page 2',
      `damaged ${offsets[2]}-null: the file ends inside a gzip member (cut short?)`,
    ]);
  });
  it('bytes that are no member between members: said as a stretch, the next member read', async () => {
    const file = Buffer.concat([members[0], Buffer.from('garbage between members'), members[1]]);
    expect(brief(await items(file))).toEqual(['record 1 https://example.com/1 200 page 1', `damaged ${offsets[1]}-${offsets[1] + 23}: not a gzip member`, 'record 2 https://example.com/2 200 page 2']);
  });
  it('robotstxt pages: a damaged member makes exit 1 with the damage said; the pages after it answered', () => {
    const damaged = Buffer.from(members[1]);
    damaged[damaged.length - 6] ^= 0xff;
    const file = join(dir, 'damaged.warc.gz');
    writeFileSync(file, Buffer.concat([members[0], damaged, members[2]]));
    const r = robotstxt(['pages', '--robots', robotsFile, '--agent', 'Googlebot', '--format', 'text', file]);
    expect(r.stdout.split('\n').filter((line) => line !== '')).toEqual([
      'allowed\tseen\tindexable\t200\t-\thttps://example.com/1',
      `unread\t${file}\t2\t"WARC record 2 of '${file}' (https://example.com/2) cannot be read (it lies in a damaged gzip member (incorrect data check) (from byte ${offsets[1]}))"`,
      `unread\t${file}\t-\t"'${file}' is damaged from byte ${offsets[1]} to byte ${offsets[2]} (a damaged gzip member (incorrect data check)): any record there is not read"`,
      'allowed\tseen\tindexable\t200\t-\thttps://example.com/3',
    ]);
    expect(r.status).toBe(1);
  });
});

describe('payloads: Transfer-Encoding and Content-Encoding undone; an encoding not known is said, never judged', () => {
  const html = '<html><head><meta name="robots" content="noindex"></head><body>x</body></html>';
  it('gzip, deflate (zlib and raw), br, chunked + gzip: the page is its decoded HTML', async () => {
    const bodies: [string, Buffer][] = [['gzip', gzipSync(html)], ['deflate', deflateSync(html)], ['br', brotliCompressSync(html)]];
    for (const [encoding, body] of bodies) {
      const out = brief(await items(record('response', 'https://example.com/e', response(200, [['Content-Encoding', encoding]], body))));
      expect(out, encoding).toEqual([`record 1 https://example.com/e 200 ${html}`]);
    }
    const gz = gzipSync(html);
    const chunked = Buffer.concat([Buffer.from(`${gz.length.toString(16)}\r\n`), gz, Buffer.from('\r\n0\r\n\r\n')]);
    expect(brief(await items(record('response', 'https://example.com/c', response(200, [['Transfer-Encoding', 'chunked'], ['Content-Encoding', 'gzip']], chunked))))).toEqual([`record 1 https://example.com/c 200 ${html}`]);
  });
  it('compress, or a br body that is broken: the record unread with why', async () => {
    expect(brief(await items(record('response', 'https://example.com/z', response(200, [['Content-Encoding', 'compress']], 'xyz'))))).toEqual(["unread 1 https://example.com/z: its payload cannot be read: unsupported Content-Encoding 'compress'"]);
    const broken = brief(await items(record('response', 'https://example.com/b', response(200, [['Content-Encoding', 'br']], Buffer.from('not brotli at all'))))) ;
    expect(broken[0]).toMatch(/^unread 1 https:\/\/example.com\/b: its payload cannot be read: broken br body \(/);
  });
  it('robotstxt pages reads a br page\'s noindex (it was judged from its compressed bytes)', () => {
    const file = join(dir, 'br.warc');
    writeFileSync(file, record('response', 'https://example.com/br', response(200, [['Content-Type', 'text/html'], ['Content-Encoding', 'br']], brotliCompressSync(html))));
    const r = robotstxt(['pages', '--robots', robotsFile, '--agent', 'Googlebot', '--format', 'text', file]);
    expect([r.status, r.stdout]).toEqual([0, 'allowed\tseen\tnot-indexable\t200\t-\thttps://example.com/br\n']);
  });
});

describe('property: cut, flipped and re-framed files (plain, a member per record, gzipped whole)', () => {
  /** A record's id written three times (a flipped byte cannot turn one id into another). */
  const marker = (id: number): string => `<b>${id}|${id}|${id}</b>`;
  const MARKER = /<b>(\d+)\|(\d+)\|(\d+)<\/b>/g;
  /** Bodies hold what a reader could take for a record's end or start. */
  const TRICKS = ['', '\r\n\r\nWARC/1.1\r\nContent-Length: 5\r\n\r\n', '\nWARC/1.0\r\n', '\r\n\r\n', 'HTTP/1.1 200 OK\r\n\r\n', 'WARC/'];
  const recordOf = (id: number, trick: string, repeat: number, kind: number): Buffer => {
    const body = `${marker(id)}${trick}${marker(id).repeat(repeat)}`;
    if (kind === 0) return record('response', `https://s.example/p-${id}-${id}-${id}`, response(200, [['Content-Type', 'text/html']], body));
    if (kind === 1) return record('resource', `https://s.example/p-${id}-${id}-${id}`, Buffer.from(body), { contentType: 'text/html' });
    return record('request', `https://s.example/p-${id}-${id}-${id}`, Buffer.from(`GET / HTTP/1.1\r\nHost: s.example\r\n\r\n`), { contentType: 'application/http; msgtype=request' });
  };
  it('no record is read from another record\'s bytes; a record not given back is accounted for; an intact file is read exactly (400 files)', async () => {
    const fc = await import('fast-check');
    const recordArb = fc.record({ trick: fc.constantFrom(...TRICKS), repeat: fc.integer({ min: 0, max: 40 }), kind: fc.constantFrom(0, 0, 1, 2) });
    const mutationArb = fc.oneof(
      fc.constant({ kind: 'none' as const }),
      fc.record({ kind: fc.constant('cut' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
      fc.record({ kind: fc.constant('flip' as const), at: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 3 }), bit: fc.integer({ min: 0, max: 7 }) }),
      fc.record({ kind: fc.constant('length' as const), record: fc.nat(), by: fc.oneof(fc.integer({ min: -40, max: 40 }), fc.constant(100_000)), text: fc.constantFrom(null, '-3', 'x', '1e3', ' 12') }),
      fc.record({ kind: fc.constant('garbage' as const), record: fc.nat(), text: fc.constantFrom('junk', '\r\n', 'WARC/', 'WARC/1.1\r\n', '\u0000\u0000') }),
    );
    await fc.assert(fc.asyncProperty(fc.array(recordArb, { minLength: 1, maxLength: 7 }), mutationArb, fc.constantFrom('plain', 'members', 'whole'), fc.constantFrom(3, 64, 4096), async (specs, mutation, form, chunk) => {
      let records = specs.map((spec, i) => recordOf(i + 1, spec.trick, spec.repeat, spec.kind));
      if (mutation.kind === 'length') {
        const i = mutation.record % records.length;
        const text = records[i].toString('latin1');
        records[i] = Buffer.from(text.replace(/Content-Length: (\d+)/, (_, length: string) => `Content-Length: ${mutation.text ?? String(Number(length) + mutation.by)}`), 'latin1');
      }
      if (mutation.kind === 'garbage') {
        const i = mutation.record % records.length;
        records = [...records.slice(0, i), Buffer.from(mutation.text, 'latin1'), ...records.slice(i)];
      }
      const parts = form === 'plain' ? records : form === 'members' ? records.map((one) => gzipSync(one)) : [gzipSync(Buffer.concat(records))];
      let file = Buffer.concat(parts);
      // a cut at a record's (or member's) end leaves a shorter file that is whole: nothing there to say
      let cleanCut = false;
      if (mutation.kind === 'cut') {
        const at = Math.floor(file.length * mutation.at);
        cleanCut = parts.reduce((ends, part) => [...ends, (ends.at(-1) ?? 0) + part.length], [0]).includes(at);
        file = file.subarray(0, at);
      }
      if (mutation.kind === 'flip') {
        file = Buffer.from(file);
        for (const at of mutation.at) file[Math.min(file.length - 1, Math.floor(file.length * at))] ^= 1 << mutation.bit;
      }
      const out = await items(file, 1 << 20, chunk);
      const given = new Set<number>();
      let unnamed = 0;
      for (const item of out) {
        if (item.kind !== 'record') continue;
        const markers = [...Buffer.from(item.record.payload).toString('latin1').matchAll(MARKER)].filter((found) => found[1] === found[2] && found[2] === found[3]).map((found) => Number(found[1]));
        const id = /^https:\/\/s\.example\/p-(\d+)-(\d+)-(\d+)$/.exec(item.record.targetUri ?? '');
        if (id === null || id[1] !== id[2] || id[2] !== id[3]) {
          // its own header damaged (a flipped byte): the record is named by its payload, which is one record's
          expect(new Set(markers).size, 'a record holds the bytes of two records').toBeLessThanOrEqual(1);
          if (markers.length > 0) given.add(markers[0]);
          else unnamed++;
          continue;
        }
        const own = Number(id[1]);
        given.add(own);
        // every whole marker in the payload is its own: no byte of another record
        for (const found of markers) expect(found, `record ${own} holds record ${found}'s bytes`).toBe(own);
      }
      const said = out.some((item) => item.kind !== 'record');
      const missing = specs.map((_, i) => i + 1).filter((id) => !given.has(id)).slice(unnamed);
      if (cleanCut) {
        expect(missing, 'a clean cut loses the records after it only').toEqual(specs.map((_, i) => i + 1).slice(specs.length - missing.length));
        expect(said).toBe(false);
      } else if (missing.length > 0) expect(said, `records ${missing.join(', ')} vanished without a word`).toBe(true);
      if (mutation.kind === 'none') {
        expect(out.filter((item) => item.kind !== 'record')).toEqual([]);
        expect(out.map((item) => (item.kind === 'record' ? item.record.targetUri : null))).toEqual(specs.map((_, i) => `https://s.example/p-${i + 1}-${i + 1}-${i + 1}`));
      }
    }), { numRuns: Number(process.env.WARC_RUNS ?? 400), seed: Number(process.env.WARC_SEED ?? 56) });
  });
});
