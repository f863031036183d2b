// Numbers shared by the TypeScript host (src/) and the WebAssembly core (assembly/).
// This file must stay valid in both languages: only `export const NAME = <integer literal>;`.
// AssemblyScript infers i32 for each, TypeScript infers number.

// ---- verdict bytes written by the core (0 means "never written": a bug, not a verdict) ----
export const VERDICT_UNSET = 0;
export const VERDICT_ALLOWED = 1;
export const VERDICT_DISALLOWED = 2;

// ---- rule kinds (input records and compiled rule records) ----
export const RULE_KIND_ALLOW = 1;
export const RULE_KIND_DISALLOW = 2;

// ---- compile flags ----
/** Strict RFC 9309 mode: no index.htm rule, URL and pattern normalised per RFC 9309, /robots.txt allowed. */
export const FLAG_RFC_MODE = 1;
/** Every literal pattern in the trie, whatever the bulk engine's literal-index setting (a matcher compiled again for speed). Not kept in the blob. */
export const FLAG_NO_LITERAL_INDEX = 2;

// ---- call results: a call with more than one result writes the others at the resultPtr the host gives ----
// (u32 fields; the call's return value is its main count). One record of CALL_RESULT_SIZE bytes per instance.
export const CALL_RESULT_SIZE = 16;
export const SELECT_RESULT_GROUPS = 0; // selectGroups: address of the group numbers (u32 each)
export const SELECT_RESULT_BY_NAME = 4; // selectGroups: 1 when a user-agent line named the agent, else 0 (the `*` groups)
export const LINES_RESULT_OUTPUT_LENGTH = 0; // matchLines: output bytes written
export const LINES_RESULT_INPUT_STOP = 4; // matchLines: where it stopped (the input's end, or the first line left)
export const JSONL_RESULT_LINES = 0; // formatJsonlLines: lines written
export const JSONL_RESULT_INPUT_END = 4; // formatJsonlLines: the start of the first line not written
export const LOG_RESULT_LINES = 0; // readLogChunk: input lines read
export const LOG_RESULT_OTHER = 4; // readLogChunk: lines that are no Apache/nginx request lines (another format, or none)
export const LOG_RESULT_URL_BYTES = 8; // readLogChunk, urlLinesOfTargets: URL line bytes written
export const LOG_RESULT_FIRST_RELATIVE = 12; // readLogChunk: index of the first URL line with no host (URL_HOST_NONE), or 0xffffffff
export const SCAN_RESULT_LINES = 0; // scanLineHosts: lines seen
export const SCAN_RESULT_PENDING = 4; // scanLineHosts: entries the host must resolve
export const SCAN_RESULT_RUNS = 8; // scanLineHosts: runs of consecutive lines of one host entry
export const SCAN_RESULT_DISTINCT = 12; // scanLineHosts: host entries the chunk's lines name (each once)
export const GROUP_RESULT_NO_HOST_LINES = 0; // slotGroups: lines of the round that named no host
export const GROUP_RESULT_HOSTS = 4; // slotGroups: groups of the round answered by a host's matcher (not a fixed slot)
export const GROUP_RESULT_PLANS = 8; // slotGroups: groups listed for the host to plan (see slotGroups)

// ---- rule input record written by the host before compileRules (u32 fields) ----
export const RULE_INPUT_KIND = 0;
export const RULE_INPUT_LINE = 4;
export const RULE_INPUT_VALUE_PTR = 8;
export const RULE_INPUT_VALUE_LEN = 12;
export const RULE_INPUT_SIZE = 16;

// ---- compiled matcher blob: header (u32 fields, byte offsets from the blob start) ----
export const BLOB_MAGIC = 0x52425433; // "RBT3"
export const HEADER_MAGIC = 0;
export const HEADER_FLAGS = 4;
export const HEADER_NODE_COUNT = 8;
export const HEADER_RULE_COUNT = 12;
export const HEADER_NODES_OFFSET = 16;
export const HEADER_LABELS_OFFSET = 20; // u8 per node: the byte on the edge into it (assembly/layout.ts)
export const HEADER_RULE_SLOTS_OFFSET = 24; // the rules ending at nodes (assembly/layout.ts)
export const HEADER_RULES_OFFSET = 28;
export const HEADER_PATTERNS_OFFSET = 32;
export const HEADER_TOTAL_LENGTH = 36;
export const HEADER_RULE_SLOT_COUNT = 40;
export const HEADER_LITERAL_OFFSET = 44; // the literal index (assembly/literal.ts), 0 = none
export const HEADER_AUTOMATON_NODE_COUNT = 48; // nodes the bulk automaton works on (those on a way to a '*')
export const HEADER_GENERATION = 52; // mutable: the last stamp given to this blob's nodes (assembly/trie.ts)
export const HEADER_SIZE = 64;

