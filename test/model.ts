// A deliberately simple model of docs/specification.md, kept forever as the oracle of the fast engine.
// It re-reads the whole body for every question, uses arrays and plain loops, and shares no code with
// src/ or assembly/. Clarity over speed: never optimise this file.

export type ModelMode = 'google' | 'rfc';

export interface ModelOptions {
  mode?: ModelMode;
  maxBytes?: number;
}

export interface ModelVerdict {
  allowed: boolean;
  /** Line of the deciding rule, or null when allowed without one. */
  line: number | null;
}

const WHITESPACE = [0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d];
const bytesOf = (text: string): number[] => [...new TextEncoder().encode(text)];

/** Section 1: bytes to numbered lines. */
export function modelLines(body: number[], mode: ModelMode): { number: number; bytes: number[] }[] {
  const bom = [0xef, 0xbb, 0xbf];
  let start = 0;
  while (start < 3 && start < body.length && body[start] === bom[start]) start++;
  const lines: { number: number; bytes: number[] }[] = [];
  let current: number[] = [];
  let previousWasCR = false;
  for (let i = start; i < body.length; i++) {
    const byte = body[i];
    if (byte === 0x0a || byte === 0x0d) {
      const crlfContinuation = byte === 0x0a && previousWasCR && current.length === 0 && body[i - 1] === 0x0d;
      if (!crlfContinuation) lines.push({ number: lines.length + 1, bytes: current });
      current = [];
      previousWasCR = byte === 0x0d;
    } else {
      current.push(byte);
    }
  }
  lines.push({ number: lines.length + 1, bytes: current });
  if (mode === 'google') for (const line of lines) line.bytes = line.bytes.slice(0, 16663);
  return lines;
}

function strip(bytes: number[]): number[] {
  let a = 0;
  let b = bytes.length;
  while (a < b && WHITESPACE.includes(bytes[a])) a++;
  while (b > a && WHITESPACE.includes(bytes[b - 1])) b--;
  return bytes.slice(a, b);
}

/** Section 2: a line to key and value (or null when the line holds no directive). */
export function modelKeyValue(raw: number[], mode: ModelMode): { key: number[]; value: number[] } | null {
  let line = raw;
  const nul = line.indexOf(0);
  if (nul >= 0) line = line.slice(0, nul);
  const hash = line.indexOf(0x23);
  if (hash >= 0) line = line.slice(0, hash);
  line = strip(line);
  if (line.length === 0) return null;
  const colon = line.indexOf(0x3a);
  let key: number[];
  let value: number[];
  if (colon >= 0) {
    key = strip(line.slice(0, colon));
    value = strip(line.slice(colon + 1));
  } else {
    if (mode !== 'google') return null;
    // exactly two tokens separated by spaces/tabs
    const isBlank = (b: number): boolean => b === 0x20 || b === 0x09;
    const tokens: number[][] = [];
    let token: number[] = [];
    for (const b of line) {
      if (isBlank(b)) {
        if (token.length > 0) tokens.push(token);
        token = [];
      } else token.push(b);
    }
    if (token.length > 0) tokens.push(token);
    if (tokens.length !== 2) return null;
    key = tokens[0];
    value = tokens[1];
  }
  if (key.length === 0) return null;
  return { key, value };
}

/** Section 3: key kind by case-insensitive prefix. */
export function modelKeyKind(key: number[], mode: ModelMode): string {
  const text = String.fromCharCode(...key).toLowerCase();
  const table: [string, string[], string[]][] = [
    ['user-agent', ['user-agent'], ['useragent', 'user agent']],
    ['allow', ['allow'], []],
    ['disallow', ['disallow'], ['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw']],
    ['sitemap', ['sitemap'], ['site-map']],
  ];
  for (const [kind, standard, typos] of table) {
    const accepted = mode === 'google' ? [...standard, ...typos] : standard;
    if (accepted.some((prefix) => text.startsWith(prefix))) return kind;
  }
  return 'unknown';
}

const HEX = '0123456789ABCDEF';
const isHex = (b: number | undefined): boolean => b !== undefined && /^[0-9A-Fa-f]$/.test(String.fromCharCode(b));
const escapeByte = (b: number): number[] => bytesOf('%' + HEX[b >> 4] + HEX[b & 15]);
const isUnreserved = (b: number): boolean => /^[A-Za-z0-9\-._~]$/.test(String.fromCharCode(b));

