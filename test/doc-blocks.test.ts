// Every code block of the pages that a user can run (TypeScript, JavaScript, Python) is run as a user runs it:
// TypeScript and JavaScript as a module that imports the package by its name (esbuild strips the types, node
// runs it), Python as a script with /usr/bin/python3. A block is preceded by a comment that says how:
// `<!-- given: CODE -->` (the values a fragment uses, put before it: a user's own bytes, URLs, responses),
// `<!-- run: ... -->` (a script as it stands), or `<!-- not run: why -->` (a Spark job, a web page's script). A
// block with none of them fails the suite, so a new block cannot go unrun by oversight. Each runs in a folder of
// its own holding robots/ (examples/robots) and history/ (examples/robots-history), with a local site in
// DOC_SITE and the built robotstxt command first on PATH.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { CLI, robotstxt, tempDir } from './cli-helpers.js';
import { canRun } from './browser.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAGES = ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
const LANGUAGES = new Set(['ts', 'js', 'python']);
const PYTHON = '/usr/bin/python3';
const daskPresent = spawnSync(PYTHON, ['-c', 'import dask.bag, distributed'], { encoding: 'utf8' }).status === 0;

interface Block {
  page: string;
  line: number;
  language: string;
  code: string;
  /** The comment before it: given code, run, or not run (with why); null when there is none. */
  how: { kind: 'given'; code: string } | { kind: 'run'; note: string } | { kind: 'not run'; why: string } | null;
}

function blocksOf(page: string): Block[] {
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\w+)\s*$/.exec(lines[i]);
    if (fence === null) {
      if (lines[i].startsWith('```')) for (i++; i < lines.length && !lines[i].startsWith('```'); i++);
      continue;
    }
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'));
    const comment = /^<!-- (given|run|not run): (.*) -->$/.exec(lines[i - 1] ?? '');
    const how = comment === null ? null : comment[1] === 'given' ? { kind: 'given' as const, code: comment[2] } : comment[1] === 'run' ? { kind: 'run' as const, note: comment[2] } : { kind: 'not run' as const, why: comment[2] };
    if (LANGUAGES.has(fence[1])) blocks.push({ page, line: i + 1, language: fence[1], code: lines.slice(i + 1, end).join('\n'), how });
    i = end;
  }
  return blocks;
}

/** A folder for one block: robots/, history/, the package by its name, the command on PATH. */
function folderFor(): { dir: string; bin: string } {
  const dir = tempDir();
  cpSync(join(ROOT, 'examples', 'robots'), join(dir, 'robots'), { recursive: true });
  cpSync(join(ROOT, 'examples', 'robots-history'), join(dir, 'history'), { recursive: true });
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'robotstxt-wasm'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'robotstxt'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(bin, 'robotstxt'), 0o755);
  return { dir, bin };
}

let site: Server;
let siteUrl = '';
beforeAll(async () => {
  site = createServer((request, response) => {
    if (request.url === '/robots.txt') response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
});

const blocks = PAGES.flatMap(blocksOf);

describe('the code blocks of the pages', () => {
  it('every TypeScript, JavaScript and Python block says how it runs (given, run, or not run and why); there are blocks to run', () => {
    expect(blocks.filter((block) => block.how === null).map((block) => `${block.page}:${block.line}`)).toEqual([]);
    expect(blocks.filter((block) => block.how?.kind !== 'not run').length).toBeGreaterThanOrEqual(9);
  });
  for (const block of blocks.filter((one) => one.how?.kind === 'given' || (one.how?.kind === 'run' && one.language !== 'python'))) {
    it(`${block.page}:${block.line} (${block.language}) runs as a module importing robotstxt-wasm`, async () => {
      const { dir, bin } = folderFor();
      const given = block.how?.kind === 'given' ? block.how.code : '';
      // the given values first, then the block; imports move to the top as a module needs them
      const source = `${given}\n${block.code}\n`;
      const imports = source.split('\n').filter((line) => /^import /.test(line.trim()));
      const rest = source.split('\n').filter((line) => !/^import /.test(line.trim()));
      const body = [...imports, ...rest].join('\n');
      const js = transformSync(body, { loader: block.language === 'ts' ? 'ts' : 'js', format: 'esm', target: 'node20' }).code;
      writeFileSync(join(dir, 'block.mjs'), js);
      // (not spawnSync: the local site answers from this process)
      const run = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['block.mjs'], { cwd: dir, env: { ...process.env, DOC_SITE: siteUrl, PATH: `${bin}:${process.env.PATH ?? ''}` }, stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
        const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
        child.on('close', (status) => { clearTimeout(timer); resolve({ status, stderr }); });
      });
      expect([run.status, run.stderr], js).toEqual([0, '']);
    }, 90_000);
  }
  it.skipIf(!canRun(daskPresent, 'the Dask block of docs/checking-urls.md', 'apt-get install python3-distributed (.ci/run installs it)'))('docs/checking-urls.md: the Dask block, saved and run as a script, writes one check run\'s answers', { tags: ['slow'], timeout: 150_000 }, () => {
    const dask = blocks.find((block) => block.language === 'python' && block.how?.kind === 'run');
    expect(dask?.code).toContain('dask.bag');
    const { dir, bin } = folderFor();
    const urls = readFileSync(join(ROOT, 'examples', 'hosts-urls.txt'), 'utf8').split('\n').filter((line) => line !== '');
    writeFileSync(join(dir, 'urls-1.txt'), `${urls.slice(0, 30).join('\n')}\n`);
    writeFileSync(join(dir, 'urls-2.txt'), `${urls.slice(30).join('\n')}\n`);
    writeFileSync(join(dir, 'check.py'), `${dask?.code ?? ''}\n`);
    const run = spawnSync(PYTHON, ['check.py'], { cwd: dir, encoding: 'utf8', timeout: 120_000, env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` } });
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    const written = readdirSync(join(dir, 'verdicts')).sort().map((name) => readFileSync(join(dir, 'verdicts', name), 'utf8')).join('');
    const one = robotstxt(['check', '--robots-dir', join(dir, 'robots'), '--agent', 'Googlebot', '-'], `${urls.join('\n')}\n`);
    expect(written).toBe(one.stdout);
    expect(existsSync(join(dir, 'verdicts'))).toBe(true);
  });
});
