// Every `$ ` example in README.md runs on a fresh clone (files of the repository only) and prints what the
// README shows: the lines under a command, `...` lines left out, appear in that order in its output.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, tempDir } from './cli-helpers.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Example {
  command: string;
  shown: string[];
}

/** The `$ ` commands of the README's fenced blocks, each with the lines shown under it. */
function readmeExamples(): Example[] {
  const examples: Example[] = [];
  let inBlock = false;
  let current: Example | null = null;
  for (const line of readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n')) {
    if (line.startsWith('```')) {
      inBlock = !inBlock;
      current = null;
      continue;
    }
    if (!inBlock) continue;
    if (line.startsWith('$ ')) {
      current = { command: line.slice(2), shown: [] };
      examples.push(current);
    } else if (current !== null && line.trim() !== '...') {
      current.shown.push(line);
    }
  }
  return examples;
}

/** A folder with a `robotstxt` command (the built one), put first on PATH for the examples. */
function commandFolder(): string {
  const folder = tempDir();
  const script = join(folder, 'robotstxt');
  writeFileSync(script, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(script, 0o755);
  return folder;
}

describe('README examples', () => {
  const examples = readmeExamples();
  const bin = commandFolder();
  it('there are examples to run', () => {
    expect(examples.length).toBeGreaterThanOrEqual(8);
  });
  for (const { command, shown } of examples) {
    it(command, () => {
      const result = spawnSync('sh', ['-c', command], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` }, maxBuffer: 1 << 26 });
      expect(result.stderr, 'no error output').not.toMatch(/not found|No such file|cannot read|internal error/);
      const output = (result.stdout + result.stderr).split('\n');
      let at = 0;
      for (const line of shown) {
        const found = output.indexOf(line, at);
        expect(found, `shown line not printed (in this order): ${JSON.stringify(line)}\n--- output ---\n${output.slice(0, 40).join('\n')}`).toBeGreaterThanOrEqual(0);
        at = found + 1;
      }
    });
  }
});
