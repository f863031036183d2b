// robotstxt check --usage <category>: check's output for one robots.txt with the category's usage verdict on
// each line: the purpose verdict of UsagePolicy.purposeOfCrawled (Content-Usage and the Content-Signal of the
// same purpose, the more restrictive winning: what audit counts). Text: `allowed<TAB>disallowed<TAB><url>`, the
// three columns written by the core's text format (assembly/format.ts, its column form). jsonl: the core's
// jsonl line with a `usage` field before its closing brace:
// `"usage":{"category":"train-ai","verdict":"disallowed","line":3,"source":"content-signal"}` (line and source
// null when nothing decided).
// Per chunk: one call of the crawl matcher, one of the usage paths' matcher (UsagePolicy), one format call.
import type { Writable } from 'node:stream';
import type { RobotsMatcher } from '../../core/matcher.js';
import { PURPOSE_SOURCES, USAGE_WORDS, usagePurpose, type UsagePolicy } from '../../core/usage.js';
import { forEachChunk, writeAll } from '../logs/index.js';
import { formatTextLines } from '../core-node.js';
import { OUTPUT_ALL } from '../../core/constants.js';

const LF = 0x0a;
const CLOSE_BRACE = 0x7d;

/** What a --usage run answered. */
export interface UsageCheckOutcome {
  lines: number;
}

/** Answers every line of the input (a file, or standard input for undefined or '-') in order. Once per run. */
export async function runUsageCheck(input: string | undefined, crawl: RobotsMatcher, policy: UsagePolicy, category: string, format: 'text' | 'jsonl', stdout: Writable): Promise<UsageCheckOutcome> {
  let lines = 0;
  const encoder = new TextEncoder();
  // jsonl: `,"usage":{"category":"<category>","verdict":"<word>","line":` + line + `}` before the line's `}`
  const jsonHeads = USAGE_WORDS.map((word) => encoder.encode(`,"usage":{"category":${JSON.stringify(category)},"verdict":"${word}","line":`));
  const nullBytes = encoder.encode('null');
  const sourceBytes = PURPOSE_SOURCES.map((source) => encoder.encode(`,"source":${JSON.stringify(source)}}`));
  const purpose = usagePurpose(category);
  await forEachChunk(input, 'URL file', async (chunk) => {
    if (format === 'text') {
      // the core writes the three columns (assembly/format.ts): verdicts, then the usage words beside them
      const verdicts = crawl.checkLines(chunk);
      const { usage } = policy.purposeOfCrawled(chunk, purpose, verdicts);
      lines += verdicts.length;
      await writeAll(stdout, formatTextLines(chunk, verdicts, OUTPUT_ALL, null, usage));
      return;
    }
    const formatted = crawl.checkLinesJsonl(chunk, 'all', lines + 1);
    const { usage, lines: ruleLines, sources } = policy.purposeOfCrawled(chunk, purpose, formatted.verdicts);
    const output = formatted.output;
    const count = formatted.verdicts.length;
    const room = output.length + count * (jsonHeads[2].length + 12 + sourceBytes[2].length);
    const out = Buffer.allocUnsafe(room); // a fresh buffer per chunk: the stream may hold the last one
    const at = spliceJsonl(output, count, usage, ruleLines, sources, jsonHeads, nullBytes, sourceBytes, out);
    lines += count;
    await writeAll(stdout, out.subarray(0, at));
  });
  return { lines };
}

/** jsonl lines with the usage field before each line's closing brace (the byte before its LF). Returns the bytes written. */
function spliceJsonl(output: Uint8Array, count: number, usage: Uint8Array, ruleLines: Uint32Array, sources: Uint8Array, heads: readonly Uint8Array[], nullBytes: Uint8Array, sourceBytes: readonly Uint8Array[], out: Buffer): number {
  const source = Buffer.from(output.buffer, output.byteOffset, output.length);
  let from = 0;
  let at = 0;
  for (let i = 0; i < count; i++) {
    const end = source.indexOf(LF, from); // the line's closing brace is at end - 1
    at += source.copy(out, at, from, end - 1);
    const head = heads[usage[i]];
    for (let k = 0; k < head.length; k++) out[at++] = head[k];
    const line = ruleLines[i];
    if (line === 0) {
      for (let k = 0; k < nullBytes.length; k++) out[at++] = nullBytes[k];
    } else {
      const digits = String(line);
      for (let k = 0; k < digits.length; k++) out[at++] = digits.charCodeAt(k);
    }
    const decided = sourceBytes[sources[i]];
    for (let k = 0; k < decided.length; k++) out[at++] = decided[k];
    out[at++] = CLOSE_BRACE;
    out[at++] = LF;
    from = end + 1;
  }
  return at;
}
