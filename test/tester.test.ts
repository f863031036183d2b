// The robots.txt Tester page (tester/), driven through headless Chromium (puppeteer-core) as a user would:
// `robotstxt tester --port 0` serves it on 127.0.0.1; the test types a robots.txt and URLs and checks the
// verdicts, the deciding lines, the highlighted line, the lint markers, the mode, the comparison with a kept
// version, the download, 100,000 URLs against a 500 KiB file, a non-blank screenshot, and that nothing but
// the page's own origin is requested. `tester --build` writes the same files.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { CLI, robotstxt, tempDir } from './cli-helpers.js';
import { CHROMIUM, canRun, launchChromium } from './browser.js';


const ROBOTS = ['User-agent: *', 'Disallow: /private/', 'Allow: /private/open', 'Disalow: /typo', 'Allow: nope', '', 'User-agent: Googlebot-Image', 'Disallow: /'].join('\n');
const URLS = ['https://e.com/', 'https://e.com/private/x', 'https://e.com/private/open/1', 'https://e.com/typo'].join('\n');

describe('robotstxt tester --build', () => {
  it('writes the page, the core entry\'s modules and the .wasm, and nothing else', () => {
    const dir = tempDir();
    const r = robotstxt(['tester', '--build', dir]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^robotstxt tester: 34 files written to /);
    expect(readdirSync(dir).sort()).toEqual(['build', 'dist', 'index.html', 'match-worker.js', 'tester.css', 'tester.js']);
    expect(statSync(join(dir, 'build', 'robotstxt.wasm')).size).toBeGreaterThan(10_000);
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toContain("default-src 'self'");
  });
  it('bad options: exit 2', () => {
    expect(robotstxt(['tester', '--port', '70000']).stderr).toBe("robotstxt: --port must be a whole number from 0 to 65535, got '70000'\n");
    expect(robotstxt(['tester', '--build', 'x', '--port', '1']).stderr).toBe('robotstxt: --port and --build cannot be given together\n');
  });
});

