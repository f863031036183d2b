// A batch command (the JSON lines contract of `robotstxt conformance --batch-command`) that asks Google's
// reference library itself: each case's robots.txt bytes and (agent, URL) go to the reference oracle built
// from ../shared/reference-oracle (stream mode), and its "1"/"0" comes back as {"verdict": ...}.
// Usage: robotstxt conformance --batch-command 'node conformance/reference-oracle.mjs <oracle binary>'
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const binary = process.argv[2];
if (binary === undefined) {
  process.stderr.write('usage: node conformance/reference-oracle.mjs <path of the built oracle>\n');
  process.exit(2);
}
const oracle = spawn(binary, [], { stdio: ['pipe', 'pipe', 'inherit'] });
oracle.on('exit', (code) => process.exit(code ?? 1));
// the oracle answers each query with one line, in order
createInterface({ input: oracle.stdout }).on('line', (line) => {
  process.stdout.write(line === '1' ? '{"verdict":"allowed"}\n' : line === '0' ? '{"verdict":"disallowed"}\n' : `{"error":${JSON.stringify(line)}}\n`);
});
createInterface({ input: process.stdin }).on('line', (line) => {
  const { robots, agent, url } = JSON.parse(line);
  const body = readFileSync(robots);
  const ua = Buffer.from(agent);
  const target = Buffer.from(url);
  oracle.stdin.write(Buffer.concat([Buffer.from(`R ${body.length}\n`), body, Buffer.from(`\nq ${ua.length} ${target.length}\n`), ua, target, Buffer.from('\n')]));
}).on('close', () => oracle.stdin.end());
