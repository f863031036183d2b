// The first step of an audit: a request's User-Agent -> the crawler it is, the group it follows in a file (as
// the crawler behaves, or as its product token: AuditOptions.reading) and the crawler family it claims.
// Nothing here counts or judges; caches are bounded. One per audit (RobotsAudit holds it).
import { isbot } from 'isbot';
import { asciiLowerCase, productToken, type RobotsTxt } from '../../core/robots.js';
import { crawlerName, groupFollowed, isCrawlerWord, userAgentWords } from '../../core/crawlers.js';
import { familyOfCrawler, type CrawlerFamily } from '../crawlers/index.js';

/** What a User-Agent says, independent of any robots.txt (cached per User-Agent). */
interface UserAgentFacts {
  /** isbot knows it as a bot (browsers never are). */
  bot: boolean;
  /** Its words outside URLs as robots.txt product tokens are compared: runs of [a-z0-9_-], lower case, once each. */
  words: string[];
  /** Its name when no product token of the file names it. */
  name: string;
  /** That name's product token, as the reference reads an agent. */
  token: string;
}

/** Facts of this many User-Agents (and this many of their characters, words included) are kept; then the table starts again. */
const USER_AGENT_CACHE = 100_000;
const USER_AGENT_CACHE_CHARS = 32 << 20;

/** Families of crawler names (and, in the audit, the names' first User-Agents) kept up to this many. */
export const NAME_CACHE = 100_000;

/** A request's crawler and the group it follows (null for AdsBot without a group of its own). */
export interface ClassifiedCrawler {
  agent: string;
  group: string | null;
}

/** Reads requests' crawlers (see the file's head). Per request, from RobotsAudit. */
export class CrawlerClassifier {
  private readonly userAgents = new Map<string, UserAgentFacts>();
  private userAgentChars = 0;
  private readonly families = new Map<string, CrawlerFamily | null>();
  /** Groups of User-Agents in older versions of files (previousGroupOf). */
  private readonly olderGroups = new WeakMap<RobotsTxt, Map<string, string | null>>();

  constructor(private readonly reading: 'crawler' | 'token' = 'crawler') {}

  /** What a User-Agent says (cached). */
  private factsOf(userAgent: string): UserAgentFacts {
    let facts = this.userAgents.get(userAgent);
    if (facts === undefined) {
      const bot = isbot(userAgent);
      const name = bot ? crawlerName(userAgent) : '';
      facts = { bot, words: bot ? [...new Set(userAgentWords(userAgent).flatMap((word) => asciiLowerCase(word.text).split('.')))].filter((word) => word !== '') : [], name, token: productToken(name) };
      if (this.userAgents.size >= USER_AGENT_CACHE || this.userAgentChars > USER_AGENT_CACHE_CHARS) {
        this.userAgents.clear();
        this.userAgentChars = 0;
      }
      this.userAgents.set(userAgent, facts);
      this.userAgentChars += 2 * userAgent.length;
    }
    return facts;
  }

  /** The crawler family a crawler's name claims (cached per name). Per request. */
  familyOf(agent: string): CrawlerFamily | null {
    let family = this.families.get(agent);
    if (family === undefined) {
      family = familyOfCrawler(agent);
      if (this.families.size >= NAME_CACHE) this.families.clear();
      this.families.set(agent, family);
    }
    return family;
  }

  /**
   * The crawler of a request and the group it follows. Its name comes from its User-Agent (crawlerName); the
   * group is that name's product token's (as the reference reads an agent), or its Google fallback's; else
   * the longest User-Agent word the file names as a product token (browser words such as Mozilla claim
   * nothing); else `*` (null for AdsBot, which ignores `*`). Null for browsers and no User-Agent.
   */
  crawlerOf(userAgent: string | null, robots: RobotsTxt | null): ClassifiedCrawler | null {
    if (userAgent === null) return null;
    const facts = this.factsOf(userAgent);
    if (!facts.bot) return null;
    const tokens = robots === null ? null : tokensOf(robots);
    // the reference's reading: the product token's own group, else *
    if (this.reading === 'token') return { agent: facts.name, group: tokens?.get(asciiLowerCase(facts.token)) ?? '*' };
    const group = groupFollowed(facts.token, (token) => tokens?.has(token) === true);
    if (group !== null && group !== '*') return { agent: facts.name, group: tokens?.get(group) as string };
    if (tokens !== null) {
      let best: string | null = null;
      for (const word of facts.words) if (tokens.has(word) && (best === null || word.length > best.length)) best = word;
      if (best !== null) return { agent: tokens.get(best) as string, group: tokens.get(best) as string };
    }
    return { agent: facts.name, group };
  }

  /** The group a User-Agent follows in an older version of a file (crawlerOf's), kept per file and User-Agent. */
  previousGroupOf(userAgent: string | null, robots: RobotsTxt): string | null {
    if (userAgent === null) return null;
    let groups = this.olderGroups.get(robots);
    if (groups === undefined) this.olderGroups.set(robots, groups = new Map());
    let group = groups.get(userAgent);
    if (group === undefined) {
      if (groups.size >= USER_AGENT_CACHE) groups.clear();
      group = this.crawlerOf(userAgent, robots)?.group ?? null;
      groups.set(userAgent, group);
    }
    return group;
  }
}

const tokenCache = new WeakMap<RobotsTxt, Map<string, string>>();

/** The product tokens a file names (not `*`, not browser words such as Mozilla): lower case -> as written. */
function tokensOf(robots: RobotsTxt): Map<string, string> {
  let tokens = tokenCache.get(robots);
  if (tokens === undefined) {
    tokens = new Map();
    for (const group of robots.groups) {
      for (const agent of group.agents) {
        if (agent.global || agent.productToken === '' || !isCrawlerWord(agent.productToken)) continue;
        const lower = asciiLowerCase(agent.productToken);
        if (!tokens.has(lower)) tokens.set(lower, agent.productToken);
      }
    }
    tokenCache.set(robots, tokens);
  }
  return tokens;
}
