// An audit in parts (audit --format partial, then --merge): the format of a part, what parts must share to
// merge, and how what verification rested on adds up. RobotsAudit.partial() writes a part, RobotsAudit.merged()
// adds parts. Per part.
import type { CrawlerCategory } from '../crawlers/index.js';
import type { FamilyCoverage } from '../verify/index.js';
import type { AuditReport, GroupsDiffer, StatusClasses, VerificationCounts } from './report.js';

/** The format tag of a partial audit (audit --format partial). */
export const AUDIT_PARTIAL_FORMAT = 'robotstxt-wasm/audit-partial/2';

/**
 * What one audit counted, whole, for a merge (RobotsAudit.partial, RobotsAudit.merged; audit --format partial
 * and --merge): its totals, every tracked crawler in the order it met them with every count (rules, every
 * tracked path, hours), and the logs it read with their line counts. JSON.
 */
export interface AuditPartial {
  format: typeof AUDIT_PARTIAL_FORMAT;
  shape: { verifying: boolean; withHistory: boolean; byHost: boolean; missing: 'allow' | 'disallow'; reading: 'crawler' | 'token' };
  logs: { log: string; lines: number }[];
  lines: number;
  crawlerRequests: number;
  otherRequests: number;
  outsideTime: number;
  disallowed: number;
  allowed: number;
  noRulesKnown: { requests: number; origins: string[] };
  malformed: { count: number; lines: { log: string; line: number }[] };
  crawlers: {
    agent: string; host: string | null; impostor: boolean; from: string | null; vendor: string | null; family: string | null; group: string | null; mixedGroups: GroupsDiffer; groupHost: string | null;
    userTriggered: boolean; userAgent: string; category: CrawlerCategory; requests: number; disallowed: number; missed: number;
    byStatus: StatusClasses; robotsTxtFetches: number; verification: VerificationCounts | null; services: [string, number][] | null;
    rules: { file: string | null; line: number; pattern: string; requests: number }[];
    paths: { floor: number; counts: [string, number, number][] } | null;
    usageAgainst: number; usageBy: { file: string | null; source: 'content-usage' | 'content-signal'; line: number; preference: string; requests: number }[];
    byVersion: { host: string; from: string; requests: number; disallowed: number }[] | null;
    either: number; noRulesKnown: number; noRules: number;
  }[];
  droppedFloor: number;
  untracked: { crawlers: number; requests: number; disallowed: number; usageAgainst: number };
  /** [hour since 1970 (UTC), requests, disallowed] */
  hours: [number, number, number][];
  verification: VerificationCounts | null;
  verifiedBy: AuditReport['verifiedBy'];
  usage: { against: number; stated: boolean };
  history: { either: number; noRulesKnown: number; versions: { host: string; from: string; requests: number; disallowed: number }[] };
}

export function describeShape(shape: AuditPartial['shape']): string {
  return `${shape.verifying ? 'with' : 'without'} --verify, ${shape.withHistory ? 'with' : 'without'} versions over time, ${shape.byHost ? 'with' : 'without'} --by host, --missing ${shape.missing}, ${shape.reading === 'token' ? 'with' : 'without'} --as-token`;
}

/** What verification rested on in two parts of an audit: the first part's files and resolver problem, the requests added. */
export function mergeVerifiedBy(before: AuditReport['verifiedBy'], part: AuditReport['verifiedBy']): AuditReport['verifiedBy'] {
  const copy = (family: FamilyCoverage): FamilyCoverage => ({ ...family, files: [...family.files], missing: [...family.missing], stale: family.stale.map((file) => ({ ...file })), invalid: family.invalid.map((file) => ({ ...file })) });
  if (part === null) return before;
  if (before === null) return { dns: part.dns === null ? null : { ...part.dns }, families: part.families.map(copy), maxAgeDays: part.maxAgeDays };
  const dns = before.dns === null || part.dns === null ? before.dns ?? part.dns : { problem: before.dns.problem ?? part.dns.problem, unknown: before.dns.unknown + part.dns.unknown };
  const families = before.families.map(copy);
  for (const family of part.families) {
    const same = families.find((other) => other.family === family.family);
    if (same === undefined) families.push(copy(family));
    else {
      same.requests += family.requests;
      same.notChecked += family.notChecked;
    }
  }
  return { dns, families, maxAgeDays: before.maxAgeDays };
}
