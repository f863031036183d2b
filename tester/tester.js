// The robots.txt Tester page: an editor with line numbers and lint markers, a crawler and a mode, a URL list
// (typed, pasted or dropped as a file), each URL's verdict and deciding line (selected: highlighted in the
// editor), a comparison with a kept previous version, and a download of the edited file. Matching runs in
// match-worker.js; this thread only renders. Nothing is fetched but this page's own files.

/** Rows rendered at most (the counts always cover every URL). */
const MAX_ROWS = 2000;
/**
 * URL lists longer than this stay in memory, off the text box: laying out a 4 MB textarea (100,000 URLs)
 * freezes the page for seconds, whereas the list itself is matched in the worker in about one.
 */
const LARGE_URL_TEXT = 1 << 20;
/**
 * An element of the page by its id (each is one of these: an input, a text area, a select or a plain element).
 * @param {string} id
 * @returns {HTMLInputElement & HTMLTextAreaElement & HTMLSelectElement}
 */
const $ = (id) => /** @type {HTMLInputElement & HTMLTextAreaElement & HTMLSelectElement} */ (document.getElementById(id));
// the script runs, so the page is served: the note for a page opened as a file goes
$('serve-note').hidden = true;
const robots = $('robots');
const gutter = $('gutter');
const highlight = $('highlight');
const urls = $('urls');
const agent = $('agent');
const mode = $('mode');
const filter = $('filter');
const summary = $('summary');
const resultsBody = $('results').querySelector('tbody');
const findingsList = $('findings');
const compare = $('compare');
const changesBody = $('changes').querySelector('tbody');

const worker = new Worker(new URL('./match-worker.js', import.meta.url), { type: 'module' });
let previous = null;
let lastId = 0;
let latest = null;
let selectedLine = 0;
/** The URL list when it is kept off the text box (LARGE_URL_TEXT), else null: the text box holds it. */
let urlText = null;
const urlsNote = $('urls-note');

/** Replaces the URL list: in the text box, or in memory with a note when it is long. */
function setUrls(text, from) {
  urlText = text.length > LARGE_URL_TEXT ? text : null;
  urls.hidden = urlText !== null;
  urlsNote.hidden = urlText === null;
  if (urlText !== null) {
    const count = text.split('\n').filter((line) => line.trim() !== '').length;
    urls.value = '';
    $('urls-note-text').textContent = `${count.toLocaleString('en')} URLs ${from}, kept off the text box (a list this long would freeze the page while it is drawn).`;
  } else {
    urls.value = text;
  }
  check();
}
const currentUrls = () => urlText ?? urls.value;

const SAMPLE_ROBOTS = `User-agent: *
Disallow: /cart
Disallow: /checkout/
Allow: /help/index.html
Disallow: /help/
Disallow: /*?sort=

User-agent: Googlebot-Image
Allow: /media/
Disallow: /

Sitemap: https://shop.example/sitemap.xml
`;
const SAMPLE_URLS = ['https://shop.example/', 'https://shop.example/cart', 'https://shop.example/help/', 'https://shop.example/help/faq', 'https://shop.example/shoes?sort=price', 'https://shop.example/media/a.jpg'].join('\n');

/** Line height of the editor in pixels (the gutter and the highlight follow it). */
const lineHeight = () => parseFloat(getComputedStyle(robots).lineHeight);

/** Line numbers in the gutter, each marked with its most severe finding. */
function renderGutter(findings = latest?.findings ?? []) {
  const count = robots.value.split('\n').length;
  const worst = new Map();
  const rank = { error: 3, warning: 2, info: 1 };
  for (const finding of findings) if ((rank[finding.severity] ?? 0) > (rank[worst.get(finding.line)?.severity] ?? 0)) worst.set(finding.line, finding);
  const parts = [];
  for (let n = 1; n <= count; n++) {
    const finding = worst.get(n);
    parts.push(finding === undefined ? String(n) : `<span class="marker ${finding.severity}" data-line="${n}" title="${escapeHtml(`${finding.severity}: ${finding.message}`)}">${n}</span>`);
  }
  gutter.innerHTML = parts.join('\n');
  syncScroll();
}

