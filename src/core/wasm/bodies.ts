// The core's calls on robots.txt bodies: line records for the parser, the groups that decide for an agent
// query, compiles, and the direct answer of one URL from a body. Each stages the body (and the agent query)
// at the start of the work area.
import { FLAG_RFC_MODE, FLAG_NO_LITERAL_INDEX, HEADER_TOTAL_LENGTH, LINE_RECORD_SIZE, SELECT_RESULT_BY_NAME, SELECT_RESULT_GROUPS } from '../constants.js';
import { align, MAX_BATCH_BYTES, MAX_COMPILE_BYTES, SENTINEL_SLACK, tooLarge } from './limits.js';
import type { CoreFrame } from './frame.js';
import type { CompiledRules, ResidentMatchers } from './resident.js';

const encoder = new TextEncoder();
/** The agent query of no agent (tokenizing needs none). */
const EMPTY_AGENTS = new Uint8Array(4);

/** Agent queries encoded lately (a crawler asks the same one of every file it meets): at most this many of each kind kept. */
const KEPT_AGENT_QUERIES = 64;
/** One-agent queries by their agent (no key to build), and the others by their agents' lengths and text. */
const encodedAgents = new Map<string, Uint8Array>();
const encodedQueries = new Map<string, Uint8Array>();

/**
 * The agent query as the core reads it: [count u32][length u32, bytes]... (UTF-8). The same bytes for the
 * same query (callers only read them); encoded once while it is among the last KEPT_AGENT_QUERIES. Per
 * matcher, per selection, per compile.
 */
export function encodeAgents(agents: readonly string[]): Uint8Array {
  const one = agents.length === 1;
  // (the count, then each agent's length: no two queries share a key, whatever bytes their agents hold)
  const key = one ? agents[0] : `${agents.length}:${agents.map((agent) => `${agent.length}:${agent}`).join('')}`;
  const kept = one ? encodedAgents : encodedQueries;
  let out = kept.get(key);
  if (out === undefined) {
    if (kept.size >= KEPT_AGENT_QUERIES) kept.clear();
    out = encodeAgentQuery(agents);
    kept.set(key, out);
  }
  return out;
}

function encodeAgentQuery(agents: readonly string[]): Uint8Array {
  const room = new Uint8Array(agentQueryRoom(agents));
  return room.slice(0, writeAgentQuery(agents, room, 0));
}

/** Bytes writeAgentQuery may take for agents (UTF-8: 3 bytes a UTF-16 unit at most). */
function agentQueryRoom(agents: readonly string[]): number {
  return 4 + agents.reduce((sum, agent) => sum + 4 + agent.length * 3, 0);
}

/**
 * Writes the agent query of agents at out[at...] (agentQueryRoom bytes there); returns its length. The one
 * writer of the form: into a new array (encodeAgentQuery), or straight into the core's memory (a pack's
 * product tokens, thousands each once: no array each).
 */
function writeAgentQuery(agents: readonly string[], out: Uint8Array, at: number): number {
  writeU32(out, at, agents.length);
  let offset = at + 4;
  for (const agent of agents) {
    // ASCII (every product token) byte by byte; else UTF-8 by the encoder
    let written = 0;
    while (written < agent.length && agent.charCodeAt(written) < 0x80) {
      out[offset + 4 + written] = agent.charCodeAt(written);
      written++;
    }
    if (written < agent.length) written = encoder.encodeInto(agent, out.subarray(offset + 4)).written;
    writeU32(out, offset, written);
    offset += 4 + written;
  }
  return offset - at;
}

/** A u32, little-endian, at out[at...]. */
function writeU32(out: Uint8Array, at: number, value: number): void {
  out[at] = value & 0xff;
  out[at + 1] = (value >>> 8) & 0xff;
  out[at + 2] = (value >>> 16) & 0xff;
  out[at + 3] = value >>> 24;
}

/** A body staged with its line records (BodyCalls.stageLineRecords): where body and records lie in the work area. */
export interface StagedLines {
  bom: number;
  bodyPtr: number;
  bodyLength: number;
  recordsPtr: number;
  recordCount: number;
  /** The end of the records: the work area is free from here. */
  after: number;
}

/** A switch the core decides by itself ('auto') unless a test or an A/B run forces it. */
export type Tristate = 'auto' | 'always' | 'never';

/** Calls on bodies. Made once per core. */
export class BodyCalls {
  /** The literal-index setting of the bulk engine (WasmCore.setBulkEngine): 'auto' unless a test or an A/B run forces it. */
  literalIndexSwitch: Tristate = 'auto';

  constructor(private readonly frame: CoreFrame, private readonly resident: ResidentMatchers) {}

