// npm run bench:tester: how the robots.txt Tester page (tester/) copes with a 500 KiB robots.txt and 100,000
// URLs in headless Chromium. It measures the time from opening the URL file to the answer, and the
// longest pause of the page's main thread (the largest gap between the ticks of a 20 ms interval). Two ways
// run side by side: the list kept off the text box (what the page does past 1 MiB), and the same list put in the
// text box ("Edit as text").
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSectionResults } from './results-file.js';
import { cliPath as CLI } from './cli-runs.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((path) => existsSync(path));
if (CHROMIUM === undefined) throw new Error('bench:tester needs Chromium (apt-get install chromium)');

const dir = mkdtempSync(join(tmpdir(), 'robotstxt-tester-bench-'));
const urlFile = join(dir, 'urls-100k.txt');
writeFileSync(urlFile, Array.from({ length: 100_000 }, (_, i) => `https://e.com/section-${i % 20_000}/doc${i % 2 === 0 ? '.pdf' : '.html'}`).join('\n') + '\n');

const server = spawn(process.execPath, [CLI, 'tester', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const origin = await new Promise<string>((resolve) => server.stdout?.on('data', (chunk: Buffer) => {
  const match = /http:\/\/[\d.]+:\d+/.exec(chunk.toString());
  if (match !== null) resolve(match[0]);
}));
const { default: puppeteer } = await import('puppeteer-core');
const browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });

interface Measure { robotsPauseMs: number; answerMs: number; pauseMs: number; summary: string }

/** One run in a fresh page: the 500 KiB robots.txt, then the 100,000 URLs (inTextBox: through "Edit as text"). */
async function measure(inTextBox: boolean): Promise<Measure> {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => document.querySelector('#summary')?.textContent?.includes('URL(s)') === true);
  await page.evaluate(() => {
    const state = window as unknown as { maxGap: number };
    state.maxGap = 0;
    let last = performance.now();
    setInterval(() => {
      const now = performance.now();
      state.maxGap = Math.max(state.maxGap, now - last);
      last = now;
    }, 20);
    const rules = ['User-agent: *'];
    for (let i = 0, size = 13; size < 500 * 1024; i++) {
      const rule = `Disallow: /section-${i}/*.pdf$`;
      rules.push(rule);
      size += rule.length + 1;
    }
    const robots = document.querySelector('#robots') as HTMLTextAreaElement;
    robots.value = rules.join('\n');
    robots.dispatchEvent(new Event('input'));
  });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const robotsPauseMs = await page.evaluate(() => {
    const state = window as unknown as { maxGap: number };
    const gap = state.maxGap;
    state.maxGap = 0;
    return gap;
  });
  const started = performance.now();
  const input = await page.$('#urls-file');
  await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(urlFile);
  if (inTextBox) {
    await page.waitForFunction(() => (document.querySelector('#urls-note') as HTMLElement).hidden === false);
    await page.click('#edit-urls');
    await page.evaluate(() => document.querySelector('#urls')?.dispatchEvent(new Event('input')));
    await page.waitForFunction(() => document.querySelector('#summary')?.textContent === 'checking…', { timeout: 120_000 });
  }
  await page.waitForFunction(() => (document.querySelector('#summary')?.textContent ?? '').startsWith('100,000'), { timeout: 120_000 });
  const answerMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const [pauseMs, summary] = await page.evaluate(() => [(window as unknown as { maxGap: number }).maxGap, document.querySelector('#summary')?.textContent ?? '']);
  await page.close();
  return { robotsPauseMs, answerMs, pauseMs: pauseMs as number, summary: summary as string };
}

const offTextBox = await measure(false);
const inTextBox = await measure(true);
await browser.close();
server.kill();
rmSync(dir, { recursive: true, force: true });

const row = (what: string, m: Measure): string => `| ${what} | ${m.answerMs.toFixed(0)} ms | ${m.pauseMs.toFixed(0)} ms | ${m.robotsPauseMs.toFixed(0)} ms | ${m.summary.replace(/\|/g, '/')} |`;
console.log(writeSectionResults('tester', [
  '## The Tester page',
  '',
  `Measured by \`npm run bench:tester\` on ${new Date().toISOString().slice(0, 10)} in headless Chromium: a 500 KiB robots.txt (16,348 rules), then 100,000 URLs opened from a file. "Answer" runs from opening the file to the verdicts; "longest pause" is the largest gap between the ticks of a 20 ms interval in the page.`,
  '',
  '| URL list | answer | longest pause | pause setting the robots.txt | summary |',
  '|---|---|---|---|---|',
  row('kept off the text box (the page\'s way past 1 MiB)', offTextBox),
  row('in the text box ("Edit as text")', inTextBox),
]));