// ---- automaton region header (assembly/dfa.ts; u32 fields, byte offsets from the region start) ----
/** Times the region filled up and was flushed since the host made it (the host grows regions that do). */
export const AUTOMATON_OVERFLOWS = 28;
/** Bytes of the header; a region whose header the host zeroed is laid out on first use. */
export const AUTOMATON_HEADER_SIZE = 48;

// ---- explain output: one rule reference per line ----
// A line answered by a compiled matcher names its deciding rule record; a line answered straight from a raw
// body (assembly/direct.ts) names the rule's raw value in that body, normalised when the line is printed.
// Either stays valid until the chunk is formatted (the slots it points into are pinned until then).
export const RULE_REF_RECORD = 0; // u32: address of the deciding compiled rule record, 0 = none (see RULE_REF_VALUE)
export const RULE_REF_PATTERNS = 4; // u32: address of its blob's patterns area
export const RULE_REF_VALUE = 8; // u32, with RULE_REF_RECORD 0: address of the deciding rule's raw value in a raw body, 0 = none
export const RULE_REF_VALUE_LINE = 12; // u32: that rule's line
export const RULE_REF_VALUE_LENGTH = 16; // u16: its value's length (one line at most: <= MAX_LINE_BYTES)
export const RULE_REF_VALUE_KIND = 18; // u8: RULE_KIND_*
export const RULE_REF_VALUE_DERIVED = 19; // u8: 1 when its index.htm rule decided
export const RULE_REF_SIZE = 20;

// ---- compiled rule record ----
export const RULE_KIND = 0; // u16: RULE_KIND_*
export const RULE_DERIVED = 2; // u16: 1 when made by the index.htm rule
export const RULE_LINE = 4; // u32
export const RULE_PATTERN_OFFSET = 8; // u32, from the start of the patterns area
export const RULE_PATTERN_LENGTH = 12; // u32 = priority
export const RULE_SIZE = 16;

// ---- match result record written by matchOne (i32 fields) ----
export const RESULT_VERDICT = 0;
export const RESULT_ALLOW_RULE = 4; // compiled rule index or -1
export const RESULT_DISALLOW_RULE = 8; // compiled rule index or -1
export const RESULT_SIZE = 16;

// ---- line records written by tokenizeLines (i32 fields), one per line with content or a notice ----
export const LINE_NUMBER = 0;
export const LINE_KEY_START = 4; // -1: no directive on this line (its flags say why)
export const LINE_KEY_END = 8;
export const LINE_VALUE_START = 12;
export const LINE_VALUE_END = 16;
export const LINE_FLAGS = 20;
export const LINE_KEY_KIND = 24; // KEY_* below
export const LINE_GROUP = 28; // the group the line belongs to, 0-based in file order; -1 before any user-agent line
export const LINE_TOKEN_END = 32; // user-agent lines: where the value's product token ends (= LINE_VALUE_START: none)
export const LINE_RECORD_SIZE = 36;
export const LINE_FLAG_TRUNCATED = 1; // GoogleOnly: bytes past MAX_LINE_BYTES dropped
export const LINE_FLAG_NUL = 2; // a NUL ended the content
export const LINE_FLAG_MISSING_COLON = 4; // GoogleOnly: "key value" accepted
export const LINE_FLAG_NO_SEPARATOR = 8; // text without a usable separator: ignored
export const LINE_FLAG_EMPTY_KEY = 16; // a separator with nothing before it: ignored
export const LINE_FLAG_TYPO = 32; // GoogleOnly: the key is an accepted misspelling
export const LINE_FLAG_GLOBAL_AGENT = 64; // a user-agent line naming every crawler (`*`)

// ---- key kinds, by ASCII case-insensitive prefix in this order: user-agent, allow, disallow, sitemap ----
export const KEY_UNKNOWN = 0;
export const KEY_USER_AGENT = 1;
export const KEY_ALLOW = 2;
export const KEY_DISALLOW = 3;
export const KEY_SITEMAP = 4;

