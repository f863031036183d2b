// The door of src/node/page/: a page's own rules (robots meta tags, X-Robots-Tag, Robots-Tag) judged with robots.txt, for robotstxt page and pages.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export { htmlMetas } from './html-head.js';
export type { HtmlMetas } from './html-head.js';
export { answerPage, fetchPage, fetchPageFollowing, pageMetas, pageReportJson } from './page.js';
export type { PageInput, PageReport } from './page.js';
export { PageRobots } from './page-robots.js';
export type { OriginRobots } from './page-robots.js';
export { crawlFormatOf, readCrawl } from './crawl-input.js';
export type { CrawlFormat, CrawlRecord, CrawledPage } from './crawl-input.js';
export { PagesSummary, answerCrawledPage, pagesAnswerJson, pagesAnswerText } from './pages.js';
export type { PagesAnswer, PagesSummaryJson } from './pages.js';
