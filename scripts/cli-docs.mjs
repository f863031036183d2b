// npm run docs: writes docs/cli.md from the built command line's declarations (src/cli/cli-docs.ts).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { cliReference } = await import(new URL('../dist/src/cli/cli-docs.js', import.meta.url).href);
writeFileSync(`${root}docs/cli.md`, await cliReference());
console.log('docs/cli.md written');
