// The JSON fields of a JSON lines log and the keys tried for each: one table for the log reader (src/node/logs/log.ts)
// and the command line's --log-field option, which reads it without loading the reader.

export interface LogFieldNames {
  /** The request target (path and query, or an absolute URL), or a `"GET /path HTTP/1.1"` request line. */
  target?: string;
  /** The query, appended with `?` to a target that has none. */
  query?: string;
  host?: string;
  userAgent?: string;
  time?: string;
  method?: string;
  status?: string;
  client?: string;
  referer?: string;
  /** The X-Forwarded-For header (audit --client-ip forwarded). */
  forwardedFor?: string;
  /** The Web Bot Auth headers of a signed request (RFC 9421): Signature, Signature-Input, Signature-Agent. */
  signature?: string;
  signatureInput?: string;
  signatureAgent?: string;
}

/** The keys tried, in order, for a JSON field not configured (nginx log_format escape=json, GCP, Caddy, ECS). */
export const DEFAULT_JSON_FIELDS: Readonly<Record<keyof LogFieldNames, readonly string[]>> = {
  target: ['request_uri', 'uri', 'url', 'path', 'request_url', 'httpRequest.requestUrl', 'request.uri', 'url.original', 'request'],
  query: ['query_string', 'args', 'query', 'url.query'],
  host: ['host', 'http_host', 'vhost', 'server_name', 'hostname', 'request.host', 'url.domain'],
  userAgent: ['http_user_agent', 'user_agent', 'userAgent', 'ua', 'agent', 'httpRequest.userAgent', 'user_agent.original', 'request.headers.User-Agent'],
  time: ['time_iso8601', 'time_local', 'time', 'timestamp', '@timestamp', 'ts', 'date'],
  method: ['request_method', 'method', 'httpRequest.requestMethod', 'request.method', 'http.request.method'],
  status: ['status', 'status_code', 'statusCode', 'httpRequest.status', 'http.response.status_code'],
  client: ['remote_addr', 'client_ip', 'client', 'ip', 'httpRequest.remoteIp', 'request.remote_ip', 'source.ip'],
  referer: ['http_referer', 'referer', 'referrer', 'httpRequest.referer'],
  forwardedFor: ['http_x_forwarded_for', 'x_forwarded_for', 'forwarded_for', 'xff', 'request.headers.X-Forwarded-For'],
  signature: ['http_signature', 'signature', 'request.headers.Signature'],
  signatureInput: ['http_signature_input', 'signature_input', 'request.headers.Signature-Input'],
  signatureAgent: ['http_signature_agent', 'signature_agent', 'request.headers.Signature-Agent'],
};

/** The names JSON fields may be given by (--log-field name=key). */
export const LOG_FIELD_NAMES = Object.keys(DEFAULT_JSON_FIELDS) as (keyof LogFieldNames)[];
