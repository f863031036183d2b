// A bound on the JavaScript heap of a long batch run of the command line (test --batch, audit with versions
// over time). It exposes V8's collector, a process-wide flag: the command line owns its process, a library
// does not, so this lives here and the library offers a hook (HistoryOptions.afterBatch). V8 lets its old generation grow to a multiple of what
// lives there before it collects, and entries a cache drops after they were promoted are old garbage
// (measured: test --batch over 300,000 distinct bodies with a 64 MiB cache peaked at 225 MiB, with 12 MiB
// live after a full collection; 157 MiB with --max-old-space-size=200). A governor collects as soon as the
// heap holds `slackBytes` more than lived after the last collection.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null = null;

/** A full collection now (the collector exposed once, through a fresh context). */
function collectGarbage(): void {
  if (collect === null) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}

/** Keeps the heap within `slackBytes` of what lives in it. Made once per batch run; check() called per batch of work. */
export class HeapGovernor {
  private limit: number;
  /** Collections made (for --stats and tests). */
  collections = 0;

  constructor(private readonly slackBytes: number) {
    this.limit = getHeapStatistics().used_heap_size + slackBytes;
  }

  /** Collects when the heap passed the limit; one heap statistics read otherwise. */
  check(): void {
    if (getHeapStatistics().used_heap_size <= this.limit) return;
    collectGarbage();
    this.collections++;
    this.limit = getHeapStatistics().used_heap_size + this.slackBytes;
  }
}
