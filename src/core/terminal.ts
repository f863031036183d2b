// Text bound for a terminal, made harmless (any runtime).

/**
 * Text from logs or files made safe for a terminal table: C0 controls (ESC, BEL, TAB, CR, ...), DEL and the
 * C1 controls written as \xNN, so a log line cannot move the cursor, ring, or rewrite the screen. Called per
 * cell of the audit table (src/node/audit/table.ts) and of the command line's other tables.
 */
export function terminalSafe(text: string): string {
  return /[\x00-\x1f\x7f-\x9f]/.test(text) ? text.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`) : text;
}
