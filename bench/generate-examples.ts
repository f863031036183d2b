// Writes the demo data in examples/ from the seeded generator (npm run examples).
import { writeFileSync } from 'node:fs';
import { shopRobots, shopUrls, seededRandom } from './data.js';

const robots = shopRobots();
writeFileSync('examples/shop-robots.txt', robots);
// the same file after an edit: /search allowed again, all PDFs and the blog's tag pages disallowed
writeFileSync('examples/shop-robots.new.txt', robots.replace('Disallow: /search\n', '').replace('Disallow: /*.pdf$\n', 'Disallow: /*.pdf\nDisallow: /tag/\n'));
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
