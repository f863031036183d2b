// The heavy-tailed crawl of npm run bench:heavy-tail, as a module (benchmarks and profiling scripts share it):
// a seeded corpus shaped like a real crawl (median ~255 B, p90 ~3.7 KB, 1% between 100 KB and 758 KB, 0.1% up
// to 3.7 MB: literal paths, hashes and query patterns), plus the real files of ../shared/corpus/robots/ (left
// out, with the reason in corpusNote, when that folder is absent), and URL streams drawn from each host's rules.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from './data.js';

/** One host of the crawl: its name, its robots.txt body, and paths taken from its rules. */
export interface CrawlHost { name: string; body: Buffer; paths: string[] }

/** The corpus: the hosts, a one-line description of its shape, and URL streams over it. */
export interface HeavyTailCorpus {
  hosts: CrawlHost[];
  WORDS: readonly string[];
  GENERATED: number;
  totalBytes: number;
  shape: string;
  corpusNote: string;
  /**
   * URLs of each host from its own rules (and a few that match none), `perHost` each on average; sorted by host
   * or shuffled. weighting 'even': `perHost` per host; 'size': the same total, each host's share proportional
   * to its body's bytes (at least one). nearMisses: a fifth of the rule paths one byte short or one past.
   */
  urlLines(perHost: number, order: 'random' | 'sorted', seed: number, weighting?: 'even' | 'size', nearMisses?: boolean): { host: number; url: string }[];
}

/**
 * Builds the corpus (seeded: the same bytes every run); quick: 2,000 generated hosts instead of 9,000;
 * generated: how many generated hosts (0: the real files alone). root: the repository.
 */