function syncScroll() {
  gutter.scrollTop = robots.scrollTop;
  highlight.style.transform = `translateY(${(selectedLine - 1) * lineHeight() - robots.scrollTop}px)`;
}

/** Highlights an editor line and scrolls it into view (0: none). */
function selectLine(line) {
  selectedLine = line;
  highlight.hidden = line === 0;
  highlight.dataset.line = String(line);
  if (line > 0) {
    const top = (line - 1) * lineHeight();
    if (top < robots.scrollTop || top > robots.scrollTop + robots.clientHeight - lineHeight()) robots.scrollTop = Math.max(0, top - robots.clientHeight / 3);
  }
  syncScroll();
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** Sends the current state to the worker; only the newest answer is rendered. */
function check() {
  judgePageSoon();
  lastId++;
  summary.textContent = 'checking…';
  worker.postMessage({ id: lastId, robots: robots.value, previous, agent: agent.value.trim() || '*', mode: mode.value, urls: currentUrls() });
}

let timer = 0;
const checkSoon = () => {
  clearTimeout(timer);
  timer = setTimeout(check, 250);
};

/** The usage panel: its newest request (older answers are dropped). */
let usageId = 0;
const usagePanel = $('usage-panel');

/** Asks the worker for the AI usage of one URL of the list, with the agent and mode its verdict was computed for. */
function showUsage(url) {
  usageId++;
  worker.postMessage({ kind: 'usage', id: usageId, robots: robots.value, agent: latest?.agent ?? (agent.value.trim() || '*'), mode: latest?.mode ?? mode.value, url });
}

/** A row of the usage panel: what, the answer, and what decided it (lines of the editor: click to select). */
function usageRow(what, value, lines, texts, none) {
  const decided = lines.length === 0 ? `<i>${escapeHtml(none)}</i>` : lines.map((line) => `<span data-line="${escapeHtml(line)}">line ${escapeHtml(line)}: ${escapeHtml(texts[line] ?? '')}</span>`).join('<br>');
  return `<tr class="${escapeHtml(value)}"><td>${escapeHtml(what)}</td><td>${escapeHtml(value)}</td><td>${decided}</td></tr>`;
}

function renderUsage(answer) {
  const texts = answer.lineText;
  const rows = [usageRow('crawl', answer.crawl, answer.lines.crawl === null ? [] : [answer.lines.crawl], texts, 'no rule')];
  for (const [category, verdict] of Object.entries(answer.usage)) {
    const by = answer.decidedBy[category];
    const none = by === 'crawl-disallowed' ? 'not fetched: no preference' : by === 'header' ? 'the header' : 'nothing says';
    rows.push(usageRow(`usage ${category}`, verdict, answer.lines.usage[category], texts, none));
  }
  for (const [key, value] of Object.entries(answer.contentSignal)) rows.push(usageRow(`content-signal ${key}`, value, answer.lines.contentSignal[key], texts, ''));
  for (const [token, verdict] of Object.entries(answer.tokens)) {
    const group = answer.tokenGroups[token] === 'named' ? 'its own group' : answer.tokenGroups[token] === '*' ? 'the * group' : 'no group';
    const line = answer.lines.tokens[token];
    rows.push(usageRow(`token ${token} (${group})`, verdict, line === null ? [] : [line], texts, 'no rule'));
  }
  $('usage-url').textContent = answer.url;
  $('usage').querySelector('tbody').innerHTML = rows.join('');
  usagePanel.hidden = false;
}

/** The page panel: its newest request (older answers are dropped). */
let pageId = 0;
const pageUrl = /** @type {HTMLInputElement} */ ($('page-url'));
const pageHeaders = /** @type {HTMLTextAreaElement} */ ($('page-headers'));
const pageHtml = /** @type {HTMLTextAreaElement} */ ($('page-html'));
const pageStatus = /** @type {HTMLInputElement} */ ($('page-status'));

/**
 * The meta tags of the pasted HTML with a name and content, in <head> and outside it, as the browser's own HTML
 * parser builds the document (the same WHATWG algorithm robotstxt page runs with parse5); no script runs and
 * nothing is fetched in a document made by DOMParser.
 */
function pageMetas(html) {
  const document = new DOMParser().parseFromString(html, 'text/html');
  const pick = (elements) => [...elements].map((meta) => ({ name: meta.getAttribute('name'), content: meta.getAttribute('content') }));
  const all = document.querySelectorAll('meta[name][content]');
  return { head: pick([...all].filter((meta) => meta.closest('head') !== null)), outsideHead: pick([...all].filter((meta) => meta.closest('head') === null)) };
}

/** Asks the worker what the page in the panel lets the crawler index, with the robots.txt of the editor. */
function judgePagePanel() {
  pageId++;
  const url = pageUrl.value.trim();
  // a status is three digits (100 to 999); anything else is no status given
  const statusText = pageStatus.value.trim();
  const status = /^[1-9]\d\d$/.test(statusText) ? Number(statusText) : null;
  worker.postMessage({ kind: 'page', id: pageId, robots: robots.value, agent: agent.value.trim() || '*', mode: mode.value, url, headers: pageHeaders.value, metas: pageMetas(pageHtml.value), status });
}
let pageTimer = 0;
const judgePageSoon = () => {
  clearTimeout(pageTimer);
  pageTimer = setTimeout(judgePagePanel, 250);
};

/** The page panel's rows: crawl (with its robots.txt line), then, when the page is seen, each rule and what stated it. */
function renderPage(answer) {
  const yes = (flag) => (flag ? 'yes' : 'no');
  const row = (what, value, decided, kind = value) => `<tr class="${escapeHtml(kind)}"><td>${escapeHtml(what)}</td><td>${escapeHtml(value)}</td><td>${decided}</td></tr>`;
  const statements = (names) => answer.rules.filter((rule) => names.includes(rule.rule)).map((rule) => escapeHtml(rule.text)).join('<br>') || '<i>nothing says</i>';
  const crawlBy = answer.crawlLine === 0 ? '<i>no rule</i>' : `<span data-line="${escapeHtml(answer.crawlLine)}">line ${escapeHtml(answer.crawlLine)}: ${escapeHtml(answer.lineText[answer.crawlLine] ?? '')}</span>`;
  const rows = [row('crawl', answer.crawl, crawlBy), row('seen', yes(answer.seen), answer.seen ? '' : '<i>robots.txt disallows crawling: the page\'s rules are never read</i>')];
  if (answer.seen && answer.status !== null) rows.push(row('status', `${answer.status} (${answer.response})`, answer.response === 'content' || answer.response === 'not-modified' ? '' : '<i>not indexed, whatever the page\'s rules say</i>', answer.response === 'content' ? 'yes' : 'no'));
  if (answer.seen) {
    rows.push(row('index', yes(answer.index), statements(['noindex', 'none', 'index', 'all', 'unavailable_after'])));
    rows.push(row('follow', yes(answer.follow), statements(['nofollow', 'none', 'follow', 'all'])));
    rows.push(row('snippet', answer.snippet.allowed ? (answer.snippet.maxChars === null ? 'yes' : `yes, at most ${answer.snippet.maxChars} characters`) : 'no', statements(['nosnippet', 'max-snippet']), answer.snippet.allowed ? 'yes' : 'no'));
    rows.push(row('image index', yes(answer.imageIndex), statements(['noimageindex'])));
    if (answer.imagePreview !== null) rows.push(row('image preview', answer.imagePreview, statements(['max-image-preview']), ''));
    if (answer.unavailableAfter !== null) rows.push(row('unavailable after', answer.unavailableAfter, statements(['unavailable_after']), ''));
    for (const rule of answer.unknown) rows.push(row('not read', rule.rule, escapeHtml(rule.text), ''));
  }
  for (const trap of answer.traps) rows.push(row('trap', trap.trap, escapeHtml(trap.text), 'trap'));
  for (const line of answer.notHeaders) rows.push(row('not a header', line, '<i>not Name: value</i>', ''));
  $('page-note').textContent = `${answer.url} for ${answer.agent}: ${answer.note}`;
  $('page-answer').querySelector('tbody').innerHTML = rows.join('');
}

for (const field of [pageUrl, pageStatus, pageHeaders, pageHtml]) field.addEventListener('input', judgePageSoon);

worker.onmessage = (event) => {
  const answer = event.data;
  if (answer.kind === 'page') {
    if (answer.id !== pageId) return;
    if (answer.error !== undefined) $('page-note').textContent = answer.error;
    else renderPage(answer.answer);
    return;
  }
  if (answer.kind === 'usage') {
    if (answer.id !== usageId) return;
    if (answer.error !== undefined) summary.textContent = answer.error;
    else renderUsage(answer.answer);
    return;
  }
  if (answer.id !== lastId) return;
  if (answer.error !== undefined) {
    summary.textContent = answer.error;
    return;
  }
  latest = answer;
  usagePanel.hidden = true; // it was of a row of the previous answer
  renderGutter(answer.findings);
  renderFindings(answer.findings);
  renderResults();
  renderChanges(answer.changes);
};

function renderFindings(findings) {
  findingsList.innerHTML = findings.map((f) => `<li class="${escapeHtml(f.severity)}" data-line="${escapeHtml(f.line)}"><b>line ${escapeHtml(f.line)}</b> ${escapeHtml(f.severity)}: ${escapeHtml(f.message)} <code>${escapeHtml(f.code)}</code></li>`).join('');
}

function renderResults() {
  if (latest === null) return;
  const { urls: list, verdicts, lines, ms } = latest;
  let allowed = 0;
  for (const verdict of verdicts) if (verdict === 1) allowed++;
  const wanted = filter.value;
  const rows = [];
  for (let i = 0; i < list.length && rows.length < MAX_ROWS; i++) {
    const isAllowed = verdicts[i] === 1;
    if ((wanted === 'allowed' && !isAllowed) || (wanted === 'disallowed' && isAllowed)) continue;
    const line = lines[i];
    rows.push(`<tr class="${isAllowed ? 'allowed' : 'disallowed'}" data-line="${escapeHtml(line)}"><td>${i + 1}</td><td>${isAllowed ? 'allowed' : 'disallowed'}</td><td>${line === 0 ? '' : escapeHtml(line)}</td><td>${line === 0 ? '<i>no rule</i>' : escapeHtml(latest.ruleText[line] ?? '')}</td><td>${escapeHtml(list[i])}</td></tr>`);
  }
  resultsBody.innerHTML = rows.join('');
  const shown = rows.length < list.length && wanted === 'all' ? ` (the first ${rows.length} shown)` : '';
  const warning = latest.warning === null || latest.warning === undefined ? '' : ` · warning: ${latest.warning}`;
  // the agent and mode these verdicts were computed for (the fields may have changed since the request)
  summary.textContent = `${list.length.toLocaleString('en')} URL(s): ${allowed.toLocaleString('en')} allowed, ${(list.length - allowed).toLocaleString('en')} disallowed, for ${latest.agent} in ${latest.mode} mode${shown} · ${ms.toFixed(0)} ms${warning}`;
}

/** A rule cell of the comparison: the deciding line's number and text, empty when no rule decided. */
const ruleCell = (rule, texts) => (rule === null ? '' : `${escapeHtml(rule.line)}: ${escapeHtml(texts[rule.line] ?? '')}`);

/** The URLs whose verdict changes from the kept previous version (RobotsDiff in the worker), per distinct URL. */
function renderChanges(changes) {
  compare.hidden = changes === null;
  if (changes === null) return;
  const { newlyDisallowed, newlyAllowed, distinct, rows, ruleTextBefore } = changes;
  const shown = rows.length < distinct ? ` (the first ${rows.length} of ${distinct.toLocaleString('en')} distinct URLs shown)` : '';
  $('compare-summary').textContent = `${(newlyDisallowed + newlyAllowed).toLocaleString('en')} URL(s) change verdict: ${newlyDisallowed.toLocaleString('en')} newly disallowed, ${newlyAllowed.toLocaleString('en')} newly allowed${shown}`;
  changesBody.innerHTML = rows.map((c) => `<tr class="${c.allowedNow ? 'allowed' : 'disallowed'}" data-line="${escapeHtml(c.newRule?.line ?? 0)}"><td>${escapeHtml(c.requests)}</td><td>${c.allowedNow ? 'newly allowed' : 'newly disallowed'}</td><td>${ruleCell(c.oldRule, ruleTextBefore)}</td><td>${ruleCell(c.newRule, latest.ruleText)}</td><td>${escapeHtml(c.url)}</td></tr>`).join('');
}

/** A click on a row or finding with a data-line selects that line in the editor. */
for (const container of [resultsBody, changesBody, findingsList, gutter, $('usage'), $('page-answer')]) {
  container.addEventListener('click', (event) => {
    const target = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest('[data-line]'));
    if (target === null) return;
    for (const row of document.querySelectorAll('.selected')) row.classList.remove('selected');
    target.classList.add('selected');
    selectLine(Number(target.dataset.line));
    // a row of the results: its URL's AI usage in the panel below
    if (container === resultsBody) showUsage(target.lastElementChild?.textContent ?? '');
  });
}

