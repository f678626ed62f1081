"""The picture each image of the article shows (pagesieve.article.images), and the blocks of the
article's HTML that show nothing (pagesieve.article.render.remove_empty_blocks)."""

from __future__ import annotations

import base64
import re
import struct
import zlib

from lxml import html as lxml_html

from pagesieve.article.images import image_source, lazy_source, resolve_images, shows_nothing
from pagesieve.article.render import remove_empty_blocks
from pagesieve.extract import extract

EMPTY_SVG = "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20viewBox='0%200%201024%20768'%3E%3C/svg%3E"
PIXEL_GIF = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"


def _png(width: int, height: int) -> str:
    """A data URI of a real PNG of ``width`` x ``height`` grey pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    return "data:image/png;base64," + base64.b64encode(data).decode()


def test_placeholders_that_draw_nothing_are_told_from_pictures():
    assert shows_nothing(EMPTY_SVG)
    assert shows_nothing("data:image/svg+xml;base64," + base64.b64encode(b'<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>').decode())
    assert shows_nothing(PIXEL_GIF)
    assert shows_nothing(_png(1, 1)) and shows_nothing(_png(2, 2))
    # pictures, however small their address
    assert not shows_nothing(_png(3, 3))
    assert not shows_nothing("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'%3E%3Ccircle r='4'/%3E%3C/svg%3E")
    assert not shows_nothing("https://example.org/pixel.gif")
    assert not shows_nothing("data:image/png;base64,not-base64!")  # undecodable: taken to show something
    assert not shows_nothing("data:image/jpeg;base64,/9j/4AAQ")


def test_a_lazy_address_in_any_attribute_is_found():
    def img(attributes: str):
        return lxml_html.fragment_fromstring(f"<img {attributes}>")

    nitro = img(f'src="{EMPTY_SVG}" nitro-lazy-src="https://cdn.example/a/photo-1024x683.webp" alt="x"')
    assert lazy_source(nitro) == image_source(nitro) == "https://cdn.example/a/photo-1024x683.webp"
    srcset = img(f'src="{PIXEL_GIF}" data-lzl-srcset="/s.jpg 300w, /m.jpg 800w, /xl.jpg 4000w"')
    assert image_source(srcset) == "/m.jpg"
    known = img(f'src="{PIXEL_GIF}" data-src="/known.png" nitro-lazy-src="/other.png"')
    assert image_source(known) == "/known.png"  # the known attributes first
    assert lazy_source(img('src="/a.png" alt="photo.jpg" title="b.png" class="c.jpg"')) is None
    assert image_source(img('src="  " alt="no address"')) is None


def test_images_with_no_picture_leave_the_article_and_their_text_stays():
    body = lxml_html.fragment_fromstring(
        f'<div><p>Before <img src="{EMPTY_SVG}" width="1024">after</p>'
        f'<p><img src="{PIXEL_GIF}" nitro-lazy-src="/real.jpg">Caption</p>'
        f'<p><img alt="Sustainable clothing" width="1400">Tail</p><p><img src="{_png(4, 3)}"></p></div>')
    assert resolve_images(body, "https://example.org/post/") == 2
    out = lxml_html.tostring(body, encoding="unicode")
    assert [i.get("src")[:22] for i in body.iter("img")] == ["https://example.org/re", "data:image/png;base64,"]
    assert "Before after" in out and "Caption" in out and "Tail" in out


def test_blocks_that_show_nothing_leave_the_html():
    body = lxml_html.fragment_fromstring(
        '<div><p>\u00a0</p><h3> <span class="icon"></span></h3><p>Text</p><ul><li><br></li><li>Item</li></ul>'
        '<p><img src="/a.jpg"></p><h2 id="notes"></h2><p><a href="#notes">to the notes</a></p>'
        '<blockquote><p>\u200b</p></blockquote><figure><img src="/b.jpg"></figure></div>')
    assert remove_empty_blocks(body) == 5  # the spacer, the icon heading, the item, the quote and its paragraph
    out = lxml_html.tostring(body, encoding="unicode")
    assert out.count("<p>") == 3 and "<h3>" not in out and "<blockquote>" not in out and out.count("<li>") == 1
    assert '<h2 id="notes">' in out  # a link of the article points to it


def test_the_reader_of_real_pages_shows_their_pictures_and_no_blank_boxes(datasets_dir):
    """wcxb_dev/0217 loads its 14 pictures with NitroPack (``nitro-lazy-src``): the reader showed
    14 empty boxes. wcxb_dev/4083 keeps nothing of its pictures but the size-keeping SVG; the
    reader showed 14 blank boxes of 1,024 pixels. In wcxb_dev/0136 the sanitiser split the
    paragraphs around figures (``<p></p><figure>``), gaps in the reader."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    wcxb = load_dataset(datasets_dir / "wcxb_dev")

    def reader(page_id):
        return extract(read_page(wcxb, page_id), wcxb.record(page_id).url)

    nitro = reader("0217")
    sources = re.findall(r'<img[^>]* src="([^"]+)"', nitro.html)
    assert len(sources) >= 10 and all(s.startswith("https://cdn-hjagh.nitrocdn.com/") for s in sources)
    blank = reader("4083")
    assert "data:image" not in blank.html and len(blank.text) > 5000
    for page_id in ("0136", "4083"):
        html = reader(page_id).html
        assert not re.search(r"<(p|h[1-6]|li)>(\s|&nbsp;)*</\1>", html), page_id


