// npm run conformance: runs `robotstxt conformance` for the npm robots.txt implementations a user would pick
// instead of this package (adapters beside this file), for this package's own `test --batch`, and for Google's
// reference library itself when ../shared/reference-oracle builds (a check of the suite), over the built-in
// suite and cases from the real files of ../shared/corpus/robots/protego (when present), and writes
// docs/conformance.md. Run after `npm run build` (the npm script does both).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { availableParallelism, cpus } from 'node:os';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist/src/bin/robotstxt.cjs');
const corpus = join(root, '..', 'shared', 'corpus', 'robots', 'protego');
const FILES = 1000;
const PER_FILE = 8;
const corpusArgs = existsSync(corpus) ? ['--robots-dir', corpus, '--files', String(FILES), '--per-file', String(PER_FILE)] : [];
const corpusNote = existsSync(corpus)
  ? `the built-in suite and ${PER_FILE} cases from each of the first ${FILES} files (in name order) of ../shared/corpus/robots/protego (real robots.txt files; see its PROVENANCE.md)`
  : 'the built-in suite only (../shared/corpus/robots/protego is absent on this machine)';

const version = (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
/** The version an adapter of another language reports (`<adapter> --version`), or null when its interpreter or library is missing. */
const adapterVersion = (adapter) => {
  const run = spawnSync(join(root, 'conformance', adapter), ['--version'], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : null;
};
/** Implementations in other languages (Debian's packages; .ci/run installs them), each a batch adapter beside this file. */
const OTHER_LANGUAGES = [
  { name: 'Python urllib.robotparser', adapter: 'python-robotparser.py', note: 'the standard library', install: 'python3' },
  { name: 'protego', adapter: 'python-protego.py', note: 'Scrapy\'s parser', install: 'python3-protego' },
  { name: 'WWW::RobotRules', adapter: 'perl-www-robotrules.pl', note: 'libwww-perl', install: 'libwww-robotrules-perl' },
  { name: 'webrobots', adapter: 'ruby-webrobots.rb', note: 'Ruby', install: 'ruby-webrobots' },
];
const missing = [];
const implementations = [
  { name: 'robots-parser', version: version('robots-parser'), note: 'used by Crawlee', args: ['--module', join(root, 'conformance/robots-parser.mjs')] },
  { name: 'robots-txt-guard + robots-txt-parse', version: `${version('robots-txt-guard')} + ${version('robots-txt-parse')}`, note: 'Woorank', args: ['--module', join(root, 'conformance/robots-txt-guard.mjs')] },
  { name: 'robots-txt-parser', version: version('robots-txt-parser'), note: '', args: ['--module', join(root, 'conformance/robots-txt-parser.mjs')] },
  ...OTHER_LANGUAGES.flatMap((other) => {
    const found = adapterVersion(other.adapter);
    if (found === null) {
      missing.push(`${other.name} (apt-get install ${other.install})`);
      return [];
    }
    return [{ name: other.name, version: found, note: other.note, args: ['--batch-command', join(root, 'conformance', other.adapter)] }];
  }),
  { name: 'robotstxt-wasm test --batch', version: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version, note: 'this package, as a batch command', args: ['--batch-command', `'${process.execPath}' '${cli}' test --batch`] },
];
if (missing.length > 0) console.warn(`not run (not installed here): ${missing.join(', ')}`);

// Google's reference, through its stream oracle (bench/reference-oracle.ts builds it)
const { buildReferenceOracle } = await import(join(root, 'dist/bench/reference-oracle.js'));
const { oracle, referenceNote } = buildReferenceOracle(root);
if (referenceNote === '') implementations.unshift({ name: "Google's reference library", version: 'github.com/google/robotstxt', note: 'the oracle of ../shared/reference-oracle', args: ['--batch-command', `'${process.execPath}' '${join(root, 'conformance/reference-oracle.mjs')}' '${oracle}'`] });

const command = (impl) => ['conformance', ...impl.args, ...corpusArgs, '--name', impl.name, '--format', 'json'];
const reports = [];
for (const impl of implementations) {
  const run = spawnSync(process.execPath, [cli, ...command(impl)], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (run.status !== 0 && run.status !== 1) throw new Error(`conformance of ${impl.name} failed (exit ${run.status}): ${run.stderr}`);
  const report = JSON.parse(run.stdout);
  reports.push({ impl, report });
  console.log(`${impl.name}: ${report.agreed} of ${report.cases} agree, ${report.differed} differ, ${report.failed} failed`);
}

const label = (report, name) => {
  const entry = report.byLabel.find((item) => item.label === name);
  return entry === undefined ? '' : `${entry.agreed} of ${entry.cases}${entry.agreed === entry.cases ? '' : ` (${entry.cases - entry.agreed} differ)`}`;
};
const rate = (value) => `${Math.round(value).toLocaleString('en-US')}`;
const classes = reports[0].report.byClass.map((entry) => entry.class);
const cell = (report, cls) => {
  const entry = report.byClass.find((item) => item.class === cls);
  const wrong = entry.differed + entry.failed;
  return wrong === 0 ? 'all agree' : `**${wrong} of ${entry.cases}**`;
};
/** The anchor of an implementation's smallest case of a class in this page. */
const anchor = (name, cls) => `${name}-${cls}`.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const inline = (text) => `\`${text.replaceAll('`', "'")}\``;

const lines = [
  '# Conformance of robots.txt implementations to Google\'s reference',
  '',
  `Regenerated by \`npm run conformance\` (conformance/publish.mjs) on ${new Date().toISOString().slice(0, 10)}: each implementation answered ${corpusNote}, through \`robotstxt conformance\`, and every answer was compared with the reference's verdict (this package's engine, which answers as Google's reference library does). Machine: ${availableParallelism()} x ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}.${referenceNote === '' ? ' Google\'s reference library itself is the first row: it agrees with every case, which checks the suite.' : ` Google's reference library could not be run here (${referenceNote}).`}`,
  '',
  'Cases are labelled as the reference\'s own tests are: `ID_` cases follow RFC 9309, `GoogleOnly_` cases are Google\'s own behaviour (typo keys, `index.html`, line length, percent-encoding details, ...), `Corpus_` cases are URLs made from the rules of real files (each rule matched exactly, one byte past, one byte short, case changed). An implementation that differs on `GoogleOnly_` cases only is a good RFC 9309 implementation that is not Googlebot\'s. Speeds are through each contract (a JavaScript module in a worker thread, or a batch process) and include parsing the robots.txt for every case, as each library is called here; this package\'s engine speed is the same cases in-process in the same run.',
  '',
  `Two columns are for site owners: **direction** counts the differing cases both ways, allowed where the reference disallows (the implementation fetches what the site forbade) / disallowed where the reference allows (it leaves out what it may fetch); **first differing class** links to the smallest case of the first class (in the order below) where it differs.${missing.length === 0 ? '' : ` Not run on this machine (not installed): ${missing.join(', ')}.`}`,
  '',
  '| implementation | version | standard (ID_) | Google-only (GoogleOnly_) | real files (Corpus_) | direction: allows forbidden / forbids allowed | first differing class | cases/s | this package\'s engine, same run |',
  '|---|---|---|---|---|---|---|---|---|',
  ...reports.map(({ impl, report }) => `| ${impl.name}${impl.note === '' ? '' : ` (${impl.note})`} | ${impl.version} | ${label(report, 'standard')} | ${label(report, 'google')} | ${label(report, 'corpus')} | ${report.differed === 0 ? 'none' : `${report.direction.allowsForbidden} / ${report.direction.forbidsAllowed}`} | ${report.firstDifferingClass === null ? 'none' : `[${report.firstDifferingClass}](#${anchor(impl.name, report.firstDifferingClass)})`} | ${rate(report.speed.casesPerSecond)} | ${rate(report.speed.referenceCasesPerSecond)} |`),
  '',
  '## By class: cases that differ or failed',
  '',
  `| class | ${reports.map(({ impl }) => impl.name).join(' | ')} |`,
  `|---|${reports.map(() => '---').join('|')}|`,
  ...classes.map((cls) => `| ${cls} | ${reports.map(({ report }) => cell(report, cls)).join(' | ')} |`),
  '',
  '## The smallest differing case of each class',
  '',
];
for (const { impl, report } of reports) {
  const wrong = report.byClass.filter((entry) => entry.example !== null);
  if (wrong.length === 0) continue;
  lines.push(`### ${impl.name}`, '');
  for (const entry of wrong) {
    const example = entry.example;
    const got = example.got.verdict ?? `${example.got.failure}: ${example.got.detail}`;
    lines.push(`- <a id="${anchor(impl.name, entry.class)}"></a>**${entry.class}** (${entry.differed} differ, ${entry.failed} failed): ${inline(example.id)}, body ${example.body.length > 240 ? inline(example.body.slice(0, 200) + '...') + ' (cut here)' : inline(example.body)}, agent ${inline(example.agent)}, URL ${inline(example.url.length > 120 ? example.url.slice(0, 100) + '...' : example.url)}: reference ${example.expected.verdict}, got ${got}`);
  }
  lines.push('');
}
lines.push('## Reproducing', '', 'Each row is one command, for example:', '', '```', `robotstxt ${command(implementations.find((impl) => impl.name === 'robots-parser')).map((arg) => (arg.includes(' ') || arg.includes("'") ? `"${arg}"` : arg)).join(' ').replaceAll(join(root, '..', 'shared'), '../shared').replaceAll(root, '')}`, '```', '', 'with `--format text` (the default) for a report to read, or `--format html` for a page.', '');
writeFileSync(join(root, 'docs', 'conformance.md'), lines.join('\n'));
console.log('wrote docs/conformance.md');
