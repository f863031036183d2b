// robots.txt body -> compiled matcher for one agent query, in one call: the tokenizer (lines.ts) hands each
// user-agent, allow and disallow line to selectLine, which keeps the rules of the groups that apply
// (REFERENCE-BEHAVIOUR.md section 6), and compileRules (compile.ts) turns them into a blob. No line record,
// no string and no object is made for the host: a host with thousands of robots.txt files pays one call each.
//
// This is the only place that decides which groups apply to an agent query; every verdict (parseRobots
// matchers, the many-host matcher, workers) comes from a blob compiled here.
import {
  CHAR_ASTERISK, CHAR_SPACE, CHAR_TAB, CHAR_LF, CHAR_VT, CHAR_FF, CHAR_CR, CHAR_HYPHEN, CHAR_UNDERSCORE,
  CHAR_UPPER_A, CHAR_UPPER_Z, CHAR_LOWER_A, CHAR_LOWER_Z, KEY_USER_AGENT, KEY_ALLOW, KEY_DISALLOW, FLAG_RFC_MODE,
  RULE_KIND_ALLOW, RULE_KIND_DISALLOW, RULE_INPUT_KIND, RULE_INPUT_LINE, RULE_INPUT_VALUE_PTR,
  RULE_INPUT_VALUE_LEN, RULE_INPUT_SIZE,
} from "../src/core/constants";
import { tokenizeForSelector } from "./lines";
import { compileRules } from "./compile";
import { alignUp, ensureCapacity } from "./layout";

/** Marks a collected rule of a group that names the agent (its own rules); unmarked: a `*` group's rule. */
const FROM_NAMED_GROUP: i32 = 0x100;
/** A rule line takes at least 6 bytes ("allow:") and a line end, so a body of n bytes has < n / 6 + 2 rules. */
const MIN_RULE_LINE_BYTES: usize = 6;

let bodyBase: usize = 0;
let agentList: usize = 0;
let agentCount: u32 = 0;
let rulesStart: usize = 0;
let rulesEnd: usize = 0;
// the group being read: a run of user-agent lines, then rules; it ends at a user-agent line after a rule
let groupOpen = false;
let groupHasRules = false;
let groupNamesAgent = false;
let groupIsGlobal = false;
/** Some user-agent line names the agent: then the `*` groups are ignored for it. */
let agentNamed = false;

@inline function isRobotsWhitespace(c: i32): bool {
  return c == CHAR_SPACE || c == CHAR_TAB || c == CHAR_LF || c == CHAR_VT || c == CHAR_FF || c == CHAR_CR;
}

@inline function isTokenByte(c: i32): bool {
  return (c >= CHAR_LOWER_A && c <= CHAR_LOWER_Z) || (c >= CHAR_UPPER_A && c <= CHAR_UPPER_Z) || c == CHAR_HYPHEN || c == CHAR_UNDERSCORE;
}

@inline function asciiLower(c: i32): i32 {
  return c >= CHAR_UPPER_A && c <= CHAR_UPPER_Z ? c | 0x20 : c;
}

/**
 * GoogleOnly: the product token of a user-agent value is its longest leading run of [A-Za-z_-]
 * ("Googlebot/2.1" -> "Googlebot"); it names the agent when it equals one of the query's tokens, ignoring
 * ASCII case. The query is used verbatim (a query "Googlebot/2.1" names nothing).
 */
function namesAgent(value: usize, valueEnd: usize): bool {
  let tokenEnd = value;
  while (tokenEnd < valueEnd && isTokenByte(<i32>load<u8>(tokenEnd))) tokenEnd++;
  const tokenLength = <u32>(tokenEnd - value);
  if (tokenLength == 0) return false;
  let agent = agentList;
  for (let a: u32 = 0; a < agentCount; a++) {
    const length = load<u32>(agent);
    const bytes = agent + 4;
    agent = bytes + <usize>length;
    if (length != tokenLength) continue;
    let same = true;
    for (let i: u32 = 0; i < length; i++) {
      if (asciiLower(<i32>load<u8>(value + <usize>i)) != asciiLower(<i32>load<u8>(bytes + <usize>i))) { same = false; break; }
    }
    if (same) return true;
  }
  return false;
}

