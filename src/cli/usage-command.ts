// robotstxt usage <robots-file> <url>...: the AI usage preferences a robots.txt states for URLs (src/core/usage.ts);
// with --pack, each URL by its origin's robots.txt in a pack.
import { parseCommand, type Command, type CommandSpec } from './command-spec.js';
import { MODE_OPTION, MAX_BYTES_OPTION } from './shared-options.js';
import { loadRobots, terminalSafe, warnAboutAgents } from './common.js';
import { readFileSync } from 'node:fs';
import { DEFAULT_POLICY_TOKENS, type PageAiStatements } from '../core/usage.js';
import { purposeTable, usageTable } from './usage-output.js';
import { pageRules, type PageMeta } from '../core/page-rules.js';
import { RobotsError } from '../core/errors.js';
import { parseRobots, type RobotsReading, type RobotsTxt } from '../core/robots.js';
import { originOf } from '../core/url-model.js';
import { openedPack } from './pack-option.js';
import { planUsage, usagePositionalsError } from './usage-plan.js';
import { NO_RULES_KNOWN } from '../node/hosts/index.js';

/** What usage states about itself: its options (src/cli/command-spec.ts), usage, help and docs come from it. */
export const USAGE_SPEC = {
  name: 'usage',
  options: {
    agent: { type: 'string', value: '<token>', fallback: '*', help: 'the crawler asked about (default *: any crawler the file does not name)' },
    purpose: { type: 'string', multiple: true, value: '<purpose>', help: 'one verdict for a purpose (train-ai, search, ai-input, or a Content-Usage\ncategory; repeatable): its Content-Usage rule, the --header and its\nContent-Signal key, the more restrictive winning, as check --usage and audit\nanswer (and the page\'s own noai and content-signal, given by the page options\nbelow); with it, only the crawl verdict and the purposes are printed' },
    token: { type: 'string', multiple: true, value: '<token>', help: `a policy product token to answer (repeatable; default ${DEFAULT_POLICY_TOKENS.join(', ')})` },
    header: { type: 'string', value: '<value>', help: 'an HTTP Content-Usage header value (a Structured Field Dictionary such as\n"train-ai=n"), combined with the robots.txt statement, n over y' },
    'page-header': { type: 'string', multiple: true, value: "'Name: value'", requires: ['purpose'], help: 'a response header of the page (repeatable; X-Robots-Tag and Robots-Tag are read):\nits noai is weighed with --purpose (one <url>)' },
    'page-html': { type: 'string', value: '<file>', requires: ['purpose'], help: 'the page\'s HTML: the noai and content-signal meta tags of its <head> are\nweighed with --purpose (one <url>)' },
    format: { type: 'string', choices: ['text', 'json'], fallback: 'text', help: 'text (default): a table per URL; json: one object per URL per line' },
    pack: { type: 'string', value: '<file>', help: 'a pack made by robotstxt pack, in place of <robots-file>: each URL answered by\nits origin\'s robots.txt there (the newest capture; the pack\'s --max-bytes, and\nits mode unless --mode is given); an origin without an entry as one without a\nrobots.txt, named on stderr; a URL with no http(s) origin is named, exit 2' },
    mode: MODE_OPTION,
    'max-bytes': MAX_BYTES_OPTION,
  },
  positionals: { shown: '(<robots-file> | --pack <file>) <url>...', min: 1, max: Infinity, error: usagePositionalsError },
  column: 22,
  description: `What a robots.txt says fetched content may be used for, beside whether it may be fetched, for each URL:
  crawl          the crawl verdict for --agent (the reference's, never changed by what follows)
  usage          each Content-Usage category (train-ai, search, and any other the file states):
                 allowed (y), disallowed (n) or unknown (nothing applicable says; always unknown
                 for a URL the agent may not fetch), from the rule with the longest matching path
  content-signal the Content-Signal values that apply to the agent (its groups', else file-wide)
  token          each policy token's crawl verdict (Google-Extended, Applebot-Extended, ...) and
                 whether a group naming it or the * group decided
with the lines that decided. docs/ai-usage.md says how each mechanism is read and why.

Exit status: 0 answered, 2 usage or file errors (or, with --pack, a URL that names no origin).`,
  examples: [
    'robotstxt usage robots.txt https://example.com/article --agent GPTBot',
    'robotstxt usage robots.txt https://example.com/a --header "train-ai=n" --format json',
    'robotstxt usage robots.txt https://example.com/a --token Google-Extended --token CCBot',
    'robotstxt usage --pack crawl.pack https://example.com/a https://other.example/b --agent GPTBot',
  ],
} as const satisfies CommandSpec;

