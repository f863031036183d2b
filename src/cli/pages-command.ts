// robotstxt pages: robotstxt page over what a crawl produced (JSON lines, WARC files), one answer line per
// page, and a summary of the traps (src/core/page-traps.ts). The library (src/node/page/) reads, judges,
// counts and renders; this handler wires options to it.
import { openedPack } from './pack-option.js';
import { writeFileSync } from 'node:fs';
import { parseCommand, usageError, type Command, type CommandIo, type CommandSpec, type ParsedCommand } from './command-spec.js';
import type { RobotsReading } from '../core/robots.js';
import { AGENT_OPTION, MODE_OPTION, MAX_BYTES_OPTION, withHelp, readingOf, readingGivenOf } from './shared-options.js';
import { loadRobots, warnAboutAgents } from './common.js';
import { fileWriteError } from '../node/robots-file.js';
import type { Writable } from 'node:stream';
import { clockOption } from './fetch-options.js';
import { writeOut } from '../node/logs/index.js';

/** What pages states about itself: its options (src/cli/command-spec.ts), usage, help and docs come from it. */
export const PAGES_SPEC = {
  name: 'pages',
  options: {
    agent: withHelp(AGENT_OPTION, 'the crawler asked about (its product token, e.g. Googlebot); one'),
    robots: { type: 'string', value: '<file>', help: 'the robots.txt of every page (one site)' },
    'robots-dir': { type: 'string', value: '<dir>', help: 'per page, the robots.txt of its origin: <dir>/<host>.txt, as check --robots-dir\nreads it (a host with no file: allowed, and counted)' },
    store: { type: 'string', value: '<dir>', help: 'a store filled by robotstxt fetch (as --robots-dir)' },
    pack: { type: 'string', value: '<file>', help: 'a pack made by robotstxt pack: per page, its origin\'s newest capture, as\ncheck --pack reads it (the pack\'s --max-bytes, and its mode unless --mode is\ngiven)' },
    input: { type: 'string', choices: ['auto', 'jsonl', 'warc'], fallback: 'auto', help: 'the inputs\' form: auto (default: a name ending .warc or .warc.gz is WARC, else\nJSON lines; standard input is JSON lines), jsonl or warc' },
    format: { type: 'string', choices: ['jsonl', 'text'], fallback: 'jsonl', help: 'jsonl (default): one JSON object per page, robotstxt page\'s fields with file,\ninput (line or record number), robots and traps; text: crawl<TAB>seen<TAB>\nindexable<TAB>traps<TAB>url' },
    'traps-only': { type: 'boolean', help: 'print only the pages with a trap (and the records that could not be read)' },
    'summary-json': { type: 'string', value: '<file>', help: 'also write the summary as JSON to this file' },
    now: { type: 'string', value: '<ISO time>', help: 'the time unavailable_after dates are compared with (default now)' },
    mode: MODE_OPTION,
    'max-bytes': MAX_BYTES_OPTION,
  },
  positionals: { shown: '[<input>... | -]', min: 0, max: Infinity },
  oneOf: [['robots', 'robots-dir', 'store', 'pack']],
  required: ['agent'],
  column: 24,
  description: `What the pages of a crawl let a crawler index, with robots.txt, page by page, as robotstxt page answers
each: the inputs (files, or standard input when none or -) are JSON lines, one page per line:
{"url": ..., "headers": {...} or [[name, value], ...], "html": ...} ("html" and "status" may be left out:
headers alone are judged), or WARC files (response, revisit and resource records; .warc.gz too).
On stderr at the end, a summary counts the pages and each trap: noindex-unseen (robots.txt disallows the
page, so its noindex is never seen), conflict (rules that contradict each other), unavailable-after-past,
meta-outside-head (a robots meta tag outside <head>, not read), noindex-in-robots-txt (a Noindex: line of
robots.txt matches the page; not read since 2019). docs/page-rules.md defines each.

A record that cannot be read (no JSON, no URL, a damaged WARC record) is printed with its number and why,
and counted; records of a WARC file that are no pages (requests, metadata) are counted by type.

Exit status: 0 every record was read, 1 some could not be, 2 usage errors or an input that cannot be opened.`,
  examples: [
    'robotstxt pages --robots robots.txt --agent Googlebot crawl.jsonl',
    'robotstxt pages --robots-dir robots/ --agent Googlebot --format text --traps-only crawl.warc.gz',
  ],
} as const satisfies CommandSpec;

/** robotstxt pages. */
export const COMMAND: Command = { spec: PAGES_SPEC, run: (args, io) => runPages(args, io) };

/** Output is written in pieces of about this size (backpressure respected between them). */
const OUTPUT_PIECE_CHARS = 1 << 16;

