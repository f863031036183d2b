// robotstxt pack: many origins' robots.txt in one file, each distinct body once with its rules compiled for
// every group, and an index from origin to body (src/core/pack/, src/node/pack-build/); check, audit, page and
// pages read it with --pack.
import { parseCommand, usageError, type Command, type CommandIo, type CommandSpec, type ParsedCommand } from './command-spec.js';
import type { RobotsReading } from '../core/robots.js';
import { MODE_OPTION, MAX_BYTES_OPTION, readingOf } from './shared-options.js';
import { clockOption } from './fetch-options.js';
import { terminalSafe } from './common.js';

/** What pack states about itself: its options (src/cli/command-spec.ts), usage, help and docs come from it. */
export const PACK_SPEC = {
  name: 'pack',
  options: {
    'robots-dir': { type: 'string', value: '<dir>', help: 'a robots directory: <host>.txt and <host>:<port>.txt files, as check --robots-dir\nreads them' },
    store: { type: 'string', value: '<dir>', help: 'a store filled by robotstxt fetch: each origin\'s record as of --now, and its\nversions (audit --pack judges each request by the version in force)' },
    jsonl: { type: 'string', multiple: true, value: '<file>', help: 'JSON lines of fetches: {"url": ..., "status": 200, "body": "...", "time":\n"<ISO>"} (repeatable; - for standard input); the lines of one origin are its\ncaptures' },
    warc: { type: 'string', multiple: true, value: '<file>', help: 'WARC files of robots.txt fetches (Common Crawl\'s robotstxt subset, .warc or\n.warc.gz; repeatable): redirects followed inside them, every fetch of an origin a\ncapture with its time' },
    out: { type: 'string', value: '<file>', help: 'the pack file to write (written beside it, then renamed into place)' },
    now: { type: 'string', value: '<ISO time>', help: 'with --store: the time stored records are judged at (default now)' },
    mode: MODE_OPTION,
    'max-bytes': MAX_BYTES_OPTION,
  },
  positionals: { shown: '', min: 0, max: 0 },
  oneOf: [['robots-dir', 'store', 'jsonl', 'warc']],
  required: ['out'],
  column: 22,
  description: `Packs many origins' robots.txt into one file for check --pack, audit --pack, page --pack and pages
--pack: each distinct body once (by its bytes), its rules compiled for every group (so one pack serves every
crawler: a reader asks no compile for one agent), an index from origin to body that answers in constant
time, and per origin what the fetch saw (its status, its time, its redirects) with every capture of it when
the input has several. A header with a magic number, the format, the engine's version and checksums: a pack
from another version, or a damaged or cut one, is refused by every reader. The mode and the reading limit
(--max-bytes) are the pack's: its readers answer with them.

Inputs that cannot be read in part (a file, a line, a record) are named on stderr and counted; the pack
holds the rest. Exit status: 0 written, 1 written with inputs left out, 2 usage errors or nothing written.`,
  examples: [
    'robotstxt pack --robots-dir robots/ --out robots.pack',
    'robotstxt pack --warc CC-MAIN-*/robotstxt/*.warc.gz --out crawl.pack',
    'robotstxt check --pack robots.pack --agent Googlebot urls.txt',
  ],
} as const satisfies CommandSpec;

/** robotstxt pack. */
export const COMMAND: Command = { spec: PACK_SPEC, run: (args, io) => runPack(args, io) };

/** Problems named on stderr at most (the rest counted). */
const PROBLEMS_NAMED = 20;

/** What one run of pack does, read off its options. */
export interface PackPlan {
  out: string;
  reading: RobotsReading;
  /** The input: a folder or store, JSON lines files, or WARC files. */
  input: { kind: 'directory'; directory: string } | { kind: 'jsonl'; files: string[] } | { kind: 'warc'; files: string[] };
  /** --now (ms), or null: the time of the run (a store's records are judged at it). */
  nowMs: number | null;
}

