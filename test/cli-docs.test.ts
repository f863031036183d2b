// docs/cli.md is made from the commands' declarations: the file in the repository must be what they make now.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cliReference } from '../src/cli/cli-docs.ts';
import { COMMANDS } from '../src/cli/commands.ts';

describe('docs/cli.md', () => {
  it('is current: what npm run docs makes from the command specs (run it after changing an option)', async () => {
    const file = readFileSync(fileURLToPath(new URL('../docs/cli.md', import.meta.url)), 'utf8');
    expect(file, 'docs/cli.md is stale: run npm run docs').toBe(await cliReference());
  });
  it('names every command and every option of each, and says nothing of this machine (no core count)', async () => {
    const made = await cliReference();
    for (const entry of COMMANDS) {
      expect(made).toContain(`## robotstxt ${entry.name}`);
      const { COMMAND } = await entry.load();
      for (const name of Object.keys(COMMAND.spec.options)) expect(made, `${entry.name} --${name}`).toContain(`| \`--${name}\` |`);
    }
    expect(made).toContain('default the available cores (1 with --robots-dir); 1 to 4 per core');
  });
});
