// robots.txt body -> compiled matcher for one agent query, in one call: the group selector pulls each line
// from the tokenizer's cursor (lines.ts) and hands user-agent, allow and disallow lines to selectLine, which
// keeps the rules of the groups that apply
// (docs/specification.md section 6), and compileRules (compile.ts) turns them into a blob. No line record,
// no string and no object is made for the host: a host with thousands of robots.txt files pays one call each.
//
// This is the only place that decides which groups apply to an agent query; every verdict (parseRobots
// matchers, the many-host matcher, workers) comes from a blob compiled here.
import {
  CHAR_UPPER_A, CHAR_UPPER_Z, KEY_UNKNOWN, KEY_USER_AGENT, KEY_ALLOW, KEY_DISALLOW, FLAG_RFC_MODE, RULE_KIND_ALLOW, RULE_KIND_DISALLOW,
  RULE_INPUT_KIND, RULE_INPUT_LINE, RULE_INPUT_VALUE_PTR, RULE_INPUT_VALUE_LEN, RULE_INPUT_SIZE, SELECT_RESULT_GROUPS, SELECT_RESULT_BY_NAME,
  LINE_NUMBER, LINE_VALUE_START, LINE_VALUE_END, LINE_KEY_KIND, LINE_GROUP, LINE_RECORD_SIZE,
} from "../src/core/constants";
import { startLines, nextLine, lineNumber, lineValueStart, lineValueEnd, lineKind, lineGroup } from "./lines";
import { compileRules } from "./compile";
import { alignUp, ensureCapacity } from "./layout";
import { bomLength, isGlobalAgent, productTokenEnd } from "./groups";

/** Marks a collected rule of a group that names the agent (its own rules); unmarked: a `*` group's rule. */
const FROM_NAMED_GROUP: i32 = 0x100;
/** A rule line takes at least 6 bytes ("allow:") and a line end, so a body of n bytes has < n / 6 + 2 rules. */
const MIN_RULE_LINE_BYTES: usize = 6;

/** A user-agent line takes at least 10 bytes ("useragent:") and a line end: a body of n bytes has < n / 10 + 2 groups. */
const MIN_AGENT_LINE_BYTES: usize = 10;
/** Per group, in groupFlags: one of its user-agent lines names the agent / names every crawler. */
const GROUP_NAMES_AGENT: u8 = 1;
const GROUP_IS_GLOBAL: u8 = 2;

let bodyBase: usize = 0;
let agentList: usize = 0;
let agentCount: u32 = 0;
let rulesStart: usize = 0;
let rulesEnd: usize = 0;
/** One byte per group (GROUP_* bits), indexed by the group number groups.ts gives each line. */
let groupFlags: usize = 0;
let groupCount: i32 = 0;
/** Some user-agent line names the agent: then the `*` groups are ignored for it. */
let agentNamed = false;

@inline function asciiLower(c: i32): i32 {
  return c >= CHAR_UPPER_A && c <= CHAR_UPPER_Z ? c | 0x20 : c;
}

/**
 * GoogleOnly: a user-agent value names the agent when its product token (groups.ts) equals one of the query's
 * tokens, ignoring ASCII case. The query is used verbatim (a query "Googlebot/2.1" names nothing).
 */
