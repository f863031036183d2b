// What a pack is built from, each read as its readers read it: a robots directory or a store (robotsFromDirectory's
// files: `<host>.txt`, `<host>:<port>.txt`, a store's `<file key>.txt` and `.json` with its versions), JSON lines
// of fetches, and WARC files of robots.txt fetches (Common Crawl's robotstxt subset: see warc-input.ts). Each
// gives origins one by one, with their captures, to a PackWriter. Streamed: a directory is listed as it is read.
import type { RobotsReading } from '../../core/robots.js';
import { opendirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { RobotsError } from '../../core/errors.js';
import { effectOfStored, recordAsOf, outcomeOfStatus } from '../../core/fetch-rules.js';
import { originOf } from '../../core/url-model.js';
import { readStoredRecord, readStoredVersions, storedVersionsFolder, type StoredVersion } from '../store/index.js';
import { readFileBounded, readLimit, fileError, notRegularFile, ReadBuffer } from '../robots-file.js';
import { LineReader, CHUNK_BYTES } from '../logs/index.js';
import type { CaptureInput } from './writer.js';

/** One origin of an input: its pack key and its captures, oldest first. */
export interface PackOrigin {
  key: string;
  captures: CaptureInput[];
}

/** What reading an input met besides origins: files or lines it could not take, said with why. */
export interface InputProblem {
  where: string;
  why: string;
}

/** A body cut as every reader cuts it: at most maxBytes (0: whole, up to what the core compiles). */
export function cutBody(bytes: Uint8Array, maxBytes: number): Uint8Array {
  const limit = readLimit(maxBytes) - 1;
  return bytes.length > limit ? bytes.subarray(0, limit) : bytes;
}

const ISO = (text: string): number => Date.parse(text);

/**
 * The origins of a robots directory or store, file by file (listed as read: memory does not grow with the
 * folder). A `<name>.txt` is a body; a store's `<name>.json` record says what a fetch found (its effect as of
 * `nowMs`, as check --store judges it), and its versions (`<name>.versions/`) are the origin's captures.
 * Files that name no key (hidden files, other names) are left alone. An origin's current body is a view of
 * one buffer read into again for the next origin: take each origin (PackWriter.addOrigin copies what it
 * keeps) before asking for the next (fresh memory for every file cost more than reading it). Once per input.
 */
export function* directoryOrigins(directory: string, options: { reading: RobotsReading; nowMs: number; problems: InputProblem[] }): Generator<PackOrigin> {
  let listing;
  try {
    listing = opendirSync(directory);
  } catch (error) {
    throw fileError(directory, 'robots folder', error);
  }
  const bodyBuffer = new ReadBuffer();
  // join(directory, name) for a listed name (no separator in it), without normalizing the folder per file
  const folderPrefix = join(directory, 'x').slice(0, -1);
  try {
    for (let entry = listing.readSync(); entry !== null; entry = listing.readSync()) {
      const name = entry.name;
      if (name.startsWith('.')) continue;
      const txt = name.endsWith('.txt');
      if (!txt && !name.endsWith('.json')) continue;
      if (!(entry.isFile() || entry.isSymbolicLink())) {
        // a folder, FIFO, socket or device named as a host's file: said, never read (a FIFO would hold the run)
        const path = join(directory, name);
        options.problems.push({ where: path, why: notRegularFile(path, 'robots file', entry.isDirectory()).message });
        continue;
      }
      const stem = name.slice(0, txt ? -4 : -5);
      // a stem with both files is read once, from its .txt
      if (!txt && existsSync(join(directory, `${stem}.txt`))) continue;
      if (!/^[\x21-\x7e]+$/.test(stem)) {
        options.problems.push({ where: join(directory, name), why: 'a file name that names no host (not printable ASCII)' });
        continue;
      }
      // (a .txt the listing says is a regular file is read without asking its size; a link is checked)
      const origin = originFromFiles(directory, folderPrefix, stem, txt, bodyBuffer, options, entry.isFile());
      if (origin !== null) yield origin;
    }
  } finally {
    listing.closeSync();
  }
}

/** One stem's origin: a body, or a store record's effect, with its versions as captures; null when it holds nothing to answer with. folderPrefix: the folder as join writes it, its separator after it. */
function originFromFiles(directory: string, folderPrefix: string, stem: string, hasBody: boolean, bodyBuffer: ReadBuffer, options: { reading: RobotsReading; nowMs: number; problems: InputProblem[] }, listedRegular: boolean): PackOrigin | null {
  const stored = stem.includes('@');
  let body: Uint8Array | null = null;
  try {
    if (hasBody) body = cutBody(readFileBounded(`${folderPrefix}${stem}.txt`, readLimit(options.reading.maxBytes), stored ? 'stored robots.txt' : 'robots file', bodyBuffer, stored ? 'own' : listedRegular ? 'listed' : 'check'), options.reading.maxBytes);
    if (!stored) return body === null ? null : { key: stem, captures: [{ time: null, effect: 'rules', body, status: 0, hops: 0 }] };
    const record = readStoredRecord(directory, stem);
    if (record === null) return body === null ? null : { key: stem, captures: [{ time: null, effect: 'rules', body, status: 0, hops: 0 }] };
    const asOf = recordAsOf(record, options.nowMs);
    const effect = effectOfStored(asOf, options.nowMs, body !== null);
    // a record of rules whose body is gone answers nothing (a directory's reader goes on to the host's files)
    if (effect === 'rules' && body === null) return null;
    const current: CaptureInput = { time: record.keptAt ?? record.checkedAt, effect, body: effect === 'rules' ? body : null, status: record.status, hops: record.hops };
    const versions = readStoredVersions(directory, stem);
    if (versions === null || versions.versions.length < 2) return { key: stem, captures: [current] };
    // every version kept, oldest first; the newest stands as the store answers now
    const folder = storedVersionsFolder(directory, stem);
    const captures = versions.versions.slice(0, -1).map((version) => versionCapture(folder, version, options.reading.maxBytes));
    const newest = versions.versions[versions.versions.length - 1];
    captures.push({ ...current, time: ISO(newest.firstSeen) });
    return { key: stem, captures };
  } catch (error) {
    if (!(error instanceof RobotsError)) throw error;
    options.problems.push({ where: join(directory, stem), why: error.message });
    return null;
  }
}

function versionCapture(folder: string, version: StoredVersion, maxBytes: number): CaptureInput {
  const body = version.effect === 'rules' && version.body !== null ? cutBody(readFileBounded(join(folder, version.body), readLimit(maxBytes), 'stored robots.txt version', null, 'own'), maxBytes) : null;
  return { time: ISO(version.firstSeen), effect: version.effect === 'rules' && body === null ? 'allow-all' : version.effect, body, status: version.status, hops: 0 };
}

/**
 * The origins of JSON lines, one fetch per line: `{"url" or "origin": ..., "status": 200, "body": "...",
 * "time": "<ISO>"}` (`body` the text fetched; `status` read by the fetch rules: 2xx rules, 3xx or 4xx allow
 * all, 5xx disallow all; without a status, a body is rules). Lines of one origin are its captures, by time;
 * the origins are given once the input is read (memory: the lines' captures). A line that is none is said.
 */
export async function jsonlOrigins(path: string, options: { reading: RobotsReading; problems: InputProblem[] }): Promise<PackOrigin[]> {
  const byKey = new Map<string, CaptureInput[]>();
  const reader = await LineReader.open(path, 'fetches file');
  const buffer = new Uint8Array(CHUNK_BYTES);
  const decoder = new TextDecoder();
  let lineNumber = 0;
  try {
    for (let chunk = await reader.next(buffer); chunk !== null; chunk = await reader.next(buffer)) {
      for (const text of decoder.decode(chunk).split('\n')) {
        lineNumber++;
        if (text.trim() === '') continue;
        const bad = (why: string): void => { options.problems.push({ where: `${path}:${lineNumber}`, why }); };
        let value: Record<string, unknown>;
        try {
          value = JSON.parse(text) as Record<string, unknown>;
        } catch (error) {
          bad(`no JSON (${(error as Error).message})`);
          continue;
        }
        if (typeof value !== 'object' || value === null || Array.isArray(value)) { bad('no JSON object'); continue; }
        const named = typeof value.origin === 'string' ? value.origin : typeof value.url === 'string' ? value.url : null;
        const origin = named === null ? null : originOf(named);
        if (origin === null) { bad('no "url" or "origin" that is an http(s) URL'); continue; }
        const status = value.status ?? null;
        if (status !== null && !(Number.isInteger(status) && (status as number) >= 100 && (status as number) <= 999)) { bad('"status" is no HTTP status'); continue; }
        const body = value.body ?? null;
        if (body !== null && typeof body !== 'string') { bad('"body" is no string'); continue; }
        const time = value.time ?? null;
        const timeMs = time === null ? null : typeof time === 'string' ? Date.parse(time) : Number.NaN;
        if (timeMs !== null && !Number.isFinite(timeMs)) { bad('"time" is no ISO time'); continue; }
        const meaning = status === null ? 'ok' : outcomeOfStatus(status as number, options.reading.mode, false);
        const effect: CaptureInput['effect'] = meaning === 'ok' ? 'rules' : meaning === 'unreachable' ? 'disallow-all' : 'allow-all';
        const bytes = effect === 'rules' ? cutBody(new TextEncoder().encode(body ?? ''), options.reading.maxBytes) : null;
        const captures = byKey.get(origin.fileKey) ?? byKey.set(origin.fileKey, []).get(origin.fileKey) as CaptureInput[];
        captures.push({ time: timeMs, effect, body: bytes, status: (status as number | null) ?? 0, hops: 0 });
      }
    }
  } finally {
    await reader.close();
  }
  return [...byKey].map(([key, captures]) => ({ key, captures: captures.sort((a, b) => (a.time ?? 0) - (b.time ?? 0)) }));
}