export function heavyTailCorpus(root: string, quick: boolean, generated: number = quick ? 2000 : 9000): HeavyTailCorpus {
  const GENERATED = generated;
  const random = seededRandom(18);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const WORDS = ['shop', 'cart', 'account', 'search', 'product', 'category', 'media', 'images', 'api', 'wp-admin', 'tag', 'page', 'blog', 'news', 'help', 'user', 'login', 'static'];

  /** A body size from the crawl's distribution. */
  function bodySize(): number {
    const u = random();
    if (u < 0.001) return Math.round(758_000 * Math.exp(random() * Math.log(3_700_000 / 758_000)));
    if (u < 0.011) return Math.round(100_000 * Math.exp(random() * Math.log(758_000 / 100_000)));
    // the body: log-normal, median 255 B, p90 3.7 KB (capped below the tail)
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return Math.min(99_000, Math.max(20, Math.round(Math.exp(Math.log(255) + 2.09 * normal))));
  }

  /** A robots.txt of about `size` bytes: a small file has a few groups; a large one is mostly literal paths. */
  function body(size: number): { text: string; paths: string[] } {
    const lines = ['User-agent: *', 'Disallow: /cgi-bin/', `Disallow: /*?${pick(['sessionid', 'sort', 'ref', 'utm_source'])}=`];
    if (random() < 0.3) lines.push('', 'User-agent: Googlebot', `Disallow: /${pick(WORDS)}/private/`, `Allow: /${pick(WORDS)}/`);
    if (random() < 0.2) lines.push('', 'User-agent: GPTBot', 'Disallow: /');
    lines.push('', 'User-agent: *');
    const paths: string[] = [];
    let length = lines.join('\n').length;
    while (length < size) {
      const kind = random();
      const path = kind < 0.6 ? `/${pick(WORDS)}/${Math.floor(random() * 1e9).toString(36)}-${pick(WORDS)}.html`
        : kind < 0.85 ? `/${pick(WORDS)}/${Math.floor(random() * 2 ** 48).toString(16)}${Math.floor(random() * 2 ** 48).toString(16)}`
        : `/${pick(WORDS)}/*?${pick(WORDS)}=${Math.floor(random() * 1e6)}`;
      const line = `${random() < 0.8 ? 'Disallow' : 'Allow'}: ${path}`;
      lines.push(line);
      paths.push(path.replace(/\*/g, 'x'));
      length += line.length + 1;
    }
    return { text: lines.join('\n') + '\n', paths };
  }

  // ---- the hosts ----
  const hosts: CrawlHost[] = [];
  for (let i = 0; i < GENERATED; i++) {
    const made = body(bodySize());
    hosts.push({ name: `h${i}.crawl.test`, body: Buffer.from(made.text), paths: made.paths });
  }
  const corpusRoot = join(root, '..', 'shared', 'corpus', 'robots');
  let corpusNote: string;
  if (existsSync(corpusRoot)) {
    let count = 0;
    for (const folder of readdirSync(corpusRoot).sort()) {
      for (const file of readdirSync(join(corpusRoot, folder)).sort()) {
        const bytes = readFileSync(join(corpusRoot, folder, file));
        const paths = [...bytes.toString('latin1').matchAll(/^\s*(?:dis)?allow\s*:\s*(\/\S*)/gim)].map((m) => m[1].replace(/\*/g, 'x').replace(/\$$/, ''));
        hosts.push({ name: `c${count++}.corpus.test`, body: bytes, paths });
      }
    }
    corpusNote = `plus the ${count} real files of ../shared/corpus/robots/*`;
  } else {
    corpusNote = `no real files: ${corpusRoot} is absent (skipped)`;
    console.warn(corpusNote);
  }
  const sizes = hosts.map((h) => h.body.length).sort((a, b) => a - b);
  const totalBytes = sizes.reduce((sum, n) => sum + n, 0);
  const quantile = (q: number): number => sizes[Math.min(sizes.length - 1, Math.floor(q * sizes.length))];
  const bigBytes = sizes.filter((n) => n > 100_000).reduce((sum, n) => sum + n, 0);
  const shape = `${hosts.length} hosts, ${(totalBytes / 1e6).toFixed(1)} MB: median ${quantile(0.5)} B, p90 ${(quantile(0.9) / 1e3).toFixed(1)} KB, p99 ${(quantile(0.99) / 1e3).toFixed(0)} KB, p99.9 ${(quantile(0.999) / 1e3).toFixed(0)} KB, largest ${(sizes[sizes.length - 1] / 1e6).toFixed(2)} MB; files over 100 KB hold ${((100 * bigBytes) / totalBytes).toFixed(0)}% of the bytes`;


  /** URLs of each host from its own rules (and a few that match none), `perHost` each; sorted by host or shuffled. */
  function urlLines(perHost: number, order: 'random' | 'sorted', seed: number, weighting: 'even' | 'size' = 'even', nearMisses = false): { host: number; url: string }[] {
    const rand = seededRandom(seed);
    const lines: { host: number; url: string }[] = [];
    const total = perHost * hosts.length;
    hosts.forEach((host, index) => {
      const count = weighting === 'even' ? perHost : Math.max(1, Math.round((total * host.body.length) / totalBytes));
      for (let k = 0; k < count; k++) {
        let path = host.paths.length > 0 && rand() < 0.8 ? host.paths[Math.floor(rand() * host.paths.length)] : `/${WORDS[k % WORDS.length]}/page-${k}`;
        // near-misses: one byte short of the rule, or one past it
        const miss = nearMisses ? rand() : 1;
        if (miss < 0.1 && path.length > 2) path = path.slice(0, -1);
        else if (miss < 0.2) path += 'x';
        lines.push({ host: index, url: `https://${host.name}${path}${rand() < 0.2 ? '?sessionid=1' : ''}` });
      }
    });
    if (order === 'random') {
      for (let i = lines.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [lines[i], lines[j]] = [lines[j], lines[i]];
      }
    }
    return lines;
  }
  return { hosts, WORDS, GENERATED, totalBytes, shape, corpusNote, urlLines };
}
