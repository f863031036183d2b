// Asking a many-host matcher's source for hosts' robots.txt: each answer once per host met (a synchronous
// source at once; an asynchronous one at most `concurrency` at a time, each within a deadline), its errors
// named by origin, and what it gave read as bytes.
import { RobotsError } from '../../core/errors.js';
import type { RobotsHost, RobotsSource, RobotsSourceAnswer } from './sources.js';

const encoder = new TextEncoder();

/** A source's error for an origin: this package's own errors as they are (they name their file), others as SOURCE_FAILED naming the origin. */
function sourceError(host: RobotsHost, error: unknown): RobotsError {
  if (error instanceof RobotsError) return error;
  return new RobotsError('SOURCE_FAILED', `the robots source failed for ${host.origin}: ${error instanceof Error ? error.message : String(error)}`);
}

/** A source's answer (not null, not a verdict, not compiled rules) as bytes. Per host read. */
export function bodyBytes(body: Exclude<RobotsSourceAnswer, null>, host: RobotsHost): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  throw new RobotsError('INVALID_ARGUMENT', `the robots source gave ${Object.prototype.toString.call(body)} for ${host.origin} (expected a Uint8Array, ArrayBuffer, DataView, string or null)`);
}

/** Whether a source answered with a promise (an asynchronous source). */
export const isPromise = (value: unknown): value is Promise<RobotsSourceAnswer> => typeof (value as { then?: unknown } | null)?.then === 'function';

/** The calls of one matcher to its source. */
export class SourceCalls {
  constructor(private readonly source: RobotsSource, private readonly concurrency: number, private readonly sourceTimeoutMs: number) {}

  /**
   * The source's answer for an origin; an error it throws comes back naming the origin (a RobotsError keeps
   * its code), and the matcher stays usable for later calls.
   */
  ask(host: RobotsHost): RobotsSourceAnswer | Promise<RobotsSourceAnswer> {
    let answer: RobotsSourceAnswer | Promise<RobotsSourceAnswer>;
    try {
      answer = this.source(host);
    } catch (error) {
      throw sourceError(host, error);
    }
    return isPromise(answer) ? answer.then((body) => body, (error: unknown) => { throw sourceError(host, error); }) : answer;
  }

  /** An asynchronous answer within sourceTimeoutMs, else SOURCE_FAILED naming the origin (a source that never settles hangs nothing). */
  private withDeadline(host: RobotsHost, answer: Promise<RobotsSourceAnswer>): Promise<RobotsSourceAnswer> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RobotsError('SOURCE_FAILED', `the robots source gave no answer for ${host.origin} within ${this.sourceTimeoutMs} ms`)), this.sourceTimeoutMs);
    });
    return Promise.race([answer, deadline]).finally(() => clearTimeout(timer));
  }

  /** Bodies of an asynchronous source, at most `concurrency` at a time (`started`: those already asked for). */
  async fetchBodies(hosts: RobotsHost[], started: Map<string, Promise<RobotsSourceAnswer>>, bodies: Map<string, RobotsSourceAnswer>): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < hosts.length) {
        const host = hosts[next++];
        bodies.set(host.origin, await this.withDeadline(host, Promise.resolve(started.get(host.origin) ?? this.ask(host))));
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, hosts.length) }, worker));
  }
}
