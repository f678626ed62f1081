"""Read a page from the web for the command line (``pagesieve extract URL``): urllib3 with a
timeout, redirects, a size cap and the page's own charset detection (:func:`pagesieve.page.html.parse_html`
reads the bytes).

The browser extension never needs this: it reads pages with the browser's own session. The
command line sends no cookies and identifies itself as pagesieve.
"""

from __future__ import annotations

from dataclasses import dataclass

from pagesieve.errors import PagesieveError

TIMEOUT_S = (10.0, 30.0)
"""Connect and read timeouts (seconds) of one request."""

MAX_REDIRECTS = 5
"""Redirects followed per request (browsers follow 20; a page moved more than 5 times is
broken)."""

MAX_BYTES = 16 * 1024 * 1024
"""The most bytes read of one page (16 MiB): the largest page of ``../shared/datasets`` is
4 MB; a larger answer is not an article page."""

HTML_TYPES = ("text/html", "application/xhtml+xml")
"""Content types read as a page (WHATWG MIME Sniffing §4.6, HTML MIME types); a missing type is
read too."""

USER_AGENT = "pagesieve/0.1"
"""The User-Agent header the command line sends."""


class FetchError(PagesieveError):
    """The page could not be read from the web: the network failed, the server answered with an
    error, or the answer is not a page (not HTML, too large)."""

    exit_code = 12


@dataclass(slots=True)
class Fetched:
    """One page read from the web.

    Attributes:
        url: the address asked for; final_url: the address after redirects (what relative
            links resolve against). body: the bytes. content_type: the ``Content-Type`` header.
    """

    url: str
    final_url: str
    body: bytes
    content_type: str


def fetch_page(url: str, timeout: tuple[float, float] = TIMEOUT_S, max_bytes: int = MAX_BYTES) -> Fetched:
    """Read ``url`` (http or https).

    Raises:
        FetchError: another scheme; the host cannot be reached or does not answer in time; an
            HTTP status of 400 or more; more than :data:`MAX_REDIRECTS` redirects; a content
            type that is not HTML (:data:`HTML_TYPES`); more than ``max_bytes`` bytes.
    """
    import urllib3
    from urllib3.exceptions import HTTPError, MaxRetryError

    if not url.lower().startswith(("http://", "https://")):
        raise FetchError(f"{url}: only http and https addresses can be read")
    pool = urllib3.PoolManager(headers={"User-Agent": USER_AGENT, "Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"})
    try:
        response = pool.request("GET", url, preload_content=False, timeout=urllib3.Timeout(connect=timeout[0], read=timeout[1]),
                                retries=urllib3.Retry(total=MAX_REDIRECTS, connect=0, read=0, status=0, redirect=MAX_REDIRECTS,
                                                      raise_on_redirect=True, raise_on_status=False))
    except MaxRetryError as exc:
        reason = exc.reason
        if reason is not None and "redirect" in type(reason).__name__.lower() or "redirect" in str(exc).lower():
            raise FetchError(f"{url}: more than {MAX_REDIRECTS} redirects") from None
        raise FetchError(f"{url}: cannot be reached ({_short(reason or exc)})") from None
    except HTTPError as exc:
        raise FetchError(f"{url}: cannot be read ({_short(exc)})") from None
    try:
        if response.status >= 400:
            raise FetchError(f"{url}: the server answered {response.status} {response.reason or ''}".rstrip())
        content_type = response.headers.get("Content-Type", "")
        kind = content_type.split(";")[0].strip().lower()
        if kind and kind not in HTML_TYPES:
            raise FetchError(f"{url}: not a web page (Content-Type {kind})")
        declared = response.headers.get("Content-Length")
        if declared and declared.isdigit() and int(declared) > max_bytes:
            raise FetchError(f"{url}: too large ({int(declared)} bytes; at most {max_bytes})")
        chunks, size = [], 0
        try:
            for chunk in response.stream(64 * 1024):
                size += len(chunk)
                if size > max_bytes:
                    raise FetchError(f"{url}: too large (over {max_bytes} bytes)")
                chunks.append(chunk)
        except HTTPError as exc:
            raise FetchError(f"{url}: the answer broke off ({_short(exc)})") from None
        final = response.geturl() or url
        if final and not final.lower().startswith(("http://", "https://")):
            from urllib.parse import urljoin

            final = urljoin(url, final)
        return Fetched(url, final, b"".join(chunks), content_type)
    finally:
        response.release_conn()
        pool.clear()


def _short(exc: object) -> str:
    text = str(exc)
    if "Connection refused" in text:
        return "connection refused"
    if "timed out" in text.lower():
        return "timed out"
    if "Name or service not known" in text or "nodename nor servname" in text or "Temporary failure in name resolution" in text:
        return "unknown host"
    return text.splitlines()[0][:200] if text else type(exc).__name__
