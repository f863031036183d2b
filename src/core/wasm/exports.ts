// Every export of the WebAssembly core (build/robotstxt.wasm, made from assembly/index.ts), declared once.
// The bindings beside this file call the core through this interface only, and test/wasm-exports.test.ts
// holds it to the real module: the same names, the same parameter counts, nothing more and nothing less.
//
// Only integers cross: addresses, lengths, counts, flags (a bool parameter is 0 or 1). A call with more than
// one result returns its main count and writes the others at the resultPtr it is given, as a record whose
// fields are the *_RESULT_* offsets of src/core/constants.ts: no call leaves a result behind for a getter.
// The core imports two functions (frame.ts gives them): env.memoryExhausted(endAddress), called when linear
// memory cannot grow (the host throws INPUT_TOO_LARGE from it), and env.randomSeedHalf(), the literal index's
// hash seed.

/** The core's exports. Addresses are unsigned 32-bit (read them with `>>> 0`). */
export interface CoreExports {
  memory: WebAssembly.Memory;

  // ---- memory (frame.ts) ----
  /** First address the host may use. */
  heapBase(): number;
  /** Grows memory so that [0, endAddress) exists. */
  reserve(endAddress: number): void;
  /** memmove inside linear memory. */
  copyBytes(dst: number, src: number, length: number): void;

  // ---- robots.txt bodies (bodies.ts) ----
  /** Length of a UTF-8 byte order mark at the body's start (0 or 3). */
  bomLength(bodyPtr: number, length: number): number;
  /** Line records of a body (LINE_* fields, LINE_RECORD_SIZE each) at recordsPtr; returns their count. */
  tokenizeLines(bodyPtr: number, length: number, from: number, google: number, recordsPtr: number): number;
  /** Group numbers that decide for an agent query; SELECT_RESULT_* at resultPtr; returns their count. */
  selectGroups(bodyPtr: number, bodyLen: number, agentsPtr: number, flags: number, workPtr: number, resultPtr: number): number;
  /** selectGroups from the body's line records (tokenizeLines) at recordsPtr: the same groups, no second pass over its lines. */
  selectGroupsFromRecords(bodyPtr: number, bodyLen: number, recordsPtr: number, recordCount: number, agentsPtr: number, workPtr: number, resultPtr: number): number;
  /** Compiles a body for an agent query (FLAG_* flags) after workPtr; returns the blob's address (its length in its header). */
  compileRobots(bodyPtr: number, bodyLen: number, agentsPtr: number, flags: number, workPtr: number): number;
  /** compileRobots from the body's line records (tokenizeLines) at recordsPtr: the same blob, no second pass over its lines. */
  compileRobotsFromRecords(bodyPtr: number, bodyLen: number, recordsPtr: number, recordCount: number, agentsPtr: number, flags: number, workPtr: number): number;
  /** Google mode: the verdict of one URL straight from a body, or 0 when a compile would be cheaper. */
  answerUrlFromBody(bodyPtr: number, bodyLen: number, agentsPtr: number, urlPtr: number, urlLen: number, workPtr: number): number;

  // ---- matching a bound matcher (matching.ts) ----
  /** The bulk engine's test and A/B settings (see assembly/index.ts); kept until the next call. */
  configureBulkEngine(nfa: number, automatonStateLimit: number, pairWalks: number, literalIndex: number): void;
  /** Binds a blob and its automaton region (dfaPtr 0: none). */
  bindMatcher(blobPtr: number, dfaPtr: number, dfaBytes: number): void;
  /** Resets x 2^32 + states of the bound automaton. */
  automatonStats(): bigint;
  /** One URL by the NFA: RESULT_* fields at resultPtr; returns the verdict. */
  matchOne(scratchPtr: number, urlPtr: number, urlLen: number, resultPtr: number): number;
  /** Verdicts (and text output, rule references) of LF-separated lines; LINES_RESULT_* at resultPtr; returns lines done. */
  matchLines(scratchPtr: number, inputPtr: number, inputLen: number, verdictsPtr: number, outputPtr: number, filter: number, rulesPtr: number, stopOnOverflow: number, resultPtr: number): number;
  /** Verdicts of count URLs given by u32 offsets into bytesPtr. */
  matchOffsets(scratchPtr: number, offsetsPtr: number, count: number, bytesPtr: number, verdictsPtr: number): void;
  /** jsonl lines for answered lines into [outputPtr, outputEnd); JSONL_RESULT_* at resultPtr; returns bytes written. */
  formatJsonlLines(inputPtr: number, lineCount: number, verdictsPtr: number, rulesPtr: number, numbersPtr: number, firstNumber: number, outputPtr: number, outputEnd: number, filter: number, scratchPtr: number, resultPtr: number): number;

