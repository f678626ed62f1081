"""Pages with layers over them (issue 48), written for the tests: one news story under consent
banners, modals, backdrops, floating players, app and chat bubbles, sticky bars and paywall nags,
each in a consent manager's or a site's usual markup (its ids, ``role="dialog"``, common class
names) and in anonymous markup (class names such as ``box``, ``shade``, ``dim``: the same layers,
positions and words). The consent managers' shapes are our own markup after the ids, classes and
buttons their banners carry in the wild (and that ``@duckduckgo/autoconsent``'s rules look for);
no text of theirs is copied.

:data:`FIXTURES` maps a fixture's name to :class:`Fixture`; :func:`page_html` writes its page.
"""

from __future__ import annotations

from dataclasses import dataclass, field

TITLE = "Harbour wall to reopen after winter storms"

STORY = [
    "The harbour wall at Port Elling will reopen to walkers on the first of June, the town council said on Tuesday, "
    "seven months after the storms of January tore a gap in its seaward face.",
    "Engineers who surveyed the wall in February found that the sea had washed out the rubble core behind forty metres "
    "of facing stones, leaving the promenade above it hollow and unsafe.",
    "The repair, paid for from the council's emergency reserve and a grant from the coastal fund, has rebuilt the core "
    "with concrete and reset each of the old granite blocks in its numbered place.",
    "Fishermen who tie up inside the wall said the winter had been the hardest in memory, with boats moved to the river "
    "moorings at Dunmere and landings cut by half for three months.",
    "The harbourmaster, Ines Calloway, said the new drainage channels under the promenade should let the next big sea "
    "run back out through the wall instead of lifting it from inside.",
    "Residents along the front asked for the lamps on the wall to be restored as they were, and the council agreed to "
    "refit the twelve cast iron posts once the paint has been stripped and the glass replaced.",
    "A public walk along the reopened wall, led by the engineers who repaired it, will start from the lifeboat station "
    "at ten in the morning on opening day.",
    "The council will publish the survey and the final cost of the work at its July meeting, when the repair of the "
    "north slipway is also due to be discussed.",
]
"""The story's paragraphs: all of them must reach the reader and ``extract``."""

BASE_CSS = """
* { box-sizing: border-box; }
body { margin: 0; font: 18px/1.6 Georgia, serif; color: #222; background: #fff; }
.top { display: flex; gap: 24px; align-items: center; padding: 12px 24px; background: #0b3954; color: #fff; }
.top a { color: #fff; text-decoration: none; }
.page { max-width: 720px; margin: 0 auto; padding: 24px; }
h1 { font-size: 34px; line-height: 1.2; }
.foot { margin-top: 48px; padding: 24px; background: #eee; font-size: 14px; }
"""


def story_html() -> str:
    """The page's own parts: site header, story, footer (no layer)."""
    paragraphs = "\n".join(f"<p>{p}</p>" for p in STORY)
    return f"""<header class="top"><a href="/">Port Elling Gazette</a><nav><a href="/news/">News</a>
<a href="/sport/">Sport</a> <a href="/weather/">Weather</a></nav></header>
<main class="page"><article><h1>{TITLE}</h1><p class="by">By Tamsin Rook, 14 May</p>
{paragraphs}
</article></main>
<footer class="foot"><p>Port Elling Gazette, 3 Quay Street, Port Elling. All rights reserved.</p></footer>"""


@dataclass(frozen=True)
class Fixture:
    """One page with layers over it.

    Attributes:
        markup: the layers' HTML, put at the end of the body. css: their style.
        texts: sentences of the layers; none may be visible after "hide", nor in the reader or
            ``extract``'s text.
        lock: how the page locks its scroll while a layer is open: ``""`` (it does not), or the
            ``<body>`` and ``<html>`` attributes that lock it (a class, an inline style).
        cmp: the consent manager whose DOM shape it is (``None``: a site's own layers).
        script: a script run as the page loads (a layer built in a shadow root).
        anonymous: True for the anonymous-markup twin of a fixture.
        top: HTML put at the start of the body (a sticky bar above the page).
    """

    markup: str
    css: str
    texts: tuple[str, ...]
    lock: dict = field(default_factory=dict)
    cmp: str | None = None
    script: str = ""
    anonymous: bool = False
    top: str = ""