  /**
   * Line records of a robots.txt body (see assembly/lines.ts): an Int32Array of LINE_RECORD_SIZE / 4 fields
   * each, and the length of the byte order mark skipped before the first line (0 or 3). Once per parse.
   */
  tokenizeLines(body: Uint8Array, google: boolean): { records: Int32Array; bom: number } {
    const staged = this.stageLineRecords(body, google);
    const records = new Int32Array(this.frame.memoryBytes().buffer.slice(staged.recordsPtr, staged.after));
    return { records, bom: staged.bom };
  }

  /**
   * A body tokenized (assembly/lines.ts) and left staged with its line records at the start of the work area,
   * for calls that read the records instead of the lines again (selectGroupsStaged, compileStaged); the
   * records are read in place (frame.memoryWords() from recordsPtr). Valid until the next call that stages a
   * body. Once per body a pack compiles for every product token it names.
   */
  stageLineRecords(body: Uint8Array, google: boolean): StagedLines {
    const exports = this.frame.exports;
    // at most one record per line: room for the lines there are (a record per byte would be 36 times the body)
    const { bodyPtr, after } = this.stageBody(body, EMPTY_AGENTS, 0);
    const recordsPtr = align(after, 16);
    this.frame.reserve(recordsPtr + (exports.countLineEndBytes(bodyPtr, body.length) + 1) * LINE_RECORD_SIZE);
    const bom = exports.bomLength(bodyPtr, body.length);
    const count = exports.tokenizeLines(bodyPtr, body.length, bom, google ? 1 : 0, recordsPtr);
    return { bom, bodyPtr, bodyLength: body.length, recordsPtr, recordCount: count, after: recordsPtr + count * LINE_RECORD_SIZE };
  }

  /** selectGroups for a body stageLineRecords staged last (nothing staged since), from its records: the group numbers (a copy). */
  selectGroupsStaged(staged: StagedLines, agents: readonly string[]): Uint32Array {
    const { agentsPtr, workPtr } = this.stageQueryAfter(staged, agents);
    const count = this.frame.exports.selectGroupsFromRecords(staged.bodyPtr, staged.bodyLength, staged.recordsPtr, staged.recordCount, agentsPtr, workPtr, this.frame.resultPtr);
    const at = this.frame.result(SELECT_RESULT_GROUPS) >>> 0;
    return new Uint32Array(this.frame.memoryBytes().buffer.slice(at, at + count * 4));
  }

  /**
   * compileInWorkArea for a body stageLineRecords staged last (nothing staged since): the same blob, made
   * from its line records; its address and length, valid until the next call. records: a run of them to read
   * (default: all), which must hold every group that names the agents (a pack's token: its span). Per agent
   * query of a body packed.
   */
  compileStaged(staged: StagedLines, agents: readonly string[], rfc: boolean, records = { first: 0, count: staged.recordCount }): { address: number; length: number } {
    if (records.first < 0 || records.count < 0 || records.first + records.count > staged.recordCount) throw new RangeError('records out of the staged body');
    const { agentsPtr, workPtr } = this.stageQueryAfter(staged, agents);
    const address = this.frame.exports.compileRobotsFromRecords(staged.bodyPtr, staged.bodyLength, staged.recordsPtr + records.first * LINE_RECORD_SIZE, records.count, agentsPtr, rfc ? FLAG_RFC_MODE : 0, workPtr) >>> 0;
    return { address, length: this.frame.memoryWords()[(address + HEADER_TOTAL_LENGTH) >>> 2] };
  }

  /**
   * The groups of body that decide for an agent query (assembly/select.ts, the compile's own choice): their
   * numbers (the line records' LINE_GROUP), and whether a user-agent line named the agent (else they are the
   * `*` groups). One pass over the body; once per query of a parsed file.
   */
  selectGroups(body: Uint8Array, agents: Uint8Array, rfc: boolean): { groups: Uint32Array; byName: boolean } {
    const { bodyPtr, agentsPtr, after } = this.stageBody(body, agents, 0);
    const count = this.frame.exports.selectGroups(bodyPtr, body.length, agentsPtr, rfc ? FLAG_RFC_MODE : 0, align(after, 16), this.frame.resultPtr);
    const at = this.frame.result(SELECT_RESULT_GROUPS) >>> 0;
    return { groups: new Uint32Array(this.frame.memoryBytes().buffer.slice(at, at + count * 4)), byName: this.frame.result(SELECT_RESULT_BY_NAME) !== 0 };
  }

  /**
   * Compiles the rules of body that apply to an agent query (assembly/select.ts) into a blob in the work
   * area; returns its address and length (valid until the next call). body is already cut to maxBytes.
   */
  compileInWorkArea(body: Uint8Array, agents: Uint8Array, rfc: boolean, flags = 0): { address: number; length: number } {
    const { bodyPtr, agentsPtr, after } = this.stageBody(body, agents, 0);
    return this.compileAt(bodyPtr, body.length, agentsPtr, rfc, align(after, 16), flags);
  }

