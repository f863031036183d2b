// A body as a pack holds it: compiled once per group selection any single agent can get, so that one pack
// serves every crawler without a compile. The product tokens its user-agent lines name (as the core's
// tokenizer reads them: the token ends at the first byte no token holds) each get the blob of their own
// groups; every other agent the blob of the `*` groups (an empty blob when there are none). Selections are
// the compile's own (assembly/select.ts), so a blob is exactly what RobotsTxt.matcher(agent) compiles.
// Any runtime. Per distinct body packed: one tokenize pass (every token's groups from its records), one
// selection pass for `*`, one compile per distinct selection.
import { core } from '../wasm/core.js';
import { encodeAgents } from '../wasm/bodies.js';
import { KEY_USER_AGENT, LINE_FLAG_GLOBAL_AGENT, LINE_FLAGS, LINE_GROUP, LINE_KEY_KIND, LINE_RECORD_SIZE, LINE_TOKEN_END, LINE_VALUE_START } from '../constants.js';

/** A body's compiled forms: its blobs, the blob of each token it names, and the blob every other agent gets. */
export interface PackedBody {
  blobs: Uint8Array[];
  /** Lower-case product tokens, sorted by their bytes, each with its blob's index in `blobs`. */
  tokens: [string, number][];
  /** The blob of the `*` groups (agents the body names not). */
  star: number;
}

/** An agent no user-agent line can name (a token holds no digit at its start): the `*` selection. */
const UNNAMED_AGENT = encodeAgents(['0']);

/** The compiled forms of a body (already cut to its reading limit) in a mode. Per distinct body packed. */
export function packBody(body: Uint8Array, mode: 'google' | 'rfc'): PackedBody {
  const rfc = mode === 'rfc';
  const bodies = core().bodies;
  const frame = core().frame;
  const blobs: Uint8Array[] = [];
  const bySelection = new Map<string, number>();
  const compiled = (agents: Uint8Array, groups: ArrayLike<number> & { join(separator: string): string }): number => {
    const key = groups.join(',');
    let index = bySelection.get(key);
    if (index === undefined) {
      const { address, length } = bodies.compileInWorkArea(body, agents, rfc);
      index = blobs.push(frame.memoryBytes().slice(address, address + length)) - 1;
      bySelection.set(key, index);
    }
    return index;
  };
  const star = compiled(UNNAMED_AGENT, bodies.selectGroups(body, UNNAMED_AGENT, rfc).groups);
  // each token's groups from the tokenizer's records, in one pass: a group names a token when one of its
  // user-agent lines (not `*`) has that product token, ASCII case aside (assembly/select.ts namesAgent; the
  // property test of packs holds the two equal); a token named by a line is always named, so its blob is
  // its groups' (the same selection as `*`'s gives the same blob)
  const groupsOf = new Map<string, number[]>();
  const { records } = bodies.tokenizeLines(body, !rfc);
  const fields = LINE_RECORD_SIZE >> 2;
  for (let r = 0; r < records.length; r += fields) {
    if (records[r + (LINE_KEY_KIND >> 2)] !== KEY_USER_AGENT || (records[r + (LINE_FLAGS >> 2)] & LINE_FLAG_GLOBAL_AGENT) !== 0) continue;
    const start = records[r + (LINE_VALUE_START >> 2)];
    const end = records[r + (LINE_TOKEN_END >> 2)];
    if (end <= start) continue;
    let token = '';
    for (let i = start; i < end; i++) token += String.fromCharCode(body[i] >= 0x41 && body[i] <= 0x5a ? body[i] + 0x20 : body[i]);
    const group = records[r + (LINE_GROUP >> 2)];
    const groups = groupsOf.get(token);
    if (groups === undefined) groupsOf.set(token, [group]);
    else if (groups[groups.length - 1] !== group) groups.push(group); // (records come in file order: groups ascend)
  }
  const tokens = new Map<string, number>();
  for (const [token, groups] of groupsOf) tokens.set(token, compiled(encodeAgents([token]), groups));
  const sorted = [...tokens].filter(([, blob]) => blob !== star).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { blobs, tokens: sorted, star };
}
