// Fetching you can restrict (src/node/fetch/robots-fetch.ts, targets): redirects from a public address to a
// loopback, private or link-local one are refused by default; `public` refuses such addresses outright and
// redirects to another port; `any` lifts the check. Public-looking hosts are answered by undici's MockAgent
// (no request leaves the process) with an injected resolver; loopback servers listen on 127.0.0.1 only.
import { describe, it, expect, afterEach } from 'vitest';
import { MockAgent } from 'undici';
import { fetchRobots, RobotsError } from '../src/node/index.js';
import { RobotsCache } from '../src/node/fetch/index.js';
import { robotstxt, robotstxtAsync } from './cli-helpers.js';
import { LocalOrigins, serve } from './http-origins.js';

const ADDRESSES: Record<string, string> = {
  'public.example': '93.184.216.34',
  'other-public.example': '93.184.216.35',
  'internal.example': '10.0.0.5',
  'metadata.example': '169.254.169.254',
  'v6-internal.example': 'fd00::1',
};
const resolveHost = async (hostname: string): Promise<string[]> => (ADDRESSES[hostname] === undefined ? [] : [ADDRESSES[hostname]]);

/** A MockAgent where public.example redirects to `location` and every other mocked host serves a body. */
function redirecting(location: string): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent.get('http://public.example').intercept({ path: '/robots.txt', method: 'GET' }).reply(301, '', { headers: { location } }).persist();
  for (const origin of ['http://internal.example', 'http://metadata.example', 'http://other-public.example', 'http://other-public.example:8080', 'http://[fd00::1]', 'http://v6-internal.example']) {
    agent.get(origin).intercept({ path: '/robots.txt', method: 'GET' }).reply(200, 'User-agent: *\nDisallow: /secret-from-target\n').persist();
  }
  return agent;
}

let running: LocalOrigins | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

describe('fetch targets', () => {
  it('default: a redirect from a public address to a private, link-local or unique-local one is refused; the origin is unreachable and keeps nothing of the target', async () => {
    for (const [location, where] of [['http://internal.example/robots.txt', 'internal.example resolves to 10.0.0.5, a private address'], ['http://metadata.example/robots.txt', 'metadata.example resolves to 169.254.169.254, a link-local address'], ['http://v6-internal.example/robots.txt', 'v6-internal.example resolves to fd00::1, a unique-local address'], ['http://[fd00::1]/robots.txt', 'fd00::1 is a unique-local address']] as const) {
      const result = await fetchRobots('http://public.example/', { dispatcher: redirecting(location), resolveHost });
      expect(result.outcome, location).toBe('unreachable');
      expect(result.effect).toBe('disallow-all');
      expect(result.error).toBe(`redirect from a public address to an internal one refused (${where}; targets 'any' allows it)`);
      expect(result.finalUrl).toBe('http://public.example/robots.txt');
      expect(result.body.length).toBe(0);
    }
    // public to public is followed
    const ok = await fetchRobots('http://public.example/', { dispatcher: redirecting('http://other-public.example/robots.txt'), resolveHost });
    expect([ok.outcome, ok.finalUrl]).toEqual(['ok', 'http://other-public.example/robots.txt']);
  });

  it('any: the redirect is followed; public: internal targets and other ports are refused', async () => {
    const any = await fetchRobots('http://public.example/', { dispatcher: redirecting('http://internal.example/robots.txt'), resolveHost, targets: 'any' });
    expect([any.outcome, any.finalUrl]).toEqual(['ok', 'http://internal.example/robots.txt']);
    const port = await fetchRobots('http://public.example/', { dispatcher: redirecting('http://other-public.example:8080/robots.txt'), resolveHost, targets: 'public' });
    expect([port.outcome, port.error]).toEqual(['unreachable', "redirect to another port refused (http://other-public.example:8080; targets 'public' allows the same port only)"]);
    const samePort = await fetchRobots('http://public.example/', { dispatcher: redirecting('http://other-public.example/robots.txt'), resolveHost, targets: 'public' });
    expect(samePort.outcome).toBe('ok');
    await expect(fetchRobots('http://public.example/', { targets: 'none' as 'any' })).rejects.toThrow(/targets must be default, public or any/);
  });

  it('credentials in a Location are never followed, printed or stored', async () => {
    const result = await fetchRobots('http://public.example/', { dispatcher: redirecting('http://user:s3cret@other-public.example/robots.txt'), resolveHost });
    expect(result.outcome).toBe('ok');
    expect(result.finalUrl).toBe('http://other-public.example/robots.txt');
    expect(JSON.stringify(result)).not.toContain('s3cret'); // the store's record is made from these facts (recordAfterFetch)
  });

  it('public refuses a loopback server named directly (no request is made); default fetches it as named', async () => {
    running = await LocalOrigins.start([serve.body('User-agent: *\nDisallow: /x\n')]);
    const strict = await fetchRobots(running.origin(0), { targets: 'public' });
    expect([strict.outcome, strict.error]).toEqual(['unreachable', "fetch to an internal address refused (127.0.0.1 is a loopback address; targets 'public')"]);
    expect(running.requestsTo(0)).toBe(0);
    const named = await fetchRobots(running.origin(0));
    expect(named.outcome).toBe('ok');
    const cli = await robotstxtAsync(['fetch', '--targets', 'public', running.origin(0)]);
    expect(cli.stdout).toBe(`disallow-all\t${running.origin(0)}\trefused\tunreachable - (fetch to an internal address refused (127.0.0.1 is a loopback address; --targets public))\n`);
  });

  it('options: a User-Agent undici cannot send and an unknown --targets are usage errors at start; misspelt options are refused', async () => {
    expect(robotstxt(['fetch', '--user-agent', 'bot\x01x', 'a.example'])).toMatchObject({ status: 2, stderr: 'robotstxt: --user-agent must be 1 to 1024 characters: tab, printable ASCII and Latin-1 only (no line breaks or control characters)\n' });
    expect(robotstxt(['fetch', '--targets', 'all', 'a.example'])).toMatchObject({ status: 2, stderr: "robotstxt: --targets must be default, public or any, got 'all'\n" });
    await expect(fetchRobots('a.example', { userAgent: 'bot\u2028' })).rejects.toThrow(RobotsError);
    await expect(fetchRobots('a.example', { timeout: 5 } as never)).rejects.toThrow('unknown option "timeout" in fetchRobots options');
    expect(() => new RobotsCache({ maxAge: 5 } as never)).toThrow('unknown option "maxAge" in RobotsCache options');
  });
});
