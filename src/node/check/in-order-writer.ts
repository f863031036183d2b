// check's output: chunk answers written in input order, however they were answered (this thread at once,
// workers later). Answers that are ready go out at once (a slow producer such as `tail -f` sees its lines
// answered); at most maxInFlight wait, each holding its input and output in memory.
import type { Writable } from 'node:stream';
import { writeOut } from '../logs/index.js';
import type { ChunkAnswer } from './answerers.js';

interface Pending {
  answer: Promise<ChunkAnswer>;
  settled: boolean;
  /** Called once the answer's bytes have left (its buffers may be reused). */
  written: (() => void) | null;
}

/** Writes chunk answers to output in the order they are added. Made once per check run. */
export class InOrderWriter {
  private readonly queue: Pending[] = [];
  /** Lines of the answers written so far. */
  linesWritten = 0;

  /**
   * beforeWrite: told of each answer, in input order, before its bytes are written, with the lines written
   * before it (it may throw: the answer is then not written and the run ends with that error).
   */
  constructor(private readonly output: Writable, private readonly maxInFlight: number, private readonly beforeWrite: ((answer: ChunkAnswer, linesBefore: number) => void) | null = null) {}

  /**
   * Adds the next chunk's answer: a value when it is answered already, a promise when a worker answers it.
   * Then writes every answer that is ready, in order, and waits until fewer than maxInFlight wait; an answer in
   * a buffer the next chunk reuses (ChunkAnswer.reused) is written before this returns.
   */
  async add(answer: ChunkAnswer | Promise<ChunkAnswer>, written: (() => void) | null = null): Promise<void> {
    const ready = !(answer instanceof Promise);
    const entry: Pending = { answer: ready ? Promise.resolve(answer) : answer, settled: ready, written };
    if (!ready) void answer.then(() => { entry.settled = true; }, () => { entry.settled = true; });
    this.queue.push(entry);
    while (this.queue.length > 0 && this.queue[0].settled) await this.writeFirst();
    const reused = ready && answer.reused;
    while (this.queue.length >= this.maxInFlight || (reused && this.queue.length > 0)) await this.writeFirst();
  }

  /** Writes every answer still waiting. Called once, after the last chunk. */
  async finish(): Promise<void> {
    while (this.queue.length > 0) await this.writeFirst();
  }

  private async writeFirst(): Promise<void> {
    const entry = this.queue.shift() as Pending;
    const done = await entry.answer;
    this.beforeWrite?.(done, this.linesWritten);
    // resolved once the bytes have left: the memory they are in (a reused buffer, a worker's shared slot) is
    // given back only then
    await writeOut(this.output, done.output);
    this.linesWritten += done.lines;
    entry.written?.();
  }
}
