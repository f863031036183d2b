// check's usage column (robotstxt check --usage <category>): beside each line's crawl verdict, the category's
// usage verdict of UsagePolicy.purposeOfCrawled (Content-Usage and the Content-Signal of the same purpose, the
// more restrictive winning: what audit counts). Text: `allowed<TAB>disallowed<TAB><url>`, the three columns
// written by the core's text format (assembly/format.ts, its column form). jsonl: the core's jsonl line with a
// `usage` field before its closing brace:
// `"usage":{"category":"train-ai","verdict":"disallowed","line":3,"source":"content-signal"}` (line and source
// null when nothing decided). The check pipeline (pipeline.ts) asks it per chunk, on this thread: one call of
// the crawl matcher, one of the usage paths' matcher (UsagePolicy), one format call.
import type { RobotsMatcher } from '../../core/matcher.js';
import { PURPOSE_SOURCES, USAGE_WORDS, usagePurpose, type UsagePolicy } from '../../core/usage.js';
import { formatTextLines } from '../core-node.js';
import { OUTPUT_ALL } from '../../core/constants.js';
import type { LinesResult } from '../threads/index.js';

const LF = 0x0a;
const CLOSE_BRACE = 0x7d;

/** What check --usage adds: the usage rules of the agents' file and the category asked. */
export interface UsageColumnSpec {
  policy: UsagePolicy;
  /** A Content-Usage category (train-ai, search, ai-input, or any lower-case key). */
  category: string;
}

/** Answers a chunk's lines with the usage column beside their verdicts. Made once per run by the pipeline; answer() once per chunk. */
export class UsageColumn {
  private readonly purpose: ReturnType<typeof usagePurpose>;
  /** jsonl: `,"usage":{"category":"<category>","verdict":"<word>","line":` per usage word, `null`, and `,"source":"<source>"}` per source. */
  private readonly jsonHeads: Uint8Array[];
  private readonly nullBytes: Uint8Array;
  private readonly sourceBytes: Uint8Array[];

  constructor(private readonly spec: UsageColumnSpec) {
    const encoder = new TextEncoder();
    this.purpose = usagePurpose(spec.category);
    this.jsonHeads = USAGE_WORDS.map((word) => encoder.encode(`,"usage":{"category":${JSON.stringify(spec.category)},"verdict":"${word}","line":`));
    this.nullBytes = encoder.encode('null');
    this.sourceBytes = PURPOSE_SOURCES.map((source) => encoder.encode(`,"source":${JSON.stringify(source)}}`));
  }

  /** The chunk's lines answered by crawl, each with its usage verdict: text columns or jsonl lines numbered from firstNumber. A fresh buffer per chunk (the stream may hold the last one). */
  answer(crawl: RobotsMatcher, urls: Uint8Array, format: 'text' | 'jsonl', firstNumber: number): LinesResult {
    const { policy } = this.spec;
    if (format === 'text') {
      const verdicts = crawl.checkLines(urls);
      const { usage } = policy.purposeOfCrawled(urls, this.purpose, verdicts);
      return { verdicts, output: formatTextLines(urls, verdicts, OUTPUT_ALL, null, usage) };
    }
    const formatted = crawl.checkLinesJsonl(urls, 'all', firstNumber);
    const { usage, lines, sources } = policy.purposeOfCrawled(urls, this.purpose, formatted.verdicts);
    const count = formatted.verdicts.length;
    const out = Buffer.allocUnsafe(formatted.output.length + count * (this.jsonHeads[2].length + 12 + this.sourceBytes[2].length));
    const at = this.spliceJsonl(formatted.output, count, usage, lines, sources, out);
    return { verdicts: formatted.verdicts, output: out.subarray(0, at) };
  }

  /** jsonl lines with the usage field before each line's closing brace (the byte before its LF). Returns the bytes written. */
  private spliceJsonl(output: Uint8Array, count: number, usage: Uint8Array, ruleLines: Uint32Array, sources: Uint8Array, out: Buffer): number {
    const { jsonHeads, nullBytes, sourceBytes } = this;
    const source = Buffer.from(output.buffer, output.byteOffset, output.length);
    let from = 0;
    let at = 0;
    for (let i = 0; i < count; i++) {
      const end = source.indexOf(LF, from); // the line's closing brace is at end - 1
      at += source.copy(out, at, from, end - 1);
      const head = jsonHeads[usage[i]];
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
}
