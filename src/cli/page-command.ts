// robotstxt page <url>: what a page lets a crawler index, judged with robots.txt (src/core/page-rules.ts,
// src/node/page/): crawling is not indexing.
import { openedPack } from './pack-option.js';
import { planPage, type PagePlan } from './page-plan.js';
import { readFileSync } from 'node:fs';
import { parseCommand, usageError, type Command, type CommandSpec } from './command-spec.js';
import { AGENT_OPTION, MODE_OPTION, MAX_BYTES_OPTION, withHelp } from './shared-options.js';
import { loadRobots, terminalSafe, warnAboutAgents } from './common.js';
import { isRobotsMetaName } from '../core/page-traps.js';
import { pageResponseOf } from '../core/page-rules.js';
import { FETCH_OPTIONS } from './fetch-options.js';
import { parseRobots, type RobotsReading, type RobotsTxt } from '../core/robots.js';
import { originOf } from '../core/url-model.js';
import { FULL_VERDICT_BODY } from '../node/hosts/index.js';
import { RobotsError } from '../core/errors.js';
import type { PageReport } from '../node/page/index.js';
import { flagWords } from './option-words.js';
import { pageText } from './page-output.js';

/** What page states about itself: its options (src/cli/command-spec.ts), usage, help and docs come from it. */
export const PAGE_SPEC = {
  name: 'page',
  options: {
    agent: withHelp(AGENT_OPTION, 'the crawler asked about (its product token, e.g. Googlebot); one'),
    robots: { type: 'string', value: '<file>', help: 'the site\'s robots.txt' },
    store: { type: 'string', value: '<dir>', help: 'a store filled by robotstxt fetch: the robots.txt of the URL\'s origin' },
    pack: { type: 'string', value: '<file>', help: 'a pack made by robotstxt pack: the newest capture of the URL\'s origin (the\npack\'s --max-bytes, and its mode unless --mode is given)' },
    header: { type: 'string', multiple: true, value: "'Name: value'", help: 'a response header of the page (repeatable: X-Robots-Tag and Robots-Tag are\nread, every occurrence)' },
    html: { type: 'string', value: '<file>', help: 'the page\'s HTML (its <head> meta tags are read; the first 1 MiB)' },
    status: { type: 'string', value: 'N', help: 'the page\'s HTTP status (100 to 999), weighed as Google does: 2xx the page, 3xx\nnot the page (its target may be indexed), 4xx but 429 not indexed, 429 and 5xx\nnot indexed from this response (default: not known, the rules alone decide)' },
    fetch: { type: 'boolean', help: 'fetch robots.txt (unless --robots or --store) and then the page itself (GET, the\nfirst 1 MiB; redirects followed, up to 10, each URL\'s robots.txt first); a URL\nrobots.txt disallows is never requested' },
    'timeout-ms': { type: 'string', value: 'N', whole: { fallback: 10_000, min: 1, max: 600_000 }, requires: ['fetch'], help: 'deadline of each fetch ({range}; default 10000)' },
    'user-agent': { type: 'string', value: '<text>', requires: ['fetch'], help: 'the User-Agent header of fetches (default robotstxt-wasm/0.1 (+...))' },
    targets: { ...FETCH_OPTIONS.targets, requires: ['fetch'], help: 'which addresses the fetches may reach, each hop of a redirect too: default, the URL\nyou name is fetched as named, and no redirect may lead from a public address to\na loopback, private or link-local one; public, no such address at all and\nredirects only to the same port; any, no check. A refused redirect is not\nfollowed: the redirect itself is the answer' },
    now: { type: 'string', value: '<ISO time>', help: 'the time unavailable_after dates are compared with (default now)' },
    format: { type: 'string', choices: ['text', 'json'], fallback: 'text', help: 'text (default) or one JSON object' },
    mode: MODE_OPTION,
    'max-bytes': MAX_BYTES_OPTION,
  },
  positionals: { shown: '<url>', min: 1, max: 1, error: (count: number) => `page needs exactly one <url>, got ${count} (see robotstxt page --help)` },
  oneOf: [['robots', 'store', 'pack', 'fetch']],
  required: ['agent'],
  column: 24,
  description: `What a page lets a crawler do, with robots.txt: crawl (robots.txt's verdict, the reference's), and when
crawling is allowed, the page's own rules, from its X-Robots-Tag and Robots-Tag headers and the robots meta
tags of its <head> (name="robots", or the crawler's token): index, follow, snippet, image and video
previews, translate, image indexing, indexifembedded, unavailable_after, and the AI statements (noai,
noimageai, content-signal). Conflicting rules: the more restrictive applies. A URL robots.txt disallows is
never crawled, so its rules are not seen (seen: false): it may still be indexed from links, without its
content, whatever its noindex says. docs/page-rules.md states every rule and its sources.

The page's HTTP status (fetched, or --status) is weighed as Google documents it: 2xx is the page; a
redirect (3xx) is not the page (its target may be indexed); 4xx but 429 is not indexed; 429 and 5xx are
retried and not indexed from that response. A fetched body is decoded (gzip, deflate, br); a body in any
other encoding is said and never judged.

Exit status: 0 the page may appear in search results for the crawler, 1 it may not (noindex seen,
unavailable_after passed, or a status that is not the page), 2 usage errors or a page --fetch could not get
or read.`,
  examples: [
    "robotstxt page https://example.com/a --agent Googlebot --robots robots.txt --header 'X-Robots-Tag: noindex'",
    'robotstxt page https://example.com/a --agent Googlebot --robots robots.txt --html a.html --format json',
    'robotstxt page https://example.com/a --agent Googlebot --fetch',
  ],
} as const satisfies CommandSpec;

