// content/reference.js: the cold start's choice of the page to fetch (the rule of
// pagesieve.templates.cold_start.reference_link; tests/e2e checks the two agree on real pages).
import { test } from "node:test";
import assert from "node:assert/strict";
import { load } from "./load.js";

const pick = load(["content/reference.js"]).pagesieveReferenceLink;
const PAGE = "https://news.example/2026/05/harbour-wall";

test("the link of the same site whose path shares the most leading segments", () => {
  const hrefs = ["/about", "/2026/04/ferry", "/2026/05/tides", "https://news.example/2026/05/harbour-wall/comments"];
  assert.equal(pick(PAGE, hrefs), "https://news.example/2026/05/harbour-wall/comments");  // 3 of 4 segments
  assert.equal(pick(PAGE, hrefs.slice(0, 3)), "https://news.example/2026/05/tides");  // 2 of 3
});

test("ties go to the first link in document order; the fragment is dropped", () => {
  assert.equal(pick(PAGE, ["/2026/05/a#top", "/2026/05/b"]), "https://news.example/2026/05/a");
});

test("never the page itself, another site, another scheme, a file, or a link within the page", () => {
  const never = ["#comments", "", "  ", PAGE + "/", PAGE + "?page=2", "https://other.example/2026/05/x", "http://news.example/2026/05/x",
    "/2026/05/report.pdf", "/2026/05/photo.JPG", "mailto:desk@news.example", "javascript:void(0)"];
  assert.equal(pick(PAGE, never), null);
  assert.equal(pick(PAGE, [...never, "/2026/05/x"]), "https://news.example/2026/05/x");
});

test("no reference for a page that is not on the web, or an address that is not one", () => {
  assert.equal(pick("file:///home/me/page.html", ["/other.html"]), null);
  assert.equal(pick("not a url", ["/a"]), null);
  assert.equal(pick(PAGE, ["http://[bad"]), null);
});
