// A crawler's use of the library: one RobotsCache for the whole crawl; it fetches each origin's robots.txt
// once (24 hours fresh), follows the seeds' rules for redirects and errors, and answers URL batches.
// Runs against the local sites of examples/local-sites.mjs (no network needed).
import { RobotsCache } from 'robotstxt-wasm';
import { startLocalSites } from './local-sites.mjs';

const stop = await startLocalSites();
const robots = new RobotsCache({
  userAgent: 'ExampleBot/1.0 (+https://example.com/bot)', // the User-Agent header of robots.txt fetches
  concurrency: 64, // fetches at once
  perHostConcurrency: 2, // requests at once to one host
  timeoutMs: 5000, // a whole fetch, redirects and body included
  store: null, // or a directory: records and bodies kept across runs (robotstxt fetch writes the same)
});

const frontier = [
  'http://127.0.0.1:48080/products/garden-chair', // the shop: its rules
  'http://127.0.0.1:48080/cart',
  'http://127.0.0.1:48081/cart', // redirects its robots.txt to the shop: the shop's rules, for this origin
  'http://127.0.0.1:48082/cart', // 404: no robots.txt, allow all
  'http://127.0.0.1:48083/cart', // 503: unreachable, disallow all (a kept copy would be used)
];
const verdicts = await robots.checkUrls(frontier, 'Googlebot'); // one byte per URL: 1 allowed, 2 disallowed
frontier.forEach((url, i) => console.log(`${verdicts[i] === 1 ? 'crawl' : 'skip '} ${url}`));

const entry = await robots.entry('http://127.0.0.1:48081/'); // what is known of one origin
console.log(entry.effect, entry.record.outcome, entry.record.status, entry.record.hops, entry.record.finalUrl);
console.log(await robots.isAllowed('http://127.0.0.1:48080/search?q=chair', 'Googlebot'));
console.log(robots.stats.fetches);
await robots.close();
await stop();
