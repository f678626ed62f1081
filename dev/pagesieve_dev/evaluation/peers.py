"""Other extractors to compare against (``pagesieve-dev eval --compare``), called exactly as the
bars in the issues were measured.

Each peer is a callable ``(html: str, url: str | None) -> str`` returning the main text:

* ``trafilatura`` (2.3.1): ``trafilatura.extract(html, url=url, include_comments=False,
  include_tables=True)``, plain-text output; ``None`` becomes ``""``.
* ``readability`` (readability-lxml 0.9):
  ``lxml.html.fromstring(readability.Document(html).summary(html_partial=True)).text_content()``
  (``""`` when the summary is blank).

Two details of the readability wrapper decide whether the reference figures are reproduced
(checked on all pages of big9, cleaneval, daniel, dragnet, l3s_gn1, wcxb_dev, zh_cwced):

* ``html_partial=True``. With the default (``False``) readability wraps the article in
  ``<html><body><div>``, and its own ``sanitize`` step then judges that wrapper ``<div>``
  like any other block and may drop it whole (e.g. link density above 0.2); readability then
  retries in its lenient mode, which keeps a different, usually worse, candidate or nothing
  (24 of 647 dragnet pages come back empty). With ``html_partial=True`` the wrapper is the
  root of what ``sanitize`` cleans, and it only judges descendants, so it is never dropped.
  The default gives about dragnet 0.88, daniel 0.92, l3s_gn1 0.92 instead of the reference
  0.901, 0.926, 0.925.
* ``text_content()``, which concatenates text nodes with nothing in between, so the last word
  of one paragraph and the first of the next become one token when the markup has no white
  space between them (``<p>a</p><p>b</p>`` -> ``"ab"``). That costs readability a little
  (wcxb_dev 0.699 instead of 0.708 with a line break around each block, cleaneval 0.888
  instead of 0.890), but it is how the reference bars were measured, so it is kept.

Both are optional dependencies (``pip install -e '.[peers]'``), imported only when a peer is
asked for; :class:`MissingPeerError` says how to install them. Exceptions a peer raises on a
page are not caught here: :func:`pagesieve_dev.evaluation.results.evaluate` counts them as empty
output for that page and reports them.
"""

from __future__ import annotations

from collections.abc import Callable

from pagesieve.errors import PagesieveError
from pagesieve_dev.evaluation.scoring import Answer

#: ``(html, url) -> main text``: the shape of every extractor the evaluation runs; the peers
#: answer an :class:`~pagesieve_dev.evaluation.scoring.Answer`: their text and their title, which
#: goes in front where the truth keeps the headline (issue 52, so that the tables stay fair).
Extractor = Callable[[str, "str | None"], "str | Answer"]

INSTALL_HINT = "pip install -e '.[peers]'"


class MissingPeerError(PagesieveError):
    """A peer extractor named in ``--compare`` is not installed (or is unknown)."""

    exit_code = 7


def _trafilatura(header: bool = True) -> Extractor:
    try:
        import trafilatura
        from trafilatura.metadata import extract_title
        from trafilatura.utils import load_html
    except ImportError as exc:
        raise MissingPeerError(
            f"peer 'trafilatura' is not installed ({exc}); install the peers with: {INSTALL_HINT}"
        ) from exc

    def trafilatura_text(html: str, url: str | None = None) -> str:
        text = trafilatura.extract(html, url=url, include_comments=False, include_tables=True)
        return text or ""

    def trafilatura_extract(html: str, url: str | None = None) -> Answer:
        # the text as before; the title by trafilatura's own title search (its metadata's
        # ``extract_title``: the one h1, title meta, <title>), which goes in front where the
        # truth keeps the headline. Not with_metadata=True: that also reads dates and authors,
        # doubling its time, and its text is not extract()'s on tables.
        text = trafilatura_text(html, url)
        tree = load_html(html)
        title = (extract_title(tree) or "").strip() if tree is not None else ""
        return Answer(text, (title,) if title else ())

    return trafilatura_extract if header else trafilatura_text


def _readability(header: bool = True) -> Extractor:
    try:
        import lxml.html
        from readability import Document
    except ImportError as exc:
        raise MissingPeerError(
            f"peer 'readability' (readability-lxml) is not installed ({exc}); "
            f"install the peers with: {INSTALL_HINT}"
        ) from exc

    def readability_extract(html: str, url: str | None = None) -> Answer | str:
        document = Document(html)
        summary = document.summary(html_partial=True)
        text = lxml.html.fromstring(summary).text_content() if summary.strip() else ""
        if not header:
            return text
        title = (document.short_title() or "").strip()
        return Answer(text, (title,) if title else ())

    return readability_extract


#: Peer name (as written in ``--compare``) -> factory that imports it and returns the callable.
PEERS: dict[str, Callable[[bool], Extractor]] = {
    "trafilatura": _trafilatura,
    "readability": _readability,
}


def get_peer(name: str, header: bool = True) -> Extractor:
    """The extractor callable of peer ``name`` (a key of :data:`PEERS`), imported now: it answers
    an :class:`~pagesieve_dev.evaluation.scoring.Answer` (the peer's text and title), or with
    ``header`` false its text alone, as a ``str`` (what the timings run: no title search).

    Raises:
        MissingPeerError: ``name`` is unknown, or its package is not installed.
    """
    try:
        factory = PEERS[name]
    except KeyError:
        known = ", ".join(sorted(PEERS))
        raise MissingPeerError(f"unknown peer {name!r} (known: {known})") from None
    return factory(header)
