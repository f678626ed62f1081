"""The page's schema.org JSON-LD (https://schema.org/, https://json-ld.org/): its objects,
article-like first (:func:`jsonld_objects`, :func:`jsonld_rank`), with ``@id`` references
resolvable (:class:`JsonLd`)."""

from __future__ import annotations

import json
import re

from pagesieve.article.meta_text import looks_like_url, norm


_ARTICLE_TYPES = frozenset({"article", "newsarticle", "blogposting", "report", "scholarlyarticle", "techarticle", "liveblogposting", "socialmediaposting", "discussionforumposting", "reportagenewsarticle", "opinionnewsarticle", "analysisnewsarticle", "reviewnewsarticle", "backgroundnewsarticle", "satiricalarticle", "advertisercontentarticle", "medicalscholarlyarticle", "apireference"})
_PAGE_TYPES = frozenset({"webpage", "itempage", "aboutpage", "collectionpage", "profilepage", "qapage", "faqpage", "medicalwebpage"})


def _type_names(obj: dict) -> list[str]:
    """``@type`` of a JSON-LD object as bare lower-case names (``schema:NewsArticle`` -> ``newsarticle``)."""
    raw = obj.get("@type")
    items = raw if isinstance(raw, list) else [raw]
    names = []
    for item in items:
        if isinstance(item, str):
            names.append(re.split(r"[/:#]", item)[-1].strip().lower())
    return names


def jsonld_rank(obj: dict) -> int:
    """0 for article-like objects, 1 for web pages, 2 for anything else."""
    names = _type_names(obj)
    if any(n in _ARTICLE_TYPES or n.endswith("article") or n.endswith("posting") for n in names):
        return 0
    if any(n in _PAGE_TYPES or n.endswith("page") for n in names):
        return 1
    return 2


def _walk_jsonld(data: object, out: list[dict], depth: int = 0) -> None:
    """Collect the top-level objects of a JSON-LD document: arrays and ``@graph`` flattened."""
    if depth > 6:
        return
    if isinstance(data, list):
        for item in data:
            _walk_jsonld(item, out, depth + 1)
    elif isinstance(data, dict):
        graph = data.get("@graph")
        if isinstance(graph, (list, dict)):
            _walk_jsonld(graph, out, depth + 1)
        if "@type" in data:
            out.append(data)
        main = data.get("mainEntity")
        if isinstance(main, (dict, list)):
            _walk_jsonld(main, out, depth + 1)


_JSON_WRAPPERS = re.compile(r"^\s*(?://\s*)?(?:<!--|<!\[CDATA\[)|(?://\s*)?(?:-->|\]\]>)\s*$")


def jsonld_objects(root) -> list[dict]:
    """All JSON-LD objects of the page, article-like first (stable within a rank).

    Invalid JSON is skipped silently; HTML-comment / CDATA wrappers are tolerated.
    """
    objects: list[dict] = []
    for script in root.iter("script"):
        kind = (script.get("type") or "").strip().lower()
        if kind != "application/ld+json":
            continue
        text = script.text
        if not text or not text.strip():
            continue
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            try:
                data = json.loads(_JSON_WRAPPERS.sub("", text).strip().rstrip(";"))
            except (ValueError, RecursionError):
                continue
        _walk_jsonld(data, objects)
    objects.sort(key=jsonld_rank)
    return objects


class JsonLd:
    """The page's JSON-LD objects with ``@id`` references resolvable."""

    __slots__ = ("objects", "by_id")

    def __init__(self, objects: list[dict]) -> None:
        self.objects = objects
        self.by_id = {obj["@id"]: obj for obj in objects if isinstance(obj.get("@id"), str)}

    def resolve(self, value: object) -> object:
        """Follow a bare ``{"@id": ...}`` reference to the object it names, if present."""
        if isinstance(value, dict) and isinstance(value.get("@id"), str) and len(value) <= 2:
            return self.by_id.get(value["@id"], value)
        return value

    def first(self, key: str, max_rank: int = 2) -> object:
        """The first non-empty value of ``key`` among objects of rank <= ``max_rank``."""
        for obj in self.objects:
            if jsonld_rank(obj) > max_rank:
                break
            value = obj.get(key)
            if value not in (None, "", [], {}):
                return value
        return None

    def names(self, value: object) -> list[str]:
        """Names in a schema.org Person/Organization value (string, object, list, @id ref)."""
        found: list[str] = []
        items = value if isinstance(value, list) else [value]
        for item in items[:20]:
            item = self.resolve(item)
            if isinstance(item, dict):
                item = item.get("name")
                if isinstance(item, list):
                    item = item[0] if item else None
            text = norm(item)
            if text and not looks_like_url(text) and text not in found:
                found.append(text)
        return found