/** The plan of a pack run from its parsed arguments. Pure: every refusal comes before an input is read. Once per run. */
export function planPack(parsed: ParsedCommand<(typeof PACK_SPEC)['options']>): PackPlan {
  const { values } = parsed;
  if (values.now !== undefined && values.store === undefined) throw usageError('--now judges a store\'s records: it applies with --store only');
  if (values.jsonl.filter((file) => file === '-').length > 1) throw usageError('standard input (-) can be read once');
  const directory = values['robots-dir'] ?? values.store;
  const input: PackPlan['input'] = directory !== undefined ? { kind: 'directory', directory } : values.jsonl.length > 0 ? { kind: 'jsonl', files: values.jsonl } : { kind: 'warc', files: values.warc };
  return { out: values.out as string, reading: readingOf(values), input, nowMs: values.now === undefined ? null : clockOption(values.now).start };
}

/** robotstxt pack: the plan (planPack), every origin of its input written to the pack, what was left out. Once per run. */
export async function runPack(args: string[], io: CommandIo): Promise<number> {
  const { out, reading, input, ...plan } = planPack(parseCommand(PACK_SPEC, args));
  const nowMs = plan.nowMs ?? Date.now();
  const { PackWriter, directoryOrigins, jsonlOrigins, warcOrigins } = await import('../node/pack-build/index.js');
  const writer = new PackWriter(out, { reading, builtAt: nowMs });
  const problems: { where: string; why: string }[] = [];
  let lastProgress = performance.now();
  const progress = (): void => {
    if (process.stderr.isTTY !== true || performance.now() - lastProgress < 1000) return;
    lastProgress = performance.now();
    io.err(`\rrobotstxt pack: ${writer.originCount} origins...`);
  };
  let extra = '';
  try {
    if (input.kind === 'directory') {
      for (const origin of directoryOrigins(input.directory, { reading, nowMs, problems })) {
        writer.addOrigin(origin.key, origin.captures);
        progress();
      }
    } else if (input.kind === 'jsonl') {
      for (const file of input.files) {
        for (const origin of await jsonlOrigins(file, { reading, problems })) {
          try {
            writer.addOrigin(origin.key, origin.captures);
          } catch (error) {
            problems.push({ where: `${file}: ${origin.key}`, why: (error as Error).message });
          }
          progress();
        }
      }
    } else {
      const { origins, counts } = await warcOrigins(input.files, writer, { reading, problems });
      for (const origin of origins) {
        writer.addOrigin(origin.key, origin.captures);
        progress();
      }
      extra = `; ${counts.records} WARC records, ${counts.responses} responses (${counts.redirectTargets} redirect targets, ${counts.otherResponses} other)`;
    }
  } catch (error) {
    writer.abort();
    throw error;
  }
  if (process.stderr.isTTY === true) io.err('\r');
  for (const problem of problems.slice(0, PROBLEMS_NAMED)) io.err(`robotstxt pack: ${terminalSafe(problem.where)}: ${terminalSafe(problem.why)}\n`);
  if (problems.length > PROBLEMS_NAMED) io.err(`robotstxt pack: ${problems.length - PROBLEMS_NAMED} more input(s) left out\n`);
  if (writer.originCount === 0) {
    // a pack of nothing answers every URL as missing: never written in place of what the user meant to pack
    writer.abort();
    io.err(`robotstxt pack: no origin's robots.txt was read from the input${extra}: ${terminalSafe(out)} not written\n`);
    return 2;
  }
  const written = writer.finish();
  const mb = (bytes: number): string => (bytes < 1000 ? `${bytes} B` : bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} kB` : `${(bytes / 1e6).toFixed(1)} MB`);
  io.err(`robotstxt pack: ${written.origins} origins (${written.captures} captures), ${written.bodies} distinct bodies (${mb(written.bodyBytes)} of ${mb(written.bodyBytesGiven)} given), ${written.blobs} compiled rule sets (${mb(written.blobBytes)}); ${terminalSafe(out)}: ${mb(written.bytes)}${extra}\n`);
  return problems.length > 0 ? 1 : 0;
}