function namesAgent(value: usize, valueEnd: usize): bool {
  const tokenLength = <u32>(productTokenEnd(value, valueEnd) - value);
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

/** One user-agent, allow or disallow line (offsets from the body start) of a group (-1: none), in file order. */
@inline function selectLine(lineNumber: i32, valueStart: i32, valueEnd: i32, kind: i32, group: i32): void {
  if (group < 0) return; // rules before the first user-agent line are ignored
  const value = bodyBase + <usize>valueStart;
  const end = bodyBase + <usize>valueEnd;
  const flags = groupFlags + <usize>group;
  if (group >= groupCount) {
    groupCount = group + 1;
    store<u8>(flags, 0);
  }
  if (kind == KEY_USER_AGENT) {
    if (isGlobalAgent(value, end)) {
      store<u8>(flags, load<u8>(flags) | GROUP_IS_GLOBAL);
    } else if (namesAgent(value, end)) {
      store<u8>(flags, load<u8>(flags) | GROUP_NAMES_AGENT);
      agentNamed = true;
    }
    return;
  }
  if (kind != KEY_ALLOW && kind != KEY_DISALLOW) return; // sitemap lines do not concern groups
  const named = (load<u8>(flags) & GROUP_NAMES_AGENT) != 0;
  if (!named && (load<u8>(flags) & GROUP_IS_GLOBAL) == 0) return;
  const record = rulesEnd;
  store<i32>(record + RULE_INPUT_KIND, (kind == KEY_ALLOW ? RULE_KIND_ALLOW : RULE_KIND_DISALLOW) | (named ? FROM_NAMED_GROUP : 0));
  store<u32>(record + RULE_INPUT_LINE, <u32>lineNumber);
  store<u32>(record + RULE_INPUT_VALUE_PTR, <u32>value);
  store<u32>(record + RULE_INPUT_VALUE_LEN, <u32>(end - value));
  rulesEnd += RULE_INPUT_SIZE;
}

/** Makes room for an agent query's selection over a body of bodyLen bytes: rules from workPtr, each group's flags after them. */
function startSelection(bodyPtr: usize, bodyLen: usize, agentsPtr: usize, workPtr: usize): void {
  bodyBase = bodyPtr;
  agentCount = load<u32>(agentsPtr);
  agentList = agentsPtr + 4;
  rulesStart = alignUp(workPtr, 8);
  rulesEnd = rulesStart;
  groupFlags = rulesStart + (bodyLen / MIN_RULE_LINE_BYTES + 2) * RULE_INPUT_SIZE;
  groupCount = 0;
  ensureCapacity(groupFlags + bodyLen / MIN_AGENT_LINE_BYTES + 2);
  agentNamed = false;
}

/** Reads body[bodyPtr, bodyPtr + bodyLen) for an agent query: its rules of named or `*` groups at rulesStart, each group's flags after them. */
function readGroups(bodyPtr: usize, bodyLen: usize, agentsPtr: usize, flags: i32, workPtr: usize): void {
  startSelection(bodyPtr, bodyLen, agentsPtr, workPtr);
  startLines(bodyPtr, <i32>bodyLen, bomLength(bodyPtr, bodyLen), (flags & FLAG_RFC_MODE) == 0);
  while (nextLine()) {
    if (lineKind != KEY_UNKNOWN) selectLine(lineNumber, lineValueStart, lineValueEnd, lineKind, lineGroup);
  }
}

/**
 * readGroups from the line records tokenizeLines wrote for the body (the same lines in the same order, the
 * same selectLine): no pass over the body's bytes. For a body compiled for many agent queries (a pack's
 * every product token), which tokenizes it once.
 */
function readGroupsFromRecords(bodyPtr: usize, bodyLen: usize, recordsPtr: usize, recordCount: u32, agentsPtr: usize, workPtr: usize): void {
  startSelection(bodyPtr, bodyLen, agentsPtr, workPtr);
  const end = recordsPtr + <usize>recordCount * LINE_RECORD_SIZE;
  for (let record = recordsPtr; record < end; record += LINE_RECORD_SIZE) {
    const kind = load<i32>(record + LINE_KEY_KIND);
    if (kind != KEY_UNKNOWN) selectLine(load<i32>(record + LINE_NUMBER), load<i32>(record + LINE_VALUE_START), load<i32>(record + LINE_VALUE_END), kind, load<i32>(record + LINE_GROUP));
  }
}

/** Keeps the collected rules that apply (the agent's own when it is named, else the `*` groups'), in file order, at selectedRules; returns their count. */
function keepSelectedRules(): u32 {
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
  readGroups(bodyPtr, bodyLen, agentsPtr, flags, workPtr);
  return keepSelectedRules();
}

/**
 * Compiles the rules of body[bodyPtr, bodyPtr + bodyLen) that apply to an agent query (selectRules) into a
 * matcher blob. Uses memory from workPtr up (grown as needed). Returns the blob's address; its length is in
 * its header (HEADER_TOTAL_LENGTH). Cost: one pass over the body, then compileRules over the selected patterns.
 */
export function compileRobots(bodyPtr: usize, bodyLen: usize, agentsPtr: usize, flags: i32, workPtr: usize): usize {
  return compileSelectedRules(selectRules(bodyPtr, bodyLen, agentsPtr, flags, workPtr), flags);
}

/** compileRules over the ruleCount rules kept at selectedRules, its work after them. */
function compileSelectedRules(ruleCount: u32, flags: i32): usize {
  return compileRules(selectedRules, ruleCount, flags, alignUp(selectedRules + <usize>ruleCount * RULE_INPUT_SIZE, 16));
}

/**
 * compileRobots for a body whose line records (tokenizeLines, recordCount of them at recordsPtr, offsets from
 * bodyPtr) are in memory: the same blob, without reading the body's lines again. workPtr: after the body, the
 * records and the query. Cost: one pass over the records, then compileRules. Per product token of a body packed.
 */
export function compileRobotsFromRecords(bodyPtr: usize, bodyLen: usize, recordsPtr: usize, recordCount: u32, agentsPtr: usize, flags: i32, workPtr: usize): usize {
  readGroupsFromRecords(bodyPtr, bodyLen, recordsPtr, recordCount, agentsPtr, workPtr);
  return compileSelectedRules(keepSelectedRules(), flags);
}

/**
 * The groups of body[bodyPtr, bodyPtr + bodyLen) that decide for an agent query, as group numbers (the ones
 * groups.ts gives the line records), written after workPtr: those whose user-agent lines name the agent when
 * any does, else those with a `*` line. The same choice as selectRules makes, for the object model
 * (RobotsTxt's groupsFor and crawlDelay). Uses memory from workPtr up. Writes the SELECT_RESULT_* record at
 * resultPtr (where the numbers are, and whether a line named the agent). Returns the count. Cost: one pass
 * over the body.
 */
export function selectGroups(bodyPtr: usize, bodyLen: usize, agentsPtr: usize, flags: i32, workPtr: usize, resultPtr: usize): u32 {
  readGroups(bodyPtr, bodyLen, agentsPtr, flags, workPtr);
  return listSelectedGroups(resultPtr);
}

/** selectGroups from the body's line records (tokenizeLines) at recordsPtr: the same groups, no pass over its lines. */
export function selectGroupsFromRecords(bodyPtr: usize, bodyLen: usize, recordsPtr: usize, recordCount: u32, agentsPtr: usize, workPtr: usize, resultPtr: usize): u32 {
  readGroupsFromRecords(bodyPtr, bodyLen, recordsPtr, recordCount, agentsPtr, workPtr);
  return listSelectedGroups(resultPtr);
}

/** The groups readGroups found deciding (the agent's own when named, else the `*` groups'), listed after its work; SELECT_RESULT_* at resultPtr. */
function listSelectedGroups(resultPtr: usize): u32 {
  const wanted = agentNamed ? GROUP_NAMES_AGENT : GROUP_IS_GLOBAL;
  const selectedGroups = alignUp(groupFlags + <usize>groupCount, 4);
  ensureCapacity(selectedGroups + (<usize>groupCount << 2));
  let count: u32 = 0;
  for (let group = 0; group < groupCount; group++) {
    if ((load<u8>(groupFlags + <usize>group) & wanted) == 0) continue;
    store<u32>(selectedGroups + (<usize>count << 2), <u32>group);
    count++;
  }
  store<u32>(resultPtr + SELECT_RESULT_GROUPS, <u32>selectedGroups);
  store<u32>(resultPtr + SELECT_RESULT_BY_NAME, agentNamed ? 1 : 0);
  return count;
}
