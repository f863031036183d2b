// Reads the rule table of a compiled matcher blob (layout in src/core/constants.ts, made by assembly/compile.ts).
import {
  HEADER_LITERAL_OFFSET, HEADER_RULES_OFFSET, HEADER_PATTERNS_OFFSET, RULE_KIND, RULE_LINE,
  RULE_PATTERN_OFFSET, RULE_PATTERN_LENGTH, RULE_DERIVED, RULE_SIZE,
} from '../constants.js';

/** One compiled rule as stored in a blob. */
export interface CompiledRule {
  kind: number;
  line: number;
  /** Normalised pattern bytes (what is matched). */
  pattern: Uint8Array;
  /** True for the allow rule the index.htm rule adds. */
  derived: boolean;
}

function view(blob: Uint8Array): DataView {
  return new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
}

/** The compiled rule at index in blob. */
export function compiledRule(blob: Uint8Array, index: number): CompiledRule {
  const data = view(blob);
  const rule = data.getUint32(HEADER_RULES_OFFSET, true) + index * RULE_SIZE;
  const patterns = data.getUint32(HEADER_PATTERNS_OFFSET, true);
  const offset = data.getUint32(rule + RULE_PATTERN_OFFSET, true);
  const length = data.getUint32(rule + RULE_PATTERN_LENGTH, true);
  return {
    kind: data.getUint16(rule + RULE_KIND, true),
    line: data.getUint32(rule + RULE_LINE, true),
    pattern: blob.subarray(patterns + offset, patterns + offset + length),
    derived: data.getUint16(rule + RULE_DERIVED, true) === 1,
  };
}

/** Whether a blob answers its literal rules from a literal index (assembly/literal.ts) rather than the trie. */
export function hasLiteralIndex(blob: Uint8Array): boolean {
  return view(blob).getUint32(HEADER_LITERAL_OFFSET, true) !== 0;
}