// ---- many hosts (assembly/hosts.ts): the host table, a heap block ----
// header (u32 fields), then HOSTS_CAPACITY entries, then the key bytes
export const HOSTS_CAPACITY = 0; // entries, a power of two
export const HOSTS_USED = 4; // entries in use
export const HOSTS_KEY_BYTES_USED = 8;
export const HOSTS_KEY_BYTES_CAPACITY = 12;
export const HOSTS_HEADER_SIZE = 16;
// entry (u32 fields)
export const HOST_ENTRY_HASH = 0;
export const HOST_ENTRY_KEY_OFFSET = 4; // from the start of the key bytes
export const HOST_ENTRY_KEY_LENGTH = 8; // the key's length, and HOST_KEY_ALIAS
/** Key length flag: the key is a spelling of a host, not its canonical name (canonical look-ups skip it). */
export const HOST_KEY_ALIAS = 0x80000000;
export const HOST_ENTRY_SLOT = 12; // slot + 1; 0 = empty entry; or one of the markers below
export const HOST_ENTRY_GENERATION = 16; // the slot's generation when the host resolved the entry
export const HOST_ENTRY_GROUP_STAMP = 20; // chunk stamp of the grouping that gave it HOST_ENTRY_GROUP
export const HOST_ENTRY_GROUP = 24; // its group of lines in that chunk
export const HOST_ENTRY_SIZE = 28;
/** Entry marker: met in this scan and not known yet: the host resolves it before grouping. */
export const HOST_SLOT_PENDING = 0xffffffff;
/** Entry marker: the host found that the key names no usable host (answered like a line without a host). */
export const HOST_SLOT_NO_HOST = 0xfffffffe;
/** Line marker (in the per-line entries): the line names no host (a relative URL, no scheme, a bad host). */
export const LINE_NO_HOST = 0xffffffff;
/** Lines without a host named per chunk (their indexes: MultiHostMatcher, worker replies, check's summary). */
export const NO_HOST_LINES_NAMED = 5;
/** Longest host key (host[:port]) kept; a longer one counts as naming no host. */
export const MAX_HOST_KEY_BYTES = 1024;

// ---- many hosts: the slot table, a heap block; one record per cached matcher (u32 fields) ----
export const SLOT_BLOB_PTR = 0; // address of the compiled blob (rewritten by the host whenever blocks move)
export const SLOT_AUTOMATON_PTR = 4; // address of its automaton region, 0 = none yet (the NFA answers)
export const SLOT_AUTOMATON_BYTES = 8;
export const SLOT_GENERATION = 12; // bumped by the host when the slot is emptied: older entries no longer count
export const SLOT_LINES = 16; // lines matched since the slot was filled (the host gives busy slots an automaton)
export const SLOT_PIN_STAMP = 20; // chunk stamp of the last scan that met it: not evicted while that chunk runs
export const SLOT_FLAGS = 24;
export const SLOT_SIZE = 28;
/** Slot flag: the missing-policy matcher (hosts without a file): its rule is never reported as a deciding rule. */
export const SLOT_FLAG_MISSING_POLICY = 1;
/** Slot flag: a pack's compiled rule set, in the pack data held (cleared when the slot is emptied). */
export const SLOT_FLAG_PACKED = 2;
/** Slot flag: a raw body (its lines answered straight from it; cleared when it is compiled in place). */
export const SLOT_FLAG_RAW = 4;

// ---- a robots.txt pack's index records (src/core/pack/layout.ts says the file; the core reads them too) ----
export const ORIGIN_BYTES = 20; // hash u32, key offset u32, key length u32, first capture u32, captures u32
export const CAPTURE_BYTES = 24; // time f64, body i32, effect u16, status u16, hops u16, u16, u32
export const BODY_BYTES = 32; // offset u64, length u32, crc u32, first token u32, tokens u32, star blob u32, u32
export const TOKEN_BYTES = 12; // string offset u32, length u32, blob u32
export const BLOB_BYTES = 16; // offset u64, length u32, crc u32
/** What a capture's URLs get: the rules of its body, every URL allowed (4xx), every URL disallowed (5xx, unreachable). */
export const EFFECT_RULES = 0;
export const EFFECT_ALLOW_ALL = 1;
export const EFFECT_DISALLOW_ALL = 2;

