// Access log lines (Apache/nginx common, combined and vhost_combined), detected per line.
// Used by `check --log` (and the log tools built on it); one call per log line.

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

const QUOTED = '"((?:[^"\\\\]|\\\\.)*)"';
// [vhost[:port] ]client ident user [time] "request" status bytes[ "referer" "user agent"]
const LINE = new RegExp(`^(?:(\\S+) )?(\\S+) (\\S+) (\\S+) \\[([^\\]]+)\\] ${QUOTED} (\\d{3}|-) (\\d+|-)(?: ${QUOTED} ${QUOTED})?\\s*$`);

const unescape = (text: string): string => text.replace(/\\(.)/g, '$1');

/** Parses one log line; null when it is not an access log line or its request has no target. */
export function parseLogLine(line: string): LogRequest | null {
  const match = LINE.exec(line);
  if (match === null) return null;
  const [, vhostField, client, , , time, request, status, , referer, userAgent] = match;
  const parts = unescape(request).split(' ');
  if (parts.length < 2 || parts.length > 3 || parts[1] === '') return null;
  return {
    format: vhostField !== undefined ? 'vhost_combined' : referer !== undefined ? 'combined' : 'common',
    vhost: vhostField !== undefined ? vhostField.replace(/:\d+$/, '') : null,
    client,
    time,
    method: parts[0],
    target: parts[1],
    status: status === '-' ? null : Number(status),
    referer: referer === undefined || referer === '-' ? null : unescape(referer),
    userAgent: userAgent === undefined || userAgent === '-' ? null : unescape(userAgent),
  };
}