  // ---- chunks of lines (line-chunks.ts) ----
  /** Text output (`allowed\t<url>`, filtered) of lines whose verdicts are known; returns bytes written. */
  formatTextLines(inputPtr: number, lineCount: number, verdictsPtr: number, outputPtr: number, filter: number, columnPtr: number): number;
  /** LF-separated lines (a final line without LF counts). */
  countLines(ptr: number, length: number): number;
  /** Line ends (LF, CR, CR LF) of a body. */
  countLineEndBytes(ptr: number, length: number): number;
  /** Splits a chunk of lines into shards by host; returns the line count. */
  splitLinesByHost(inputPtr: number, inputLen: number, shardCount: number, shardOfLinePtr: number, shardSizesPtr: number, outPtr: number, keyScratch: number): number;

  // ---- access log lines (logs.ts) ----
  /** URL lines (and with recordsPtr, records) of a chunk of log lines; LOG_RESULT_* at resultPtr; returns the URL line count. */
  readLogChunk(inputPtr: number, inputLen: number, firstLineNumber: number, recordsPtr: number, urlsPtr: number, numbersPtr: number, otherPtr: number, maxOther: number, withHost: number, defaultHostPtr: number, defaultHostLen: number, resultPtr: number): number;
  /** URL lines of requests read from other formats (TARGET_ENTRY_* records); LOG_RESULT_URL_BYTES at resultPtr; returns their count. */
  urlLinesOfTargets(entriesPtr: number, count: number, outPtr: number, withHost: number, defaultHostPtr: number, defaultHostLen: number, resultPtr: number): number;
  /** A log field with its escapes undone at dstPtr; returns its length. */
  unescapeLogField(srcPtr: number, srcLen: number, dstPtr: number): number;

  // ---- URLs and patterns (urls.ts) ----
  /** The normalised form of an allow/disallow value; returns its length. */
  normalizePattern(srcPtr: number, srcLen: number, dstPtr: number, flags: number): number;
  /** The path the reference matches for a URL; returns its length. */
  extractPath(urlPtr: number, urlLen: number, dstPtr: number): number;
  /** The origin key the many-host scan reads from one URL line, or -1. */
  originKeyOf(linePtr: number, keyPtr: number): number;

  // ---- many hosts (hosts-engine.ts) ----
  /** Host entries of a chunk's lines; SCAN_RESULT_* at resultPtr; returns lines, or -1 when the table is full. */
  scanLineHosts(inputPtr: number, inputLen: number, table: number, slots: number, stamp: number, lineStartsPtr: number, entriesPtr: number, pendingPtr: number, keyScratch: number, resultPtr: number, pack: number): number;
  /** Whether the key [keyPtr, keyPtr + length) is plain (assembly/pack-hosts.ts; the tests hold it to src/core/url-model.ts isPlainKey). */
  isPlainOriginKey(keyPtr: number, length: number): number;
  /** Writes each origin's slot into a held pack's record (assembly/pack-hosts.ts). Once per pack held. */
  resolvePackOrigins(record: number): void;
  /** Lines grouped by host entry once per chunk; pending entries rewritten as their group indexes; returns the group count. */
  groupLinesByEntry(lineCount: number, entriesPtr: number, table: number, stamp: number, groupsPtr: number, orderPtr: number, pendingPtr: number, pendingCount: number): number;
  /** The slots of a round's groups [from, to); returns its lines without a host (GROUP_RESULT_* at resultPtr too). */
  slotGroups(groupsPtr: number, from: number, to: number, table: number, missingSlot: number, resultPtr: number, scratchPtr: number, slotCount: number, slots: number, fixedA: number, fixedB: number, planLines: number, plansPtr: number): number;
  /** Verdicts of the groups [firstGroup, groupCount); returns the group it stopped at (groupCount when done). */
  matchGroups(inputPtr: number, lineStartsPtr: number, groupsPtr: number, groupCount: number, orderPtr: number, slots: number, verdictsPtr: number, rulesPtr: number, scratchPtr: number, agentsPtr: number, firstGroup: number): number;
  /** The slot of a host key, or -1. */
  findHostSlot(table: number, slots: number, keyPtr: number, keyLen: number): number;
  /** Copies the entries that name a matcher into another table; -1 when they do not fit. */
  rehashHostTable(from: number, to: number, slots: number): number;
  /** Remembers a key for a slot; 1 when the table had room. */
  rememberHost(table: number, slots: number, keyPtr: number, keyLen: number, slot: number): number;
}