CONSENT_TEXT = "We and our 812 partners store and read cookies on your device to measure audiences and show you personalised ads."
NEWSLETTER_TEXT = "Get the morning briefing in your inbox every day before seven."
PLAYER_TEXT = "Now playing: lifeboat crew rescue two kayakers off Gull Point"
APP_TEXT = "Read the Gazette in our app: faster, with offline reading."
CHAT_TEXT = "Questions about your subscription? Chat with us"
PAYWALL_TEXT = "You have read 4 of your 5 free articles this month. Subscribe for unlimited access."
STICKY_TEXT = "Port Elling Gazette: local news since 1871"


def _news(names: dict[str, str]) -> tuple[str, str]:
    """The issue's news page layers (consent banner fixed to the bottom, newsletter modal over a
    dimmed backdrop, sticky top bar, floating video player, app banner, chat bubble, paywall nag)
    with the class names ``names`` gives each part: markup and css."""
    n = names
    markup = f"""
<div class="{n['consent']}" role="{n['consent_role']}"><p>{CONSENT_TEXT}</p>
<button type="button">Accept all</button> <button type="button">Reject all</button> <a href="/privacy">Settings</a></div>
<div class="{n['backdrop']}"></div>
<div class="{n['modal']}" role="{n['modal_role']}"><h2>Never miss a morning</h2><p>{NEWSLETTER_TEXT}</p>
<form><input type="email" placeholder="you@example.org"><button type="submit">Sign up</button></form>
<button type="button" aria-label="Close">×</button></div>
<div class="{n['player']}"><div class="{n['screen']}"></div><p>{PLAYER_TEXT}</p></div>
<div class="{n['app']}"><p>{APP_TEXT}</p><a href="/app">Open</a></div>
<div class="{n['chat']}"><button type="button">{CHAT_TEXT}</button></div>
<div class="{n['paywall']}"><p>{PAYWALL_TEXT}</p><a href="/subscribe">Subscribe</a></div>"""
    css = f"""
.{n['sticky']} {{ position: sticky; top: 0; z-index: 50; background: #ffd166; padding: 8px 24px; font: 15px sans-serif; }}
.{n['consent']} {{ position: fixed; left: 0; right: 0; bottom: 0; z-index: 1000; background: #1d3557; color: #fff; padding: 16px 24px; font: 15px sans-serif; }}
.{n['backdrop']} {{ position: fixed; inset: 0; z-index: 2000; background: rgba(0, 0, 0, .6); }}
.{n['modal']} {{ position: fixed; top: 50%; left: 50%; transform: translate(-50%, -50%); width: 420px; z-index: 2001;
  background: #fff; padding: 24px; border-radius: 8px; font: 16px sans-serif; }}
.{n['player']} {{ position: fixed; right: 16px; bottom: 140px; width: 320px; z-index: 900; background: #000; color: #fff; font: 13px sans-serif; }}
.{n['screen']} {{ height: 180px; background: linear-gradient(#345, #123); }}
.{n['app']} {{ position: fixed; top: 0; left: 0; right: 0; z-index: 950; background: #e9f5db; padding: 6px 24px; font: 14px sans-serif; }}
.{n['chat']} {{ position: fixed; left: 16px; bottom: 140px; z-index: 960; }}
.{n['chat']} button {{ border-radius: 24px; padding: 12px 18px; background: #06d6a0; border: 0; font: 14px sans-serif; }}
.{n['paywall']} {{ position: fixed; left: 0; right: 0; bottom: 70px; z-index: 990; background: #fff3b0; padding: 10px 24px; font: 14px sans-serif; }}
"""
    top = f"""<div class="{n['sticky']}"><span>{STICKY_TEXT}</span> <a href="/subscribe">Subscribe</a></div>"""
    return markup, css, top