describe.skipIf(!canRun(CHROMIUM !== null, 'the Tester page suite', 'apt-get install chromium (.ci/run installs it)'))('the Tester page in headless Chromium', () => {
  let server: ChildProcess;
  let origin = '';
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];
  const downloads = tempDir();

  beforeAll(async () => {
    server = spawn(process.execPath, [CLI, 'tester', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    origin = await new Promise<string>((resolve, reject) => {
      let text = '';
      server.stdout?.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const match = /^robotstxt tester: (http:\/\/127\.0\.0\.1:\d+)\/ \(Ctrl-C to stop\)\n/.exec(text);
        if (match !== null) resolve(match[1]);
      });
      server.on('exit', (code) => reject(new Error(`tester exited ${code}`)));
    });
    browser = await launchChromium();
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    page.on('request', (request) => requested.push(request.url()));
    const session = await page.createCDPSession();
    await session.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => document.querySelector('#summary')?.textContent?.includes('URL(s)') === true, { timeout: 30_000 });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    server?.kill('SIGTERM');
  });

  /** Replaces a text area's text by typing it, as a user would. */
  const typeInto = async (selector: string, text: string): Promise<void> => {
    await page.click(selector);
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyA');
    await page.keyboard.up('Control');
    await page.keyboard.press('Backspace');
    await page.type(selector, text);
  };
  /** Waits for the newest answer: the summary names this many URLs and the agent. */
  const answered = async (count: number, agent: string): Promise<void> => {
    await page.waitForFunction((n: number, a: string) => new RegExp(`^${n} URL\\(s\\):.* for ${a} `).test(document.querySelector('#summary')?.textContent ?? ''), { timeout: 30_000 }, count, agent);
  };
  const rows = (): Promise<string[][]> => page.$$eval('#results tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));

  it('a built page opened as a file (file://, where no module script runs) says to serve its folder; served, the note is gone', async () => {
    const dir = tempDir();
    expect(robotstxt(['tester', '--build', dir]).status).toBe(0);
    const asFile = await browser.newPage();
    try {
      await asFile.goto(`file://${join(dir, 'index.html')}`);
      const note = await asFile.$eval('#serve-note', (element) => ({ text: element.textContent, shown: !(element as HTMLElement).hidden && (element as HTMLElement).offsetHeight > 0 }));
      expect(note).toEqual({ text: 'This page works once a web server serves it: run robotstxt tester, or serve this folder with any static web server and open its address. Opened as a file, browsers do not run its scripts, and nothing on it would answer.', shown: true });
    } finally {
      await asFile.close();
    }
    expect(await page.$eval('#serve-note', (element) => (element as HTMLElement).hidden)).toBe(true);
  });
  it('typed robots.txt and URLs: each verdict, its deciding line and rule', async () => {
    await typeInto('#robots', ROBOTS);
    await typeInto('#urls', URLS);
    await answered(4, 'Googlebot');
    expect(await rows()).toEqual([
      ['1', 'allowed', '', 'no rule', 'https://e.com/'],
      ['2', 'disallowed', '2', 'Disallow: /private/', 'https://e.com/private/x'],
      ['3', 'allowed', '3', 'Allow: /private/open', 'https://e.com/private/open/1'],
      ['4', 'disallowed', '4', 'Disalow: /typo', 'https://e.com/typo'], // GoogleOnly: a misspelt key is accepted
    ]);
  });

  it('selecting a row highlights its deciding line in the editor', async () => {
    await page.click('#results tbody tr:nth-child(3)');
    expect(await page.$eval('#highlight', (element) => [(element as HTMLElement).hidden, (element as HTMLElement).dataset.line])).toEqual([false, '3']);
    expect(await page.$eval('#results tbody tr:nth-child(3)', (tr) => tr.classList.contains('selected'))).toBe(true);
  });

  it('lint findings are marked at their lines in the gutter and listed', async () => {
    const markers = await page.$$eval('#gutter .marker', (spans) => spans.map((span) => `${span.textContent} ${span.className}`));
    expect(markers).toEqual(['4 marker warning', '5 marker error']);
    const findings = await page.$$eval('#findings li', (items) => items.map((item) => item.textContent ?? ''));
    expect(findings.some((text) => text.startsWith('line 5 error:') && text.includes('pattern-never-matches'))).toBe(true);
  });

  it('rfc mode drops the misspelt key; another crawler gets its own group', async () => {
    await page.select('#mode', 'rfc');
    await page.waitForFunction(() => document.querySelector('#summary')?.textContent?.includes('in rfc mode') === true);
    expect((await rows())[3].slice(1, 3)).toEqual(['allowed', '']);
    await page.select('#mode', 'google');
    await typeInto('#agent', 'Googlebot-Image');
    await answered(4, 'Googlebot-Image');
    expect((await rows()).map((row) => row[1])).toEqual(['disallowed', 'disallowed', 'disallowed', 'disallowed']);
    // a whole User-Agent header gets only the * group: the page says so and names the token to give
    await typeInto('#agent', 'Googlebot/2.1');
    await answered(4, 'Googlebot/2.1');
    expect(await page.$eval('#summary', (element) => element.textContent)).toContain("warning: agent 'Googlebot/2.1' is not a product token: it matches no user-agent line, only the * group can apply (the token is 'Googlebot')");
    await typeInto('#agent', 'Googlebot');
    await answered(4, 'Googlebot');
    expect(await page.$eval('#summary', (element) => element.textContent)).not.toContain('warning');
  });

  it('compare with a kept previous version: the URLs whose verdict changes', async () => {
    await page.click('#snapshot');
    await typeInto('#robots', ROBOTS.replace('Disallow: /private/\n', ''));
    await page.waitForFunction(() => document.querySelector('#compare-summary')?.textContent?.startsWith('1 URL(s) change verdict') === true, { timeout: 30_000 });
    expect(await page.$eval('#compare', (element) => (element as HTMLElement).hidden)).toBe(false);
    expect(await page.$$eval('#changes tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)))).toEqual([['1', 'newly allowed', '2: Disallow: /private/', '', 'https://e.com/private/x']]);
  });

  it('the rule column shows the lines the verdicts were computed from, not text the editor holds since', async () => {
    const edited = await page.$eval('#robots', (element) => (element as HTMLTextAreaElement).value);
    // new editor text without an input event (no new answer yet), then a re-render of the same answer
    await page.$eval('#robots', (element) => { (element as HTMLTextAreaElement).value = 'one\ntwo\nthree\n'; });
    await page.select('#filter', 'disallowed');
    expect(await rows()).toEqual([['4', 'disallowed', '3', 'Disalow: /typo', 'https://e.com/typo']]);
    await page.$eval('#robots', (element, text) => { (element as HTMLTextAreaElement).value = text; }, edited);
    await page.select('#filter', 'all');
    expect((await rows()).length).toBe(4);
  });

  it('downloads the edited file', async () => {
    await page.click('#download');
    const file = join(downloads, 'robots.txt');
    const expected = ROBOTS.replace('Disallow: /private/\n', '');
    // Chromium may make the file before it has written it: wait (up to 10 s) for the whole content
    const written = (): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');
    for (let i = 0; i < 100 && written().length < expected.length; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(written()).toBe(expected);
  });

  it('the group-merged marker: a Content-Signal line between two user-agent lines merges them, and * is disallowed everything', async () => {
    await typeInto('#agent', 'Googlebot');
    await typeInto('#urls', 'https://e.com/page');
    await typeInto('#robots', 'User-agent: *\nContent-Signal: search=yes, ai-train=no\n\nUser-agent: badbot\nDisallow: /\n');
    await page.waitForFunction(() => (document.querySelector('#results tbody tr td:nth-child(3)')?.textContent ?? '') === '5', { timeout: 30_000 });
    expect(await rows()).toEqual([['1', 'disallowed', '5', 'Disallow: /', 'https://e.com/page']]);
    expect(await page.$$eval('#gutter .marker', (spans) => spans.map((span) => `${span.textContent} ${span.className}`))).toEqual(['4 marker error']);
    const findings = await page.$$eval('#findings li', (items) => items.map((item) => item.textContent ?? ''));
    expect(findings).toEqual(['line 4 error: user-agent "badbot" does not start a new group: only an Allow or Disallow line ends one, and line 2 (content-signal) is neither, so the group of "*" goes on and its rules apply to every agent of it: this changes what * may fetch. End the group before this line with its own rules (an empty "Disallow:" allows everything) group-merged']);
    await typeInto('#robots', ROBOTS); // as the tests after this one expect it
    await page.waitForFunction(() => (document.querySelector('#gutter .marker.error')?.textContent ?? '') === '5', { timeout: 30_000 });
  });

  it('the usage panel: a selected URL\'s Content-Usage categories, Content-Signal values and policy tokens, with their lines', { tags: ['slow'] }, async () => {
    await typeInto('#urls', 'https://shop.example/blog/summer-sale\nhttps://shop.example/cart');
    await typeInto('#robots', readFileSync(new URL('../examples/ai-robots.txt', import.meta.url), 'utf8'));
    await typeInto('#agent', 'GPTBot');
    await answered(2, 'GPTBot');
    await page.click('#results tbody tr:nth-child(1)');
    await page.waitForFunction(() => !(document.querySelector('#usage-panel') as HTMLElement).hidden, { timeout: 30_000 });
    expect(await page.$eval('#usage-url', (element) => element.textContent)).toBe('https://shop.example/blog/summer-sale');
    expect(await page.$$eval('#usage tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')))).toEqual([
      ['crawl', 'allowed', 'no rule'],
      ['usage train-ai', 'allowed', 'line 5: Content-Usage: /blog/ train-ai=y, search=y'],
      ['usage search', 'allowed', 'line 5: Content-Usage: /blog/ train-ai=y, search=y'],
      ['content-signal search', 'yes', 'line 1: Content-Signal: search=yes, ai-train=no'],
      ['content-signal ai-train', 'no', 'line 1: Content-Signal: search=yes, ai-train=no'],
      ['token Google-Extended (its own group)', 'disallowed', 'line 12: Disallow: /'],
      ['token Applebot-Extended (the * group)', 'allowed', 'no rule'],
    ]);
    await page.click('#results tbody tr:nth-child(2)');
    await page.waitForFunction(() => document.querySelector('#usage-url')?.textContent === 'https://shop.example/cart', { timeout: 30_000 });
    expect(await page.$$eval('#usage tbody tr', (trs) => trs.slice(0, 3).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')))).toEqual([
      ['crawl', 'disallowed', 'line 8: Disallow: /cart'],
      ['usage train-ai', 'unknown', 'not fetched: no preference'],
      ['usage search', 'unknown', 'not fetched: no preference'],
    ]);
    await typeInto('#agent', 'Googlebot');
    await typeInto('#robots', ROBOTS); // as the tests after this one expect it
    await answered(2, 'Googlebot');
    expect(await page.$eval('#usage-panel', (element) => (element as HTMLElement).hidden)).toBe(true);
  });

  it('the usage panel escapes what the file says: a Content-Signal value with markup in it stays text in its own cell', { tags: ['slow'] }, async () => {
    await typeInto('#urls', 'https://shop.example/a');
    await typeInto('#robots', 'User-agent: *\nContent-Signal: x=a"><td>forged</td><td class="\nAllow: /\n');
    await typeInto('#agent', 'GPTBot');
    await answered(1, 'GPTBot');
    await page.click('#results tbody tr:nth-child(1)');
    await page.waitForFunction(() => !(document.querySelector('#usage-panel') as HTMLElement).hidden, { timeout: 30_000 });
    const rows = await page.$$eval('#usage tbody tr', (trs) => trs.map((tr) => [tr.className, ...[...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')]));
    expect(rows.find((row) => row[1] === 'content-signal x')).toEqual(['a"><td>forged</td><td class="', 'content-signal x', 'a"><td>forged</td><td class="', 'line 2: Content-Signal: x=a"><td>forged</td><td class="']);
    expect(rows.every((row) => row.length === 4)).toBe(true);
    // as the tests after this one expect the page
    await typeInto('#urls', 'https://shop.example/blog/summer-sale\nhttps://shop.example/cart');
    await typeInto('#agent', 'Googlebot');
    await typeInto('#robots', ROBOTS);
    await answered(2, 'Googlebot');
  });

  it('the page panel: pasted headers and HTML judged with the robots.txt of the editor (crawl, seen, each rule and its statement, the traps), all of it as text', async () => {
    /** Sets a field as a paste does (one input event), then waits for the panel's answer for that URL. */
    const paste = async (selector: string, text: string): Promise<void> => {
      await page.$eval(selector, (element, value) => {
        (element as HTMLInputElement).value = value;
        element.dispatchEvent(new Event('input', { bubbles: true }));
      }, text);
    };
    const panel = async (note: string): Promise<string[][]> => {
      await page.waitForFunction((expected: string) => document.querySelector('#page-note')?.textContent === expected, { timeout: 30_000 }, note);
      return page.$$eval('#page-answer tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    };
    await paste('#page-html', '');
    await paste('#page-headers', 'X-Robots-Tag: noindex');
    await paste('#page-url', 'https://e.com/private/x');
    expect(await panel("https://e.com/private/x for Googlebot: robots.txt disallows crawling, so the page's own rules are never seen: the URL may still be indexed from links, without its content (its noindex is not seen: allow crawling for it to be obeyed)")).toEqual([
      ['crawl', 'disallowed', 'line 2: Disallow: /private/'],
      ['seen', 'no', "robots.txt disallows crawling: the page's rules are never read"],
      ['trap', 'noindex-unseen', 'X-Robots-Tag: noindex'],
    ]);
    await paste('#page-headers', 'X-Robots-Tag: max-snippet:50\nnot a header line');
    await paste('#page-html', '<!DOCTYPE html><html><head><title>t</title><meta name="robots" content="noindex"></head><body><p>x</p><meta name="robots" content="nofollow"></body></html>');
    await paste('#page-url', 'https://e.com/a');
    expect(await panel('https://e.com/a for Googlebot: crawling is allowed and the page tells this crawler not to index it')).toEqual([
      ['crawl', 'allowed', 'no rule'],
      ['seen', 'yes', ''],
      ['index', 'no', '<meta name="robots" content="noindex">'],
      ['follow', 'yes', 'nothing says'],
      ['snippet', 'yes, at most 50 characters', 'X-Robots-Tag: max-snippet:50'],
      ['image index', 'yes', 'nothing says'],
      ['trap', 'meta-outside-head', '<meta name="robots" content="nofollow">'],
      ['not a header', 'not a header line', 'not Name: value'],
    ]);
    await paste('#page-html', '');
    await paste('#page-headers', 'X-Robots-Tag: <img src=x onerror=alert(1)>');
    await paste('#page-url', 'https://e.com/b');
    expect((await panel('https://e.com/b for Googlebot: crawling is allowed and the page lets this crawler index it')).at(-1)).toEqual(['not read', '<img src=x onerror=alert(1)>', 'X-Robots-Tag: <img src=x onerror=alert(1)>']);
    expect(await page.$$eval('#page-answer img', (images) => images.length)).toBe(0);
    // the page's HTTP status, weighed by the one rule (pageResponseOf): a 404 is not indexed, whatever its rules say
    await paste('#page-headers', '');
    await paste('#page-status', '404');
    await paste('#page-url', 'https://e.com/gone');
    expect(await panel('https://e.com/gone for Googlebot: crawling is allowed; the page answered with a client error (4xx): the URL is not indexed, and dropped from the index if it was')).toEqual([
      ['crawl', 'allowed', 'no rule'],
      ['seen', 'yes', ''],
      ['status', '404 (client-error)', "not indexed, whatever the page's rules say"],
      ['index', 'yes', 'nothing says'],
      ['follow', 'yes', 'nothing says'],
      ['snippet', 'yes', 'nothing says'],
      ['image index', 'yes', 'nothing says'],
    ]);
    await paste('#page-status', '');
  });

  it('a URL list opened from a file replaces the URLs and is checked', async () => {
    const file = join(downloads, 'urls.txt');
    writeFileSync(file, 'https://e.com/a\nhttps://e.com/typo\nhttps://e.com/b\n');
    const input = await page.$('#urls-file');
    await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(file);
    await answered(3, 'Googlebot');
    expect((await rows()).map((row) => [row[1], row[4]])).toEqual([['allowed', 'https://e.com/a'], ['disallowed', 'https://e.com/typo'], ['allowed', 'https://e.com/b']]);
  });

  it('100,000 URLs opened from a file against a 500 KiB robots.txt (16,348 rules): the counts Node gives, answered in the worker, the list kept off the text box, the first 2,000 rows shown', { tags: ['slow'], timeout: 90_000 }, async () => {
    await page.click('#forget');
    const file = join(downloads, 'urls-100k.txt');
    writeFileSync(file, Array.from({ length: 100_000 }, (_, i) => `https://e.com/section-${i % 20_000}/doc${i % 2 === 0 ? '.pdf' : '.html'}`).join('\n') + '\n');
    await page.evaluate(() => {
      const rules: string[] = ['User-agent: *'];
      for (let i = 0, size = 13; size < 500 * 1024; i++) { const rule = `Disallow: /section-${i}/*.pdf$`; rules.push(rule); size += rule.length + 1; }
      // the text only: the file opened next checks it (an input event here would start a second check 250 ms
      // later, which on a fast machine came after the file's answer and set the summary to "checking…" again)
      (document.querySelector('#robots') as HTMLTextAreaElement).value = rules.join('\n');
    });
    const input = await page.$('#urls-file');
    await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(file);
    await page.waitForFunction(() => (document.querySelector('#summary')?.textContent ?? '').startsWith('100,000 URL(s): 59,130 allowed, 40,870 disallowed'), { timeout: 60_000 });
    expect(await page.$eval('#summary', (element) => element.textContent)).toContain('(the first 2000 shown)');
    expect((await rows()).length).toBe(2000);
    expect(await page.$eval('#urls', (element) => (element as HTMLElement).hidden)).toBe(true);
    expect(await page.$eval('#urls-note-text', (element) => element.textContent)).toBe('100,000 URLs from urls-100k.txt, kept off the text box (a list this long would freeze the page while it is drawn).');
  });

  it('a screenshot that is not blank; no request leaves the page\'s own origin', async () => {
    const png = await page.screenshot({ type: 'png' });
    expect(png.length).toBeGreaterThan(30_000);
    expect(requested.filter((url) => !url.startsWith(origin))).toEqual([]);
    expect(requested).toContain(`${origin}/build/robotstxt.wasm`);
    expect(requested).toContain(`${origin}/match-worker.js`);
  });

});
