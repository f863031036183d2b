// The package as its consumers see it: a TypeScript project that depends on robotstxt-wasm compiles against
// the Node API under every moduleResolution a project may use, and the runtime-neutral entry holds only the
// runtime-neutral API. The package is linked into a temporary node_modules (as npm link would).
import { describe, it, expect } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './cli-helpers.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** A consumer project with one source file, compiled with `tsc --noEmit`: its exit status and messages. */
function compileConsumer(compilerOptions: Record<string, unknown>, source: string): { status: number | null; output: string } {
  const dir = tempDir();
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'robotstxt-wasm'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
  writeFileSync(join(dir, 'consumer.ts'), source);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', skipLibCheck: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')], noEmit: true, ...compilerOptions }, files: ['consumer.ts'] }));
  const run = spawnSync(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, output: run.stdout + run.stderr };
}

const NODE_API = `import { MultiHostMatcher, RobotsCache, robotsFromMap, parseRobots } from 'robotstxt-wasm';
import { initialize, parseRobots as parseInAnyRuntime } from 'robotstxt-wasm/core';
const matcher: MultiHostMatcher = new MultiHostMatcher({ agents: 'Googlebot', source: robotsFromMap(new Map([['example.com', 'User-agent: *\\nDisallow: /x\\n']])) });
const cache: RobotsCache = new RobotsCache({ userAgent: 'ExampleBot/1.0' });
const allowed: boolean = parseRobots('User-agent: *\\nDisallow: /x\\n').matcher('Googlebot').isAllowed('https://example.com/y');
const ready: Promise<void> = initialize();
export { matcher, cache, allowed, ready, parseInAnyRuntime };
`;

describe('TypeScript consumers', () => {
  for (const [name, options] of [
    ['node16', { module: 'node16', moduleResolution: 'node16' }],
    ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }],
    ['bundler', { module: 'esnext', moduleResolution: 'bundler' }],
  ] as const) {
    // nodenext in npm test; node16 and bundler (the same types read by the other resolutions) in npm run test:slow
    it(`moduleResolution ${name}: the Node API (MultiHostMatcher, RobotsCache) and the core entry compile`, { timeout: 120_000, tags: name === 'nodenext' ? [] : ['slow'] }, () => {
      const result = compileConsumer(options, NODE_API);
      expect(result.output).toBe('');
      expect(result.status).toBe(0);
    });
  }

  it('the esbuild recipe type-checks: robotstxt-wasm/robotstxt.wasm is a file URL a bundler gives (bundler and nodenext resolution)', { tags: ['slow'], timeout: 120_000 }, () => {
    const recipe = "import { initialize } from 'robotstxt-wasm/core';\nimport wasmFile from 'robotstxt-wasm/robotstxt.wasm';\nconst url: URL = new URL(wasmFile, import.meta.url);\nexport const ready: Promise<void> = initialize(url);\n";
    for (const options of [{ module: 'esnext', moduleResolution: 'bundler' }, { module: 'nodenext', moduleResolution: 'nodenext' }]) {
      const result = compileConsumer(options, recipe);
      expect(result.output, options.moduleResolution).toBe('');
      expect(result.status).toBe(0);
    }
  });

  it('robotstxt-wasm/core has no Node-only export (bundler resolution, as a browser project uses it)', () => {
    const result = compileConsumer({ module: 'esnext', moduleResolution: 'bundler' }, "import { MultiHostMatcher } from 'robotstxt-wasm/core';\nexport { MultiHostMatcher };\n");
    expect(result.status).toBe(2);
    expect(result.output).toContain("Module '\"robotstxt-wasm/core\"' has no exported member 'MultiHostMatcher'.");
  }, 120_000);
});

