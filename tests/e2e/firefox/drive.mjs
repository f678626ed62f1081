// Drives Firefox ESR with the unpacked extension over WebDriver BiDi (puppeteer-core) for
// tests/e2e/test_firefox.py. Usage: node drive.mjs PLAN.json -> one JSON object on stdout.
// PLAN: {extension, firefox, uuid, screenshots, control, urls: [...]}. Firefox 153's BiDi may not
// navigate to an extension page, so the extension opens its own options page when the page at
// PLAN.control (on another site than the pages under test) dispatches "pagesieve:test-open-options"
// (content/clean.js; honoured by a temporary add-on only), and this script drives that tab. For each
// URL: open it, wait until its content script has done its on-load work, then send the content
// script's test hook ("pagesieve.run") hide, off, reader from the options page, press Escape;
// report each answer, the visible text and the DOM at each step. Nothing waits a fixed time: each
// wait polls for what it names, and a failure says what it waited for. PLAN.correction
// (optional): {urls: [page, other page of the site], target, hidden, shown}: a "Hide this"
// correction made with the picker, checked after a reload and on the other page.
// PLAN.partCorrection (optional): the same with {selector, widen: false}: "Hide this" on the
// element selector names (an element inside a paragraph), saved as the picker first offers it.
// PLAN.noHost (optional): {url}: with no host registered, "reader" on url and the extension's own
// reader tab it opens; then the popup's install box; axe-core (PLAN.axe, when given) on both.
// PLAN.showHidden (optional): {urls: [posts of one site], note, fix}: the posts but the last are
// learned as they load; on the last, a "Hide this" correction on the element holding fix, "hide",
// then "Show hidden" (the popup's message): the labels, Tab, the picker's reason on the element
// holding note, Esc (picker), Esc (Show hidden), and whether the page is as it was hidden.
// PLAN.overlays (optional, issue 48): {fixtures: [{name, url, texts, lock, shot}], story, js:
// {visible, top, reader, dom}, consent: the consent option's mode (default "off")}: each page at
// 1100 x 600 with learning off; the page's recorded consent answer after "hide" (answered); the layers shown
// before and after "hide", whether the wheel scrolls the page before, after and after "off", the
// DOM before and after "off", the visible text, the reader's text (screenshots where shot names a file).
// PLAN.coldStart (optional): {url, rule, story}: run first, while nothing of the site is learned:
// with the cold-start option on (and learning off for the site), "hide" on url; then with the
// option off, "hide" again; whether rule and story are shown each time.
// PLAN.pages (optional, issue 53): {urls, js, shots}: "reader" on each url (an article over
// several pages), a wait for the reader to have followed its pages (the article's data-stopped),
// then js (a function's text) on the page; for the first url, screenshots of the top, the page-2
// mark and the end, named shots + "-top.png" and so on.
// PLAN.prefs (optional): more Firefox preferences (the dark run of PLAN.ui sets the colour scheme).
// PLAN.ui (optional): {url, scheme, toolbar}: on url, (toolbar: true) the button's state
// (channel "pagesieve.toolbar") after hide, reader (the shortcuts' "toggle"), Esc, and the
// popup's modes from the keyboard; axe-core (PLAN.axe) on the reader view, the popup and the
// options page; their screenshots named by scheme.
import puppeteer from "puppeteer-core";
import { readFileSync } from "node:fs";

const plan = JSON.parse(readFileSync(process.argv[2], "utf8"));
const browser = await puppeteer.launch({
  browser: "firefox", executablePath: plan.firefox, headless: true,
  extraPrefsFirefox: {
    "extensions.webextensions.uuids": JSON.stringify({ "pagesieve@pagesieve.local": plan.uuid }),
    // pages come from 127.0.0.1 only: other requests go to a dead proxy, refreshes are blocked
    "network.proxy.type": 1, "network.proxy.http": "127.0.0.1", "network.proxy.http_port": 9,
    "network.proxy.ssl": "127.0.0.1", "network.proxy.ssl_port": 9, "accessibility.blockautorefresh": true,
    // dataset pages are archived copies whose scripts redirect to their origin: page scripts off
    // (the extension's own scripts still run), unless the plan's pages need theirs (pageScripts)
    "javascript.enabled": plan.pageScripts === true,
    ...(plan.prefs || {}),
  },
});
const out = { pages: [] };

