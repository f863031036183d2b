// One fixed verdict suite, run by every runtime against the same package: Node (the test itself), headless
// Chromium (a page and a Web Worker, and pages built by esbuild and Vite), Bun and Deno. Plain JavaScript (no build step): each runtime imports it as is.
// `api` is the runtime-neutral entry (dist/src/core/index.js), already initialized.

const SHOP = `User-agent: *
Disallow: /cart
Disallow: /checkout/
Allow: /help/index.html
Disallow: /help/
Disallow: /*?sort=
Disallow: /*.pdf$
Allow: /blog/*/feed/rss$
Disallow: /*/feed/

User-agent: Googlebot-Image
Allow: /media/
Disallow: /
`;
const ODD = '\ufeffuser-agent: FooBot\ndisalow: /typo\nDisallow: /%7Euser/\nDisallow: /caf%C3%A9\nAllow: /$\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n';
/** @type {[string, string, string[]][]} */
const CASES = [
  [SHOP, 'Googlebot', ['https://shop.example/', 'https://shop.example/cart', 'https://shop.example/cart?x=1', 'https://shop.example/help/', 'https://shop.example/help/index.html', 'https://shop.example/a?sort=1', 'https://shop.example/doc.pdf', 'https://shop.example/doc.pdf?x', 'https://shop.example/blog/x/feed/rss', 'https://shop.example/blog/x/feed/']],
  [SHOP, 'Googlebot-Image', ['https://shop.example/media/a.jpg', 'https://shop.example/img/b.jpg']],
  [ODD, 'FooBot', ['http://a/', 'http://a/typo', 'http://a/~user/x', 'http://a/café', 'http://a/other']],
  [ODD, 'Other', ['http://a/private/1', 'http://a/ok']],
];

/**
 * Verdicts, deciding lines, lint codes and a diff: plain data, equal in every runtime.
 * @param {typeof import('../../src/core/index.js')} api the package's entry in the runtime under test
 */
export async function runVerdictSuite(api) {
  const results = [];
  for (const [body, agent, urls] of CASES) {
    for (const mode of /** @type {const} */ (['google', 'rfc'])) {
      const matcher = api.parseRobots(body, { mode }).matcher(agent);
      const lines = new TextEncoder().encode(urls.join('\n') + '\n');
      const bulk = Array.from(matcher.checkLines(lines));
      for (const [i, url] of urls.entries()) {
        const explanation = matcher.explain(url);
        results.push([mode, agent, url, matcher.isAllowed(url), explanation.rule === null ? null : explanation.rule.line, bulk[i]]);
      }
    }
  }
  results.push(['lint', api.lintRobots(new TextEncoder().encode(ODD)).findings.map((f) => `${f.line} ${f.code}`)]);
  const diff = new api.RobotsDiff(api.parseRobots(SHOP).matcher('Googlebot'), api.parseRobots(SHOP.replace('Disallow: /cart\n', '')).matcher('Googlebot'));
  diff.addLines(new TextEncoder().encode('/cart\n/cart\n/checkout/x\n'));
  const report = diff.report();
  results.push(['diff', report.checked, report.newlyAllowedRequests, report.newlyAllowed.map((c) => c.url)]);
  results.push(['crawlerName', api.crawlerName('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')]);
  let error = null;
  // @ts-expect-error a body of the wrong type, on purpose
  try { api.parseRobots([1, 2]); } catch (caught) { error = `${/** @type {Error} */ (caught).name} ${/** @type {{ code: string }} */ (caught).code}`; }
  results.push(['invalid body', error]);
  return results;
}
