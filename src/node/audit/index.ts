// The door of src/node/audit/: Which crawlers fetched what robots.txt forbade them: the audit of access logs (RobotsAudit: classify, judge, tally) and its reports (the wording, the table, the HTML page).
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export * from './audit.js';
export * from './html.js';
export * from './partial.js';
export * from './report.js';
export * from './table.js';
