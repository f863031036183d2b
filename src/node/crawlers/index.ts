// The door of src/node/crawlers/: Who a crawler is: its kind (search, AI training, user-triggered, ...) and the vendor table of crawler families and the range files that cover them.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export { CRAWLER_CATEGORIES, USAGE_PURPOSES, crawlerCategory } from './categories.js';
export type { CrawlerCategory } from './categories.js';
export { CRAWLER_RANGE_SOURCES, CRAWLER_VENDORS, VERIFICATIONS, familyOfCrawler, isUserTriggeredFetcher, publishedName, rangeSourceOfFile, vendorOfCrawler } from './families.js';
export type { CrawlerFamily, CrawlerRangeSource, CrawlerVendor, Verification } from './families.js';