// Poll check() every 100 ms until it gives a true value, which is returned; after `seconds`, fail
// naming what was awaited.
async function waitFor(what, check, seconds = 30) {
  const end = Date.now() + seconds * 1000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`waited ${seconds} s for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// What a page says of itself ("<address> <readyState>"), or "" when it cannot answer within
// `ms`: a tab in the middle of a navigation may leave an evaluation pending for long, and one
// such tab must not hold up the search through the others (tests/e2e, issue 61).
async function whereIs(page, ms = 2000) {
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve(""), ms); });
  try {
    return await Promise.race([page.evaluate(() => location.href + " " + document.readyState).catch(() => ""), late]);
  } finally {
    clearTimeout(timer);
  }
}

// The options page the extension opened (puppeteer cannot see a moz-extension:// address, its
// tab shows about:blank: each tab is asked where it is, within whereIs's limit).
async function optionsTab(url) {
  for (const page of await browser.pages()) {
    if ((await whereIs(page)) === `${url} complete`) return page;
  }
  return null;
}

// Opens `path` of the extension in a new tab from the control page `control` (an extension page,
// which has the tabs API) and waits for the tab's own "complete" event (tabs.onUpdated), then for
// puppeteer's page of it: the page, or an error that names what every tab said.
// Now and then puppeteer never learns of a tab that Firefox says has loaded: browser.pages() lists
// the other tabs only, for as long as one waits (the toolbar test's background popup tab failed 3
// of 14 runs so), and a reload of the tab does not help (tried: 2 reloads, 60 s). Such a tab is
// closed and the page opened again in a new tab, at most three times; each retry is said on
// stderr. With this, 16 of 16 runs passed, two of them after a retry (one after two).
async function openExtensionTab(control, path, url, active = true) {
  for (let attempt = 0; ; attempt++) {
    const loaded = await control.evaluate((p, a) => new Promise((resolve) => {
      let id = null;
      const done = (tabId, change, tab) => {
        if (tabId === id && (change.status === "complete" || tab.status === "complete")) {
          browser.tabs.onUpdated.removeListener(done);
          resolve({ id, url: tab.url });
        }
      };
      browser.tabs.onUpdated.addListener(done);
      browser.tabs.create({ url: p, active: a }).then(async (tab) => {
        id = tab.id;
        const now = await browser.tabs.get(id);
        if (now.status === "complete") done(id, {}, now);
      });
      setTimeout(() => resolve(null), 60000);
    }), path, active);
    if (!loaded) throw new Error(`the tab of ${path} did not load within 60 s (tabs.onUpdated)`);
    try {
      return await waitFor(`puppeteer's page of ${url} (tab ${loaded.id}, loaded at ${loaded.url})`,
        () => optionsTab(url), attempt < 3 ? 15 : 30);
    } catch (e) {
      const seen = await Promise.all((await browser.pages()).map((p) => whereIs(p)));
      const said = `${e.message}; the tabs said: ${JSON.stringify(seen)}`;
      if (attempt === 3) throw new Error(`${said} (the fourth tab opened for it)`);
      process.stderr.write(`${said}: closing tab ${loaded.id} and opening the page again\n`);
      await control.evaluate((id) => browser.tabs.remove(id), loaded.id);
    }
  }
}

// PLAN.axe (optional): {file, run}: axe-core's script and the function text that runs it
// (tests/e2e/accessibility.py); runAxe(page, selector) gives its answer on the page, or on the
// element selector names.
async function runAxe(p, selector) {
  process.stderr.write(`axe on ${selector || "the page"}\n`);
  await p.evaluate(readFileSync(plan.axe.file, "utf8"));
  return p.evaluate(`(${plan.axe.run})(${JSON.stringify(selector)})`);
}