NAMED = {"sticky": "site-header--sticky", "consent": "cookie-consent-banner", "consent_role": "dialog",
         "backdrop": "modal-backdrop", "modal": "newsletter-modal", "modal_role": "dialog",
         "player": "video-player--floating", "screen": "video-player__screen", "app": "smart-app-banner",
         "chat": "chat-widget-launcher", "paywall": "paywall-nag"}
ANONYMOUS = {"sticky": "bar", "consent": "box", "consent_role": "region", "backdrop": "shade", "modal": "dim",
             "modal_role": "region", "player": "pl", "screen": "pls", "app": "strip", "chat": "dot", "paywall": "note"}

NEWS_TEXTS = (CONSENT_TEXT, NEWSLETTER_TEXT, PLAYER_TEXT, APP_TEXT, CHAT_TEXT, PAYWALL_TEXT, STICKY_TEXT)

REJECT = '<button type="button" {}>Reject all</button>'


def _cmp(markup: str, css: str, cmp: str, script: str = "", lock: dict | None = None) -> Fixture:
    return Fixture(markup=markup, css=css, texts=(CONSENT_TEXT,), cmp=cmp, script=script, lock=lock or {})


BOTTOM = "position: fixed; left: 0; right: 0; bottom: 0; z-index: 2147483000; background: #fff; padding: 16px 24px; box-shadow: 0 -2px 12px #0004; font: 15px sans-serif;"
CENTER = ("position: fixed; top: 50%; left: 50%; transform: translate(-50%, -50%); width: 520px; z-index: 2147483001; "
          "background: #fff; padding: 24px; border-radius: 6px; font: 15px sans-serif;")
SCREEN = "position: fixed; inset: 0; z-index: 2147483000; background: rgba(0, 0, 0, .5);"

