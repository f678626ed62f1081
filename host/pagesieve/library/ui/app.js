// The library window's page. It talks to Python only through window.pywebview.api
// (pagesieve.library.api.LibraryApi); every answer is {ok: true, ...} or {ok: false, error}.
// Text from the library is only ever put in with textContent: no HTML is built from data.
// The article itself is a document of its own in a sandboxed iframe (no scripts, no access here).
'use strict';

const PAGE = 200;
const SIZES = [80, 90, 100, 110, 120, 135, 150, 170];
// Reading colours per theme (the saved file's own stylesheet is "System": light or dark).
const THEMES = {
  light: { bg: '#fbfaf7', fg: '#1d1d1b', muted: '#6b6b66', code: '#f0eee8', rule: '#d6d3ca', quote: '#44443f', link: '#1f5fa8' },
  dark: { bg: '#1b1b1d', fg: '#e6e4df', muted: '#a3a29c', code: '#2a2a2d', rule: '#444444', quote: '#c9c7c1', link: '#8ab4f8' },
  sepia: { bg: '#f4ecd8', fg: '#5b4636', muted: '#8a7560', code: '#eadfc6', rule: '#d8c9a8', quote: '#6d5746', link: '#7a4a1e' },
};

const state = {
  query: '',        // the search shown ('' = the newest articles)
  shown: [],        // the articles listed
  total: 0,
  current: null,    // {article, document, theme_marker} of the open article
  theme: 'auto',
  size: 2,          // index into SIZES
  undoToken: null,
};

const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

// ---------------------------------------------------------------- calls and messages

async function call(name, ...args) {
  try {
    const answer = await window.pywebview.api[name](...args);
    if (answer && answer.ok) return answer;
    showStatus((answer && answer.error) || `${name} failed`, { error: true });
  } catch (err) {
    showStatus(`${name} failed: ${(err && err.message) || err}`, { error: true });
  }
  return null;
}

let statusTimer = null;
function showStatus(text, { error = false, undo = null } = {}) {
  const box = $('status');
  $('status-text').textContent = text;
  box.classList.toggle('error', error);
  state.undoToken = undo;
  $('undo').hidden = !undo;
  box.hidden = false;
  clearTimeout(statusTimer);
  statusTimer = setTimeout(() => { box.hidden = true; state.undoToken = null; }, undo ? 12000 : 5000);
}

// ---------------------------------------------------------------- the list

function formatDate(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? (iso || '').slice(0, 10) : d.toLocaleDateString();
}

function formatWords(n) {
  return `${Number(n || 0).toLocaleString()} words`;
}

function articleItem(a) {
  const li = el('li');
  li.dataset.id = String(a.id);
  li.tabIndex = 0;
  li.setAttribute('role', 'button');
  li.appendChild(el('span', 'title', a.title || 'Untitled'));
  const meta = el('span', 'meta', [a.site, formatDate(a.saved), formatWords(a.words)].filter(Boolean).join(' · '));
  li.appendChild(meta);
  if (a.tags && a.tags.length) {
    const chips = el('span', 'chips');
    for (const tag of a.tags) chips.appendChild(el('span', 'chip', tag));
    li.appendChild(chips);
  }
  if (a.snippet) {
    const snippet = el('div', 'snippet');
    for (const [text, matched] of a.snippet) snippet.appendChild(matched ? el('mark', null, text) : document.createTextNode(text));
    li.appendChild(snippet);
  }
  if (state.current && state.current.article.id === a.id) li.classList.add('selected');
  li.addEventListener('click', () => openArticle(a.id));
  li.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); openArticle(a.id); } });
  return li;
}

function renderList(append = false) {
  const list = $('list');
  if (!append) list.replaceChildren();
  const from = append ? list.children.length : 0;
  for (const a of state.shown.slice(from)) list.appendChild(articleItem(a));
  const empty = $('empty');
  empty.hidden = state.shown.length > 0;
  empty.textContent = state.query ? `No saved article contains “${state.query}”.` : 'No saved articles yet. Save one from the browser: the pagesieve button, then Save article.';
  $('more').hidden = state.query !== '' || state.shown.length >= state.total;
  $('count').textContent = state.query
    ? `${state.shown.length} match${state.shown.length === 1 ? '' : 'es'}`
    : `${state.total} article${state.total === 1 ? '' : 's'}`;
  document.body.dataset.listed = state.query ? `search:${state.query}` : 'list';
}

