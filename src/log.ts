// Access log lines (Apache/nginx common, combined and vhost_combined, with extra fields after the
// User-Agent allowed), detected per line. The format is read by the WebAssembly core (assembly/log.ts):
// one pass per line, linear in its length. parseLogLine gives one line's fields (audit, diff); the command
// line's bulk path turns whole chunks into URL lines (WasmCore.extractLogTargets).
import {
  LOG_VHOST_START, LOG_VHOST_END, LOG_CLIENT_START, LOG_CLIENT_END, LOG_TIME_START, LOG_TIME_END, LOG_METHOD_START,
  LOG_METHOD_END, LOG_TARGET_START, LOG_TARGET_END, LOG_STATUS, LOG_REFERER_START, LOG_REFERER_END, LOG_AGENT_START, LOG_AGENT_END,
} from './constants.js';
import { core } from './wasm/core.js';

/** One request from an access log line. */
export interface LogRequest {
  format: 'common' | 'combined' | 'vhost_combined';
  /** The virtual host (vhost_combined only), without its port. */
  vhost: string | null;
  client: string;
  time: string;
  method: string;
  /** The request target as sent: usually a path with query, sometimes an absolute URL. */
  target: string;
  status: number | null;
  referer: string | null;
  userAgent: string | null;
}

/** A field's text: one char per byte (latin1, as logs carry bytes), a backslash before a byte removed. */
function field(line: Uint8Array, start: number, end: number, unescape: boolean): string {
  let text = Buffer.from(line.buffer, line.byteOffset + start, end - start).toString('latin1');
  if (unescape && text.includes('\\')) text = text.replace(/\\(.)/gs, '$1');
  return text;
}

/** Parses one log line (a string of one char per byte); null when it is not an access log line with a request target. */
export function parseLogLine(line: string): LogRequest | null {
  const bytes = Buffer.from(line, 'latin1');
  const record = core().parseLogRecord(bytes);
  if (record === null) return null;
  const at = (offset: number): number => record[offset >> 2];
  const text = (start: number, end: number, unescape = false): string => field(bytes, at(start), at(end), unescape);
  const hasVhost = at(LOG_VHOST_START) >= 0;
  const hasReferer = at(LOG_REFERER_START) >= 0;
  const referer = hasReferer ? text(LOG_REFERER_START, LOG_REFERER_END, true) : '-';
  const userAgent = hasReferer ? text(LOG_AGENT_START, LOG_AGENT_END, true) : '-';
  return {
    format: hasVhost ? 'vhost_combined' : hasReferer ? 'combined' : 'common',
    vhost: hasVhost ? text(LOG_VHOST_START, LOG_VHOST_END) : null,
    client: text(LOG_CLIENT_START, LOG_CLIENT_END),
    time: text(LOG_TIME_START, LOG_TIME_END),
    method: text(LOG_METHOD_START, LOG_METHOD_END, true),
    target: text(LOG_TARGET_START, LOG_TARGET_END, true),
    status: at(LOG_STATUS) < 0 ? null : at(LOG_STATUS),
    referer: referer === '-' ? null : referer,
    userAgent: userAgent === '-' ? null : userAgent,
  };
}