// ---- many hosts: a pack held in the core (src/core/wasm/pack-data.ts writes it, assembly/pack-hosts.ts reads
// it; u32 fields): this record, then the pack's index as its file holds it, then the agent's product token ----
export const PACK_RECORD_INDEX = 0; // offset of the index from the record's start
export const PACK_RECORD_BUCKETS = 4; // offsets of the index's sections from the index's start
export const PACK_RECORD_ORIGINS = 8;
export const PACK_RECORD_CAPTURES = 12;
export const PACK_RECORD_BODIES = 16;
export const PACK_RECORD_TOKENS = 20;
export const PACK_RECORD_STRINGS = 24;
export const PACK_RECORD_BUCKET_COUNT = 28; // a power of two
export const PACK_RECORD_ORIGIN_COUNT = 32;
export const PACK_RECORD_CAPTURE_COUNT = 36;
export const PACK_RECORD_BODY_COUNT = 40;
export const PACK_RECORD_TOKEN_COUNT = 44;
export const PACK_RECORD_BLOB_COUNT = 48;
export const PACK_RECORD_STRING_BYTES = 52;
export const PACK_RECORD_KINDS = 56; // PACK_KIND_*: the kinds of origin keys looked up
export const PACK_RECORD_AGENT = 60; // offset of the agent's product token (lower case) from the record's start
export const PACK_RECORD_AGENT_LENGTH = 64;
export const PACK_RECORD_BLOB_SLOTS = 68; // offset of a u32 per blob: its slot + 1 (0: none; SLOT_FLAG_PACKED while it holds it)
export const PACK_RECORD_ALLOW_SLOT = 72; // the fixed slots of a capture that allows or disallows every URL
export const PACK_RECORD_DISALLOW_SLOT = 76;
export const PACK_RECORD_RULES_MET = 80; // origins the core answered: by rules, allowing all, disallowing all (the host reads and zeroes them)
export const PACK_RECORD_ALLOW_MET = 84;
export const PACK_RECORD_DISALLOW_MET = 88;
export const PACK_RECORD_BODY_SLOTS = 92; // offset of a u32 per body: the slot of its rules for the agent + 1 (0: none)
export const PACK_RECORD_ORIGIN_SLOTS = 96; // offset of a u32 per origin: the slot that answers it + 1 (0: the host resolves it)
export const PACK_RECORD_SIZE = 100;
export const PACK_KIND_STORE = 1; // store keys (`https@host`)
export const PACK_KIND_HOST = 2; // host keys (`host`)
// A slot's block may hold a body instead of a blob (a raw body: its lines are answered straight from it,
// assembly/direct.ts, until the host compiles it): | RAW_BODY_MAGIC | length u32 | pad | body | 16 bytes |
export const RAW_BODY_MAGIC = 0x57415242; // "BRAW": not BLOB_MAGIC, which a blob has at the same offset
export const RAW_BODY_LENGTH = 4;
export const RAW_BODY_START = 16;
export const RAW_BODY_SLACK = 16;

// ---- many hosts: a group of a chunk's lines with one host entry (u32 fields) ----
export const GROUP_SLOT = 0; // the slot that answers it, written when its round comes (slotGroups)
export const GROUP_START = 4; // first index into the order array
export const GROUP_COUNT = 8;
export const GROUP_CURSOR = 12;
export const GROUP_ENTRY = 16; // its host entry, or LINE_NO_HOST (the lines that name no host)
export const GROUP_SIZE = 20;

// ---- access log lines (assembly/log.ts): the fields of one line, i32 offsets from the line start (-1: absent) ----
export const LOG_VHOST_START = 0;
export const LOG_VHOST_END = 4; // without a ":port" suffix
export const LOG_CLIENT_START = 8;
export const LOG_CLIENT_END = 12;
export const LOG_TIME_START = 16; // inside the brackets
export const LOG_TIME_END = 20;
export const LOG_METHOD_START = 24; // in the request (between the quotes, escapes as written)
export const LOG_METHOD_END = 28;
export const LOG_TARGET_START = 32;
export const LOG_TARGET_END = 36;
export const LOG_STATUS = 40; // the status code, or -1 for '-'
export const LOG_REFERER_START = 44; // inside its quotes; -1: common format
export const LOG_REFERER_END = 48;
export const LOG_AGENT_START = 52; // the User-Agent, inside its quotes
export const LOG_AGENT_END = 56;
export const LOG_RECORD_SIZE = 60;
// readLogChunk: per line of a chunk, the LOG_* fields above (relative to the line's start) and these
export const LOG_LINE_START = 60; // offset of the line in the chunk
export const LOG_LINE_END = 64; // its end (before the LF, and before a CR ending it)
export const LOG_LINE_PARSED = 68; // 1: an Apache/nginx access log line (the fields are set); 0: another format or none
export const LOG_LINE_URL_START = 72; // its URL line in the URL area (parsed lines): start,
export const LOG_LINE_URL_END = 76; // end (before its LF),
export const LOG_LINE_URL_TARGET = 80; // where the request target (escapes undone) starts in it,
export const LOG_LINE_URL_HOST = 84; // and whose host it names (URL_HOST_*)
export const LOG_LINE_RECORD_SIZE = 88;