async function loadList() {
  const query = $('search').value.trim();
  if (query) {
    const answer = await call('search', query, PAGE);
    if (!answer || $('search').value.trim() !== query) return; // a newer search is on its way
    state.query = query;
    state.shown = answer.articles;
  } else {
    const answer = await call('list', PAGE, 0);
    if (!answer || $('search').value.trim() !== '') return;
    state.query = '';
    state.shown = answer.articles;
    state.total = answer.total;
  }
  renderList();
}

async function loadMore() {
  const answer = await call('list', PAGE, state.shown.length);
  if (!answer) return;
  state.total = answer.total;
  const known = new Set(state.shown.map((a) => a.id));
  state.shown.push(...answer.articles.filter((a) => !known.has(a.id)));
  renderList(true);
}

let searchTimer = null;
function onSearchInput() {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(loadList, 180);
}

// ---------------------------------------------------------------- the reader

function themeCss() {
  const parts = [`html{font-size:${SIZES[state.size]}%}`];
  const t = THEMES[state.theme];
  if (t) {
    parts.push(
      `:root{color-scheme:${state.theme === 'dark' ? 'dark' : 'light'}}`,
      `body{background:${t.bg};color:${t.fg}}`,
      `.meta,figcaption{color:${t.muted}}`,
      `pre{background:${t.code}}`,
      `blockquote{border-color:${t.rule};color:${t.quote}}`,
      `td,th{border-color:${t.rule}}`,
      `a{color:${t.link}}`,
    );
  }
  return parts.join('\n');
}

function showDocument() {
  if (!state.current) return;
  const { document: doc, theme_marker: marker } = state.current;
  const style = `<style id="pagesieve-theme">${themeCss()}</style>`;
  $('article-frame').srcdoc = doc.replace(marker, () => style); // the marker is in <head>, once
}

async function openArticle(id) {
  const answer = await call('article', id);
  if (!answer) return;
  state.current = answer;
  $('placeholder').hidden = true;
  $('reader').hidden = false;
  $('tags').value = (answer.article.tags || []).join(', ');
  for (const li of $('list').children) li.classList.toggle('selected', li.dataset.id === String(id));
  showDocument();
  document.body.dataset.opened = String(id);
}

function closeArticle() {
  state.current = null;
  $('reader').hidden = true;
  $('placeholder').hidden = false;
  $('article-frame').srcdoc = '';
  delete document.body.dataset.opened;
}

function setTheme(theme) {
  state.theme = theme in THEMES ? theme : 'auto';
  if (state.theme === 'auto') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = state.theme;
  showDocument();
}

function resize(step) {
  state.size = Math.max(0, Math.min(SIZES.length - 1, state.size + step));
  showDocument();
}

function replaceShown(article) {
  state.shown = state.shown.map((a) => (a.id === article.id ? { ...article, snippet: a.snippet } : a));
  renderList();
}

async function saveTags(event) {
  event.preventDefault();
  if (!state.current) return;
  const tags = $('tags').value.split(',').map((t) => t.trim()).filter(Boolean);
  const answer = await call('set_tags', state.current.article.id, tags);
  if (!answer) return;
  state.current.article = answer.article;
  $('tags').value = answer.article.tags.join(', ');
  replaceShown(answer.article);
  showStatus(answer.article.tags.length ? `Tags saved: ${answer.article.tags.join(', ')}` : 'Tags removed');
}

async function exportArticle(fmt) {
  if (!state.current) return;
  const answer = await call('export', state.current.article.id, fmt);
  if (answer && answer.path) showStatus(`Exported to ${answer.path}`);
}

async function deleteArticle() {
  if (!state.current) return;
  const answer = await call('delete', state.current.article.id);
  if (!answer) return;
  const title = answer.article.title || 'Untitled';
  closeArticle();
  await loadList();
  if (answer.token) showStatus(`Deleted “${title}”.`, { undo: answer.token });
  else showStatus(`Deleted “${title}”: its files are in the system trash.`);
}

async function undoDelete() {
  const token = state.undoToken;
  if (!token) return;
  $('status').hidden = true;
  const answer = await call('undo_delete', token);
  if (!answer) return;
  await loadList();
  showStatus(`Restored “${answer.article.title || 'Untitled'}”.`);
  openArticle(answer.article.id);
}

// ---------------------------------------------------------------- learned sites

function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

