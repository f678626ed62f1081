"""The native-messaging host, as the browser runs it: a process fed framed JSON on stdin."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
import struct
import subprocess
import sys

import pytest

from pagesieve.native.framing import MAX_REPLY_BYTES, MAX_REQUEST_BYTES, chunk_reply, encode
from pagesieve.page.html import parse_html
from pagesieve.page.to_snapshot import page_to_snapshot

URL = "https://hillkitchen.example/posts/sourdough-altitude/"


class HostProcess:
    def __init__(self, tmp_path):
        self.library = tmp_path / "library"
        self.personal = tmp_path / "personal-model.skops"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pagesieve.native", "--store", str(tmp_path / "t.sqlite3"),
             "--log-dir", str(tmp_path / "log"), "--library-dir", str(self.library),
             "--labels", str(tmp_path / "labels.sqlite3"), "chrome-extension://abc/"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=dict(os.environ, PAGESIEVE_PERSONAL_MODEL=str(self.personal)),
        )
        self.log = tmp_path / "log" / "host.log"

    def send_raw(self, body: bytes, length: int | None = None) -> None:
        self.proc.stdin.write(struct.pack("=I", len(body) if length is None else length) + body)
        self.proc.stdin.flush()

    def read(self) -> dict:
        head = self.proc.stdout.read(4)
        assert len(head) == 4, "the host closed its output"
        (n,) = struct.unpack("=I", head)
        assert n <= MAX_REPLY_BYTES
        return json.loads(self.proc.stdout.read(n))

    def request(self, message: dict) -> dict:
        self.send_raw(json.dumps(message).encode())
        reply = self.read()
        if reply.get("type") == "chunk":  # reassemble, as the extension does
            parts = [reply]
            while len(parts) < reply["count"]:
                parts.append(self.read())
            assert [p["index"] for p in parts] == list(range(reply["count"]))
            reply = json.loads("".join(p["data"] for p in parts))
        return reply

    def close(self) -> int:
        self.proc.stdin.close()
        return self.proc.wait(30)


@pytest.fixture
def host(tmp_path):
    h = HostProcess(tmp_path)
    yield h
    if h.proc.poll() is None:
        h.close()


@pytest.fixture(scope="module")
def snapshot(example_page):
    snap = page_to_snapshot(parse_html(example_page.read_bytes(), url=URL))
    snap["url"] = URL
    return snap


def test_ping_and_clean_hide_and_reader(host, snapshot):
    pong = host.request({"v": 1, "id": 1, "type": "ping"})
    assert pong["ok"] and pong["type"] == "pong" and pong["protocol"] == 1
    hide = host.request({"v": 1, "id": "h", "type": "clean", "mode": "hide", "snapshot": snapshot})
    assert hide["ok"] and hide["id"] == "h" and hide["hide"] and hide["content"]
    assert not set(hide["hide"]) & set(hide["content"])
    reader = host.request({"v": 1, "id": "r", "type": "clean", "mode": "reader", "snapshot": snapshot})
    article = reader["article"]
    assert article["title"].startswith("Sourdough at Altitude") and "2,400 metres" in article["text"]
    assert article["html"].startswith("<div>") and article["markdown"]
    assert host.close() == 0


def test_bad_requests_get_error_replies_and_the_host_keeps_serving(host, snapshot):
    host.send_raw(b"{not json")
    assert host.read()["error"]["code"] == 4
    host.send_raw(b"\xff\xfe")
    assert host.read()["error"]["name"] == "bad_json"
    host.send_raw(b"")
    assert host.read()["error"]["code"] == 2
    for message, code in (
        ([1, 2], 5), ({"v": 2, "id": 1, "type": "ping"}, 5), ({"v": 1, "type": "ping"}, 5),
        ({"v": 1, "id": 7, "type": "explode"}, 6), ({"v": 1, "id": 8, "type": "clean"}, 8),
        ({"v": 1, "id": 9, "type": "clean", "mode": "x", "snapshot": snapshot}, 8),
        ({"v": 1, "id": 10, "type": "clean", "snapshot": {"version": 1, "nodes": "no"}}, 7),
        ({"v": 1, "id": 11, "type": "save"}, 8), ({"v": 1, "id": 12, "type": "label"}, 8),
    ):
        reply = host.request(message)
        assert reply["ok"] is False and reply["error"]["code"] == code, (message, reply)
    unknown = host.request({"v": 1, "id": 7, "type": "explode"})
    assert unknown["id"] == 7  # the id comes back whenever it could be read
    # an id too long to repeat in every chunk of a long reply (the unknown type's message repeats the type)
    long_id = host.request({"v": 1, "id": "i" * 2_000_000, "type": "x" * 2_000_000})
    assert long_id["id"] is None and long_id["error"]["code"] == 5 and "at most 200 characters" in long_id["error"]["message"]
    assert host.request({"v": 1, "id": 13, "type": "ping"})["ok"]
    assert host.close() == 0
    assert "BAD_SNAPSHOT" in host.log.read_text(encoding="utf-8")


# a 1x1 PNG
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000100ffff03000006000557bfabd40000000049454e44ae426082"
)


def test_save_the_reader_article_with_its_images(host, snapshot):
    import base64

    reader = host.request({"v": 1, "id": "r", "type": "clean", "mode": "reader", "snapshot": snapshot})
    article = {k: v for k, v in reader["article"].items() if k != "markdown"}
    # what only the extension knows: the image it fetched, plus a script a hostile page slipped in
    article["html"] = article["html"].replace("</p>", '</p><img src="https://hillkitchen.example/loaf.png" alt="loaf"><script>alert(1)</script>', 1)
    images = {"https://hillkitchen.example/loaf.png": {"type": "image/png", "data": base64.b64encode(PNG).decode()}}
    saved = host.request({"v": 1, "id": "s", "type": "save", "article": article, "images": images, "tags": ["bread"]})
    assert saved["ok"] and saved["id"] == "s" and saved["updated"] is False, saved
    assert saved["images_inlined"] == 1
    markdown, html = Path(saved["markdown"]), Path(saved["html"])
    assert markdown.parent == html.parent == host.library
    text = markdown.read_text(encoding="utf-8")
    assert text.startswith("---\n") and 'tags: ["bread"]' in text and "2,400 metres" in text
    page = html.read_text(encoding="utf-8")
    assert "data:image/png;base64," in page and "<script>alert" not in page
    # the same URL again: the same entry, rewritten
    again = host.request({"v": 1, "id": "t", "type": "save", "article": article})
    assert again["updated"] is True and again["entry"] == saved["entry"] and again["markdown"] == saved["markdown"]
    assert sorted(p.name for p in host.library.iterdir() if not p.name.startswith(".")) == sorted([markdown.name, html.name])
    # bad requests: an error each, nothing written, the host goes on
    for message, code in (
        ({"article": dict(article, url="javascript:alert(1)")}, 8),
        ({"article": dict(article, title=None)}, 8),
        ({"article": article, "images": {"https://x/y.png": {"type": "image/png", "data": "not base64!"}}}, 8),
        ({"article": article, "tags": "bread"}, 8),
        ({"article": dict(article, html="", text=" ", url="https://hillkitchen.example/empty/")}, 13),
        ({"article": article, "folder": "relative/folder"}, 8),
    ):
        reply = host.request({"v": 1, "id": "bad", "type": "save", **message})
        assert reply["ok"] is False and reply["error"]["code"] == code, (message.keys(), reply)
    assert len([p for p in host.library.iterdir() if not p.name.startswith(".")]) == 2
    # the folder chosen on the options page
    chosen = host.library.parent / "chosen folder"
    elsewhere = host.request({"v": 1, "id": "f", "type": "save", "article": article, "folder": str(chosen)})
    assert elsewhere["ok"] and Path(elsewhere["markdown"]).parent == chosen and elsewhere["updated"] is False
    assert host.request({"v": 1, "id": 1, "type": "ping"})["ok"]
    assert host.close() == 0


def program_arguments(pid: int, timeout: float = 10.0) -> list[bytes]:
    """The arguments of process ``pid`` from ``/proc/PID/cmdline``, waiting (at most ``timeout``
    seconds) while they read empty: ``Popen`` returns once the child's ``execve`` has closed its
    close-on-exec pipe, but the kernel sets the new program's argument area a moment later (in
    the ELF loader), so a read at once can find nothing. Empty after ``timeout``: an empty list
    (a process that ended unreaped also reads empty)."""
    deadline = time.monotonic() + timeout
    while True:
        data = Path(f"/proc/{pid}/cmdline").read_bytes()
        if data or time.monotonic() >= deadline:
            return data.split(b"\0") if data else []
        time.sleep(0.01)


def test_library_request_starts_the_window_as_its_own_process(host):
    import os
    import signal

    reply = host.request({"v": 1, "id": "lib", "type": "library"})
    assert reply["ok"] and reply["type"] == "library", reply
    pid = reply["pid"]
    try:
        cmdline = program_arguments(pid)
        assert b"pagesieve" in cmdline and b"library" in cmdline and str(host.library).encode() in cmdline
        assert os.getsid(pid) != os.getsid(host.proc.pid)  # its own session: it outlives the host
        assert host.request({"v": 1, "id": 2, "type": "ping"})["ok"]  # the host goes on serving
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass  # no display here: the window process has already said so and ended
        time.sleep(0.1)


def test_oversized_request_is_dropped_and_refused(host):
    body = b" " * (MAX_REQUEST_BYTES + 1)
    host.send_raw(body)
    reply = host.read()
    assert reply["error"]["code"] == 3 and "64 MiB" in reply["error"]["message"]
    assert host.request({"v": 1, "id": 2, "type": "ping"})["ok"]


def test_truncated_stream_stops_the_host(host):
    host.send_raw(b'{"v": 1', length=100)
    host.proc.stdin.close()
    assert host.proc.wait(30) == 1


def test_the_browser_going_mid_answer_ends_the_host_quietly(host):
    """The browser exits while the host writes a long answer (the error reply to a request of
    an unknown 2 MB type, which its message repeats: five chunk frames): the host's next write
    finds the pipe closed; it logs why it stops and ends with status 0, with no traceback on
    its standard error."""
    host.send_raw(json.dumps({"v": 1, "id": 1, "type": "x" * 2_000_000}).encode())
    head = host.proc.stdout.read(4)
    assert len(head) == 4 and struct.unpack("=I", head)[0] <= MAX_REPLY_BYTES
    assert host.proc.stdout.read(1000).startswith(b'{"v":1,"id":')  # the answer is under way
    host.proc.stdout.close()  # the browser went
    assert host.proc.wait(30) == 0
    stderr = host.proc.stderr.read().decode("utf-8", "replace")
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr, stderr
    assert "the browser went while the answer to request" in host.log.read_text(encoding="utf-8")


def test_learn_then_clean_uses_the_site_templates(host, snapshot):
    reply = host.request({"v": 1, "id": 1, "type": "learn", "snapshot": snapshot, "private": True})
    assert reply["ok"] and reply["learned"] is False and reply["site"] == "hillkitchen.example"
    for n in range(2):
        snap = dict(snapshot, url=f"https://hillkitchen.example/posts/{n}/")
        reply = host.request({"v": 1, "id": 2 + n, "type": "learn", "snapshot": snap})
        assert reply["learned"] is True and reply["pages"] == n + 1
    again = host.request({"v": 1, "id": 8, "type": "learn", "snapshot": dict(snapshot, url="https://hillkitchen.example/posts/0/")})
    assert again["learned"] is False and again["pages"] == 2  # a page seen again is not counted again
    cleaned = host.request({"v": 1, "id": 9, "type": "clean", "mode": "hide", "snapshot": snapshot})
    assert cleaned["site"] == "hillkitchen.example" and cleaned["site_pages"] == 2
    listed = host.request({"v": 1, "id": 10, "type": "sites"})
    assert [(s["site"], s["pages"]) for s in listed["sites"]] == [("hillkitchen.example", 2)]
    assert host.request({"v": 1, "id": 11, "type": "forget"})["error"]["code"] == 8
    assert host.request({"v": 1, "id": 12, "type": "forget", "site": "hillkitchen.example"})["sites"] == 1
    assert host.request({"v": 1, "id": 13, "type": "sites"})["sites"] == []
    assert host.request({"v": 1, "id": 14, "type": "forget", "all": True})["sites"] == 0


def test_clean_can_learn_the_page_it_judged(host, tmp_path, snapshot):
    """``clean`` with ``"learn": true`` (the extension's page load on an auto-mode site: one
    snapshot for both) judges the page first, then learns it, exactly as a ``learn`` would."""
    def at(n):
        return dict(snapshot, url=f"https://hillkitchen.example/posts/{n}/")

    def clean(n, **fields):
        return host.request({"v": 1, "id": n, "type": "clean", "mode": "hide", "snapshot": at(n), **fields})

    for n in (1, 2):
        assert host.request({"v": 1, "id": n, "type": "learn", "snapshot": at(n)})["pages"] == n
    plain = clean(3)
    both = clean(3, learn=True)
    assert plain["learned"] is False and both["learned"] is True and both["site_pages"] == 2
    # judged before it was learned: its own leaves were not yet template (with the page in
    # the template, three identical pages would make every leaf of it the site's boilerplate)
    assert (both["hide"], both["content"]) == (plain["hide"], plain["content"])
    third = clean(4)
    assert third["site_pages"] == 3 and len(third["content"]) < len(plain["content"])
    assert clean(3, learn=True)["learned"] is False  # a URL already learned is not counted again
    reader = host.request({"v": 1, "id": 5, "type": "clean", "mode": "reader", "snapshot": at(5), "learn": True})
    assert reader["learned"] is True and reader["article"]["text"]
    marked = host.request({"v": 1, "id": 6, "type": "clean", "mode": "corrections", "snapshot": at(6), "learn": True})
    assert marked["learned"] is True and marked["hide"] == []
    assert clean(7, learn=True, private=True)["learned"] is False  # a private window's page is never stored
    assert clean(8, learn="yes")["error"]["code"] == 8
    assert clean(9, private=1)["error"]["code"] == 8
    listed = host.request({"v": 1, "id": 10, "type": "sites"})["sites"]
    assert [(s["site"], s["pages"]) for s in listed] == [("hillkitchen.example", 5)]
    assert host.close() == 0

    # what is stored is what a "learn" request stores
    stored = []
    for name, message in (("a", {"type": "learn"}), ("b", {"type": "clean", "mode": "hide", "learn": True})):
        (tmp_path / name).mkdir()
        other = HostProcess(tmp_path / name)
        assert other.request({"v": 1, "id": 1, "snapshot": at(1), **message})["ok"]
        stored.append([(s["site"], s["pages"], s["entries"], s["bytes"]) for s in other.request({"v": 1, "id": 2, "type": "sites"})["sites"]])
        assert other.close() == 0
    assert stored[0] == stored[1] and stored[0][0][1] == 1


def test_large_reply_comes_in_chunks(host):
    paragraph = "Ünïcode wörds and “quotes” keep every chunk whole. " * 40
    html = "<html><head><title>Long</title></head><body><article><h1>Long</h1>" + "".join(
        f"<p>{k} {paragraph}</p>" for k in range(700)) + "</article></body></html>"
    snap = page_to_snapshot(parse_html(html, url="https://long.example/a"))
    reply = host.request({"v": 1, "id": "big", "type": "clean", "mode": "reader", "snapshot": snap})
    assert reply["ok"] and reply["id"] == "big"
    assert len(encode(reply)) > MAX_REPLY_BYTES and reply["article"]["text"].count("keep every chunk whole") == 700 * 40


def test_chunks_cut_between_characters():
    body = encode({"v": 1, "id": 1, "ok": True, "data": "é€😀\"\\" * 300_000})
    frames = chunk_reply(body, {"v": 1, "id": 1})
    assert len(frames) > 2 and all(len(f) <= MAX_REPLY_BYTES for f in frames)
    parts = [json.loads(f) for f in frames]
    assert "".join(p["data"] for p in parts).encode("utf-8") == body


def _node_of(snapshot, tag, text):
    """Node id of the first ``tag`` element of a snapshot whose own text holds ``text``."""
    from pagesieve.page.snapshot import parse_snapshot

    page = parse_snapshot(snapshot)
    for el in page.root.iter(tag):
        if text in "".join(el.itertext()):
            return page.node_id(el)
    raise AssertionError(f"no {tag} with {text!r}")


def test_corrections_over_the_protocol(host, snapshot):
    """label -> stored and applied at once (mode "corrections" and "hide"); the same block
    labelled again replaces the first label and says so; undo brings the first back; bad
    corrections get errors; the personal model is retrained in the background while the host
    keeps answering; it learns nothing from one site's corrections (they stay on that site), and
    serves once they span three sites."""
    node = _node_of(snapshot, "p", "Tried this at 1,800 m")
    keep_node = _node_of(snapshot, "p", "2,400 metres")
    before = host.request({"v": 1, "id": 1, "type": "clean", "mode": "corrections", "snapshot": snapshot})
    assert before["ok"] and before["hide"] == [] and before["corrections"] == 0
    saved = host.request({"v": 1, "id": 2, "type": "label", "snapshot": snapshot, "node": node, "label": "noise"})
    assert saved["ok"] and saved["type"] == "labelled" and saved["replaced"] is None, saved
    assert saved["label"]["label"] == "noise" and saved["label"]["node"] == node and saved["corrections"] == 1
    assert "Tried this at 1,800 m" in saved["label"]["snippet"]
    assert host.request({"v": 1, "id": 3, "type": "ping"})["ok"]  # answering while the model retrains
    applied = host.request({"v": 1, "id": 4, "type": "clean", "mode": "corrections", "snapshot": snapshot})
    assert node in applied["hide"] and applied["corrections"] == 1
    hide = host.request({"v": 1, "id": 5, "type": "clean", "mode": "hide", "snapshot": snapshot})
    assert node not in hide["content"] and keep_node in hide["content"]
    again = host.request({"v": 1, "id": 6, "type": "label", "snapshot": snapshot, "node": node, "label": "content"})
    assert again["ok"] and again["replaced"]["label"] == "noise" and again["corrections"] == 1
    kept = host.request({"v": 1, "id": 7, "type": "clean", "mode": "hide", "snapshot": snapshot})
    assert node in kept["content"]
    listed = host.request({"v": 1, "id": 8, "type": "labels"})
    assert [lab["label"] for lab in listed["labels"]] == ["content"] and listed["sites"] == {"hillkitchen.example": 1}
    undone = host.request({"v": 1, "id": 9, "type": "label", "undo": True, "site": "hillkitchen.example"})
    assert undone["removed"]["label"] == "content" and undone["restored"]["label"] == "noise"
    restored_id = undone["restored"]["id"]
    assert host.request({"v": 1, "id": 9, "type": "labels", "delete": "x"})["error"]["code"] == 8
    removed = host.request({"v": 1, "id": 9, "type": "labels", "delete": restored_id})
    assert removed["deleted"] == 1 and removed["labels"] == [] and removed["sites"] == {}
    again = host.request({"v": 1, "id": 9, "type": "label", "snapshot": snapshot, "node": node, "label": "noise"})
    assert again["ok"] and again["replaced"] is None
    for message, code in (
        ({"node": node, "label": "maybe"}, 8), ({"node": "x", "label": "noise"}, 8),
        ({"node": 10**6, "label": "noise"}, 15), ({"undo": True, "site": ""}, 8),
        ({"node": node, "label": "noise", "private": True}, 8),
    ):
        reply = host.request({"v": 1, "id": 10, "type": "label", "snapshot": snapshot, **message})
        assert reply["ok"] is False and reply["error"]["code"] == code, (message, reply)
    no_site = dict(snapshot, url="file:///tmp/page.html")
    assert host.request({"v": 1, "id": 11, "type": "label", "snapshot": no_site, "node": node, "label": "noise"})["error"]["code"] == 8

    def retrained(ends: int) -> tuple[str, str]:  # the model serving once `ends` retraining runs have ended
        deadline = time.monotonic() + 120
        model, log = None, ""
        while time.monotonic() < deadline and log.count("retraining ended with exit status 0") < ends:
            time.sleep(0.5)  # each request also reaps a finished run (and logs it)
            model = host.request({"v": 1, "id": 12, "type": "clean", "mode": "hide", "snapshot": snapshot})["model"]
            log = host.log.read_text(encoding="utf-8") if host.log.is_file() else ""
        return host.request({"v": 1, "id": 12, "type": "clean", "mode": "hide", "snapshot": snapshot})["model"], log

    # corrections on one site stay on it: the retraining ends without a personal model
    model, log = retrained(1)
    assert "retraining in process" in log and "retraining ended with exit status 0" in log
    assert model != "personal" and not host.personal.is_file()
    # the same correction on two more sites: now the personal model learns from them, and serves
    for n, site in enumerate(("https://hillbakery.example/bread/", "https://hillmill.example/flour/")):
        other = host.request({"v": 1, "id": 13 + n, "type": "label", "snapshot": dict(snapshot, url=site), "node": node, "label": "noise"})
        assert other["ok"] and other["site"] == site.split("/")[2], other
    model, log = retrained(log.count("retraining ended with exit status 0") + 1)
    deadline = time.monotonic() + 120
    while model != "personal" and time.monotonic() < deadline:  # the last run may have started before the last label
        model, log = retrained(log.count("retraining ended with exit status 0") + 1)
    assert model == "personal" and host.personal.is_file()
    assert host.close() == 0


def _aged_personal_model(path: Path) -> None:
    """Rewrite the personal model at ``path`` as the version before the page-type signals wrote
    it: no feature-set stamp, and a page-type model that reads the 35 page signals of then (the
    last fifteen of ``PAGE_SIGNALS`` came on 2026-11-27; its scaler and weights cut to the rest)."""
    import copy
    import dataclasses

    from pagesieve.blocks.signals import PAGE_SIGNALS
    from pagesieve.classify.model_store import load_fitted, save_model

    fitted = load_fitted(path)
    old = len(PAGE_SIGNALS) - 15
    kind = copy.deepcopy(fitted.page_type)
    scale, lr = kind.named_steps["scale"], kind.named_steps["lr"]
    for name in ("mean_", "var_", "scale_"):
        setattr(scale, name, getattr(scale, name)[:old])
    scale.n_features_in_ = lr.n_features_in_ = old
    lr.coef_ = lr.coef_[:, :old]
    meta = {k: v for k, v in fitted.meta.items() if k != "feature_set"}
    save_model(dataclasses.replace(fitted, meta=meta, page_type=kind), path)


def test_a_personal_model_of_the_previous_version_is_rebuilt_from_the_labels(tmp_path, example_page, snapshot):
    """An upgrade: the personal model on disk was made before the page-type signals (the model
    store refuses it) from five "keep this" corrections of a "You might also like" list on five
    other sites. The new host rebuilds it from the stored labels in the background, answering
    meanwhile (the shipped model judges, and the ping's status says it is rebuilding), then
    says it is rebuilt, and the next page (of a site without corrections, so no rule applies)
    is judged by the rebuilt personal model: the list the corrections kept is kept. No label
    is dropped."""
    from pagesieve.classify.model_store import compiled_path, load_model
    from pagesieve.corrections.personal import train_personal
    from pagesieve.corrections.rules import make_label
    from pagesieve.corrections.store import LabelStore
    from pagesieve.errors import ModelError
    from pagesieve.extract import judge_page

    labels_path, personal = tmp_path / "labels.sqlite3", tmp_path / "personal-model.skops"
    with LabelStore(labels_path) as store:
        for n in range(5):
            page = parse_html(example_page.read_bytes(), url=f"https://site{n}.example/posts/bread/")
            analysis, keep = judge_page(page)
            block = next(b.index for b in analysis.blocks if b.element.tag == "section" and "You might also like" in "".join(b.element.itertext()))
            assert not keep[block]
            store.add(make_label(analysis.page, analysis.blocks, analysis.candidates, analysis.features, block, 1, keep=keep))
        x, y = store.training_rows()
        before = [(lab.id, lab.site, lab.label, lab.features.shape) for lab in store.labels()]
    train_personal(x, y, personal)
    _aged_personal_model(personal)
    with pytest.raises(ModelError, match="page signals"):
        load_model(compiled_path(personal))  # what the host used to do: refuse it, silently serve the shipped model

    related = [_node_of(snapshot, "li", text) for text in ("Rye at altitude", "Keeping a starter alive", "Which Dutch oven?")]
    host = HostProcess(tmp_path)
    try:
        first = host.request({"v": 1, "id": 1, "type": "ping"})
        assert first.get("personal", {}).get("state") == "rebuilding" and first["personal"]["corrections"] == 5, first
        assert "rebuilt" in first["personal"]["message"]
        meanwhile = host.request({"v": 1, "id": 2, "type": "clean", "mode": "hide", "snapshot": snapshot})
        assert meanwhile["ok"] and meanwhile["model"] != "personal" and not set(related) & set(meanwhile["content"])
        deadline, status = time.monotonic() + 180, first["personal"]
        while status["state"] == "rebuilding" and time.monotonic() < deadline:
            time.sleep(0.5)
            status = host.request({"v": 1, "id": 3, "type": "ping"})["personal"]
        assert status["state"] == "rebuilt" and "rebuilt for this version" in status["message"], status
        after = host.request({"v": 1, "id": 4, "type": "clean", "mode": "hide", "snapshot": snapshot})
        assert after["ok"] and after["model"] == "personal" and after["corrections"] == 0
        assert set(related) <= set(after["content"]), "the rebuilt personal model keeps what the corrections kept"
        assert host.close() == 0
    finally:
        if host.proc.poll() is None:
            host.proc.kill()
            host.proc.wait(30)
    from pagesieve.classify.model_store import FEATURE_SET_VERSION

    assert load_model(compiled_path(personal)).meta["feature_set"] == FEATURE_SET_VERSION
    with LabelStore(labels_path) as store:
        assert [(lab.id, lab.site, lab.label, lab.features.shape) for lab in store.labels()] == before
    log = host.log.read_text(encoding="utf-8")
    assert "refused" in log and "rebuilt from the labels" in log


def test_a_snapshot_streamed_in_parts(host, snapshot):
    """The extension sends a large page's nodes in ``part`` requests while its walk goes on,
    then the request with the header and the last nodes (docs/protocol.md, "Streaming a
    snapshot"): the answer is the whole snapshot's answer; lost parts, an unknown stream or a
    broken part get error replies, and the host keeps serving."""
    whole = host.request({"v": 1, "id": "w", "type": "clean", "mode": "hide", "snapshot": snapshot})
    nodes = snapshot["nodes"]
    size = len(nodes) // 3

    def send_parts(stream, chunks):
        replies = []
        for seq, chunk in chunks:
            replies.append(host.request({"v": 1, "id": f"{stream}-{seq}", "type": "part", "stream": stream, "seq": seq, "nodes": chunk}))
        return replies

    parts = [(0, nodes[:size]), (1, nodes[size:2 * size])]
    replies = send_parts("a", parts)
    assert [r["ok"] for r in replies] == [True, True] and replies[-1]["nodes"] == 2 * size
    tail = {**snapshot, "nodes": nodes[2 * size:]}
    got = host.request({"v": 1, "id": "s", "type": "clean", "mode": "hide", "stream": "a", "snapshot": tail})
    assert got["ok"] and (got["hide"], got["content"]) == (whole["hide"], whole["content"])
    # the stream was used up: naming it again is "no stream" (the extension then sends it whole)
    again = host.request({"v": 1, "id": "s2", "type": "clean", "mode": "hide", "stream": "a", "snapshot": tail})
    assert again["error"]["code"] == 16 and again["error"]["name"] == "no_stream"
    # a lost part: the gap is reported when the next part comes, and by the completing request
    gap = send_parts("b", [(0, nodes[:size]), (2, nodes[2 * size:])])
    assert gap[0]["ok"] and gap[1]["error"]["code"] == 7 and "parts were lost" in gap[1]["error"]["message"]
    lost = host.request({"v": 1, "id": "b", "type": "clean", "mode": "hide", "stream": "b", "snapshot": {**snapshot, "nodes": []}})
    assert lost["error"]["code"] == 7 and "parts were lost" in lost["error"]["message"]
    # a stream left unfinished (its tab closed) and a new one of the same name: part 0 starts afresh
    send_parts("g", [(0, nodes[:size]), (1, nodes[size:2 * size])])
    assert all(r["ok"] for r in send_parts("g", [(0, nodes[:size]), (1, nodes[size:2 * size])]))
    anew = host.request({"v": 1, "id": "g", "type": "clean", "mode": "hide", "stream": "g", "snapshot": tail})
    assert anew["ok"] and anew["hide"] == whole["hide"]
    # parts of a stream whose start this host never got (it restarted in between)
    assert send_parts("c", [(3, nodes[:size])])[0]["error"]["code"] == 16
    # a broken node: the part's reply and the completing request both name it
    broken = [dict(n) for n in nodes[:size]]
    broken[5] = {"p": 0, "t": "div"}
    bad = send_parts("d", [(0, broken)])[0]
    assert bad["error"]["code"] == 7 and "nodes[5]" in bad["error"]["message"]
    done = host.request({"v": 1, "id": "d", "type": "clean", "mode": "hide", "stream": "d", "snapshot": tail})
    assert done["error"]["message"] == bad["error"]["message"]
    for message in ({"v": 1, "id": 1, "type": "part", "seq": 0, "nodes": []}, {"v": 1, "id": 2, "type": "part", "stream": "e", "seq": -1, "nodes": []},
                    {"v": 1, "id": 3, "type": "part", "stream": "e", "seq": 0, "nodes": "x"}):
        assert host.request(message)["ok"] is False
    # at most MAX_STREAMS open: the least recently fed is dropped
    from pagesieve.native.requests.part import MAX_STREAMS

    for k in range(MAX_STREAMS + 1):
        assert send_parts(f"f{k}", [(0, nodes[:size])])[0]["ok"]
    dropped = host.request({"v": 1, "id": "f0", "type": "clean", "mode": "hide", "stream": "f0", "snapshot": {**snapshot, "nodes": nodes[size:]}})
    assert dropped["error"]["code"] == 16
    last = host.request({"v": 1, "id": "f", "type": "clean", "mode": "hide", "stream": f"f{MAX_STREAMS}", "snapshot": {**snapshot, "nodes": nodes[size:]}})
    assert last["ok"] and last["hide"] == whole["hide"]
    assert host.request({"v": 1, "id": "z", "type": "ping"})["ok"]
    assert host.close() == 0


def test_a_markup_snapshot_streamed_in_parts(host, snapshot):
    """Snapshot version 2 (what the extension sends): its markup cut anywhere into ``part``
    requests with their share of boxes and fonts, then the completing request, is answered as
    the whole snapshot is, and as its version-1 form is; a broken part gets an error reply and
    the host keeps serving."""
    from pagesieve.page.markup import markup_snapshot

    v1 = host.request({"v": 1, "id": "w1", "type": "clean", "mode": "hide", "snapshot": snapshot})
    doc = markup_snapshot(snapshot)
    whole = host.request({"v": 1, "id": "w2", "type": "clean", "mode": "hide", "snapshot": doc})
    assert whole["ok"] and (whole["hide"], whole["content"]) == (v1["hide"], v1["content"])
    markup, boxes = doc["markup"], doc["boxes"]
    cut = len(markup) // 3 + 1  # inside some tag or text, not at a node's edge
    first = host.request({"v": 1, "id": "p0", "type": "part", "stream": "m", "seq": 0, "markup": markup[:cut], "boxes": boxes[:10], "fonts": []})
    second = host.request({"v": 1, "id": "p1", "type": "part", "stream": "m", "seq": 1, "markup": markup[cut:2 * cut], "boxes": boxes[10:], "fonts": doc["fonts"]})
    assert first["ok"] and second["ok"] and second["chars"] == 2 * cut
    got = host.request({"v": 1, "id": "m", "type": "clean", "mode": "reader", "stream": "m",
                        "snapshot": {**doc, "markup": markup[2 * cut:], "boxes": [], "fonts": []}})
    assert got["ok"] and (got["hide"], got["content"]) == (whole["hide"], whole["content"]) and got["article"]["text"]
    bad = host.request({"v": 1, "id": "b0", "type": "part", "stream": "x", "seq": 0, "markup": "<html data-ps-id='0'><!-- x -->"})
    assert bad["error"]["code"] == 7 and "comment" in bad["error"]["message"]
    done = host.request({"v": 1, "id": "b", "type": "clean", "mode": "hide", "stream": "x", "snapshot": {**doc, "markup": ""}})
    assert done["error"]["message"] == bad["error"]["message"]
    assert host.request({"v": 1, "id": "ping", "type": "ping"})["ok"]


def test_parts_sent_without_acknowledgement_get_no_reply_unless_refused(host, snapshot):
    """What the extension's background sends: parts with "ack": false. Nothing comes back for
    them (the next reply on the wire is the completing request's), and the answer is the whole
    snapshot's; a refused part is still answered with its error."""
    from pagesieve.page.markup import markup_snapshot

    doc = markup_snapshot(snapshot)
    whole = host.request({"v": 1, "id": "w", "type": "clean", "mode": "hide", "snapshot": doc})
    markup, cut = doc["markup"], len(doc["markup"]) // 3
    for seq, (start, stop) in enumerate(((0, cut), (cut, 2 * cut))):
        host.send_raw(json.dumps({"v": 1, "id": f"q{seq}", "type": "part", "stream": "q", "seq": seq, "ack": False,
                                  "markup": markup[start:stop], "boxes": doc["boxes"] if seq == 0 else [], "fonts": doc["fonts"] if seq == 0 else []}).encode())
    got = host.request({"v": 1, "id": "q", "type": "clean", "mode": "hide", "stream": "q",
                        "snapshot": {**doc, "markup": markup[2 * cut:], "boxes": [], "fonts": []}})
    assert got["id"] == "q" and got["ok"] and (got["hide"], got["content"]) == (whole["hide"], whole["content"])
    refused = host.request({"v": 1, "id": "r0", "type": "part", "stream": "r", "seq": 0, "ack": False, "markup": "<html data-ps-id='0'><?x?>"})
    assert refused["id"] == "r0" and refused["error"]["code"] == 7
    assert host.request({"v": 1, "id": "a", "type": "part", "stream": "s", "seq": 0, "ack": "no", "markup": ""})["error"]["code"] == 8
    assert host.request({"v": 1, "id": "ping", "type": "ping"})["ok"]
    assert host.close() == 0


def test_the_page_is_freed_after_the_reply_is_written(tmp_path, snapshot):
    """Freeing a page's tree, blocks and features takes milliseconds: serve() writes the reply
    first, then frees them (Host.release), so the click does not wait for it."""
    import io

    from pagesieve.native.framing import read_frame
    from pagesieve.native.host import serve
    from pagesieve.native.protocol import Host

    host = Host(store_path=tmp_path / "t.sqlite3", library_dir=tmp_path / "lib", labels_path=tmp_path / "l.sqlite3")
    held_while_writing = []

    class Output(io.BytesIO):
        def write(self, data):
            held_while_writing.append(bool(host._spent))
            return super().write(data)

    body = json.dumps({"v": 1, "id": "c1", "type": "clean", "mode": "hide", "snapshot": snapshot}).encode()
    out = Output()
    try:
        assert serve(host, io.BytesIO(struct.pack("=I", len(body)) + body), out) == 0
    finally:
        host.close()
    out.seek(0)
    reply = json.loads(read_frame(out).body)
    assert reply["ok"] and reply["hide"], reply
    assert held_while_writing and all(held_while_writing)  # the page was still alive while the reply went out
    assert host._spent == ()  # and freed right after


def test_hide_replies_say_why_each_node_is_hidden(host, snapshot):
    """``clean`` answers, beside each hidden id, ``[stage, rule, evidence]`` (docs/protocol.md,
    "Why a node is hidden"); in mode "corrections" the reason is the user's correction."""
    hide = host.request({"v": 1, "id": "h", "type": "clean", "mode": "hide", "snapshot": snapshot})
    assert hide["ok"] and len(hide["why"]) == len(hide["hide"]) > 0
    comments = _node_of(snapshot, "section", "3 comments")
    why = dict(zip(hide["hide"], hide["why"]))
    stage, rule, evidence = why[comments]
    assert (stage, rule) == ("classifier", "svm-sure-noise") and evidence["score"] < evidence["cut"] == -1.0
    assert evidence["blocks"] == 10  # the section holds no text of its own: the reason of its 10 blocks
    assert all(w is None or (w[0] in ("preprocess", "classifier", "templates", "correction", "post-rule") and w[1]) for w in hide["why"])
    reader = host.request({"v": 1, "id": "r", "type": "clean", "mode": "reader", "snapshot": snapshot})
    assert reader["hide"] == hide["hide"] and reader["why"] == hide["why"]
    node = _node_of(snapshot, "p", "Tried this at 1,800 m")
    saved = host.request({"v": 1, "id": 2, "type": "label", "snapshot": snapshot, "node": node, "label": "noise"})
    assert saved["ok"], saved
    marked = host.request({"v": 1, "id": 3, "type": "clean", "mode": "corrections", "snapshot": snapshot})
    stage, rule, evidence = dict(zip(marked["hide"], marked["why"]))[node]
    assert stage == "correction" and rule.startswith("hide-this") and evidence["id"] == saved["label"]["id"]
    assert evidence["created"] == round(saved["label"]["created"])
    hidden = host.request({"v": 1, "id": 4, "type": "clean", "mode": "hide", "snapshot": snapshot})
    assert dict(zip(hidden["hide"], hidden["why"]))[comments][0] == "correction"  # most of its text is the corrected kind
    assert host.close() == 0


def test_explain_tells_why_one_node_is_shown_or_hidden(host, snapshot):
    """``explain`` judges the page as ``clean`` in mode "hide" and answers for one node: content,
    noise (the block hidden around it, with the reason), removed by pre-processing; malformed
    requests get error replies and the host keeps serving."""
    def explain(n, node, **fields):
        return host.request({"v": 1, "id": n, "type": "explain", "snapshot": snapshot, "node": node, **fields})

    kept = explain(1, _node_of(snapshot, "p", "Lower air pressure"))
    assert kept["ok"] and kept["type"] == "explained" and kept["verdict"] == "content" and kept["reason"] is None
    assert kept["site"] == "hillkitchen.example" and kept["text"].startswith("Lower air pressure")
    link = _node_of(snapshot, "a", "Rye at altitude")
    noise = explain(2, link)
    assert noise["verdict"] == "noise" and noise["tag"] == "section" and noise["node"] == link
    hide = host.request({"v": 1, "id": 3, "type": "clean", "mode": "hide", "snapshot": snapshot})
    assert noise["block"] in hide["hide"]  # the very node "hide noise" hides, for the same reason
    assert dict(zip(hide["hide"], hide["why"]))[noise["block"]] == [noise["reason"][k] for k in ("stage", "rule", "evidence")]
    button = explain(4, _node_of(snapshot, "button", "Go"))
    assert button["verdict"] == "removed" and button["reason"] == {"stage": "preprocess", "rule": "removed-tag", "evidence": {"tag": "button"}}
    assert explain(5, 10**6)["verdict"] == "unknown"
    for n, message, code in (
        (6, {"node": "x"}, 8), (7, {"node": -1}, 8), (8, {"node": True}, 8), (9, {"node": 1, "snapshot": None}, 8),
        (10, {"node": 1, "snapshot": {"version": 1, "nodes": "no"}}, 7), (11, {"node": 1, "reference": 3}, 8),
    ):
        reply = host.request({"v": 1, "id": n, "type": "explain", "snapshot": snapshot, **message})
        assert reply["ok"] is False and reply["id"] == n and reply["error"]["code"] == code, (message, reply)
    assert host.request({"v": 1, "id": 12, "type": "ping"})["ok"]
    assert host.close() == 0