  /**
   * Compiles a body that lies in linear memory already (a many-host slot's raw body, hosts-engine.ts), with
   * the agent query at agentsPtr, into a blob at workPtr or after; returns its address and length. flags:
   * FLAG_NO_LITERAL_INDEX or 0 (the mode is `rfc`).
   */
  compileAt(bodyPtr: number, bodyLength: number, agentsPtr: number, rfc: boolean, workPtr: number, flags = 0): { address: number; length: number } {
    const address = this.frame.exports.compileRobots(bodyPtr, bodyLength, agentsPtr, (rfc ? FLAG_RFC_MODE : 0) | flags, workPtr) >>> 0;
    return { address, length: this.frame.memoryWords()[(address + HEADER_TOTAL_LENGTH) >>> 2] };
  }

  /** Compiles the rules of body for an agent query into a heap block of its own (a RobotsMatcher's). */
  compile(body: Uint8Array, agents: readonly string[], rfc: boolean): CompiledRules {
    const { address, length } = this.compileInWorkArea(body, encodeAgents(agents), rfc);
    return this.resident.adopt(address, length);
  }

  /**
   * compile with every literal rule in the trie (no literal index): slower to compile, faster per URL.
   * RobotsMatcher calls it once a matcher with an index has answered many URLs. Null when a test or an A/B
   * run forces the literal-index switch (setBulkEngine): the forced choice stands.
   */
  compileIntoTrie(body: Uint8Array, agents: readonly string[], rfc: boolean): CompiledRules | null {
    if (this.literalIndexSwitch !== 'auto') return null;
    const { address, length } = this.compileInWorkArea(body, encodeAgents(agents), rfc, FLAG_NO_LITERAL_INDEX);
    return this.resident.adopt(address, length);
  }

  /**
   * Google mode: the verdict of one URL straight from a body (assembly/direct.ts: one tokenize pass, no
   * compile), or 0 when that would cost more than a compile (compile then). A matcher's first URL uses it.
   */
  answerUrlFromBody(body: Uint8Array, agents: Uint8Array, url: string | Uint8Array): number {
    const urlBytes = typeof url === 'string' ? url.length * 3 : url.length;
    if (urlBytes > MAX_BATCH_BYTES) throw tooLarge('a URL', urlBytes, MAX_BATCH_BYTES);
    const { bodyPtr, agentsPtr, after: urlPtr } = this.stageBody(body, agents, urlBytes + SENTINEL_SLACK + 16);
    const workPtr = align(urlPtr + urlBytes + SENTINEL_SLACK, 16);
    const memory = this.frame.memoryBytes();
    const urlLength = typeof url === 'string' ? encoder.encodeInto(url, memory.subarray(urlPtr, urlPtr + urlBytes)).written : (memory.set(url, urlPtr), url.length);
    const verdict = this.frame.exports.answerUrlFromBody(bodyPtr, body.length, agentsPtr, urlPtr, urlLength, workPtr);
    this.frame.refreshViews();
    return verdict;
  }

  /** Writes an agent query after a staged body's records; returns where it is and where work may start. */
  private stageQueryAfter(staged: StagedLines, agents: readonly string[]): { agentsPtr: number; workPtr: number } {
    const agentsPtr = align(staged.after, 8);
    this.frame.reserve(agentsPtr + agentQueryRoom(agents));
    const workPtr = align(agentsPtr + writeAgentQuery(agents, this.frame.memoryBytes(), agentsPtr), 16);
    this.frame.reserve(workPtr);
    return { agentsPtr, workPtr };
  }

  /**
   * Copies a body (with SENTINEL_SLACK zero bytes after it: the tokenizer reads ahead) and an agent query
   * into the work area, with `extra` bytes reserved after them; returns their addresses and where the
   * extra bytes start.
   */
  private stageBody(body: Uint8Array, agents: Uint8Array, extra: number): { bodyPtr: number; agentsPtr: number; after: number } {
    if (body.length > MAX_COMPILE_BYTES) throw tooLarge('a robots.txt body', body.length, MAX_COMPILE_BYTES);
    const bodyPtr = this.frame.workPtr;
    const agentsPtr = align(bodyPtr + body.length + SENTINEL_SLACK, 8);
    const after = align(agentsPtr + agents.length, 8);
    this.frame.reserve(after + extra);
    const memory = this.frame.memoryBytes();
    memory.set(body, bodyPtr);
    memory.fill(0, bodyPtr + body.length, bodyPtr + body.length + SENTINEL_SLACK);
    memory.set(agents, agentsPtr);
    return { bodyPtr, agentsPtr, after };
  }
}