/** What one run of pages does, read off its options. */
export interface PagesPlan {
  agent: string;
  /** The crawl files (- for standard input) and how they are read (--input). */
  inputs: string[];
  inputFormat: 'auto' | 'jsonl' | 'warc';
  /** Where each origin's robots.txt comes from: one file, a folder or store, or a pack. */
  rules: { kind: 'file'; path: string } | { kind: 'directory'; directory: string } | { kind: 'pack'; file: string; given: ReadonlySet<string> };
  reading: RobotsReading;
  /** --now (ms), or null: the time of the run. */
  nowMs: number | null;
  format: 'jsonl' | 'text';
  trapsOnly: boolean;
  summaryJson: string | null;
}

/** The plan of a pages run from its parsed arguments. Pure: every refusal comes before an input is read. Once per run. */
export function planPages(parsed: ParsedCommand<(typeof PAGES_SPEC)['options']>): PagesPlan {
  const { values, positionals, given } = parsed;
  const agents = values.agent;
  if (agents.length !== 1) throw usageError(`--agent names one crawler for pages, got ${agents.length}`);
  const inputs = positionals.length === 0 ? ['-'] : positionals;
  if (inputs.filter((input) => input === '-').length > 1) throw usageError('standard input (-) can be read once');
  const rules: PagesPlan['rules'] = values.pack !== undefined ? { kind: 'pack', file: values.pack, given: readingGivenOf(given) } : values.robots !== undefined ? { kind: 'file', path: values.robots } : { kind: 'directory', directory: (values['robots-dir'] ?? values.store) as string };
  return {
    agent: agents[0], inputs, inputFormat: values.input as PagesPlan['inputFormat'], rules, reading: readingOf(values),
    nowMs: values.now === undefined ? null : clockOption(values.now).start, format: values.format, trapsOnly: values['traps-only'], summaryJson: values['summary-json'] ?? null,
  };
}

/** robotstxt pages: the plan (planPages), every record of the crawl answered or said unread, the summary. Once per run. */
export async function runPages(args: string[], io: CommandIo): Promise<number> {
  const plan = planPages(parseCommand(PAGES_SPEC, args));
  const { agent, inputs, rules } = plan;
  warnAboutAgents([agent], io.err);
  const nowMs = plan.nowMs ?? Date.now();
  const { PageRobots, PagesSummary, readCrawl, crawlFormatOf, answerCrawledPage, pagesAnswerJson, pagesAnswerText } = await import('../node/page/index.js');
  let rulesOf = { agent, reading: plan.reading, nowMs };
  let robotsOf: InstanceType<typeof PageRobots>;
  if (rules.kind === 'pack') {
    const { pack, reading } = await openedPack(rules.file, plan.reading, rules.given);
    const { packBodies } = await import('../node/pack/index.js');
    rulesOf = { agent, reading, nowMs };
    robotsOf = new PageRobots({ ...rulesOf, source: packBodies(pack) });
  } else if (rules.kind === 'file') robotsOf = new PageRobots({ ...rulesOf, robots: loadRobots(rules.path, plan.reading, io.err) });
  else robotsOf = new PageRobots({ ...rulesOf, directory: rules.directory });
  const summary = new PagesSummary(agent, nowMs);
  let pending = '';
  const emit = async (line: string): Promise<void> => {
    pending += `${line}\n`;
    if (pending.length >= OUTPUT_PIECE_CHARS) {
      const piece = pending;
      pending = '';
      await writeOut(io.stdout as Writable, Buffer.from(piece));
    }
  };
  try {
    for (const input of inputs) {
      const format = crawlFormatOf(input === '-' ? undefined : input, plan.inputFormat);
      for await (const record of readCrawl(input, format)) {
        if (record.kind === 'page') {
          const answer = await answerCrawledPage(record, input, robotsOf, { agent, nowMs });
          summary.addAnswer(answer);
          if (plan.trapsOnly && answer.traps.length === 0) continue;
          await emit(plan.format === 'text' ? pagesAnswerText(answer) : JSON.stringify(pagesAnswerJson(answer)));
        } else {
          summary.addRecord(record, input);
          if (record.kind === 'unread') await emit(plan.format === 'text' ? `unread\t${input}\t${record.input ?? "-"}\t${JSON.stringify(record.error)}` : JSON.stringify({ file: input, input: record.input, url: record.url, error: record.error }));
        }
      }
    }
    if (pending !== '') await writeOut(io.stdout as Writable, Buffer.from(pending));
  } finally {
    robotsOf.close();
  }
  const withoutRobots = robotsOf.missingOrigins.size;
  if (plan.summaryJson !== null) {
    try {
      writeFileSync(plan.summaryJson, `${JSON.stringify(summary.toJson(withoutRobots), null, 2)}\n`);
    } catch (error) {
      throw fileWriteError(plan.summaryJson, 'summary file', error);
    }
  }
  io.err(summary.toText(withoutRobots));
  return summary.hasUnread ? 1 : 0;
}
