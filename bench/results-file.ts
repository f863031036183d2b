// bench/RESULTS.md is written by the benchmarks: `npm run bench` writes the whole file except the sections of
// the others, which `npm run bench:<name>` writes between its markers (SECTIONS). One place for that rule.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const resultsPath = join(fileURLToPath(new URL('../..', import.meta.url)), 'bench', 'RESULTS.md');
/** The sections other benchmarks own, by name: `<!-- bench:<name> begin ... -->` to `<!-- bench:<name> end -->`. */
const SECTIONS = ['hosts', 'fetch', 'hostile', 'tester', 'heavy-tail', 'test-batch', 'lifetimes', 'usage', 'real-crawl', 'history', 'per-host', 'store', 'pages', 'pack', 'one-file', 'growth', 'signatures'] as const;
type SectionName = (typeof SECTIONS)[number];
const begin = (name: SectionName): string => `<!-- bench:${name} begin (npm run bench:${name}) -->`;
const end = (name: SectionName): string => `<!-- bench:${name} end -->`;
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const sectionPattern = (name: SectionName): RegExp => new RegExp(`${escaped(begin(name))}[\\s\\S]*?${escaped(end(name))}`);

const previousResults = (): string => (existsSync(resultsPath) ? readFileSync(resultsPath, 'utf8') : '');

/** Called once by bench/run.ts: replaces RESULTS.md with text, keeping the other benchmarks' sections. */
export function writeMainResults(text: string): void {
  const previous = previousResults();
  const kept = SECTIONS.map((name) => sectionPattern(name).exec(previous)?.[0]).filter((section): section is string => section !== undefined);
  writeFileSync(resultsPath, [text.trimEnd(), ...kept].join('\n\n') + '\n');
}

/** Called once by a benchmark that owns a section: puts its lines between the markers in RESULTS.md. */
export function writeSectionResults(name: SectionName, sectionLines: string[]): string {
  const section = [begin(name), ...sectionLines, end(name)].join('\n');
  const previous = previousResults() || '# Benchmark results\n';
  const pattern = sectionPattern(name);
  writeFileSync(resultsPath, pattern.test(previous) ? previous.replace(pattern, section) : `${previous.trimEnd()}\n\n${section}\n`);
  return section;
}

/** Called once by bench/hosts.ts. */
export function writeHostsResults(sectionLines: string[]): string {
  return writeSectionResults('hosts', sectionLines);
}
