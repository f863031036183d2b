// What robotstxt check says on stderr: how each agent is read against the file, and after a run what was not
// answered from a file (no host, no file, cut bodies), the threads that ran and --stats. Pure: lines from the
// plan and the outcome, each with its newline; the handler writes them.
import { agentsAsCrawlers } from '../core/crawlers.js';
import { asciiLowerCase, parseRobots, productToken, type RobotsTxt } from '../core/robots.js';
import type { RobotsMatcher } from '../core/matcher.js';
import { terminalSafe } from '../core/terminal.js';
import type { CheckOutcome } from '../node/check/index.js';
import { peakMemoryMiB } from './common.js';
import type { CheckCommandPlan } from './check-plan.js';

/** A file with no rules: the answer for agents that no group applies to (AdsBot read as its crawler, with no group of its own). */
const ALLOW_ALL = parseRobots('');

/**
 * The agents a file is asked for, in the reading asked (asCrawler: as each crawler behaves; else the product
 * tokens given, as the reference), and a note per agent where the two readings differ for this file. asked:
 * the agents to ask (the given ones when the readings agree or the token reading is asked), or null when no
 * group applies to any of them (every URL allowed). Once per run.
 */
export function agentReadings(robots: RobotsTxt, agents: string[], asCrawler: boolean): { asked: string[] | null; notes: string[] } {
  const names = (token: string): boolean => robots.names(token);
  const notes: string[] = [];
  for (const agent of agents) {
    const crawler = agentsAsCrawlers([agent], names);
    if (crawler.length === 1 && asciiLowerCase(crawler[0]) === asciiLowerCase(agent)) continue;
    const asItBehaves = crawler.length === 0 ? 'no group (it ignores *): every URL allowed'
      : productToken(agent) === crawler[0] ? `the ${crawler[0]} group (its name's product token, as the file's user-agent lines are read)` : `the ${crawler[0]} group (it has none of its own)`;
    const asToken = names(agent) ? `its own group` : 'the * group';
    // Google's family fallbacks and AdsBot are Google's crawlers; a name like MJ12bot is read by its product token
    const crawlerWord = productToken(agent) === agent ? 'Google\'s crawler' : 'the crawler';
    notes.push(asCrawler
      ? `robotstxt: ${terminalSafe(agent)}: answered as ${crawlerWord} behaves (--as-crawler): ${asItBehaves}; as its product token (the reference) it would get ${asToken}\n`
      : `robotstxt: ${terminalSafe(agent)}: answered as its product token, as the reference does: ${asToken}; ${crawlerWord} follows ${asItBehaves} (--as-crawler answers so)\n`);
  }
  if (!asCrawler) return { asked: agents, notes };
  const asked = agentsAsCrawlers(agents, names);
  return { asked: asked.length === 0 ? null : asked, notes };
}

/** The matcher of a file for the agents asked (see agentReadings): ALLOW_ALL's when no group applies. */
export function matcherFor(robots: RobotsTxt, asked: string[] | null): RobotsMatcher {
  return asked === null ? ALLOW_ALL.matcher('*') : robots.matcher(asked);
}

/** The first few of many, for a summary line: `line 3, 8 and 9 more` style, `noun` before the first ('' for none). */
function listed(noun: string, first: readonly (number | string)[], total: number): string {
  const more = total - first.length;
  const head = first.length === 0 ? '' : `${noun === '' ? '' : `${noun}${first.length > 1 ? 's' : ''} `}${first.join(', ')}`;
  return more > 0 ? `${head}${head === '' ? '' : ' and '}${more} more` : head;
}