FIXTURES: dict[str, Fixture] = {
    "news-named": Fixture(*_news(NAMED)[:2], top=_news(NAMED)[2], texts=NEWS_TEXTS, lock={"body": 'class="modal-open"'}),
    "news-anonymous": Fixture(*_news(ANONYMOUS)[:2], top=_news(ANONYMOUS)[2], texts=NEWS_TEXTS, anonymous=True,
                              lock={"body": 'class="s9"', "html": 'style="overflow: hidden"'}),
    "onetrust": _cmp(
        f"""<div id="onetrust-consent-sdk"><div class="onetrust-pc-dark-filter"></div>
<div id="onetrust-banner-sdk" class="otFlat" role="region" aria-label="Cookie banner"><div id="onetrust-policy">
<p id="onetrust-policy-text">{CONSENT_TEXT}</p></div><div id="onetrust-button-group">
<button id="onetrust-pc-btn-handler">Cookie settings</button> {REJECT.format('id="onetrust-reject-all-handler"')}
<button id="onetrust-accept-btn-handler">Accept all cookies</button></div></div></div>""",
        f"#onetrust-banner-sdk {{ {BOTTOM} }} .onetrust-pc-dark-filter {{ {SCREEN} }}", "Onetrust",
        lock={"body": 'style="overflow: hidden"'}),
    "cookiebot": _cmp(
        f"""<div id="CybotCookiebotDialogBodyUnderlay"></div><div id="CybotCookiebotDialog" role="dialog" aria-modal="true"
class="CybotCookiebotDialogActive" lang="en"><div id="CybotCookiebotDialogBody"><h2 id="CybotCookiebotDialogBodyContentTitle">This website uses cookies</h2>
<div id="CybotCookiebotDialogBodyContentText">{CONSENT_TEXT}</div></div><div id="CybotCookiebotDialogFooter">
{REJECT.format('id="CybotCookiebotDialogBodyButtonDecline"')} <button id="CybotCookiebotDialogBodyLevelButtonLevelOptinAllowallSelection">Allow selection</button>
<button id="CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll">Allow all</button></div></div>""",
        f"#CybotCookiebotDialog {{ {CENTER} }} #CybotCookiebotDialogBodyUnderlay {{ {SCREEN} }}", "Cybotcookiebot",
        # Cookiebot's script API, which autoconsent's rule asks in the page's own world
        script="""window.Cookiebot = { hasResponse: false, declined: false, dialog: { visible: true },
  withdraw() { this.declined = this.hasResponse = true; window.fixtureAnswer("rejected"); },
  submitCustomConsent() { this.hasResponse = true; window.fixtureAnswer("accepted"); },
  hide() { this.dialog.visible = false; } };"""),
    "didomi": _cmp(
        f"""<div id="didomi-host" class="didomi-host"><div id="didomi-notice" class="didomi-notice-banner didomi-popup-notice"
role="region" aria-label="Cookie notice"><div class="didomi-notice-text">{CONSENT_TEXT}</div><div class="didomi-buttons">
<button id="didomi-notice-learn-more-button">Learn more</button> {REJECT.format('id="didomi-notice-disagree-button"')}
<button id="didomi-notice-agree-button">Agree and close</button></div></div></div>""",
        f"#didomi-notice {{ {BOTTOM} }}", "didomi"),
    "quantcast": _cmp(
        f"""<div id="qc-cmp2-container" class="qc-cmp2-container"><div class="qc-cmp-cleanslate css-1hs7ckb"><div id="qc-cmp2-main" class="qc-cmp2-main">
<div id="qc-cmp2-ui" role="dialog" aria-label="qc-cmp2-ui" aria-modal="true" tabindex="0"><div class="qc-cmp2-summary-section">
<h2>We value your privacy</h2><div class="qc-cmp2-summary-info"><p>{CONSENT_TEXT}</p></div></div>
<div class="qc-cmp2-footer"><div class="qc-cmp2-summary-buttons"><button mode="secondary" size="large" class="css-47sehv">More options</button>
{REJECT.format('id="disagree-btn" mode="secondary" size="large" class="css-47sehv"')}
<button mode="primary" size="large" class="css-47sehv">Agree</button></div></div></div></div></div></div>""",
        f".qc-cmp-cleanslate {{ {SCREEN} display: flex; align-items: center; justify-content: center; }} #qc-cmp2-ui {{ background: #fff; width: 520px; padding: 24px; font: 15px sans-serif; }}",
        "quantcast", lock={"body": 'style="overflow: hidden"'}),
    "usercentrics": _cmp(
        '<div id="usercentrics-root" data-testid="uc-app-container"></div>',
        "",
        "usercentrics-button",
        script=f"""const host = document.getElementById("usercentrics-root");
const root = host.attachShadow({{mode: "open"}});
root.innerHTML = `<style>.bar {{ {BOTTOM} }}</style><div class="bar" data-testid="uc-default-banner" role="dialog" aria-label="Privacy settings">
<p id="uc-show-more">{CONSENT_TEXT}</p><button data-testid="uc-deny-all-button" class="sc-deny">Reject all</button>
<button data-testid="uc-more-button">Settings</button><button data-testid="uc-accept-all-button">Accept all</button></div>`;"""),
    "sourcepoint": _cmp(
        '<div id="sp_message_container_1024" class="sp-message-open"><iframe id="sp_message_iframe_1024" title="SP Consent Message" '
        f'srcdoc="&lt;p style=&quot;font: 15px sans-serif&quot;&gt;{CONSENT_TEXT}&lt;/p&gt;&lt;button&gt;Reject all&lt;/button&gt;&lt;button&gt;Accept&lt;/button&gt;"></iframe></div>',
        f"#sp_message_container_1024 {{ {SCREEN} display: flex; align-items: center; justify-content: center; }} "
        "#sp_message_iframe_1024 { width: 560px; height: 300px; border: 0; background: #fff; }",
        "Sourcepoint-frame", lock={"html": 'class="sp-message-open"', "body": 'style="overflow: hidden"'}),
    "trustarc": _cmp(
        f"""<div id="truste-consent-track" class="truste-consent-track"><div id="truste-consent-content"><div id="truste-consent-text">{CONSENT_TEXT}</div>
<div id="truste-consent-buttons"><button id="truste-consent-button">Accept all</button> {REJECT.format('id="truste-consent-required"')}
<button id="truste-show-consent">Cookie preferences</button></div></div></div>""",
        f"#truste-consent-track {{ {BOTTOM} }}", "TrustArc-top"),
    "cookieyes": _cmp(
        f"""<div class="cky-overlay"></div><div class="cky-consent-container cky-box-bottom-left" tabindex="0" aria-label="We value your privacy" role="region">
<div class="cky-consent-bar"><div class="cky-notice"><p class="cky-title">We value your privacy</p><div class="cky-notice-des"><p>{CONSENT_TEXT}</p></div>
<div class="cky-notice-btn-wrapper"><button class="cky-btn cky-btn-customize" data-cky-tag="settings-button">Customise</button>
{REJECT.format('class="cky-btn cky-btn-reject" data-cky-tag="reject-button"')}
<button class="cky-btn cky-btn-accept" data-cky-tag="accept-button">Accept all</button></div></div></div></div>""",
        f".cky-consent-container {{ position: fixed; left: 24px; bottom: 24px; width: 440px; z-index: 9999; background: #fff; padding: 20px; box-shadow: 0 2px 12px #0005; font: 15px sans-serif; }} .cky-overlay {{ {SCREEN} z-index: 9998; }}",
        "cookieyes"),
    "complianz": _cmp(
        f"""<div id="cmplz-cookiebanner-container"><div class="cmplz-cookiebanner cmplz-show banner-1 bottom-right optin" aria-modal="true" role="dialog" aria-live="polite">
<div class="cmplz-header"><div class="cmplz-title">Manage cookie consent</div></div><div class="cmplz-body"><div class="cmplz-message"><p>{CONSENT_TEXT}</p></div></div>
<div class="cmplz-buttons"><button class="cmplz-btn cmplz-accept">Accept</button> {REJECT.format('class="cmplz-btn cmplz-deny"')}
<button class="cmplz-btn cmplz-view-preferences">View preferences</button></div></div></div>""",
        ".cmplz-cookiebanner { position: fixed; right: 16px; bottom: 16px; width: 420px; z-index: 99999; background: #fff; padding: 20px; box-shadow: 0 2px 12px #0005; font: 15px sans-serif; }",
        "Complianz banner"),
}
"""Every fixture, by name: the issue's news page in named and anonymous markup, then one page per
consent manager."""