/** Section 4: pattern normalisation (google), or RFC 9309 normalisation of pattern and URL path (rfc). */
export function modelNormalize(bytes: number[], mode: ModelMode, isUrl: boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x25 && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
      const hex = String.fromCharCode(bytes[i + 1], bytes[i + 2]).toUpperCase();
      const value = parseInt(hex, 16);
      if (mode === 'rfc' && isUnreserved(value)) out.push(value);
      else out.push(...bytesOf('%' + hex));
      i += 2;
    } else if (b >= 0x80) {
      out.push(...escapeByte(b));
    } else if (mode === 'rfc' && isUrl && (b === 0x2a || b === 0x24)) {
      out.push(...escapeByte(b));
    } else {
      out.push(b);
    }
  }
  return out;
}

/** Section 5: URL to the matched path. */
export function modelPath(urlBytes: number[]): number[] {
  let url = urlBytes;
  const nul = url.indexOf(0);
  if (nul >= 0) url = url.slice(0, nul);
  const text = String.fromCharCode(...url); // one char per byte: indexes are byte indexes
  let from = text.startsWith('//') ? 2 : 0;
  const firstOf = (chars: string, start: number): number => {
    for (let i = start; i < text.length; i++) if (chars.includes(text[i])) return i;
    return -1;
  };
  const earlyPath = firstOf('/?;', from);
  const scheme = text.indexOf('://', from);
  let hostStart = from;
  if (scheme >= 0 && (earlyPath < 0 || scheme < earlyPath)) hostStart = scheme + 3;
  const pathStart = firstOf('/?;', hostStart);
  if (pathStart < 0) return [0x2f];
  const hash = text.indexOf('#', from);
  if (hash >= 0 && hash < pathStart) return [0x2f];
  const pathEnd = hash >= 0 ? hash : text.length;
  const path = url.slice(pathStart, pathEnd);
  return path[0] === 0x2f ? path : [0x2f, ...path];
}

/** Section 7: does pattern match path (prefix match, '*' any run, final '$' anchors)? Plain dynamic programming. */
export function modelMatches(pattern: number[], path: number[]): boolean {
  let body = pattern;
  let anchored = false;
  if (body.length > 0 && body[body.length - 1] === 0x24) {
    anchored = true;
    body = body.slice(0, -1);
  }
  // reachable[j] = 1: the pattern prefix read so far can match exactly path[0..j)
  let reachable = new Uint8Array(path.length + 1);
  reachable[0] = 1;
  for (const p of body) {
    const next = new Uint8Array(path.length + 1);
    if (p === 0x2a) {
      let seen = 0;
      for (let j = 0; j <= path.length; j++) {
        seen = seen | reachable[j];
        next[j] = seen;
      }
    } else {
      for (let j = 0; j < path.length; j++) if (reachable[j] === 1 && path[j] === p) next[j + 1] = 1;
    }
    reachable = next;
  }
  return anchored ? reachable[path.length] === 1 : reachable.includes(1);
}

/** Section 6: the product token of a user-agent value. */
function modelToken(value: number[]): string {
  let token = '';
  for (const b of value) {
    const c = String.fromCharCode(b);
    if (/^[A-Za-z_-]$/.test(c)) token += c;
    else break;
  }
  return token;
}

interface ModelRule {
  allow: boolean;
  line: number;
  pattern: number[];
}

interface ModelRuleSets {
  specific: ModelRule[];
  global: ModelRule[];
  agentNamed: boolean;
}

