// What kind of crawler a User-Agent is (search, AI training, AI assistant, SEO, other): the maintained
// crawler-user-agents list, and the vendors' own pages for what that list does not split. Used by audit.
import { createRequire } from 'node:module';
import { asciiLowerCase } from '../../core/robots.js';
import { isUserTriggeredFetcher } from './families.js';

/** What a crawler does, for reports: every category, in the order reports list them. */
export const CRAWLER_CATEGORIES = ['search', 'ai-training', 'ai-assistant', 'user-triggered', 'seo', 'other'] as const;
/** What a crawler does, for reports. */
export type CrawlerCategory = (typeof CRAWLER_CATEGORIES)[number];

/**
 * The purpose each kind of crawler's requests answer to (audit's usage column), by its name in
 * src/core/usage.ts USAGE_PURPOSE_OF (which says its Content-Usage category and Content-Signal key). Crawlers
 * of other kinds (seo, other) have no stated purpose to weigh.
 */
export const USAGE_PURPOSES: Readonly<Partial<Record<CrawlerCategory, 'train-ai' | 'search' | 'ai-input'>>> = {
  'ai-training': 'train-ai',
  search: 'search',
  'ai-assistant': 'ai-input',
  'user-triggered': 'ai-input',
};

/**
 * AI crawlers that are neither training crawlers nor user-triggered fetchers (USER_TRIGGERED), by each
 * vendor's crawler documentation: assistants' own crawlers (ai-assistant) and AI search indexers (search).
 *   OpenAI (platform.openai.com/docs/bots): OAI-SearchBot. Anthropic (its "Does Anthropic crawl data from
 *   the web" help page): Claude-SearchBot. Perplexity (docs.perplexity.ai/guides/bots): PerplexityBot.
 *   DuckDuckGo (duckduckgo.com/duckassistbot): DuckAssistBot. Amazon (developer.amazon.com/amazonbot):
 *   Amzn-SearchBot. Google: Gemini-Deep-Research.
 */
const AI_NOT_TRAINING: Readonly<Record<string, CrawlerCategory>> = {
  'duckassistbot': 'ai-assistant', 'gemini-deep-research': 'ai-assistant',
  'oai-searchbot': 'search', 'claude-searchbot': 'search', 'perplexitybot': 'search', 'amzn-searchbot': 'search',
};

/** The maintained list's tags (crawler-user-agents) -> a category; ai-crawler is ai-training unless AI_NOT_TRAINING says otherwise. */
const TAG_CATEGORY: Readonly<Record<string, CrawlerCategory>> = { 'search-engine': 'search', 'ai-crawler': 'ai-training', 'seo': 'seo' };

interface KnownCrawler {
  pattern: RegExp;
  category: CrawlerCategory;
}

let knownCrawlers: KnownCrawler[] | null = null;

/** The crawler-user-agents list (maintained; MIT), compiled once. */
function known(): KnownCrawler[] {
  if (knownCrawlers === null) {
    const list = createRequire(import.meta.url)('crawler-user-agents') as { pattern: string; tags?: string[] }[];
    knownCrawlers = [];
    for (const entry of list) {
      let pattern: RegExp;
      try {
        pattern = new RegExp(entry.pattern);
      } catch {
        continue; // a pattern this engine cannot read: that crawler stays "other"
      }
      const tag = (entry.tags ?? []).find((name) => TAG_CATEGORY[name] !== undefined);
      knownCrawlers.push({ pattern, category: tag === undefined ? 'other' : TAG_CATEGORY[tag] });
    }
  }
  return knownCrawlers;
}

/** The part of a User-Agent that categorisation reads: crawlers name themselves early. */
const CATEGORY_SCAN_CHARS = 1024;

/**
 * A crawler's category: AI_NOT_TRAINING by its name, else the first entry of crawler-user-agents whose
 * pattern matches the User-Agent (its first 1,024 characters), by that entry's tags; else other. Callers
 * cache it per crawler (it tries some 1,500 patterns).
 */
export function crawlerCategory(name: string, userAgent: string): CrawlerCategory {
  if (isUserTriggeredFetcher(name)) return 'user-triggered';
  const direct = AI_NOT_TRAINING[asciiLowerCase(name)];
  if (direct !== undefined) return direct;
  const text = userAgent.slice(0, CATEGORY_SCAN_CHARS);
  for (const entry of known()) if (entry.pattern.test(text)) return entry.category;
  return 'other';
}
