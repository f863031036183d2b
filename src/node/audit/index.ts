// The door of src/node/audit/: Which crawlers fetched what robots.txt forbade them: the audit of access logs (RobotsAudit: classify, judge, tally; the rules in force it judges by) and its reports (the wording, the table, the HTML page).
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export { NO_RULES_KNOWN, RobotsAudit, crawlerName } from './audit.js';
export type { AuditOptions } from './audit.js';
export { auditHtml } from './html.js';
export { AUDIT_PARTIAL_FORMAT, type AuditPartial } from './partial.js';
export { checkedPartial, repeatedPart } from './partial-check.js';
export { groupLabel, verificationNotes, verificationNoteSentence } from './report.js';
export type { AuditReport, CrawlerAudit, StatusClasses, VerificationCounts, VerificationNote } from './report.js';
export { rulesOf, rulesOfTimed, rulesOfDirectory, rulesOfHistory, type AuditRules, type AuditHistory, type RulesInForce, type RobotsFor, type DirectoryRulesOptions, type DirectoryRules } from './rules-in-force.js';
export { auditTable, noRulesSentence } from './table.js';