/** What a run left to say: cut bodies, lines without a host, hosts without a file, fewer threads. Once per run. */
export function outcomeNotes(outcome: CheckOutcome, plan: CheckCommandPlan, maxBytes: number): string[] {
  const notes: string[] = [];
  if (outcome.malformed > 0) notes.push(`robotstxt: ${outcome.malformed} of ${outcome.lines} input lines were not access log lines\n`);
  if ((outcome.hosts?.cutBodies ?? 0) > 0) {
    // the files named (their origins), not compiles counted: a host compiled again is one file
    const named = outcome.cutOrigins.length > 0 ? `${outcome.cutOrigins.map(terminalSafe).join(', ')}${outcome.cutOrigins.length >= 5 ? ' and maybe more' : ''}` : 'files read by the worker threads';
    notes.push(`robotstxt: warning: robots.txt longer than ${maxBytes} bytes, read only up to there (--max-bytes, as Google's crawler reads files): ${named}; --max-bytes 0 reads files whole, as robotstxt test does\n`);
  }
  const { noHost, missing, rules } = plan;
  if (outcome.noHostLines > 0) {
    notes.push(`robotstxt: ${outcome.noHostLines} line(s) named no host (${listed('line', outcome.noHostExamples, outcome.noHostLines)}): answered as ${String(noHost)}ed (--no-host ${String(noHost)}; URLs need http:// or https:// and a host)\n`);
  }
  const missingHosts = outcome.hosts?.missing ?? 0;
  if (missingHosts > 0 && rules.kind === 'hosts') {
    const names = outcome.missingOrigins.length > 0 ? ` (${listed('', outcome.missingOrigins, missingHosts)})` : '';
    const orAsk = missing === 'allow' ? '; --missing disallow or error for hosts whose rules must be known' : '';
    if (rules.pack !== null) notes.push(`robotstxt: ${missingHosts} origin(s) have no entry in the pack ${terminalSafe(rules.pack)}${terminalSafe(names)}: their URLs were answered as ${String(missing)}ed (--missing ${String(missing)}${orAsk})\n`);
    else if (rules.store) notes.push(`robotstxt: ${missingHosts} origin(s) have no record in the store, never fetched${names}: their URLs were answered as ${String(missing)}ed (--missing ${String(missing)}; fetch them first with robotstxt fetch --store, or add --fetch)\n`);
    else notes.push(`robotstxt: ${missingHosts} host(s) have no robots.txt file in ${terminalSafe(rules.directory)}${terminalSafe(names)}: their URLs were answered as ${String(missing)}ed (--missing ${String(missing)}${orAsk})\n`);
  }
  const fewer = outcome.fewerThreads;
  if (plan.threadsGiven && fewer !== null) {
    const as = fewer.kind === 'inputEnded'
      ? `the input (${fewer.inputBytes} bytes) ended before ${fewer.workersAfterBytes >> 20} MiB, where worker threads start to pay for themselves`
      : `the work, at the pace this thread answered alone, never looked longer than ${fewer.afterMs / 1000} s, when worker threads start (ROBOTSTXT_HOSTS_THREADS_AFTER_MS, in ms; 0 starts them at once)`;
    notes.push(`robotstxt: --threads ${plan.threads}: 1 thread ran, as ${as}\n`);
  }
  return notes;
}

/** The --stats line: what ran, how fast, how much memory. */
export function statsLine(outcome: CheckOutcome, seconds: number, plan: CheckCommandPlan): string {
  const rate = (outcome.lines / seconds / 1e6).toFixed(2);
  let text = `robotstxt: stats: ${outcome.lines} lines in ${seconds.toFixed(3)} s (${rate} M lines/s), threads ${outcome.threadsUsed}, peak memory ${peakMemoryMiB().toFixed(1)} MiB`;
  if (outcome.threadsUsed > 1) text += ` (${outcome.chunksInWorkers} of ${outcome.chunks} chunks${outcome.hosts !== null ? ' split by host' : ''} in workers)`;
  if (outcome.hosts !== null) {
    const hosts = outcome.hosts;
    const packed = plan.rules.kind === 'hosts' && plan.rules.pack !== null;
    const stored = hosts.allowAll + hosts.disallowAll > 0 ? `, ${hosts.allowAll} allow-all and ${hosts.disallowAll} disallow-all by stored outcome` : '';
    text += `; hosts: ${hosts.compiled} compiled, ${hosts.direct} answered from their file, ${packed ? `${hosts.packed} from the pack${hosts.packHeldBytes > 0 ? ` (its rules for the agent held: ${hosts.packHeldBytes < 1048576 ? `${Math.ceil(hosts.packHeldBytes / 1024)} KiB` : `${(hosts.packHeldBytes / 1048576).toFixed(1)} MiB`})` : ''}, ` : ''}${hosts.missing} without robots.txt${stored}, ${hosts.evicted} evicted, ${hosts.cachedHosts} cached in ${(hosts.cacheBytes / 1048576).toFixed(1)} of ${plan.cacheMb} MiB, ${outcome.chunks} window(s) of up to ${outcome.windowBytes / 1048576} MiB`;
  }
  if (outcome.recomputed > 0) text += `; ${outcome.recomputed} batch(es) answered again here after a worker failed`;
  return text + '\n';
}
