// The one registry of the command line's commands: their names, what robotstxt --help says of each, and how
// each is loaded (only when it runs: a command loads only what it uses, so check never loads the HTTP client,
// the bot lists or the Tester). main.ts dispatches through it; docs/cli.md is made from it (cli-docs.ts).
import type { Command } from './command-spec.js';

/** A command as the registry knows it. */
export interface CommandEntry {
  readonly name: string;
  /** robotstxt --help's line for it: how it is called, and what it does (lines after the first continue it). */
  readonly synopsis: string;
  readonly summary: readonly string[];
  /** Its module, loaded on first use. */
  load(): Promise<{ COMMAND: Command }>;
}

/** The commands, in the order robotstxt --help lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'test', synopsis: 'test <robots-file> <user-agent> <url>', summary: ['one verdict, the reference robots_main contract (exit 0/1)'], load: () => import('./test-command.js') },
  { name: 'check', synopsis: 'check --robots <file> --agent <token>', summary: ['one verdict line per URL line, streamed'], load: () => import('./check-command.js') },
  { name: 'lint', synopsis: 'lint <robots-file>', summary: ['what is wrong or risky in a robots.txt, by line (exit 1 on errors)'], load: () => import('./lint-command.js') },
  { name: 'usage', synopsis: 'usage <robots-file> <url>...', summary: ['what content may be used for: Content-Usage, Content-Signal, policy tokens'], load: () => import('./usage-command.js') },
  { name: 'diff', synopsis: 'diff <old> <new> --agent <token> ...', summary: ['which URLs (a list or access logs) a robots.txt change blocks or frees'], load: () => import('./diff-command.js') },
  { name: 'audit', synopsis: 'audit --robots <file> <log>...', summary: ['which crawlers fetched what robots.txt forbade them (table, JSON, HTML)'], load: () => import('./audit-command.js') },
  { name: 'fetch', synopsis: 'fetch --store <dir> <url-or-host>...', summary: ['fetch robots.txt files over HTTP into a store (status codes,', 'redirects, timeouts, 24-hour freshness) for check and audit'], load: () => import('./fetch-command.js') },
  { name: 'page', synopsis: 'page <url> --agent <token> --robots <file>', summary: ['what a page lets a crawler index, with robots.txt: crawling is not indexing'], load: () => import('./page-command.js') },
  { name: 'pages', synopsis: 'pages --robots <file> --agent <token> <crawl>...', summary: ['robotstxt page over a crawl (JSON lines, WARC): a line per page, traps counted'], load: () => import('./pages-command.js') },
  { name: 'pack', synopsis: 'pack --robots-dir <dir> --out <file>', summary: ['many origins\' robots.txt in one file, compiled, for check/audit --pack'], load: () => import('./pack-command.js') },
  { name: 'history', synopsis: 'history <origin> --store <dir>', summary: ['the versions of an origin\'s robots.txt a store keeps, and what each change flips'], load: () => import('./history-command.js') },
  { name: 'tester', synopsis: 'tester [--port N] | --build <dir>', summary: ['the robots.txt Tester page, served on 127.0.0.1 or written as files'], load: () => import('./tester-command.js') },
  { name: 'conformance', synopsis: "conformance --command '<cmd>' ...", summary: ['where another robots.txt implementation differs from the reference,', 'by class, with the smallest case of each (exit 1 when any differ)'], load: () => import('./conformance-command.js') },
];

/** The registry's entry for a command name, or undefined. */
export function commandNamed(name: string): CommandEntry | undefined {
  return COMMANDS.find((command) => command.name === name);
}

/** robotstxt --help: what the tool is and its commands, from the registry. */
export function mainHelp(): string {
  const lines = COMMANDS.flatMap((command) => command.summary.map((text, i) => `  ${(i === 0 ? command.synopsis : '').padEnd(38)}  ${text}`));
  return `Usage: robotstxt <command> [options]

Reference-exact robots.txt verdicts (Google's robotstxt library semantics), compiled to WebAssembly.

Commands:
${lines.join('\n')}

Run robotstxt <command> --help (or robotstxt help <command>) for a command's options and examples.`;
}
