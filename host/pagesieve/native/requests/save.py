"""``save``: the reader article saved into the library as Markdown and HTML files (docs/protocol.md)."""

from __future__ import annotations

from pagesieve.native.envelope import ErrorCode, ProtocolError
from pagesieve.native.session import Session

MAX_SAVE_IMAGES = 500
"""Images a ``save`` request may carry. The library inlines at most what its size caps allow
(:data:`pagesieve.library.html_file.MAX_INLINE_BYTES`); the extension stops well before."""


def handle(session: Session, message: dict) -> dict:
    """``save`` ``{"article", "images"?, "tags"?, "folder"?}`` -> ``{"type": "saved", "entry", "title",
    "markdown", "html" (file paths), "updated", "images_inlined", "images_linked"}``.

    ``article`` is the reader view's article as ``clean`` returned it (``title``, ``html``,
    ``text``, ``url`` required; ``byline``, ``published``, ``site_name``, ``language``,
    ``lead_image``, ``description`` optional); its HTML is sanitised again here, so a
    request cannot put anything into the files that the reader view would not show.
    ``images`` maps absolute image URLs to ``{"type": MIME type, "data": base64}`` (fetched
    by the extension with the page's permissions; inlined within the library's caps, the
    others stay links). Saving a URL again updates its entry (pagesieve.library).

    Raises:
        ProtocolError: BAD_REQUEST (a field missing or of the wrong type, bad base64),
            NOTHING_TO_SAVE, LIBRARY.
    """
    import base64
    import binascii

    from pagesieve.article.model import Article, Metadata
    from pagesieve.article.render import sanitise
    from pagesieve.errors import InputError, LibraryError
    from pagesieve.library.save import save_article

    data = message.get("article")
    if not isinstance(data, dict):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "\"article\" must be an object (the reader article of a clean reply)")
    for key in ("title", "html", "text"):
        if not isinstance(data.get(key), str):
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"article.{key} must be a string")
    url = data.get("url")
    if not isinstance(url, str) or not url.startswith(("http://", "https://", "file:")):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "article.url must be the page's http(s) or file URL")
    optional = {}
    for key in ("byline", "published", "site_name", "lead_image", "language", "description"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"article.{key} must be a string or null")
        optional[key] = value or None
    tags = message.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "\"tags\" must be a list of strings")
    raw_images = message.get("images") or {}
    if not isinstance(raw_images, dict) or len(raw_images) > MAX_SAVE_IMAGES:
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"\"images\" must be an object of at most {MAX_SAVE_IMAGES} images")
    images = {}
    for image_url, image in raw_images.items():
        if not isinstance(image, dict) or not isinstance(image.get("type"), str) or not isinstance(image.get("data"), str):
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"image {image_url[:80]!r} must be {{\"type\": MIME type, \"data\": base64}}")
        try:
            images[image_url] = (image["type"], base64.b64decode(image["data"], validate=True))
        except (binascii.Error, ValueError):
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"image {image_url[:80]!r}: \"data\" is not base64") from None
    article = Article(metadata=Metadata(title=data["title"], **optional), url=url, html=f"<div>{sanitise(data['html'])}</div>", text=data["text"])
    folder = session.folder(message)
    try:
        saved = save_article(article, folder, tags, images)
    except InputError as exc:
        raise ProtocolError(ErrorCode.NOTHING_TO_SAVE, str(exc)) from None
    except LibraryError as exc:
        raise ProtocolError(ErrorCode.LIBRARY, str(exc)) from None
    return {
        "type": "saved", "entry": saved.id, "title": saved.title, "markdown": str(saved.md_path),
        "html": str(saved.html_path), "updated": saved.updated,
        "images_inlined": saved.images_inlined, "images_linked": saved.images_linked,
    }
