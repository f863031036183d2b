// Seeded generator of benchmark data: realistic shop/blog robots.txt files (about 50 rules, and about
// 10,000 rules in the matching group) and URL lists. Same seed, same bytes, on every machine.

/** mulberry32: a tiny seeded PRNG, good enough for test data. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Sections real traffic mostly hits (URLs pick these 85% of the time). */
const CONTENT_SECTIONS = ['products', 'category', 'blog', 'collections', 'brands', 'news', 'tag', 'author', 'media'];
const SECTIONS = ['products', 'category', 'blog', 'collections', 'brands', 'search', 'account', 'cart', 'checkout', 'help', 'news', 'tag', 'author', 'media', 'static', 'api', 'wp-admin', 'wp-content', 'archive', 'compare'];
const WORDS = ['red', 'blue', 'shoe', 'shirt', 'summer', 'sale', 'men', 'women', 'kids', 'garden', 'kitchen', 'lamp', 'chair', 'table', 'phone', 'case', 'cable', 'book', 'guide', 'review', 'best', 'new', 'classic', 'organic', 'coffee', 'tea', 'winter', 'running', 'travel', 'bag'];
const PARAMS = ['sort', 'color', 'size', 'page', 'utm_source', 'utm_medium', 'ref', 'sessionid', 'q', 'filter', 'price', 'view'];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)];
}

function slug(random: () => number): string {
  const words = 1 + Math.floor(random() * 4);
  const parts: string[] = [];
  for (let i = 0; i < words; i++) parts.push(pick(random, WORDS));
  return parts.join('-') + (random() < 0.5 ? `-${Math.floor(random() * 100000)}` : '');
}

/** About 50 rules in the `*` group (literal prefixes, wildcards, `$` rules, an index.html allow), plus other groups. */
export function shopRobots(seed = 1): string {
  const random = seededRandom(seed);
  const lines = ['# Example shop robots.txt (generated)', 'User-agent: *'];
  const literal = ['/cart', '/checkout/', '/account/', '/search', '/api/', '/wp-admin/', '/compare/', '/static/tmp/', '/help/internal/', '/news/drafts/'];
  for (const prefix of literal) lines.push(`Disallow: ${prefix}`);
  lines.push('Allow: /wp-admin/admin-ajax.php', 'Allow: /api/public/', 'Allow: /help/index.html', 'Disallow: /help/');
  for (const param of PARAMS) lines.push(`Disallow: /*?${param}=`, `Disallow: /*&${param}=`);
  lines.push('Disallow: /*.pdf$', 'Disallow: /*.json$', 'Disallow: /*/print/', 'Disallow: /*/feed/', 'Allow: /blog/*/feed/rss$');
  while (lines.length < 54) lines.push(`Disallow: /${pick(random, SECTIONS)}/${slug(random)}`);
  lines.push('', 'User-agent: BadBot', 'Disallow: /', '', 'User-agent: Googlebot-Image', 'Allow: /media/', 'Disallow: /', '', 'Sitemap: https://shop.example/sitemap.xml');
  return lines.join('\n') + '\n';
}

/** About `ruleCount` rules in the `*` group: mostly literal product and category paths, some wildcards. */
export function largeRobots(ruleCount = 10000, seed = 2): string {
  const random = seededRandom(seed);
  const lines = ['User-agent: *'];
  for (let i = 0; i < ruleCount; i++) {
    const roll = random();
    const section = pick(random, SECTIONS);
    if (roll < 0.8) lines.push(`Disallow: /${section}/${slug(random)}`);
    else if (roll < 0.9) lines.push(`Allow: /${section}/${slug(random)}/`);
    else if (roll < 0.97) lines.push(`Disallow: /${section}/*${pick(random, WORDS)}-${Math.floor(random() * 1000)}`);
    else lines.push(`Disallow: /*?${pick(random, PARAMS)}=${pick(random, WORDS)}${Math.floor(random() * 100)}`);
  }
  return lines.join('\n') + '\n';
}

/** `count` realistic absolute URLs on one host. */
export function shopUrls(count: number, seed = 3, host = 'https://shop.example'): string[] {
  const random = seededRandom(seed);
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    let path = `/${pick(random, random() < 0.85 ? CONTENT_SECTIONS : SECTIONS)}/${slug(random)}`;
    if (random() < 0.3) path += `/${slug(random)}`;
    if (random() < 0.1) path += pick(random, ['.pdf', '.json', '.html', '/', '/print/', '/feed/']);
    if (random() < 0.35) {
      const params = 1 + Math.floor(random() * 3);
      const query: string[] = [];
      for (let k = 0; k < params; k++) query.push(`${pick(random, PARAMS)}=${pick(random, WORDS)}`);
      path += '?' + query.join('&');
    }
    urls.push(host + path);
  }
  return urls;
}

/**
 * `count` URLs on `host` made from a real file's rule values (wildcards dropped), the way a crawler of that site
 * meets them: a rule's path itself, a truncation of it, or a page under it.
 */