/** One user-agent, allow or disallow line (offsets from the body start), in file order. Called by lines.ts. */
export function selectLine(lineNumber: i32, valueStart: i32, valueEnd: i32, kind: i32): void {
  const value = bodyBase + <usize>valueStart;
  const end = bodyBase + <usize>valueEnd;
  if (kind == KEY_USER_AGENT) {
    if (!groupOpen || groupHasRules) {
      groupOpen = true;
      groupHasRules = false;
      groupNamesAgent = false;
      groupIsGlobal = false;
    }
    // `*` alone, or followed by whitespace, names every crawler ("*bot" does not)
    if (end > value && load<u8>(value) == CHAR_ASTERISK && (end == value + 1 || isRobotsWhitespace(<i32>load<u8>(value + 1)))) {
      groupIsGlobal = true;
    } else if (namesAgent(value, end)) {
      groupNamesAgent = true;
      agentNamed = true;
    }
    return;
  }
  if (kind != KEY_ALLOW && kind != KEY_DISALLOW) return; // sitemap lines do not concern groups
  if (!groupOpen) return; // rules before the first user-agent line are ignored
  groupHasRules = true;
  if (!groupNamesAgent && !groupIsGlobal) return;
  const record = rulesEnd;
  store<i32>(record + RULE_INPUT_KIND, (kind == KEY_ALLOW ? RULE_KIND_ALLOW : RULE_KIND_DISALLOW) | (groupNamesAgent ? FROM_NAMED_GROUP : 0));
  store<u32>(record + RULE_INPUT_LINE, <u32>lineNumber);
  store<u32>(record + RULE_INPUT_VALUE_PTR, <u32>value);
  store<u32>(record + RULE_INPUT_VALUE_LEN, <u32>(end - value));
  rulesEnd += RULE_INPUT_SIZE;
}

/** Bytes of the (possibly partial) UTF-8 byte order mark at p: the longest prefix of EF BB BF, 0 to 3. */
function bomLength(p: usize, length: usize): i32 {
  if (length < 1 || load<u8>(p) != 0xef) return 0;
  if (length < 2 || load<u8>(p + 1) != 0xbb) return 1;
  if (length < 3 || load<u8>(p + 2) != 0xbf) return 2;
  return 3;
}

/** Where selectRules put its RULE_INPUT_* records (in file order); selectRules returns their count. */
export let selectedRules: usize = 0;

/**
 * The rules of body[bodyPtr, bodyPtr + bodyLen) that apply to an agent query, as RULE_INPUT_* records at
 * selectedRules (values point into the body), in file order: the agent's own groups' rules when some
 * user-agent line names it, else the `*` groups'. agentsPtr: the query as [count u32][length u32, bytes]... .
 * flags: FLAG_RFC_MODE or 0. Uses memory from workPtr up (grown as needed). Returns the rule count. Cost:
 * one pass over the body. Called by compileRobots and by the direct answers (direct.ts).
 */
export function selectRules(bodyPtr: usize, bodyLen: usize, agentsPtr: usize, flags: i32, workPtr: usize): u32 {
  bodyBase = bodyPtr;
  agentCount = load<u32>(agentsPtr);
  agentList = agentsPtr + 4;
  rulesStart = alignUp(workPtr, 8);
  rulesEnd = rulesStart;
  ensureCapacity(rulesStart + (bodyLen / MIN_RULE_LINE_BYTES + 2) * RULE_INPUT_SIZE);
  groupOpen = false;
  groupHasRules = false;
  groupNamesAgent = false;
  groupIsGlobal = false;
  agentNamed = false;
  const google = (flags & FLAG_RFC_MODE) == 0;
  tokenizeForSelector(bodyPtr, <i32>bodyLen, bomLength(bodyPtr, bodyLen), google);
  // keep the agent's own rules when it is named anywhere, else the `*` groups' rules; file order stays
  let kept = rulesStart;
  for (let record = rulesStart; record < rulesEnd; record += RULE_INPUT_SIZE) {
    const kind = load<i32>(record + RULE_INPUT_KIND);
    if (((kind & FROM_NAMED_GROUP) != 0) != agentNamed) continue;
    if (kept != record) memory.copy(kept, record, RULE_INPUT_SIZE);
    store<i32>(kept + RULE_INPUT_KIND, kind & ~FROM_NAMED_GROUP);
    kept += RULE_INPUT_SIZE;
  }
  selectedRules = rulesStart;
  return <u32>((kept - rulesStart) / RULE_INPUT_SIZE);
}

/**
 * Compiles the rules of body[bodyPtr, bodyPtr + bodyLen) that apply to an agent query (selectRules) into a
 * matcher blob. Uses memory from workPtr up (grown as needed). Returns the blob's address; its length is in
 * its header (HEADER_TOTAL_LENGTH). Cost: one pass over the body, then compileRules over the selected patterns.
 */
export function compileRobots(bodyPtr: usize, bodyLen: usize, agentsPtr: usize, flags: i32, workPtr: usize): usize {
  const ruleCount = selectRules(bodyPtr, bodyLen, agentsPtr, flags, workPtr);
  return compileRules(selectedRules, ruleCount, flags, alignUp(selectedRules + <usize>ruleCount * RULE_INPUT_SIZE, 16));
}