robots.addEventListener('input', () => { renderGutter(); checkSoon(); });
robots.addEventListener('scroll', syncScroll);
urls.addEventListener('input', checkSoon);
agent.addEventListener('input', checkSoon);
mode.addEventListener('change', check);
filter.addEventListener('change', renderResults);
$('check').addEventListener('click', check);

$('snapshot').addEventListener('click', () => {
  previous = robots.value;
  $('snapshot-state').textContent = `previous version kept (${previous.split('\n').length} lines): edit, and the changes show below`;
  check();
});
$('forget').addEventListener('click', () => {
  previous = null;
  $('snapshot-state').textContent = '';
  check();
});

$('download').addEventListener('click', () => {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([robots.value], { type: 'text/plain' }));
  link.download = 'robots.txt';
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
});

/** A file dropped on (or opened into) a text area replaces its text (load: how the text is set). */
function acceptFiles(area, input, load) {
  const read = async (file) => load(await file.text(), `from ${file.name}`);
  for (const target of [area, area === urls ? urlsNote : null]) {
    if (target === null) continue;
    target.addEventListener('dragover', (event) => event.preventDefault());
    target.addEventListener('drop', (event) => {
      event.preventDefault();
      const file = event.dataTransfer?.files[0];
      if (file !== undefined) void read(file);
    });
  }
  input.addEventListener('change', () => {
    if (input.files?.[0] !== undefined) void read(input.files[0]);
    input.value = '';
  });
}
acceptFiles(robots, $('robots-file'), (text) => {
  robots.value = text;
  robots.dispatchEvent(new Event('input'));
});
acceptFiles(urls, $('urls-file'), setUrls);
// a long paste goes to memory too, before the text box lays it out
urls.addEventListener('paste', (event) => {
  const text = event.clipboardData?.getData('text') ?? '';
  if (text.length <= LARGE_URL_TEXT) return;
  event.preventDefault();
  setUrls(text, 'pasted');
});
$('edit-urls').addEventListener('click', () => {
  const text = urlText ?? '';
  urlText = null;
  urls.hidden = false;
  urlsNote.hidden = true;
  urls.value = text;
});
$('clear-urls').addEventListener('click', () => setUrls('', ''));
$('open-robots').addEventListener('click', () => $('robots-file').click());
$('open-urls').addEventListener('click', () => $('urls-file').click());

robots.value = SAMPLE_ROBOTS;
urls.value = SAMPLE_URLS;
renderGutter([]);
check();
