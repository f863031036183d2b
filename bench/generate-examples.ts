// Writes the demo data in examples/ from the seeded generator (npm run examples).
import { mkdirSync, writeFileSync } from 'node:fs';
import { shopRobots, shopUrls, seededRandom, hostRobots, hostPaths } from './data.js';

const robots = shopRobots();
writeFileSync('examples/shop-robots.txt', robots);
// the same file after an edit: /search allowed again, all PDFs and the blog's tag pages disallowed
writeFileSync('examples/shop-robots.new.txt', robots.replace('Disallow: /search\n', '').replace('Disallow: /*.pdf$\n', 'Disallow: /*.pdf\nDisallow: /tag/\n'));
// every finding `robotstxt lint` reports on one line each (the README's lint example)
writeFileSync('examples/bad-robots.txt', ['Disallow: /early', 'User-agent: *', 'Dissallow: /typo', 'Disallow: nope', 'Allow: /x', 'Disallow: /x', 'Crawl-delay: soon', 'Sitemap: /sitemap.xml'].join('\n') + '\n');
writeFileSync('examples/shop-urls.txt', [...shopUrls(24), 'https://shop.example/help/', 'https://shop.example/help/index.html', 'https://shop.example/help/returns', 'https://shop.example/robots.txt', '', 'not a url'].join('\n') + '\n');

const agents = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Googlebot-Image/1.0',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
  'Mozilla/5.0 (compatible; BadBot/1.0)',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
];
export {};
const random = seededRandom(5);
const paths = shopUrls(120, 7, '').concat(['/cart', '/search?q=shoes', '/media/red-shoe.jpg', '/docs/manual.pdf', '/tag/summer', '/robots.txt']);
const lines: string[] = [];
for (let i = 0; i < 200; i++) {
  const hour = String(8 + Math.floor(i / 40)).padStart(2, '0');
  const minute = String(i % 60).padStart(2, '0');
  const path = paths[Math.floor(random() * paths.length)];
  const agent = agents[Math.floor(random() * agents.length)];
  const client = `203.0.113.${1 + Math.floor(random() * 200)}`;
  lines.push(`${client} - - [21/Nov/2026:${hour}:${minute}:00 +0000] "GET ${path} HTTP/1.1" 200 ${1000 + i} "-" "${agent}"`);
  if (i === 77) lines.push('203.0.113.9 - - [21/Nov/2026:09:37:00 +0000] "GET /cart HTTP/1.1" 200 512 "-" "Mozilla/5.0 (compatible; Googlebot/2.1'); // cut off
}
writeFileSync('examples/access.log', lines.join('\n') + '\n');

// a robots directory of a few hosts (the README's --robots-dir examples), and URLs of theirs in random
// order, with a host that has no file and a line that names no host
mkdirSync('examples/robots', { recursive: true });
const hostNames = ['shop.example', 'blog.example', 'news.example', 'docs.example', 'forum.example'];
const hostUrls: string[] = [];
hostNames.forEach((host, i) => {
  const body = host === 'shop.example' ? robots : hostRobots(i + 3);
  writeFileSync(`examples/robots/${host}.txt`, body);
  for (const path of hostPaths(body, 6, 40 + i)) hostUrls.push(`https://${host}${path}`);
});
hostUrls.push('https://nofile.example/any/page', 'http://Blog.Example:80/admin/', '/relative/path');
for (let i = hostUrls.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [hostUrls[i], hostUrls[j]] = [hostUrls[j], hostUrls[i]];
}
writeFileSync('examples/hosts-urls.txt', hostUrls.join('\n') + '\n');