/** robotstxt usage. */
export const COMMAND: Command = { spec: USAGE_SPEC, run: (args, io) => runUsage(args, io.out, io.err) };

/** robotstxt usage: the plan (planUsage), the page's statements and the rules it names read, each URL answered. Once per run. */
export async function runUsage(args: string[], stdout: (text: string) => void, stderr: (text: string) => void): Promise<number> {
  const plan = planUsage(parseCommand(USAGE_SPEC, args));
  const { agent, header, tokens, urls, rules } = plan;
  if (agent !== '*') warnAboutAgents([agent], stderr);
  const page = plan.page === null ? null : await pageAi(plan.page.headers, plan.page.htmlFile, agent);
  const source = rules.kind === 'file' ? oneFile(loadRobots(rules.path, plan.reading, stderr)) : await packFiles(rules.file, plan.reading, rules.given);
  const unanswered: string[] = [];
  try {
    for (const url of urls) {
      const robots = source.robotsOf(url);
      if (robots === null) {
        unanswered.push(url);
        continue;
      }
      if (plan.purposes.length > 0) {
        const answers = plan.purposes.map((purpose) => robots.mayUse(url, agent, purpose, { header, page }));
        stdout(plan.format === 'json' ? `${JSON.stringify({ url: answers[0].url, agent, crawl: answers[0].crawl, purposes: answers.map(({ purpose, verdict, decidedBy, statements }) => ({ purpose, verdict, decidedBy, statements })), rule: answers[0].rule })}\n` : purposeTable(answers));
        continue;
      }
      const answer = robots.usage(url, agent, { tokens, header });
      stdout(plan.format === 'json' ? `${JSON.stringify(answer)}\n` : usageTable(answer));
    }
  } finally {
    source.close();
  }
  const missing = source.missing;
  if (missing.length > 0) stderr(`robotstxt: ${missing.length} origin(s) have no entry in the pack ${terminalSafe(rules.kind === 'pack' ? rules.file : '')} (${missing.slice(0, 5).map(terminalSafe).join(', ')}${missing.length > 5 ? `, and ${missing.length - 5} more` : ''}): their URLs were answered as with no robots.txt (every URL allowed, usage unknown)\n`);
  for (const url of unanswered) stderr(`robotstxt: '${terminalSafe(url)}' names no http:// or https:// origin: not answered (with --pack, a URL's origin says whose robots.txt answers it)\n`);
  return unanswered.length > 0 ? 2 : 0;
}

/** Where each URL's robots.txt comes from: one file, or a pack by origin (null: the URL names no origin). */
interface UsageRobots {
  robotsOf(url: string): RobotsTxt | null;
  /** Origins the pack has no entry of (answered as with no robots.txt). */
  readonly missing: string[];
  close(): void;
}

function oneFile(robots: RobotsTxt): UsageRobots {
  return { robotsOf: () => robots, missing: [], close: () => robots.close() };
}

/** A pack's robots.txt per URL origin, as check --pack looks it up (the newest capture). Once per run. */
async function packFiles(packFile: string, asked: RobotsReading, given: ReadonlySet<string>): Promise<UsageRobots> {
  const { packRobotsAt } = await import('../node/pack/index.js');
  const { pack, reading } = await openedPack(packFile, asked, given);
  const robotsAt = packRobotsAt(pack, reading);
  const none = parseRobots('', reading); // no robots.txt (a 4xx, or no entry): every URL allowed, usage unknown
  const missing = new Set<string>();
  return {
    get missing() {
      return [...missing];
    },
    robotsOf(url) {
      const origin = originOf(url);
      if (origin === null) return null;
      const robots = robotsAt.at(origin, null);
      if (robots === NO_RULES_KNOWN) {
        missing.add(origin.origin);
        return none;
      }
      return robots ?? none;
    },
    close: () => {
      none.close();
      robotsAt.close();
    },
  };
}

/** The page's AI statements (its noai, its content-signal meta tag) from --page-header and --page-html (read here). */
async function pageAi(headers: [string, string][], htmlFile: string | null, agent: string): Promise<PageAiStatements> {
  let metas: PageMeta[] = [];
  if (htmlFile !== null) {
    let html: Uint8Array;
    try {
      html = readFileSync(htmlFile);
    } catch (error) {
      throw new RobotsError('FILE_UNREADABLE', `cannot read --page-html ${htmlFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const { htmlMetas } = await import('../node/page/index.js');
    metas = htmlMetas(html).head;
  }
  return pageRules({ headers, metas, agent: agent === '*' ? '*' : agent }).ai;
}
