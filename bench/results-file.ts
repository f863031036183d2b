// bench/RESULTS.md is written by two benchmarks: `npm run bench` writes the whole file except the
// many-hosts section, which `npm run bench:hosts` writes between its markers. One place for that rule.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const resultsPath = join(fileURLToPath(new URL('../..', import.meta.url)), 'bench', 'RESULTS.md');
const HOSTS_BEGIN = '<!-- bench:hosts begin (npm run bench:hosts) -->';
const HOSTS_END = '<!-- bench:hosts end -->';
const hostsSection = new RegExp(`${HOSTS_BEGIN}[\\s\\S]*?${HOSTS_END}`);

const previousResults = (): string => (existsSync(resultsPath) ? readFileSync(resultsPath, 'utf8') : '');

/** Called once by bench/run.ts: replaces RESULTS.md with text, keeping the many-hosts section if there is one. */
export function writeMainResults(text: string): void {
  const kept = hostsSection.exec(previousResults());
  writeFileSync(resultsPath, kept === null ? text : `${text.trimEnd()}\n\n${kept[0]}\n`);
}

/** Called once by bench/hosts.ts: puts the many-hosts section (lines between the markers) into RESULTS.md. */
export function writeHostsResults(sectionLines: string[]): string {
  const section = [HOSTS_BEGIN, ...sectionLines, HOSTS_END].join('\n');
  const previous = previousResults() || '# Benchmark results\n';
  writeFileSync(resultsPath, hostsSection.test(previous) ? previous.replace(hostsSection, section) : `${previous.trimEnd()}\n\n${section}\n`);
  return section;
}
