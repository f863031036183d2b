// The WebAssembly boundary: the exports declared once (src/core/wasm/exports.ts) are the module's, name for
// name and parameter for parameter; calls return their results (no getter holds one afterwards); a trap is
// WASM_TRAP naming the call.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import '../src/node/core-node.js'; // the WebAssembly core, loaded from build/
import { core, WasmCore } from '../src/core/wasm/core.js';
import { RobotsError, parseRobots } from '../src/node/index.js';

const declarations = readFileSync(fileURLToPath(new URL('../src/core/wasm/exports.ts', import.meta.url)), 'utf8');
const wasm = readFileSync(fileURLToPath(new URL('../build/robotstxt.wasm', import.meta.url)));

/** name -> parameter count of every method declared in the CoreExports interface. */
function declaredFunctions(): Map<string, number> {
  const body = declarations.slice(declarations.indexOf('export interface CoreExports {'));
  const declared = new Map<string, number>();
  for (const match of body.matchAll(/^ {2}(\w+)\(([^)]*)\): /gm)) declared.set(match[1], match[2].trim() === '' ? 0 : match[2].split(',').length);
  return declared;
}

describe('the WebAssembly boundary', () => {
  it('exports.ts declares every function the module exports, with its parameter count, and nothing else; memory is the only other export', () => {
    const module = new WebAssembly.Module(wasm);
    const instance = new WebAssembly.Instance(module, { env: { memoryExhausted: () => undefined, randomSeedHalf: () => 1 } });
    const actual = new Map<string, number>();
    for (const { name, kind } of WebAssembly.Module.exports(module)) {
      if (kind === 'function') actual.set(name, (instance.exports[name] as (...args: number[]) => unknown).length);
      else expect([name, kind]).toEqual(['memory', 'memory']);
    }
    const declared = declaredFunctions();
    expect(declared.size).toBeGreaterThan(30);
    expect([...declared.entries()].sort()).toEqual([...actual.entries()].sort());
    expect(declarations).toMatch(/^ {2}memory: WebAssembly\.Memory;$/m);
  });

  it('no export is a getter of a result left behind by another call (last*), and the module imports only what frame.ts gives', () => {
    const module = new WebAssembly.Module(wasm);
    expect(WebAssembly.Module.exports(module).map((e) => e.name).filter((name) => /^last[A-Z]/.test(name))).toEqual([]);
    expect(WebAssembly.Module.imports(module).map((i) => `${i.module}.${i.name}`).sort()).toEqual(['env.memoryExhausted', 'env.randomSeedHalf']);
  });

  it('a trap is WASM_TRAP naming the call that trapped (an out-of-bounds copy), and the instance answers afterwards', () => {
    const instance = new WasmCore();
    const end = instance.frame.memoryBytes().length;
    let caught: unknown;
    try {
      instance.frame.exports.copyBytes(end + 4096, 0, 64);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RobotsError);
    expect((caught as RobotsError).code).toBe('WASM_TRAP');
    expect((caught as RobotsError).message).toBe('the WebAssembly core trapped in copyBytes: memory access out of bounds');
    expect((caught as RobotsError).cause).toBeInstanceOf(WebAssembly.RuntimeError);
    expect(parseRobots('User-agent: *\nDisallow: /x\n').matcher('a').isAllowed('https://e.com/x')).toBe(false);
  });

  it('calls with several results return them together: selectGroups gives its groups and byName from one call, whatever ran between', () => {
    const body = new TextEncoder().encode('User-agent: a\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n\nUser-agent: b\nUser-agent: a\nAllow: /\n');
    const agents = (name: string): Uint8Array => { const bytes = new TextEncoder().encode(name); const out = new Uint8Array(8 + bytes.length); new DataView(out.buffer).setUint32(0, 1, true); new DataView(out.buffer).setUint32(4, bytes.length, true); out.set(bytes, 8); return out; };
    const named = core().bodies.selectGroups(body, agents('a'), false);
    const other = core().bodies.selectGroups(body, agents('zzz'), false);
    expect([[...named.groups], named.byName]).toEqual([[0, 2], true]);
    expect([[...other.groups], other.byName]).toEqual([[1], false]);
  });
});
