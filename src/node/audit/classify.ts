// The first step of an audit: a request's User-Agent -> the crawler it is, the group it follows in a file (as
// the crawler behaves, or as its product token: AuditOptions.reading) and the crawler family it claims.
// Nothing here counts or judges; caches are bounded. One per audit (RobotsAudit holds it).
import { isbot } from 'isbot';
import { asciiLowerCase, productToken, type RobotsTxt } from '../../core/robots.js';
import { crawlerName, groupFollowed, isCrawlerWord, userAgentWords } from '../../core/crawlers.js';
import { crawlerCategory, familyOfCrawler, type CrawlerCategory, type CrawlerFamily } from '../crawlers/index.js';

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

/** A request's crawler, the group it follows (null for AdsBot without a group of its own) and the crawler family its name claims. */
export interface ClassifiedCrawler {
  agent: string;
  group: string | null;
  family: CrawlerFamily | null;
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

  /** The crawler family a crawler's name claims (cached per name). */
  private familyOf(agent: string): CrawlerFamily | null {
    let family = this.families.get(agent);
    if (family === undefined) {
      family = familyOfCrawler(agent);
      if (this.families.size >= NAME_CACHE) this.families.clear();
      this.families.set(agent, family);
    }
    return family;
  }

  /**
   * The crawler of a request, the group it follows and the family it claims. Its name comes from its User-Agent
   * (crawlerName); the group is that name's product token's (as the reference reads an agent), or its Google
   * fallback's; else the longest User-Agent word the file names as a product token (browser words such as
   * Mozilla claim nothing); else `*` (null for AdsBot, which ignores `*`). Null for browsers and no
   * User-Agent. Per request.
   */
  crawlerOf(userAgent: string | null, robots: RobotsTxt | null): ClassifiedCrawler | null {
    if (userAgent === null) return null;
    const facts = this.factsOf(userAgent);
    if (!facts.bot) return null;
    const tokens = robots === null ? null : tokensOf(robots);
    let agent = facts.name;
    let group = this.groupOfToken(facts.token, tokens);
    // as crawlers behave, a name without a group of its own: the longest User-Agent word the file names
    if (this.reading === 'crawler' && (group === null || group === '*') && tokens !== null) {
      let best: string | null = null;
      for (const word of facts.words) if (tokens.has(word) && (best === null || word.length > best.length)) best = word;
      if (best !== null) agent = group = tokens.get(best) as string;
    }
    return { agent, group, family: this.familyOf(agent) };
  }

  /**
   * The crawler of a signed request, whatever its User-Agent says (agents that act for a user send a browser's): the
   * product token its agent's card states (rfc9309-product-token), judged by that token's group as crawlerOf judges
   * a name (its own group or its fallback's, else `*`; with reading token, its own group else `*`); or, when the card
   * states none or its keys were not given, the agent's host, judged by `*` (it claims no group). `unnamed signer`
   * when the Signature-Agent cannot be read. Per signed request.
   */
  signerOf(signer: { agent: string | null; productToken: string | null }, robots: RobotsTxt | null): ClassifiedCrawler {
    const token = signer.productToken;
    if (token === null) {
      const agent = signer.agent ?? 'unnamed signer';
      return { agent, group: '*', family: this.familyOf(agent) };
    }
    return { agent: token, group: this.groupOfToken(productToken(token), robots === null ? null : tokensOf(robots)), family: this.familyOf(token) };
  }

  /**
   * The group a product token follows among a file's tokens (as written; null: no file): with reading token its
   * own group, else `*` (the reference's reading); as crawlers behave, its own or its fallback's (Googlebot-Image
   * follows Googlebot), else `*`, or null for AdsBot, which ignores `*`. Per request.
   */
  private groupOfToken(token: string, tokens: Map<string, string> | null): string | null {
    if (this.reading === 'token') return tokens?.get(asciiLowerCase(token)) ?? '*';
    const group = groupFollowed(token, (name) => tokens?.has(name) === true);
    return group !== null && group !== '*' ? tokens?.get(group) as string : group;
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

/** The most User-Agent characters the names' first User-Agents keep (a crawler's kind is read from them when needed): 8 M, 16 MiB at most. */
const NAME_CACHE_CHARS = 8 << 20;

/** What a crawler's kind is read from, and the kind once read (CrawlerState in tally.ts holds these). */
export interface KindSource {
  readonly agent: string;
  /** The first User-Agent seen with its name when it was first counted. */
  readonly categoryUserAgent: string;
  category: CrawlerCategory | null;
}

/**
 * Crawlers' kinds (search, ai-training, ...), read from a name and the first User-Agent seen with it, when first
 * needed (a usage judgement, a report, a partial): a crawler dropped before then never pays for the some 1,500
 * patterns (1 M lines of distinct bots paid 40 us a line for them). One per audit (its tally holds it).
 */
export class CrawlerKinds {
  /** Crawler name -> the first User-Agent seen with it (its category is read from that one), and the category read. */
  private readonly names = new Map<string, { userAgent: string; category: CrawlerCategory | null }>();
  /** The characters of the User-Agents kept in names (at most NAME_CACHE_CHARS). */
  private textChars = 0;

  /** The User-Agent a new crawler's kind is read from: the first seen with its name (kept up to NAME_CACHE names and NAME_CACHE_CHARS characters). Per new crawler. */
  firstUserAgent(agent: string, userAgent: string): string {
    const nameKey = asciiLowerCase(agent);
    let entry = this.names.get(nameKey);
    if (entry === undefined) {
      const text = userAgent.slice(0, 1024);
      if (this.names.size >= NAME_CACHE || this.textChars + text.length > NAME_CACHE_CHARS) {
        this.names.clear();
        this.textChars = 0;
      }
      entry = { userAgent: text, category: null };
      this.names.set(nameKey, entry);
      this.textChars += text.length;
    }
    return entry.userAgent;
  }

  /** A crawler's kind, read once per name and first User-Agent when first needed (kept in the crawler). */
  kindOf(crawler: KindSource): CrawlerCategory {
    if (crawler.category !== null) return crawler.category;
    const entry = this.names.get(asciiLowerCase(crawler.agent));
    if (entry !== undefined && entry.userAgent === crawler.categoryUserAgent && entry.category !== null) crawler.category = entry.category;
    else {
      crawler.category = crawlerCategory(crawler.agent, crawler.categoryUserAgent);
      if (entry !== undefined && entry.userAgent === crawler.categoryUserAgent) entry.category = crawler.category;
    }
    return crawler.category;
  }
}
