// The door of src/node/verify/: Is a request that claims a crawler really it: range files and forward-confirmed reverse DNS (CrawlerVerifier). Loaded only with audit --verify.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export { CRAWLER_RANGE_SOURCES, CRAWLER_VENDORS, CrawlerVerifier, MAX_RANGE_FILE_BYTES, VERIFICATIONS, familyOfCrawler, prefixesOfRangeFile, publishedName, rangeSourceOfFile, vendorOfCrawler } from './verify.js';
export type { CrawlerFamily, CrawlerRangeSource, CrawlerVendor, CrawlerVerifierOptions, DnsResolver, FamilyCoverage, Verification } from './verify.js';
