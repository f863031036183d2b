// A body as a pack holds it: compiled once per group selection any single agent can get, so that one pack
// serves every crawler without a compile. The product tokens its user-agent lines name (as the core's
// tokenizer reads them: the token ends at the first byte no token holds) each get the blob of their own
// groups; every other agent the blob of the `*` groups (an empty blob when there are none). Selections are
// the compile's own (assembly/select.ts), so a blob is exactly what RobotsTxt.matcher(agent) compiles.
// Any runtime. Per distinct body packed: one tokenize pass; then the `*` selection, every token's groups and
// one compile per distinct selection, each from the line records.
import { core } from '../wasm/core.js';
import { KEY_USER_AGENT, LINE_FLAG_GLOBAL_AGENT, LINE_FLAGS, LINE_GROUP, LINE_KEY_KIND, LINE_RECORD_SIZE, LINE_TOKEN_END, LINE_VALUE_START } from '../constants.js';

/** A body's compiled forms, once emitted: how many blobs, the blob of each token it names, and the blob every other agent gets. */
export interface PackedBody {
  blobCount: number;
  /** Lower-case product tokens, sorted by their bytes, each with its blob's index (the order blobs were emitted in). */
  tokens: [string, number][];
  /** The blob of the `*` groups (agents the body names not). */
  star: number;
}

/** A product token's groups (ascending) and the record of its first naming line. */
interface TokenSpan {
  groups: number[];
  firstRecord: number;
}

/** An agent no user-agent line can name (a token holds no digit at its start): the `*` selection. */
const UNNAMED_AGENT = ['0'];

/** Product tokens' bytes as text (a token is ASCII: [A-Za-z_-]). */
const latin1 = new TextDecoder('latin1');

/**
 * The compiled forms of a body (already cut to its reading limit) in a mode: each distinct blob given to
 * `emit` as it is made, in index order, as a view of the core's memory that holds until emit returns (the
 * caller copies it where it goes: no array per blob, as fresh memory costs more than the copy). Per distinct
 * body packed.
 */
export function packBody(body: Uint8Array, mode: 'google' | 'rfc', emit: (blob: Uint8Array) => void): PackedBody {
  const rfc = mode === 'rfc';
  const { bodies, frame } = core();
  // the body tokenized once and left staged with its line records: the selections, the tokens and every
  // compile read the records (a file naming many crawlers is read once, not once per crawler)
  const staged = bodies.stageLineRecords(body, !rfc);
  const starGroups = bodies.selectGroupsStaged(staged, UNNAMED_AGENT);
  // each token's groups from the records, in one pass: a group names a token when one of its user-agent
  // lines (not `*`) has that product token, ASCII case aside (assembly/select.ts namesAgent; the property
  // test of packs holds the two equal); a token named by a line is always named, so its blob is its
  // groups' (the same selection as `*`'s gives the same blob)
  // and where each token's lines begin (its first naming line), and where each group's records end: a
  // token's compile reads only the records from its first naming line to the end of its last group (records
  // come in file order and groups ascend, so its every group lies there; the `*` groups' rules the selection
  // would drop anyway are the only records left out), not the whole body's once per token
  const groupsOf = new Map<string, TokenSpan>();
  const groupEnds: number[] = [];
  const words = frame.memoryWords();
  const fields = LINE_RECORD_SIZE >> 2;
  const first = staged.recordsPtr >>> 2;
  for (let record = 0, r = first; record < staged.recordCount; record++, r += fields) {
    const group = words[r + (LINE_GROUP >> 2)] | 0; // (-1: before any user-agent line)
    if (group >= 0) groupEnds[group] = record + 1; // (groups come in order from 0: the array stays dense)
    if (words[r + (LINE_KEY_KIND >> 2)] !== KEY_USER_AGENT || (words[r + (LINE_FLAGS >> 2)] & LINE_FLAG_GLOBAL_AGENT) !== 0) continue;
    const start = words[r + (LINE_VALUE_START >> 2)];
    const end = words[r + (LINE_TOKEN_END >> 2)];
    if (end <= start) continue;
    const token = latin1.decode(body.subarray(start, end)).toLowerCase();
    const span = groupsOf.get(token);
    if (span === undefined) groupsOf.set(token, { groups: [group], firstRecord: record });
    else if (span.groups[span.groups.length - 1] !== group) span.groups.push(group);
  }
  let blobCount = 0;
  const bySelection = new Map<string, number>();
  const compiled = (agents: readonly string[], groups: ArrayLike<number> & { join(separator: string): string }, records?: { first: number; count: number }): number => {
    const key = groups.join(',');
    let index = bySelection.get(key);
    if (index === undefined) {
      const { address, length } = bodies.compileStaged(staged, agents, rfc, records);
      emit(frame.memoryBytes().subarray(address, address + length));
      index = blobCount++;
      bySelection.set(key, index);
    }
    return index;
  };
  const star = compiled(UNNAMED_AGENT, starGroups);
  const tokens = new Map<string, number>();
  for (const [token, { groups, firstRecord }] of groupsOf) {
    tokens.set(token, compiled([token], groups, { first: firstRecord, count: groupEnds[groups[groups.length - 1]] - firstRecord }));
  }
  const sorted = [...tokens].filter(([, blob]) => blob !== star).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { blobCount, tokens: sorted, star };
}