def _anonymous_cmp(fixture: Fixture) -> Fixture:
    """The same consent layer in anonymous markup: every id and class replaced by ``box``,
    ``shade`` or ``dim``-like names, ``role`` and ``aria-*`` left out, the style kept."""
    import re

    from lxml import html as lxml_html

    names = iter(f"x{k}" for k in range(1000))
    renamed: dict[str, str] = {}
    css = fixture.css
    markup = fixture.markup
    for ident in sorted(set(re.findall(r'(?:id|class)="([^"]+)"', markup)), key=len, reverse=True):
        for token in ident.split():
            if token not in renamed:
                renamed[token] = next(names)
    fragment = lxml_html.fragment_fromstring(markup, create_parent="div") if markup.strip() else None
    if fragment is not None:
        for element in fragment.iter():
            for attr in ("id", "class"):
                if element.get(attr):
                    element.set(attr, " ".join(renamed.get(t, t) for t in element.get(attr).split()))
            for attr in list(element.attrib):
                if attr in ("role", "aria-label", "aria-modal", "aria-live", "data-testid", "data-cky-tag", "title", "mode"):
                    del element.attrib[attr]
        markup = "".join(lxml_html.tostring(child, encoding="unicode") for child in fragment)
    for token, new in sorted(renamed.items(), key=lambda kv: len(kv[0]), reverse=True):
        css = re.sub(rf"([#.]){re.escape(token)}(?![\w-])", lambda m: ("." if m.group(1) == "." else "#") + new, css)
    script = fixture.script
    for token, new in renamed.items():
        script = script.replace(f'"{token}"', f'"{new}"')
    script = re.sub(r' (?:data-testid|role|aria-label)="[^"]*"', "", script).replace('id="uc-show-more"', "")
    return Fixture(markup=markup, css=css, texts=fixture.texts, lock=fixture.lock, cmp=None, script=script, anonymous=True,
                   top=fixture.top)


