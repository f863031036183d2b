// The main paths of the command line at a scale of their input, for costs that must grow in a straight line:
// one place that writes each path's input at scale k (k = 1, 4, ...) and names its command. Used by
// bench/growth.ts (wall time, `npm run bench:growth`) and test/growth.test.ts (instructions counted by
// valgrind's callgrind, `npm run test:slow`). Inputs are generated (bench/data.ts, seeded): the same bytes on
// every machine.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { accessLogLines, hostPaths, hostRobots, largeRobots, shopRobots, shopUrls } from './data.js';

/** A path's command at one scale: robotstxt's arguments and the file given as its standard input. */
export interface GrowthRun {
  args: string[];
  stdin: string;
}

/** A main path: what grows with k, and its command at scale k (0: the same command on an empty input, its fixed cost). */
export interface GrowthPath {
  name: string;
  grows: string;
  /** Writes the path's inputs at scale k under dir (a folder of its own) and returns the command. */
  write(dir: string, k: number): GrowthRun;
}

/** The sizes at scale 1, chosen so that the work of scale 1 is well above the command's start-up. */
export interface GrowthSizes {
  urls: number;
  rules: number;
  hosts: number;
  logLines: number;
  pages: number;
}

/** Sizes for the benchmark (seconds of work at scale 4). */
export const BENCH_SIZES: GrowthSizes = { urls: 1_000_000, rules: 20_000, hosts: 5_000, logLines: 200_000, pages: 20_000 };
/** Sizes for the counted test (under callgrind, about 50 times slower than native: a few seconds at scale 4). */
export const COUNTED_SIZES: GrowthSizes = { urls: 20_000, rules: 4_000, hosts: 200, logLines: 4_000, pages: 300 };

const AGENT = 'Googlebot';
const URLS_OF_RULES_FILE = 1_000;
const URLS_PER_HOST = 4;

/** An HTML page of a crawl: a robots meta tag now and then (the pages path reads every tag of every page). */
function page(index: number): string {
  const meta = index % 3 === 0 ? '<meta name="robots" content="noindex, nofollow">' : index % 3 === 1 ? '<meta name="googlebot" content="max-snippet:50">' : '';
  return `<!doctype html><html><head><title>Page ${index}</title>${meta}</head><body>${'<p>text of the page</p>'.repeat(20)}</body></html>`;
}

/** The five main paths (issue: URLs per file, rules per file, hosts per run, log lines per audit, pages per crawl). */
export function growthPaths(sizes: GrowthSizes): GrowthPath[] {
  const empty = (dir: string): string => {
    const file = join(dir, 'empty.txt');
    writeFileSync(file, '');
    return file;
  };
  return [
    {
      name: 'check, URLs per file',
      grows: `${sizes.urls.toLocaleString('en')} x k URLs, one ~50-rule robots.txt`,
      write(dir, k) {
        const robots = join(dir, 'robots.txt');
        writeFileSync(robots, shopRobots());
        const urls = join(dir, 'urls.txt');
        writeFileSync(urls, k === 0 ? '' : shopUrls(sizes.urls * k, 11).join('\n') + '\n');
        return { args: ['check', '--robots', robots, '--agent', AGENT, '--threads', '1', '-'], stdin: urls };
      },
    },
    {
      name: 'check, rules per file',
      grows: `a robots.txt of ${sizes.rules.toLocaleString('en')} x k rules (read whole), ${URLS_OF_RULES_FILE.toLocaleString('en')} URLs`,
      write(dir, k) {
        const robots = join(dir, 'robots.txt');
        writeFileSync(robots, k === 0 ? '' : largeRobots(sizes.rules * k));
        const urls = join(dir, 'urls.txt');
        writeFileSync(urls, shopUrls(URLS_OF_RULES_FILE, 12).join('\n') + '\n');
        // read whole (--max-bytes 0): the default 500 KiB would cut the larger files to the same size
        return { args: ['check', '--robots', robots, '--max-bytes', '0', '--agent', AGENT, '--threads', '1', '-'], stdin: urls };
      },
    },
    {
      name: 'check --robots-dir, hosts per run',
      grows: `${sizes.hosts.toLocaleString('en')} x k hosts (generated files), ${URLS_PER_HOST} URLs each, random order`,
      write(dir, k) {
        const robotsDir = join(dir, 'robots');
        mkdirSync(robotsDir, { recursive: true });
        const lines: string[] = [];
        for (let index = 0; index < sizes.hosts * k; index++) {
          const body = hostRobots(index);
          writeFileSync(join(robotsDir, `site${index}.example.txt`), body);
          for (const path of hostPaths(body, URLS_PER_HOST, index)) lines.push(`https://site${index}.example${path}`);
        }
        // a fixed shuffle (the order of a real crawl's URL list, not the files')
        for (let i = lines.length - 1; i > 0; i--) {
          const j = (i * 7919 + 13) % (i + 1);
          [lines[i], lines[j]] = [lines[j], lines[i]];
        }
        const urls = join(dir, 'urls.txt');
        writeFileSync(urls, lines.length === 0 ? '' : lines.join('\n') + '\n');
        return { args: ['check', '--robots-dir', robotsDir, '--agent', AGENT, '--threads', '1', '-'], stdin: urls };
      },
    },
    {
      name: 'audit, log lines per audit',
      grows: `${sizes.logLines.toLocaleString('en')} x k Apache combined lines`,
      write(dir, k) {
        const robots = join(dir, 'robots.txt');
        writeFileSync(robots, shopRobots());
        const log = join(dir, 'access.log');
        writeFileSync(log, k === 0 ? '' : accessLogLines(sizes.logLines * k).join('\n') + '\n');
        return { args: ['audit', '--robots', robots, log], stdin: empty(dir) };
      },
    },
    {
      name: 'pages, pages per crawl',
      grows: `${sizes.pages.toLocaleString('en')} x k pages (JSON lines with headers and HTML)`,
      write(dir, k) {
        const robots = join(dir, 'robots.txt');
        writeFileSync(robots, shopRobots());
        const urls = shopUrls(sizes.pages * k, 13);
        const crawl = join(dir, 'crawl.jsonl');
        writeFileSync(crawl, urls.map((url, index) => JSON.stringify({ url, status: 200, headers: index % 5 === 0 ? [['X-Robots-Tag', 'noarchive']] : [], html: page(index) }) + '\n').join(''));
        return { args: ['pages', '--robots', robots, '--agent', AGENT, crawl], stdin: empty(dir) };
      },
    },
  ];
}
