import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { parseRobots, type RobotsOptions } from '../src/node/index.js';
import { modelVerdict } from './model.js';

/** UTF-8 strings and raw byte lists, concatenated (no spread: parts may be megabytes). */
export const bytes = (...parts: (string | number[])[]): Uint8Array => {
  const encoded = parts.map((part) => (typeof part === 'string' ? new TextEncoder().encode(part) : Uint8Array.from(part)));
  const out = new Uint8Array(encoded.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of encoded) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};

/** Latin-1 string -> bytes, one byte per char (for raw non-UTF-8 bytes in examples). */
export const raw = (text: string): Uint8Array => Uint8Array.from([...text].map((c) => c.charCodeAt(0)));

export function engineAllowed(body: Uint8Array | string, agents: string | string[], url: string | Uint8Array, options: RobotsOptions = {}): boolean {
  return parseRobots(body, options).matcher(agents).isAllowed(url);
}

/** Asserts the engine (and the model, which must agree) give `allowed` for this triple. */
export function expectVerdict(body: Uint8Array | string, agents: string | string[], url: string | Uint8Array, allowed: boolean, options: RobotsOptions = {}): void {
  const list = typeof agents === 'string' ? [agents] : agents;
  expect(engineAllowed(body, list, url, options), 'engine').toBe(allowed);
  expect(modelVerdict(body, list, url, options).allowed, 'model').toBe(allowed);
}

/** Asserts the deciding rule's line (null = allowed with no rule) from explain() and from the model. */
export function expectDecidingLine(body: Uint8Array | string, agents: string | string[], url: string, line: number | null, options: RobotsOptions = {}): void {
  const list = typeof agents === 'string' ? [agents] : agents;
  const explanation = parseRobots(body, options).matcher(list).explain(url);
  expect(explanation.rule === null ? null : explanation.rule.line, 'engine').toBe(line);
  expect(modelVerdict(body, list, url, options).line, 'model').toBe(line);
}

/**
 * Waits until `ready()` holds, asking every `everyMs` (a readiness wait: no fixed sleep), and fails naming
 * `what` when it does not within `timeoutMs`.
 */
export async function until(ready: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000, everyMs = 20): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await ready())) {
    if (performance.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** CPU seconds a process has used so far (Linux /proc: user and system ticks), or 0 when it cannot be read. */
export function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