for _name in [n for n, f in FIXTURES.items() if f.cmp]:
    FIXTURES[f"{_name}-anonymous"] = _anonymous_cmp(FIXTURES[_name])

LOCK_CSS = """
body.modal-open { overflow: hidden; }
body.s9 { overflow: hidden; position: fixed; top: 0; left: 0; right: 0; }
"""


CONSENT_SCRIPT = """window.fixtureAnswer = (answer) => {
  document.documentElement.dataset.consent = answer;
  let next = document.querySelector("footer.foot").nextElementSibling;
  while (next) { const gone = next; next = next.nextElementSibling; if (gone.localName !== "script") gone.remove(); }
  for (const el of [document.documentElement, document.body]) { el.removeAttribute("style"); el.classList.remove("modal-open", "s9", "sp-message-open"); }
};
document.addEventListener("click", (event) => {
  const button = event.composedPath().find((e) => e.localName === "button");
  const said = button ? button.textContent.trim() : "";
  if (/^(Reject|Accept|Agree|Allow)/.test(said)) window.fixtureAnswer(said.startsWith("Reject") ? "rejected" : "accepted");
}, true);"""
"""Page script of the consent managers' fixtures: a click on a "Reject ..." or "Accept ..."
button (or a call of a manager's script API, ``fixtureAnswer``) does what a consent manager does
(records the answer on ``<html data-consent>``, removes its layers, unlocks the page's scroll),
so a test can tell an opt-out from an accept."""


def page_html(name: str, locked: bool = True) -> str:
    """The whole page of fixture ``name``: the story with the fixture's layers, its scroll locked
    as the fixture locks it (unless ``locked`` is false)."""
    fixture = FIXTURES[name]
    html_attrs = fixture.lock.get("html", "") if locked else ""
    body_attrs = fixture.lock.get("body", "") if locked else ""
    scripts = [fixture.script] if fixture.script else []
    if fixture.texts == (CONSENT_TEXT,):
        scripts.append(CONSENT_SCRIPT)
    script = "".join(f"<script>{{\n{s}\n}}</script>" for s in scripts)
    return (f'<!doctype html><html lang="en" {html_attrs}><head><meta charset="utf-8"><title>{TITLE} - Port Elling Gazette</title>'
            f'<meta name="viewport" content="width=device-width"><style>{BASE_CSS}{LOCK_CSS}{fixture.css}</style></head>'
            f'<body {body_attrs}>{fixture.top}{story_html()}{fixture.markup}{script}</body></html>')


VISIBLE_LAYERS_JS = """(() => {
  const out = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) walk(el.shadowRoot);
      if (el === document.documentElement || el === document.body || el.localName.startsWith("pagesieve-")) continue;
      const position = getComputedStyle(el).position;
      if ((position === "fixed" || position === "sticky") && el.checkVisibility()) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) out.push(el.localName + "." + el.className + ": " + el.textContent.trim().slice(0, 40));
      }
    }
  };
  walk(document);
  return out;
})()"""
"""Page script: the fixed and sticky elements a person sees (rendered, with a box), the page's
own ``<html>``, ``<body>`` and pagesieve's elements left out; open shadow roots walked too.
What "nothing of the layers is visible" checks, in both browsers."""

STORY_TOP_JS = "document.querySelector('article').getBoundingClientRect().top"
"""Page script: where the story's top is in the viewport (it moves when the page scrolls, whether
the window or a locked body scrolls)."""

READER_TEXT_JS = """(() => {
  const host = document.querySelector("pagesieve-reader");
  return host && host.shadowRoot ? host.shadowRoot.querySelector("article").innerText : null;
})()"""
"""Page script: the text of pagesieve's reader view (``null`` when it is not open)."""


def overlay_names() -> list[str]:
    """The fixtures the browser tests open, the issue's news pages first."""
    return list(FIXTURES)