/** Sections 1 to 6: the rules that concern these agents (parsed afresh for every new body object). */
function modelRuleSets(bodyBytes: Uint8Array | string, agents: string[], mode: ModelMode, maxBytes: number): ModelRuleSets {
  let body = [...(typeof bodyBytes === 'string' ? new TextEncoder().encode(bodyBytes) : bodyBytes)];
  if (maxBytes > 0) body = body.slice(0, maxBytes);
  const wanted = agents.map((a) => a.replace(/[A-Z]/g, (c) => c.toLowerCase()));
  const specific: ModelRule[] = [];
  const global: ModelRule[] = [];
  let agentNamed = false;
  let groupIsSpecific = false;
  let groupIsGlobal = false;
  let lastWasRule = false;
  for (const line of modelLines(body, mode)) {
    const kv = modelKeyValue(line.bytes, mode);
    if (kv === null) continue;
    const kind = modelKeyKind(kv.key, mode);
    if (kind === 'user-agent') {
      if (lastWasRule) {
        groupIsSpecific = false;
        groupIsGlobal = false;
        lastWasRule = false;
      }
      const v = kv.value;
      if (v.length > 0 && v[0] === 0x2a && (v.length === 1 || WHITESPACE.includes(v[1]))) {
        groupIsGlobal = true;
      } else if (wanted.includes(modelToken(v).replace(/[A-Z]/g, (c) => c.toLowerCase()))) {
        groupIsSpecific = true;
        agentNamed = true;
      }
    } else if (kind === 'allow' || kind === 'disallow') {
      if (!groupIsSpecific && !groupIsGlobal) continue; // not our group, or before any user-agent
      lastWasRule = true;
      const rule = { allow: kind === 'allow', line: line.number, pattern: modelNormalize(kv.value, mode, false) };
      (groupIsSpecific ? specific : global).push(rule);
    }
  }
  return { specific, global, agentNamed };
}

// Memo of the parse, per body object: the model answers many URLs for one big body in the corpus tests.
const parsed = new WeakMap<object, Map<string, ModelRuleSets>>();

function cachedRuleSets(body: Uint8Array | string, agents: string[], mode: ModelMode, maxBytes: number): ModelRuleSets {
  if (typeof body === 'string') return modelRuleSets(body, agents, mode, maxBytes);
  let perBody = parsed.get(body);
  if (perBody === undefined) parsed.set(body, (perBody = new Map()));
  const key = `${mode} ${maxBytes} ${agents.join('\n')}`;
  let sets = perBody.get(key);
  if (sets === undefined) perBody.set(key, (sets = modelRuleSets(body, agents, mode, maxBytes)));
  return sets;
}

/** Sections 6 to 9: the verdict for one (body, agents, url). */
export function modelVerdict(bodyBytes: Uint8Array | string, agents: string[], url: Uint8Array | string, options: ModelOptions = {}): ModelVerdict {
  const mode = options.mode ?? 'google';
  const maxBytes = options.maxBytes ?? 512000;
  const urlBytes = [...(typeof url === 'string' ? new TextEncoder().encode(url) : url)];
  const { specific, global, agentNamed } = cachedRuleSets(bodyBytes, agents, mode, maxBytes);

  let path = modelPath(urlBytes);
  if (mode === 'rfc') {
    path = modelNormalize(path, 'rfc', true);
    if (String.fromCharCode(...path) === '/robots.txt') return { allowed: true, line: null };
  }
  const rules = agentNamed ? specific : global;
  let bestAllow: { priority: number; line: number } = { priority: -1, line: 0 };
  let bestDisallow: { priority: number; line: number } = { priority: -1, line: 0 };
  for (const rule of rules) {
    let priority = -1;
    if (modelMatches(rule.pattern, path)) priority = rule.pattern.length;
    else if (mode === 'google' && rule.allow) {
      // GoogleOnly: ".../index.htm..." also allows ".../" exactly
      const slash = rule.pattern.lastIndexOf(0x2f);
      if (slash >= 0 && String.fromCharCode(...rule.pattern.slice(slash)).startsWith('/index.htm')) {
        const directory = [...rule.pattern.slice(0, slash + 1), 0x24];
        if (modelMatches(directory, path)) priority = directory.length;
      }
    }
    if (priority < 0) continue;
    const best = rule.allow ? bestAllow : bestDisallow;
    if (priority > best.priority) {
      best.priority = priority;
      best.line = rule.line;
    }
  }
  if (bestAllow.priority > 0 || bestDisallow.priority > 0) {
    if (bestDisallow.priority > bestAllow.priority) return { allowed: false, line: bestDisallow.line };
    return { allowed: true, line: bestAllow.line };
  }
  return { allowed: true, line: null };
}