// ---- URL lines of log requests: whose host a URL line names ----
export const URL_HOST_SCHEME = 1; // the target names its scheme (an absolute URL): its own host
export const URL_HOST_LINE = 2; // a relative target, `http://<host>` of the line's host field in front
export const URL_HOST_DEFAULT = 3; // a relative target, `http://<default host>` (--host) in front
export const URL_HOST_NONE = 4; // a relative target and no host (or none asked for): the target alone

// ---- urlLinesOfTargets: requests read by the host (JSON, CloudFront, ALB lines), u32 fields ----
export const TARGET_ENTRY_TARGET = 0; // address of the target's bytes
export const TARGET_ENTRY_TARGET_LENGTH = 4;
export const TARGET_ENTRY_HOST = 8; // address of the line's host (without port), when it has one
export const TARGET_ENTRY_HOST_LENGTH = 12; // 0: the line names no host
export const TARGET_ENTRY_URL_END = 16; // written: where its URL line ends (before its LF) in the output
export const TARGET_ENTRY_URL_HOST = 20; // written: URL_HOST_*
export const TARGET_ENTRY_SIZE = 24;

// ---- output filters for formatLines ----
export const OUTPUT_ALL = 0;
export const OUTPUT_ONLY_ALLOWED = 1;
export const OUTPUT_ONLY_DISALLOWED = 2;

// ---- limits from the specification ----
/** The reference keeps at most this many bytes of a robots.txt line. */
export const MAX_LINE_BYTES = 16663;
/** Scratch bytes the jsonl formatter needs: one raw rule value (one line at most) normalised, 3 bytes per byte at most. */
export const JSONL_SCRATCH_BYTES = 3 * MAX_LINE_BYTES + 16;
/** Many hosts: the default budget of what cached hosts hold (MultiHostMatcher cacheBytes, check --cache-mb). */
export const DEFAULT_CACHE_BYTES = 64 << 20;
/**
 * The largest such budget (3 GiB, check --cache-mb 3072): what one WebAssembly instance can address (4 GiB)
 * less room for its work area, which a 16 MiB body of wildcard rules compiled with no size limit takes to
 * about 720 MiB, and for its batch region. Several matchers of one thread share one instance.
 */
export const MAX_CACHE_BYTES = 3 * 2 ** 30;
/** Default robots.txt size limit (500 KiB), as Google's crawler and RFC 9309 use. */
export const DEFAULT_MAX_BYTES = 512000;

// ---- character codes ----
export const CHAR_NUL = 0x00;
export const CHAR_TAB = 0x09;
export const CHAR_LF = 0x0a;
export const CHAR_VT = 0x0b;
export const CHAR_FF = 0x0c;
export const CHAR_CR = 0x0d;
export const CHAR_SPACE = 0x20;
export const CHAR_HASH = 0x23;
export const CHAR_DOLLAR = 0x24;
export const CHAR_PERCENT = 0x25;
export const CHAR_ASTERISK = 0x2a;
export const CHAR_HYPHEN = 0x2d;
export const CHAR_DOT = 0x2e;
export const CHAR_SLASH = 0x2f;
export const CHAR_0 = 0x30;
export const CHAR_9 = 0x39;
export const CHAR_COLON = 0x3a;
export const CHAR_SEMICOLON = 0x3b;
export const CHAR_QUESTION = 0x3f;
export const CHAR_UPPER_A = 0x41;
export const CHAR_UPPER_F = 0x46;
export const CHAR_UPPER_Z = 0x5a;
export const CHAR_BACKSLASH = 0x5c;
export const CHAR_UNDERSCORE = 0x5f;
export const CHAR_LOWER_A = 0x61;
export const CHAR_LOWER_F = 0x66;
export const CHAR_LOWER_Z = 0x7a;
export const CHAR_TILDE = 0x7e;
export const CHAR_NON_ASCII = 0x80;
