// robots.txt lint: the parser's diagnostics plus checks of what the file means (patterns that never match,
// rules that can never decide, HTML served as robots.txt, ...). Called once per file by `robotstxt lint`.
import { parseRobots, asciiLowerCase, type RobotsOptions, type RobotsRule, type DiagnosticSeverity } from './robots.js';
import { DEFAULT_MAX_BYTES } from './constants.js';

/** One finding, with the 1-based line it is about (0: the whole file). */
export interface LintFinding {
  line: number;
  severity: DiagnosticSeverity;
  code: string;
  message: string;
}

/** Everything lint found, sorted by line. */
export interface LintReport {
  findings: LintFinding[];
  errors: number;
  warnings: number;
  infos: number;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

/** Severity of each parser diagnostic in a lint report (the parser's own levels are about parsing). */
const PARSER_SEVERITY: Record<string, DiagnosticSeverity> = {
  'bom': 'info',
  'line-truncated': 'warning', // the cut part may be only a comment
  'nul-byte': 'warning',
  'missing-colon': 'warning',
  'no-separator': 'error',
  'empty-key': 'error',
  'typo-key': 'warning',
  'unknown-directive': 'warning',
  'rule-outside-group': 'error',
  'body-truncated': 'error',
};

function splitLines(body: Uint8Array): { number: number; bytes: Uint8Array }[] {
  const lines: { number: number; bytes: Uint8Array }[] = [];
  let start = 0;
  for (let i = 0; i <= body.length; i++) {
    if (i === body.length || body[i] === 0x0a || body[i] === 0x0d) {
      lines.push({ number: lines.length + 1, bytes: body.subarray(start, i) });
      if (i < body.length && body[i] === 0x0d && body[i + 1] === 0x0a) i++;
      start = i + 1;
    }
  }
  return lines;
}

/** The literal prefix of a normalised-enough pattern: up to the first '*' (a final '$' removed). */
function literalPart(pattern: string): { literal: string; onlyTrailingStars: boolean } {
  const body = pattern.endsWith('$') ? pattern.slice(0, -1) : pattern;
  const star = body.indexOf('*');
  if (star < 0) return { literal: body, onlyTrailingStars: !pattern.endsWith('$') };
  return { literal: body.slice(0, star), onlyTrailingStars: /^\**$/.test(body.slice(star)) && !pattern.endsWith('$') };
}

/**
 * True when `cover` matches every path that `rule` matches: cover is a literal prefix (trailing '*' allowed,
 * no '$') and rule's literal part starts with it.
 */
function covers(cover: string, rule: string): boolean {
  const c = literalPart(cover);
  if (!c.onlyTrailingStars) return false;
  return literalPart(rule).literal.startsWith(c.literal);
}

/** Lints a robots.txt body. */
export function lintRobots(body: Uint8Array, options: RobotsOptions = {}): LintReport {
  const findings: LintFinding[] = [];
  const add = (line: number, severity: DiagnosticSeverity, code: string, message: string): void => { findings.push({ line, severity, code, message }); };
  const robots = parseRobots(body, options);
  for (const diagnostic of robots.diagnostics) {
    add(diagnostic.line, PARSER_SEVERITY[diagnostic.code] ?? diagnostic.severity, diagnostic.code, diagnostic.message);
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (maxBytes === 0 && body.length > DEFAULT_MAX_BYTES) add(0, 'warning', 'file-too-large', `file is ${body.length} bytes: Google and RFC 9309 crawlers read only the first 512000 (500 KiB)`);

  const lines = splitLines(body);
  const firstText = latin1.decode(body.subarray(0, 512)).replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart().toLowerCase();
  if (firstText.startsWith('<!doctype html') || firstText.startsWith('<html') || firstText.startsWith('<?xml') || /^<(head|body|title)[\s>]/.test(firstText)) {
    add(1, 'error', 'html', 'the file is HTML (an error page served as robots.txt?): crawlers find no rules in it');
  }
  let nonUtf8 = 0;
  for (const line of lines) {
    try {
      strictUtf8.decode(line.bytes);
    } catch {
      if (nonUtf8++ < 20) add(line.number, 'warning', 'not-utf8', 'bytes that are not UTF-8: patterns match them byte for byte, percent-encoded');
    }
  }
  if (nonUtf8 > 20) add(0, 'warning', 'not-utf8', `${nonUtf8 - 20} more lines with bytes that are not UTF-8`);

  // patterns that can never match, crawl-delay, sitemaps
  for (const group of robots.groups) {
    for (const rule of group.rules) {
      const value = latin1.decode(rule.value);
      if (value !== '' && !value.startsWith('/') && !value.startsWith('*')) {
        add(rule.line, 'error', 'pattern-never-matches', `"${value}" starts with neither "/" nor "*": it never matches any URL`);
      }
    }
  }
  for (const other of robots.otherDirectives) {
    if (other.isKey('crawl-delay') && !/^\s*\d+(\.\d+)?\s*$/.test(other.value)) {
      add(other.line, 'warning', 'crawl-delay-not-a-number', `crawl-delay "${other.value}" is not a number of seconds: ignored`);
    }
  }
  for (const line of lines) {
    const match = /^\s*(sitemap|site-map)\s*:?\s*(\S*)/i.exec(latin1.decode(line.bytes).split('#')[0]);
    if (match !== null && !/^https?:\/\/[^/\s]+/i.test(match[2])) {
      add(line.number, 'warning', 'sitemap-not-absolute', `sitemap "${match[2]}" is not an absolute http(s) URL`);
    }
  }

  // rules that can never decide, per agent (its merged groups), each reported once
  const tokens = new Set<string>(['*']);
  for (const group of robots.groups) for (const agent of group.agents) if (!agent.global && agent.productToken !== '') tokens.add(asciiLowerCase(agent.productToken));
  const reported = new Set<RobotsRule>();
  for (const token of tokens) {
    const rules = robots.groupsFor(token === '*' ? '\u0000none' : token).flatMap((g) => g.rules);
    const patterns = rules.map((rule) => latin1.decode(rule.value));
    rules.forEach((rule, i) => {
      if (reported.has(rule) || patterns[i] === '') return;
      rules.forEach((other, k) => {
        if (reported.has(rule) || k === i || patterns[k] === '') return;
        const shadowing = other.kind !== rule.kind && covers(patterns[k], patterns[i]) &&
          (rule.kind === 'disallow' ? patterns[k].length >= patterns[i].length : patterns[k].length > patterns[i].length);
        const duplicate = other.kind === rule.kind && k < i && patterns[k] === patterns[i];
        if (shadowing) {
          reported.add(rule);
          add(rule.line, 'warning', 'never-decides', `${rule.kind} "${patterns[i]}" can never decide: ${other.kind} "${patterns[k]}" (line ${other.line}) matches every URL it matches with ${patterns[k].length === patterns[i].length ? 'equal' : 'higher'} priority`);
        } else if (duplicate) {
          reported.add(rule);
          add(rule.line, 'info', 'duplicate-rule', `${rule.kind} "${patterns[i]}" repeats line ${other.line}`);
        }
      });
    });
  }

  findings.sort((a, b) => a.line - b.line);
  const count = (severity: DiagnosticSeverity): number => findings.filter((f) => f.severity === severity).length;
  return { findings, errors: count('error'), warnings: count('warning'), infos: count('info') };
}