export function urlsFromRuleValues(values: readonly string[], count: number, seed = 5, host = 'https://example.com'): string[] {
  const random = seededRandom(seed);
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    let path = values[Math.floor(random() * values.length)].replace(/[*$]/g, '');
    const roll = random();
    if (roll < 0.3) path = path.slice(0, 1 + Math.floor(random() * path.length));
    else if (roll < 0.7) path += `${path.endsWith('/') ? '' : '/'}page-${Math.floor(random() * 1000)}.html`;
    urls.push(host + (path.startsWith('/') ? path : `/${path}`));
  }
  return urls;
}

/**
 * The robots.txt of generated host number `index`: the mix a crawl meets (seeded, same bytes everywhere) —
 * CMS defaults of a few lines, small sites with a handful of rules and a sitemap, shops with about 50 rules
 * (shopRobots), and now and then a block-all or an empty file. 100 bytes to about 2 KB.
 */
export function hostRobots(index: number): string {
  const random = seededRandom(1000 + index);
  const roll = random();
  if (roll < 0.25) return `User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\nSitemap: https://site${index}.example/wp-sitemap.xml\n`;
  if (roll < 0.6) {
    const lines = ['User-agent: *'];
    const rules = 2 + Math.floor(random() * 10);
    for (let k = 0; k < rules; k++) lines.push(`${random() < 0.8 ? 'Disallow' : 'Allow'}: /${pick(random, SECTIONS)}/${random() < 0.3 ? '*' : ''}${pick(random, WORDS)}`);
    if (random() < 0.4) lines.push('', `User-agent: ${pick(random, ['Googlebot', 'Bingbot', 'AhrefsBot', 'GPTBot'])}`, `Disallow: /${pick(random, SECTIONS)}/`);
    lines.push('', `Sitemap: https://site${index}.example/sitemap.xml`);
    return lines.join('\n') + '\n';
  }
  if (roll < 0.9) return shopRobots(index);
  if (roll < 0.95) return 'User-agent: *\nDisallow: /\n';
  return '';
}

/** Paths a crawler asks of a host with this robots.txt: some under its rules (wildcards filled in), the rest ordinary pages. */
export function hostPaths(body: string, count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const values = body.split(/\r\n|\r|\n/).map((line) => /^\s*(?:dis)?allow\s*:\s*(\S+)/i.exec(line)?.[1]).filter((value): value is string => value !== undefined && value.startsWith('/'));
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    if (values.length > 0 && random() < 0.6) {
      const value = values[Math.floor(random() * values.length)].replace(/\*/g, pick(random, WORDS)).replace(/\$$/, '');
      paths.push(random() < 0.5 ? value : `${value}${value.endsWith('/') ? '' : '/'}${slug(random)}`);
    } else {
      paths.push(`/${pick(random, CONTENT_SECTIONS)}/${slug(random)}${random() < 0.3 ? `?${pick(random, PARAMS)}=${pick(random, WORDS)}` : ''}`);
    }
  }
  return paths;
}

/** Crawlers of the audit benchmark's log: User-Agent, and the share of its requests from its vendor's ranges (examples/crawler-ranges). */
const LOG_AGENTS: readonly { agent: string; inRange: () => string; share: number }[] = [
  { agent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', inRange: () => '66.249.66.1', share: 0.25 },
  { agent: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', inRange: () => '157.55.39.7', share: 0.1 },
  { agent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', inRange: () => '20.171.206.3', share: 0.05 },
  { agent: 'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)', inRange: () => '', share: 0.1 },
  { agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36', inRange: () => '', share: 0.5 },
];

/**
 * An Apache combined log of `count` requests to shop URLs (bench/data.ts shopUrls): half browsers, half
 * crawlers; a crawler's request comes from its vendor's ranges (examples/crawler-ranges) two times in three,
 * else from one of 50,000 other addresses (an impostor). Seeded; for the audit benchmark.
 */
export function accessLogLines(count: number, seed = 5): string[] {
  const random = seededRandom(seed);
  const urls = shopUrls(Math.min(count, 100_000), seed + 1, '');
  const lines: string[] = [];
  const statuses = [200, 200, 200, 200, 301, 404, 403, 503];
  for (let i = 0; i < count; i++) {
    let roll = random();
    let who = LOG_AGENTS[LOG_AGENTS.length - 1];
    for (const candidate of LOG_AGENTS) {
      if (roll < candidate.share) { who = candidate; break; }
      roll -= candidate.share;
    }
    const other = Math.floor(random() * 50_000);
    const address = who.inRange() !== '' && random() < 2 / 3 ? who.inRange() : `198.${18 + (other >> 16)}.${(other >> 8) & 255}.${other & 255}`;
    const seconds = i % 60;
    const minute = Math.floor(i / 60) % 60;
    const hour = Math.floor(i / 3600) % 24;
    const time = `21/Nov/2026:${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:${String(seconds).padStart(2, '0')} +0000`;
    lines.push(`${address} - - [${time}] "GET ${urls[i % urls.length]} HTTP/1.1" ${pick(random, statuses)} ${1000 + (i % 5000)} "-" "${who.agent}"`);
  }
  return lines;
}