def test_a_live_page_s_lazy_pictures_reach_the_reader_through_the_snapshot(datasets_dir):
    """The extension sends a live page as a snapshot that keeps a few attributes; a picture below
    the window that NitroPack has not swapped in yet keeps its address in ``nitro-lazy-src``,
    or ``nitro-lazy-srcset``, which the snapshot left out: the reader of wcxb_dev/0217 as a live page showed none of the
    14 pictures the HTML route shows. The sender (``extension/content/snapshot.js``, mirrored by
    :func:`pagesieve.page.to_snapshot.page_to_snapshot`) now adds that one attribute to an
    ``<img>`` whose picture is a placeholder, and no other attribute."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    from pagesieve.extract import extract_page
    from pagesieve.page.html import parse_html
    from pagesieve.page.snapshot import parse_snapshot
    from pagesieve.page.to_snapshot import page_to_snapshot

    wcxb = load_dataset(datasets_dir / "wcxb_dev")
    source, url = read_page(wcxb, "0217"), wcxb.record("0217").url
    snapshot = page_to_snapshot(parse_html(source, url=url))
    sent = [node.get("a", {}) for node in snapshot["nodes"] if node.get("t") == "img"]
    assert sum("nitro-lazy-src" in a or "nitro-lazy-srcset" in a for a in sent) >= 14
    assert not any("decoding" in a or "nitro-lazy-empty" in a or "loading" in a for a in sent)  # no other attribute
    live = re.findall(r'<img[^>]* src="([^"]+)"', extract_page(parse_snapshot(snapshot)).html)
    html = re.findall(r'<img[^>]* src="([^"]+)"', extract(source, url).html)
    assert len(live) == 14 and live == html


def test_a_loaded_picture_sends_no_lazy_attribute():
    from pagesieve.page.lazy import unsent_lazy_attribute
    from pagesieve.page.snapshot import KEPT_ATTRIBUTES

    kept = frozenset(KEPT_ATTRIBUTES)

    def img(attributes: str):
        return lxml_html.fragment_fromstring(f"<img {attributes}>")

    lazy = img(f'src="{PIXEL_GIF}" data-track="promo.jpg-7" data-lzl-src="/a/b.jpg" alt="c.jpg"')
    assert unsent_lazy_attribute(lazy, kept, lazy.get("src")) == ("data-lzl-src", "/a/b.jpg")  # not a tracker's value
    assert unsent_lazy_attribute(img('src="/spacer.gif" lazy-src="/p.png"'), kept, "/spacer.gif") == ("lazy-src", "/p.png")
    assert unsent_lazy_attribute(img('data-lzl-srcset="/p-1.webp 1x, /p-2.webp 2x"'), kept, None)[0] == "data-lzl-srcset"
    # a picture shown, a known loader's attribute (sent anyway), or a name XML cannot take: nothing
    assert unsent_lazy_attribute(img('src="/photo.jpg" data-lzl-src="/big.jpg"'), kept, "/photo.jpg") is None
    assert unsent_lazy_attribute(img(f'src="{PIXEL_GIF}" data-src="/p.jpg" lazy-src="/q.jpg"'), kept, PIXEL_GIF) is None
    assert unsent_lazy_attribute(img(f'src="{PIXEL_GIF}" data-ps-id="/p.jpg" :src="/q.jpg" v-bind:src="/r.jpg"'), kept, PIXEL_GIF) is None