/** robotstxt page. */
export const COMMAND: Command = { spec: PAGE_SPEC, run: (args, io) => runPage(args, io.out, io.err) };

/** robotstxt page: the plan (planPage), the page and the robots.txt it names read or fetched, the report. Once per run. */
export async function runPage(args: string[], out: (text: string) => void, stderr: (text: string) => void): Promise<number> {
  const plan = planPage(parseCommand(PAGE_SPEC, args));
  const { url, origin, agent, rules, fetching } = plan;
  warnAboutAgents([agent], stderr);
  const nowMs = plan.nowMs ?? Date.now();
  let html: Uint8Array | null = null;
  if (plan.page.kind === 'given' && plan.page.htmlFile !== null) {
    try {
      html = readFileSync(plan.page.htmlFile);
    } catch (error) {
      throw new RobotsError('FILE_UNREADABLE', `cannot read --html ${plan.page.htmlFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  const { answerPage, fetchPageFollowing, pageReportJson, PageRobots } = await import('../node/page/index.js');
  let rulesOf = { agent, reading: plan.reading, nowMs };
  let pageRobots: InstanceType<typeof PageRobots>;
  if (rules.kind === 'file') pageRobots = new PageRobots({ ...rulesOf, robots: loadRobots(rules.path, plan.reading, stderr) });
  else if (rules.kind === 'store') pageRobots = new PageRobots({ ...rulesOf, directory: rules.directory });
  else if (rules.kind === 'pack') {
    const { pack, reading } = await openedPack(rules.file, plan.reading, rules.given);
    const { packBodies } = await import('../node/pack/index.js');
    rulesOf = { agent, reading, nowMs };
    pageRobots = new PageRobots({ ...rulesOf, source: packBodies(pack) });
  } else pageRobots = new PageRobots({ ...rulesOf, robots: await fetchedRobots(url, fetching, plan.reading, stderr) });
  // a redirect to another origin: its robots.txt from the store or the pack, else fetched (once per origin)
  const kept = rules.kind === 'store' ? `the store has no record of {origin} (never fetched): its URLs are answered as allowed (fetch it with robotstxt fetch --store ${terminalSafe(rules.directory)})` : rules.kind === 'pack' ? `the pack ${terminalSafe(rules.file)} has no entry of {origin}: its URLs are answered as allowed` : null;
  const otherOrigins = new Map<string, InstanceType<typeof PageRobots>>();
  const robotsFor = async (at: NonNullable<ReturnType<typeof originOf>>): Promise<Awaited<ReturnType<typeof pageRobots.forOrigin>>> => {
    if (at.origin === origin.origin || kept !== null) {
      const found = await pageRobots.forOrigin(at);
      if (found.found === 'missing' && kept !== null) stderr(`robotstxt: ${kept.replace('{origin}', () => at.origin)}\n`);
      return found;
    }
    let other = otherOrigins.get(at.origin);
    if (other === undefined) otherOrigins.set(at.origin, other = new PageRobots({ ...rulesOf, robots: await fetchedRobots(at.origin, fetching, plan.reading, stderr) }));
    return other.forOrigin(at);
  };
  let report: PageReport;
  try {
    if (plan.page.kind === 'fetch') {
      const { Agent } = await import('undici');
      const dispatcher = new Agent({ connect: { timeout: fetching.timeoutMs } });
      try {
        const followed = await fetchPageFollowing(url, { agent, userAgent: fetching.userAgent ?? 'robotstxt-wasm/0.1 (+https://www.npmjs.com/package/robotstxt-wasm)', timeoutMs: fetching.timeoutMs, dispatcher, robotsFor, targets: fetching.targets, optionWords: flagWords });
        for (const hop of followed.redirects) stderr(`robotstxt: ${terminalSafe(hop.url)} answered ${hop.status}: followed\n`);
        if (followed.stopped !== null) stderr(`robotstxt: ${terminalSafe(followed.stopped)}\n`);
        const page = followed.page;
        // a body that cannot be decoded is never judged as the page (its compressed bytes are no HTML)
        if (page !== null && page.bodyError !== null && pageResponseOf(page.status) === 'content') throw new RobotsError('PAGE_UNREACHABLE', `cannot read ${followed.url}: ${page.bodyError}: the page is not judged`);
        report = answerPage({ url: followed.url, agent, crawlAllowed: followed.allowed, robotsNoindex: followed.robots.noindex.lineFor(followed.url), headers: page?.headers ?? [], html: page?.body ?? null, nowMs, status: page?.status ?? null, redirects: followed.redirects });
      } catch (error) {
        if (error instanceof RobotsError && error.code === 'PAGE_UNREACHABLE') throw usageError(error.sayOption(flagWords));
        throw error;
      } finally {
        await dispatcher.close().catch(() => undefined);
      }
    } else {
      const found = await robotsFor(origin);
      const allowed = found.robots.matcher(agent).isAllowed(url);
      report = answerPage({ url, agent, crawlAllowed: allowed, robotsNoindex: found.noindex.lineFor(url), headers: plan.page.headers, html, nowMs, status: plan.page.status });
    }
  } finally {
    pageRobots.close();
    for (const other of otherOrigins.values()) other.close();
  }
  for (const meta of report.metasOutsideHead) {
    if (isRobotsMetaName(meta.name, agent)) stderr(`robotstxt: a meta tag outside <head> is not read: <meta name="${terminalSafe(meta.name)}" content="${terminalSafe(meta.content)}">\n`);
  }
  if (report.htmlTruncated) stderr('robotstxt: the HTML is longer than 1 MiB: its first 1 MiB was read\n');
  out(plan.format === 'json' ? `${JSON.stringify(pageReportJson(report), null, 2)}\n` : pageText(report));
  return report.indexable ? 0 : 1;
}

/** The robots.txt of a URL's origin, fetched (its outcome's rules: 4xx allow all, unreachable disallow all). */
async function fetchedRobots(url: string, fetching: PagePlan['fetching'], reading: RobotsReading, stderr: (text: string) => void): Promise<RobotsTxt> {
  const { fetchRobots } = await import('../node/fetch/index.js');
  const result = await fetchRobots(url, { timeoutMs: fetching.timeoutMs, userAgent: fetching.userAgent ?? undefined, mode: reading.mode, maxBytes: reading.maxBytes === 0 ? undefined : reading.maxBytes, targets: fetching.targets, optionWords: flagWords });
  if (result.robots !== null) return result.robots;
  stderr(`robotstxt: robots.txt of ${originOf(url)?.origin ?? url}: ${result.outcome}${result.error === null ? '' : ` (${terminalSafe(result.error)})`}: ${result.effect === 'disallow-all' ? 'every URL disallowed' : 'every URL allowed'}\n`);
  return parseRobots(result.effect === 'disallow-all' ? FULL_VERDICT_BODY.disallow : FULL_VERDICT_BODY.allow, { mode: reading.mode });
}