async function loadSites() {
  const answer = await call('sites');
  if (!answer) return;
  const body = $('sites');
  body.replaceChildren();
  for (const s of answer.sites) {
    const tr = el('tr');
    tr.appendChild(el('td', null, s.site));
    tr.appendChild(el('td', 'num', s.pages.toLocaleString()));
    tr.appendChild(el('td', 'num', s.entries.toLocaleString()));
    tr.appendChild(el('td', 'num', formatBytes(s.bytes)));
    tr.appendChild(el('td', null, s.last_used ? new Date(s.last_used * 1000).toLocaleString() : ''));
    const cell = el('td');
    const forget = el('button', 'plain', 'Forget');
    forget.addEventListener('click', async () => {
      const done = await call('forget_site', s.site);
      if (done) { showStatus(`Forgot ${s.site}`); loadSites(); }
    });
    cell.appendChild(forget);
    tr.appendChild(cell);
    body.appendChild(tr);
  }
  $('sites-table').hidden = answer.sites.length === 0;
  $('sites-empty').hidden = answer.sites.length > 0;
  $('forget-all').hidden = answer.sites.length === 0;
  $('store-path').textContent = `Kept in ${answer.store}`;
  $('labels-count').textContent = String(answer.labels);
  const labelBody = $('labels-table').querySelector('tbody');
  labelBody.textContent = '';
  for (const lab of answer.label_list) {
    const tr = el('tr');
    for (const value of [lab.site, lab.label === 'noise' ? 'hide' : 'keep', lab.signature, lab.snippet || '']) tr.appendChild(el('td', null, value));
    const cell = el('td');
    const remove = el('button', 'plain', 'Remove');
    remove.addEventListener('click', async () => {
      const done = await call('delete_label', lab.id);
      if (done) { showStatus(`Removed a correction on ${lab.site}`); loadSites(); }
    });
    cell.appendChild(remove);
    tr.appendChild(cell);
    labelBody.appendChild(tr);
  }
  $('labels-table').hidden = answer.label_list.length === 0;
  document.body.dataset.sites = String(answer.sites.length);
}

let forgetAllArmed = null;
async function forgetAll() {
  const button = $('forget-all');
  if (!forgetAllArmed) { // first click asks, a second one within 4 s does it
    button.textContent = 'Click again to forget every site';
    forgetAllArmed = setTimeout(() => { forgetAllArmed = null; button.textContent = 'Forget all sites'; }, 4000);
    return;
  }
  clearTimeout(forgetAllArmed);
  forgetAllArmed = null;
  button.textContent = 'Forget all sites';
  const answer = await call('forget_all');
  if (answer) { showStatus(`Forgot ${answer.forgotten} site${answer.forgotten === 1 ? '' : 's'}`); loadSites(); }
}

function showTab(name) {
  const sites = name === 'sites';
  $('articles-view').hidden = sites;
  $('sites-view').hidden = !sites;
  $('search').hidden = sites;
  $('count').hidden = sites;
  $('tab-articles').setAttribute('aria-selected', String(!sites));
  $('tab-sites').setAttribute('aria-selected', String(sites));
  if (sites) loadSites();
}

// ---------------------------------------------------------------- start

let started = false;
async function start() {
  if (started) return;
  started = true;
  $('search').addEventListener('input', onSearchInput);
  $('more').addEventListener('click', loadMore);
  $('theme').addEventListener('change', (e) => setTheme(e.target.value));
  $('smaller').addEventListener('click', () => resize(-1));
  $('larger').addEventListener('click', () => resize(1));
  $('tags-form').addEventListener('submit', saveTags);
  $('export-md').addEventListener('click', () => exportArticle('md'));
  $('export-html').addEventListener('click', () => exportArticle('html'));
  $('export-epub').addEventListener('click', () => exportArticle('epub'));
  $('delete').addEventListener('click', deleteArticle);
  $('undo').addEventListener('click', undoDelete);
  $('tab-articles').addEventListener('click', () => showTab('articles'));
  $('tab-sites').addEventListener('click', () => showTab('sites'));
  $('forget-all').addEventListener('click', forgetAll);
  document.addEventListener('keydown', (e) => {
    const typing = e.target instanceof HTMLInputElement;
    if (e.key === '/' && !typing) { e.preventDefault(); $('search').focus(); }
    else if (e.key === 'Escape' && e.target === $('search')) { $('search').value = ''; loadList(); }
  });
  // Articles saved from the browser while the window is open show up when it gets focus again.
  window.addEventListener('focus', () => { if (!$('articles-view').hidden) loadList(); });
  await loadList();
  document.body.dataset.ready = '1';
}

if (window.pywebview && window.pywebview.api && window.pywebview.api.list) start();
else window.addEventListener('pywebviewready', start);
