#!/usr/bin/env node
// Four small web sites on 127.0.0.1 for the README's fetch examples (no network needed):
//   127.0.0.1:48080  serves examples/shop-robots.txt (with an ETag: a second fetch gets 304)
//   127.0.0.1:48081  redirects /robots.txt to 127.0.0.1:48080 (301)
//   127.0.0.1:48082  has no robots.txt (404)
//   127.0.0.1:48083  is down (503)
// Run as a command, it starts them, runs its arguments as a shell command (robotstxt ... ), stops them and
// exits with the command's status. Imported, startLocalSites() starts them and returns a stop function.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const shopRobots = readFileSync(new URL('./shop-robots.txt', import.meta.url));
const ETAG = '"shop-1"';

const SITES = {
  48080: (request, response) => {
    if (request.url !== '/robots.txt') { response.writeHead(200, { 'content-type': 'text/html' }); response.end('<p>shop</p>'); return; }
    if (request.headers['if-none-match'] === ETAG) { response.writeHead(304, { etag: ETAG }); response.end(); return; }
    response.writeHead(200, { 'content-type': 'text/plain', etag: ETAG });
    response.end(shopRobots);
  },
  48081: (_request, response) => { response.writeHead(301, { location: 'http://127.0.0.1:48080/robots.txt' }); response.end(); },
  48082: (_request, response) => { response.writeHead(404); response.end('not found'); },
  48083: (_request, response) => { response.writeHead(503, { 'retry-after': '3600' }); response.end(); },
};

/** Starts the four sites; resolves to a function that stops them. */
export async function startLocalSites() {
  const servers = await Promise.all(Object.entries(SITES).map(([port, handler]) => new Promise((resolve, reject) => {
    const server = createServer(handler);
    server.once('error', (error) => reject(new Error(`cannot listen on 127.0.0.1:${port} (${error.code}): is another example still running?`)));
    server.listen(Number(port), '127.0.0.1', () => resolve(server));
  })));
  return () => Promise.all(servers.map((server) => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); })));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const command = process.argv.slice(2).join(' ');
  if (command === '') {
    process.stderr.write('usage: node examples/local-sites.mjs <shell command>\n');
    process.exit(2);
  }
  const stop = await startLocalSites();
  const child = spawn('sh', ['-c', command], { stdio: 'inherit' });
  child.on('close', async (status) => {
    await stop();
    process.exit(status ?? 1);
  });
}
