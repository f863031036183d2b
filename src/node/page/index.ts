// The door of src/node/page/: a page's own rules (robots meta tags, X-Robots-Tag, Robots-Tag) judged with robots.txt, for robotstxt page and pages.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export * from './html-head.js';
export * from './page.js';
export * from './page-robots.js';
export * from './crawl-input.js';
export * from './pages.js';
