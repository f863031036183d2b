// Real HTTP servers for fetch tests: one node:http server per origin, on 127.0.0.1 only, each with its own
// port, started and stopped by the tests. No other network traffic.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export type OriginHandler = (request: IncomingMessage, response: ServerResponse, origins: LocalOrigins) => void;

/** Servers started together (so handlers can redirect to each other). */
export class LocalOrigins {
  private constructor(private readonly servers: Server[], readonly requests: { origin: number; url: string; headers: IncomingMessage['headers'] }[]) {}

  /** Starts one server per handler; handler i answers origin i. */
  static async start(handlers: OriginHandler[]): Promise<LocalOrigins> {
    const requests: LocalOrigins['requests'] = [];
    const servers: Server[] = [];
    const origins = new LocalOrigins(servers, requests);
    await Promise.all(handlers.map((handler, index) => new Promise<void>((resolve) => {
      const server = createServer((request, response) => {
        requests.push({ origin: index, url: request.url ?? '', headers: request.headers });
        handler(request, response, origins);
      });
      servers[index] = server;
      server.listen(0, '127.0.0.1', () => resolve());
    })));
    return origins;
  }

  port(index: number): number {
    return (this.servers[index].address() as AddressInfo).port;
  }
  /** `http://127.0.0.1:<port>` of origin index. */
  origin(index: number): string {
    return `http://127.0.0.1:${this.port(index)}`;
  }
  /** `127.0.0.1:<port>`: the host key of origin index (how a robots directory names files by host). */
  key(index: number): string {
    return `127.0.0.1:${this.port(index)}`;
  }
  /** `http@127.0.0.1@<port>`: the store's file key of origin index (src/core/url-model.ts). */
  fileKey(index: number): string {
    return `http@127.0.0.1@${this.port(index)}`;
  }
  requestsTo(index: number): number {
    return this.requests.filter((r) => r.origin === index).length;
  }

  /** Stops every server, cutting connections that are still open (servers that never answer). */
  async close(): Promise<void> {
    await Promise.all(this.servers.map((server) => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    })));
  }
}

/** A port nothing listens on (listened on, then closed): connections to it are refused. */
export async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Handlers for the usual cases. */
export const serve = {
  body: (body: string | Buffer, headers: Record<string, string> = {}): OriginHandler => (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain', ...headers });
    response.end(body);
  },
  status: (status: number, body = ''): OriginHandler => (_request, response) => {
    response.writeHead(status, { 'content-type': 'text/plain' });
    response.end(body);
  },
  redirect: (status: number, location: (origins: LocalOrigins) => string): OriginHandler => (_request, response, origins) => {
    response.writeHead(status, { location: location(origins) });
    response.end();
  },
  /** Accepts the request and never answers. */
  silent: (): OriginHandler => () => undefined,
  /** Answers 200 and sends a byte every intervalMs, forever. */
  trickle: (intervalMs: number): OriginHandler => (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.write('User-agent: *\n');
    const timer = setInterval(() => response.write('#'), intervalMs);
    response.on('close', () => clearInterval(timer));
  },
};

/**
 * The `start` of a test file whose tests start servers: each call starts a LocalOrigins, and every origin a
 * test started is closed after it. Called once, at a test file's top level.
 */
export function originsClosedAfterEach(): (handlers: OriginHandler[]) => Promise<LocalOrigins> {
  let running: LocalOrigins[] = [];
  afterEach(async () => {
    await Promise.all(running.map((origins) => origins.close()));
    running = [];
  });
  return async (handlers) => {
    const origins = await LocalOrigins.start(handlers);
    running.push(origins);
    return origins;
  };
}