/** The relative module specifiers a source imports: from, import(), export ... from, and side-effect imports (`import './x.js'`). */
function importsOf(text: string): { specifier: string; typeOnly: boolean }[] {
  const found: { specifier: string; typeOnly: boolean }[] = [];
  for (const match of text.matchAll(/(?:^|[\s;])(import|export)(\s+type)?\s+(?:[^'";]*?\sfrom\s*)?'([^']+)'|import\(\s*'([^']+)'\s*\)/gm)) {
    found.push({ specifier: match[3] ?? match[4], typeOnly: match[2] !== undefined });
  }
  return found;
}

describe('layers: runtime-neutral core <- Node <- command line', () => {
  it('src/ holds three folders and nothing else: core (any runtime), node (Node), cli (the command line)', () => {
    expect(readdirSync(join(ROOT, 'src')).sort()).toEqual(['cli', 'core', 'node']);
  });
  it('src/core imports only src/core: no node: module, no npm package, no Node global (Buffer, require)', () => {
    const wrong: string[] = [];
    const coreFiles = (dir = join(ROOT, 'src', 'core')): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => entry.isDirectory() ? coreFiles(join(dir, entry.name)) : [join(dir, entry.name)]);
    for (const file of coreFiles()) {
      const text = readFileSync(file, 'utf8');
      const name = relative(join(ROOT, 'src'), file);
      for (const { specifier: target } of importsOf(text)) {
        if (!target.startsWith('.') || !resolve(dirname(file), target).startsWith(join(ROOT, 'src', 'core'))) wrong.push(`${name} imports ${target}`);
      }
      for (const line of text.split('\n')) if (/(^|[^.\w])(Buffer\.|require\()/.test(line) && !/^\s*(\/\/|\*)/.test(line)) wrong.push(`${name}: ${line.trim()}`);
    }
    expect(wrong).toEqual([]);
  });
  it('src/node never imports the command line', () => {
    const upward: string[] = [];
    for (const file of readdirSync(join(ROOT, 'src', 'node'), { recursive: true }) as string[]) {
      if (!file.endsWith('.ts')) continue;
      const text = readFileSync(join(ROOT, 'src', 'node', file), 'utf8');
      for (const { specifier } of importsOf(text)) if (/(^|\/)cli\//.test(specifier)) upward.push(`node/${file} imports ${specifier}`);
    }
    expect(upward).toEqual([]);
  });
  /** Every TypeScript source file under src/, relative to src/. */
  const sources = (dir = join(ROOT, 'src')): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [relative(join(ROOT, 'src'), join(dir, entry.name))] : []);
  it('no module outside src/cli imports the command line (the command line only wires options to the library)', () => {
    const upward: string[] = [];
    for (const file of sources().filter((name) => !name.startsWith('cli/'))) {
      const text = readFileSync(join(ROOT, 'src', file), 'utf8');
      for (const { specifier } of importsOf(text)) if (/(^|\/)cli\//.test(specifier)) upward.push(`${file} imports ${specifier}`);
    }
    expect(upward).toEqual([]);
    expect(sources().length).toBeGreaterThan(40);
  });
  /** Each source's relative imports, resolved to paths relative to src/ (.js read as the .ts it is built from). */
  const graph = (): Map<string, { target: string; typeOnly: boolean }[]> => new Map(sources().map((file) => [file, importsOf(readFileSync(join(ROOT, 'src', file), 'utf8'))
    .filter(({ specifier }) => specifier.startsWith('.'))
    .map(({ specifier, typeOnly }) => ({ target: relative(join(ROOT, 'src'), resolve(dirname(join(ROOT, 'src', file)), specifier)).replace(/\.js$/, '.ts'), typeOnly }))]));
  it('the WebAssembly wrapper (src/core/wasm/) is imported only from src/core: the rest goes through src/core/engine.ts', () => {
    const wrong = [...graph()].flatMap(([file, targets]) => file.startsWith('core/') ? [] : targets.filter(({ target }) => target.startsWith('core/wasm/')).map(({ target }) => `${file} imports ${target}`));
    expect(wrong).toEqual([]);
  });
  it('doors name what they export: no `export *` in an index.ts, src/core/engine.ts or src/node/core-node.ts', () => {
    const doors = sources().filter((file) => file.endsWith('/index.ts') || file === 'core/engine.ts' || file === 'node/core-node.ts');
    expect(doors.length).toBeGreaterThan(15);
    const wrong = doors.flatMap((file) => readFileSync(join(ROOT, 'src', file), 'utf8').split('\n').filter((line) => /^\s*export\s*\*/.test(line)).map((line) => `${file}: ${line}`));
    expect(wrong).toEqual([]);
  });
  it('the core instance stays in src/core: no core(), .frame. or .resident. in src/node or src/cli (they call the operations of src/core/engine.ts)', () => {
    const wrong = sources().filter((file) => !file.startsWith('core/')).flatMap((file) => readFileSync(join(ROOT, 'src', file), 'utf8').split('\n')
      .filter((line) => /(^|[^\w.])core\(\)|\.frame\.|\.resident\./.test(line) && !/^\s*(\/\/|\*)/.test(line)).map((line) => `${file}: ${line.trim()}`));
    expect(wrong).toEqual([]);
  });
  it('a feature folder of src/node (one with an index.ts) is entered only through its index.ts', () => {
    const rooms = readdirSync(join(ROOT, 'src', 'node'), { withFileTypes: true }).filter((entry) => entry.isDirectory() && readdirSync(join(ROOT, 'src', 'node', entry.name)).includes('index.ts')).map((entry) => `node/${entry.name}/`);
    expect(rooms.sort()).toEqual(['audit', 'check', 'conformance', 'crawlers', 'fetch', 'history', 'hosts', 'logs', 'pack-build', 'pack', 'page', 'signatures', 'store', 'threads', 'verify', 'warc'].map((room) => `node/${room}/`));
    const wrong = [...graph()].flatMap(([file, targets]) => targets.filter(({ target }) => rooms.some((room) => target.startsWith(room) && !file.startsWith(room) && target !== `${room}index.ts`)).map(({ target }) => `${file} imports ${target}`));
    expect(wrong).toEqual([]);
    // and src/node holds no loose feature file: the few shared modules only
    expect(readdirSync(join(ROOT, 'src', 'node')).filter((name) => name.endsWith('.ts')).sort()).toEqual(['content-encoding.ts', 'core-node.ts', 'index.ts', 'robots-file.ts', 'test-batch.ts']);
  });
  it('the audit flows one way: audit.ts -> judge.ts -> tally.ts -> classify.ts, each importing none of the steps after it (type imports too)', () => {
    const steps = ['node/audit/audit.ts', 'node/audit/judge.ts', 'node/audit/tally.ts', 'node/audit/classify.ts'];
    const edges = graph();
    const backwards = steps.flatMap((file, i) => (edges.get(file) ?? []).filter(({ target }) => steps.slice(0, i).includes(target)).map(({ target }) => `${file} imports ${target}`));
    expect(backwards).toEqual([]);
    // each step imports the next (the flow is real), and the rules in force know none of the steps
    expect(steps.slice(0, -1).map((file, i) => (edges.get(file) ?? []).some(({ target }) => target === steps[i + 1]))).toEqual([true, true, true]);
    expect((edges.get('node/audit/rules-in-force.ts') ?? []).filter(({ target }) => steps.includes(target))).toEqual([]);
  });
  it('no circle among the modules that load each other (type-only imports aside), and no arrow back up (core <- node <- cli)', () => {
    const edges = new Map([...graph()].map(([file, targets]) => [file, targets.filter(({ typeOnly }) => !typeOnly).map(({ target }) => target)]));
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const next of edges.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of edges.keys()) visit(file, []);
    expect(circles).toEqual([]);
    const layer = (file: string): number => (file.startsWith('core/') ? 0 : file.startsWith('node/') ? 1 : 2);
    const upward = [...graph()].flatMap(([file, targets]) => targets.filter(({ target }) => layer(target) > layer(file)).map(({ target }) => `${file} imports ${target}`));
    expect(upward).toEqual([]);
  });
});