try {
  await browser.installExtension(plan.extension);
  const trigger = await browser.newPage();
  await trigger.goto(plan.control, { waitUntil: "load" });
  const optionsUrl = `moz-extension://${plan.uuid}/pages/options.html`;
  // the content script may not be there yet: the request is sent again until the tab is open
  const control = await waitFor(`the extension to open ${optionsUrl} (asked from ${plan.control})`, async () => {
    await trigger.evaluate(() => document.dispatchEvent(new Event("pagesieve:test-open-options")));
    return await optionsTab(optionsUrl);
  });
  await trigger.close();
  // a message to the content script of the tab at url, from the options page; any failure is
  // an answer {ok: false, error}
  const send = (url, message) => control.evaluate(async (u, m) => {
    const tab = (await browser.tabs.query({})).find((t) => t.url === u);
    if (!tab) return { ok: false, error: "no tab " + u };
    try {
      return await browser.tabs.sendMessage(tab.id, m);
    } catch (e) {
      return { ok: false, error: String(e.message || e) };
    }
  }, url, message);
  const run = (url, mode) => send(url, { type: "pagesieve.run", mode });
  // the content script of url is there and its on-load work (learning) is over
  const loaded = (url) => waitFor(`the content script of ${url} to finish its on-load work`,
    async () => (await send(url, { type: "pagesieve.state" })).loaded);
  if (plan.noHost) {
    // no host registered: "reader" on plan.noHost.url opens the extension's reader.html (Mozilla's
    // Readability) in a tab; its title, article and note are reported, then the popup's text (the
    // popup page opened in a tab by the options page, which BiDi cannot navigate to)
    const url = plan.noHost.url;
    const r = {};
    const page = await browser.newPage();
    await page.goto(url, { waitUntil: "load" });
    await loaded(url);
    const before = await page.evaluate(() => document.documentElement.outerHTML);
    r.reader = await run(url, "reader");
    const readerPrefix = `moz-extension://${plan.uuid}/pages/reader.html?id=`;
    const reader = await waitFor(`the reader tab ${readerPrefix}…`, async () => {
      for (const p of await browser.pages()) {
        const ready = await p.evaluate((prefix) => location.href.startsWith(prefix) && document.documentElement.dataset.ready, readerPrefix).catch(() => null);
        if (ready) return p;
      }
      return null;
    });
    Object.assign(r, await reader.evaluate(() => ({
      ready: document.documentElement.dataset.ready, title: document.querySelector("h1").textContent,
      text: document.getElementById("content").innerText, note: document.getElementById("note").innerText,
      scripts: [...document.scripts].map((s) => s.getAttribute("src")),
    })));
    if (plan.screenshots) await reader.screenshot({ path: `${plan.screenshots}/firefox-reader-without-host.png` });
    if (plan.axe) r.axeReader = await runAxe(reader);
    r.pageUnchanged = (await page.evaluate(() => document.documentElement.outerHTML)) === before;
    const popupUrl = `moz-extension://${plan.uuid}/pages/popup.html`;
    const popup = await openExtensionTab(control, "/pages/popup.html", popupUrl);
    r.install = await waitFor("the popup's install box", () => popup.evaluate(() => {
      const box = document.getElementById("install");
      return box.style.display === "block" ? box.innerText : null;
    }));
    if (plan.axe) r.axePopup = await runAxe(popup);
    out.noHost = r;
    await popup.close();
    await page.close();
  }
  if (plan.ui) {
    const u = plan.ui;
    const r = { toolbar: [], axe: {} };
    const page = await browser.newPage();
    await page.goto(u.url, { waitUntil: "load" });
    await loaded(u.url);
    const tabId = await control.evaluate(async (url) => (await browser.tabs.query({})).find((t) => t.url === url).id, u.url);
    const toolbar = async (step) => {
      const shown = await control.evaluate((id) => browser.runtime.sendMessage({ type: "pagesieve.toolbar", tabId: id }), tabId);
      r.toolbar.push({ step, ...shown });
      return shown;
    };
    if (u.toolbar) await toolbar("loaded");
    const hidden = await send(u.url, { type: "pagesieve.toggle", mode: "hide" });  // what Alt+Shift+H sends
    r.hidden = hidden;
    if (u.toolbar) await waitFor("the badge to count the hidden parts", async () => { const t = await toolbar("hide"); return t.badgeText === String(hidden.hidden) && t.icon === "hide"; });
    r.reader = await send(u.url, { type: "pagesieve.toggle", mode: "reader" });  // Alt+Shift+R
    if (u.toolbar) await waitFor("the reader's icon", async () => (await toolbar("reader")).icon === "reader");
    r.axe.reader = await runAxe(page, "pagesieve-reader");
    await page.keyboard.press("Escape");  // closes the reader view: the page is off
    if (u.toolbar) await waitFor("the off icon after Esc", async () => { const t = await toolbar("off"); return t.icon === "off" && t.badgeText === ""; });
    // the popup, in a tab beside the page, which stays the active tab (the popup acts on it)
    await control.evaluate((id) => browser.tabs.update(id, { active: true }), tabId);
    const popupUrl = `moz-extension://${plan.uuid}/pages/popup.html`;
    const popup = await openExtensionTab(control, "/pages/popup.html", popupUrl, false);
    await waitFor("the popup to be ready", () => popup.evaluate(() => document.documentElement.dataset.ready === "1"));
    await popup.setViewport({ width: 330, height: 720 });
    await popup.focus("#off");
    await popup.keyboard.press("ArrowRight");  // the next mode of the group: Hide noise
    await waitFor("the popup's Hide noise", () => popup.evaluate(() => !document.getElementById("showHidden").disabled));
    const count = (await send(u.url, { type: "pagesieve.state" })).hidden;
    if (u.toolbar) await waitFor("the badge after the popup's Hide noise", async () => { const t = await toolbar("hide (popup)"); return t.badgeText === String(count) && t.icon === "hide"; });
    r.popup = await popup.evaluate(() => ({
      hideChecked: document.getElementById("hide").checked, status: document.getElementById("status").textContent,
      host: document.getElementById("hostText").textContent, site: document.getElementById("site").textContent,
      shortcuts: Object.fromEntries([...document.querySelectorAll("#shortcuts dd")].map((d) => [d.dataset.command, d.textContent])),
    }));
    r.axe.popup = await runAxe(popup);
    const height = await popup.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
    if (plan.screenshots) await popup.screenshot({ path: `${plan.screenshots}/firefox-popup-${u.scheme}.png`, clip: { x: 0, y: 0, width: 330, height } });
    await popup.focus("#hide");
    await popup.keyboard.press("ArrowLeft");  // back to Off
    if (u.toolbar) await waitFor("the badge to clear on Off", async () => { const t = await toolbar("off (popup)"); return t.badgeText === "" && t.icon === "off"; });
    r.modeAfterOff = (await send(u.url, { type: "pagesieve.state" })).mode;
    await popup.close();
    // a fresh options page (the control tab shows what was learned when it opened)
    const optionsUrl = `moz-extension://${plan.uuid}/pages/options.html#ui`;
    const options = await openExtensionTab(control, "/pages/options.html#ui", optionsUrl);
    await waitFor("the options page's learned sites", () => options.evaluate(() => document.querySelectorAll("#learned tbody tr").length > 0));
    await options.setViewport({ width: 900, height: 900 });
    r.axe.options = await runAxe(options);
    if (plan.screenshots) await options.screenshot({ path: `${plan.screenshots}/firefox-options-${u.scheme}.png`, fullPage: true });
    await options.close();
    await page.close();
    out.ui = r;
  }
  if (plan.overlays) {
    const o = plan.overlays;
    await control.evaluate((mode) => browser.storage.local.set({ learn: { "*": false }, consent: { mode, onLoad: false } }), o.consent || "off");
    out.overlays = [];
    for (const f of o.fixtures) {
      const page = await browser.newPage();
      await page.setViewport({ width: 1100, height: 600 });
      await page.goto(f.url, { waitUntil: "load" });
      await loaded(f.url);
      const wheelMoves = async () => {
        const before = await page.evaluate(o.js.top);
        await page.mouse.move(550, 300);
        await page.mouse.wheel({ deltaY: 700 });
        const end = Date.now() + 3000;
        while (Date.now() < end) {
          if ((await page.evaluate(o.js.top)) < before - 100) return true;
          await new Promise((r) => setTimeout(r, 100));
        }
        return false;
      };
      const r = { name: f.name, before: await page.evaluate(o.js.dom), layersBefore: await page.evaluate(o.js.visible) };
      if (f.lock) r.wheelBefore = await wheelMoves();
      if (f.shot) await page.screenshot({ path: `${f.shot}-before.png` });
      r.hide = await run(f.url, "hide");
      r.answered = await page.evaluate(() => document.documentElement.dataset.consent || null);
      r.layersAfter = await page.evaluate(o.js.visible);
      r.textHidden = await page.evaluate(() => document.body.innerText);
      if (f.shot) await page.screenshot({ path: `${f.shot}-after.png` });
      r.wheelAfter = await wheelMoves();
      r.state = await send(f.url, { type: "pagesieve.state" });
      r.off = await run(f.url, "off");
      r.afterOff = await page.evaluate(o.js.dom);
      await page.evaluate(() => window.scrollTo(0, 0));
      if (f.lock) r.wheelAfterOff = await wheelMoves();
      r.reader = await run(f.url, "reader");
      r.readerText = await page.evaluate(o.js.reader);
      r.offAgain = await run(f.url, "off");
      r.afterReader = await page.evaluate(o.js.dom);
      out.overlays.push(r);
      await page.close();
    }
    await control.evaluate(() => browser.storage.local.remove(["learn", "consent"]));
  }
  if (plan.coldStart) {
    const c = plan.coldStart;
    const settings = (values) => control.evaluate((v) => browser.storage.local.set(v), values);
    const shown = (page, t) => page.evaluate((x) => document.body.innerText.replace(/\s+/g, " ").includes(x), t);
    await settings({ coldStart: true, learn: { "127.0.0.1": false } });
    const page = await browser.newPage();
    await page.goto(c.url, { waitUntil: "load" });
    await loaded(c.url);
    await page.evaluate(() => { document.cookie = "session=secret; path=/"; });
    const r = { cookieSet: await page.evaluate(() => document.cookie) };
    r.cold = await run(c.url, "hide");
    r.ruleShownCold = await shown(page, c.rule);
    r.storyShownCold = await shown(page, c.story);
    await settings({ coldStart: false });
    await waitFor(`the content script of ${c.url} to hear that cold start is off`,
      async () => (await send(c.url, { type: "pagesieve.state" })).coldStart === false);
    r.alone = await run(c.url, "hide");
    r.ruleShownAlone = await shown(page, c.rule);
    r.storyShownAlone = await shown(page, c.story);
    await settings({ learn: {} });
    await page.close();
    out.coldStart = r;
  }
  if (plan.pages) {
    out.pages_followed = [];
    for (const [n, url] of plan.pages.urls.entries()) {
      const page = await browser.newPage();
      await page.goto(url, { waitUntil: "load" });
      await loaded(url);
      const answer = await run(url, "reader");
      const root = "document.querySelector('pagesieve-reader').shadowRoot";
      await waitFor(`the reader of ${url} to follow the article's pages`, () => page.evaluate(
        `(() => { const a = document.querySelector('pagesieve-reader')?.shadowRoot.querySelector('article'); return a && a.dataset.stopped; })()`), 60);
      const r = { url, answer, shown: await page.evaluate(`(${plan.pages.js})()`) };
      if (n === 0 && plan.screenshots) {
        await page.screenshot({ path: `${plan.screenshots}/${plan.pages.shots}-top.png` });
        await page.evaluate(`${root}.querySelector('.page-mark[data-page="2"]').scrollIntoView({block: 'center'})`);
        await page.screenshot({ path: `${plan.screenshots}/${plan.pages.shots}-mark.png` });
        await page.evaluate(`(() => { const p = ${root}.querySelector('.page'); p.scrollTop = p.scrollHeight; })()`);
        await page.screenshot({ path: `${plan.screenshots}/${plan.pages.shots}-end.png` });
      }
      out.pages_followed.push(r);
      await page.close();
    }
  }
  for (const [n, url] of plan.urls.entries()) {
    const page = await browser.newPage();
    await page.goto(url, { waitUntil: "load" }).catch((e) => { if (!/timeout/i.test(e.message)) throw e; });
    await loaded(url);
    const dom = () => page.evaluate(() => document.documentElement.outerHTML);
    const text = () => page.evaluate(() => document.body.innerText);
    const r = { url, before: await dom(), textBefore: await text() };
    r.hide = await run(url, "hide");
    r.textHidden = await text();
    if (n === 0 && plan.screenshots) await page.screenshot({ path: `${plan.screenshots}/firefox-hide.png` });
    r.off = await run(url, "off");
    r.afterOff = await dom();
    r.reader = await run(url, "reader");
    r.readerTitle = await page.evaluate(() => {
      const host = document.querySelector("pagesieve-reader");
      return host && host.shadowRoot ? host.shadowRoot.querySelector("h1").textContent : null;
    });
    if (n === 0 && plan.screenshots) await page.screenshot({ path: `${plan.screenshots}/firefox-reader.png` });
    await page.keyboard.press("Escape");
    r.afterEscape = await dom();
    out.pages.push(r);
    await page.close();
  }
  if (plan.showHidden) {
    const c = plan.showHidden;
    const r = {};
    for (const url of c.urls.slice(0, -1)) {
      const post = await browser.newPage();
      await post.goto(url, { waitUntil: "load" });
      await loaded(url);
      await post.close();
    }
    const url = c.urls[c.urls.length - 1];
    const page = await browser.newPage();
    await page.goto(url, { waitUntil: "load" });
    await loaded(url);
    // the contextmenu event a right-click fires (see plan.correction below)
    const rightClick = (text) => page.evaluate((t) => [...document.querySelectorAll("p, figcaption")]
      .find((e) => e.textContent.includes(t))
      .dispatchEvent(new MouseEvent("contextmenu", { bubbles: true, cancelable: true, composed: true })), text);
    const toast = () => page.evaluate(() => !!document.querySelector("pagesieve-ui[data-kind=toast]"));
    const labelsHost = "pagesieve-ui[data-kind=hidden]";
    await rightClick(c.fix);
    r.pickFix = await send(url, { type: "pagesieve.pick", label: "noise" });
    // the page is not cleaned: the picker asks the host why (an "explain" request)
    r.fixReason = await waitFor("the picker's reason from the host", () => page.evaluate(() => {
      const line = document.querySelector("pagesieve-ui").shadowRoot.querySelector(".bar .reason");
      return line && line.textContent;
    }));
    await page.keyboard.press("Enter");
    await waitFor("the note that the correction was saved", toast);
    r.hide = await run(url, "hide");
    await waitFor("the note to go (after 5 s)", async () => !(await toast()), 15);
    const dom = () => page.evaluate(() => document.documentElement.outerHTML);
    const text = () => page.evaluate(() => document.body.innerText);
    const domHidden = await dom();
    r.textHidden = await text();
    r.show = await send(url, { type: "pagesieve.showHidden", on: true });
    r.state = await send(url, { type: "pagesieve.state" });
    r.labels = await page.evaluate((h) => [...document.querySelector(h).shadowRoot.querySelectorAll(".why")]
      .map((l) => l.textContent), labelsHost);
    r.textShown = await text();
    await page.keyboard.press("Tab");
    r.focused = await page.evaluate((h) => {
      const active = document.querySelector(h).shadowRoot.activeElement;
      return active ? active.className + " " + active.textContent : null;
    }, labelsHost);
    await page.evaluate(() => window.scrollTo(0, 0));
    if (plan.screenshots) await page.screenshot({ path: `${plan.screenshots}/firefox-show-hidden.png`, fullPage: true });
    await page.evaluate((t) => [...document.querySelectorAll("p")].find((e) => e.textContent.includes(t))
      .scrollIntoView({ block: "center" }), c.note);
    await rightClick(c.note);
    r.pick = await send(url, { type: "pagesieve.pick", label: "content" });
    r.picker = await page.evaluate(() => [...document.querySelectorAll("pagesieve-ui")]
      .map((h) => h.shadowRoot && h.shadowRoot.querySelector(".bar .reason")).filter(Boolean).map((e) => e.textContent));
    if (plan.screenshots) await page.screenshot({ path: `${plan.screenshots}/firefox-picker-reason.png` });
    await page.keyboard.press("Escape");
    r.showingAfterPicker = (await send(url, { type: "pagesieve.state" })).showing;
    await page.keyboard.press("Escape");
    r.showingAfterEscape = (await send(url, { type: "pagesieve.state" })).showing;
    r.domRestored = (await dom()) === domHidden;
    r.textRestored = (await text()) === r.textHidden;
    r.undo = await send(url, { type: "pagesieve.undo" });
    out.showHidden = r;
    await page.close();
  }
  // right-click "Hide this" through the content script's picker (the message the context menu
  // sends), widen to the enclosing block unless c.widen is false, save; then reload, and open a
  // second page of the site
  async function correction(c) {
    const hiddenSoon = async (page) => {
      for (let k = 0; k < 100; k++) {
        if (await page.evaluate((sel) => !document.querySelector(sel).checkVisibility(), c.hidden)) return true;
        await new Promise((r) => setTimeout(r, 100));
      }
      return false;
    };
    const r = {};
    const page = await browser.newPage();
    await page.goto(c.urls[0], { waitUntil: "load" });
    await loaded(c.urls[0]);
    // the contextmenu event a right-click fires (a real right-click would open Firefox's menu,
    // which blocks the page in headless mode) on the element c.selector names, else on the
    // paragraph holding c.target; the content script notes its target
    await page.evaluate((t, sel) => (sel ? document.querySelector(sel) : [...document.querySelectorAll("p")].find((p) => p.textContent.includes(t)))
      .dispatchEvent(new MouseEvent("contextmenu", { bubbles: true, cancelable: true, composed: true })), c.target, c.selector || null);
    r.pick = await send(c.urls[0], { type: "pagesieve.pick", label: "noise" });
    if (c.widen !== false) await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Enter");
    r.hidden = await hiddenSoon(page);
    r.storyShown = await page.evaluate((sel) => document.querySelector(sel).checkVisibility(), c.shown);
    await page.reload({ waitUntil: "load" });
    r.hiddenAfterReload = await hiddenSoon(page);
    const second = await browser.newPage();
    await second.goto(c.urls[1], { waitUntil: "load" });
    r.hiddenOnSecondPage = await hiddenSoon(second);
    r.secondStoryShown = await second.evaluate((sel) => document.querySelector(sel).checkVisibility(), c.shown);
    r.undo = await send(c.urls[1], { type: "pagesieve.undo" });
    return r;
  }
  if (plan.correction) out.correction = await correction(plan.correction);
  if (plan.partCorrection) out.partCorrection = await correction(plan.partCorrection);
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(out));
