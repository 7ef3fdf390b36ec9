"""Every page kind in real headless Chromium (Debian's /usr/bin/chromium, fonts-noto-cjk) against a real
`bridge-laws serve`, at a phone's 390x844 (is_mobile, touch) and a desktop's 1280x900.

What each page must do at both widths:
- never scroll sideways: `document.documentElement.scrollWidth - clientWidth <= 0` (a wide table
  scrolls inside its own box);
- tap targets: every visible link, button, input, select and summary is at least 24x24 CSS px (WCAG 2.2,
  2.5.8). The one exception applied is WCAG's inline one: a link inside a sentence of running text
  (`.unit-text`, `.unit-title`, `.note-first`, `.footnote-text`, `.side-text`, `h1`), whose height is the line's;
- tables have their rows (VP scale, Law 77, the 1997 Law 2 table, the diff overview).
A screenshot of each page at each width goes to test-artifacts/ (gitignored), with measurements.json
(page height, header height, sideways scroll, smallest target) for the issue's note.

One browser per module; one context and page per width, reused across pages.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.live_server import serving

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
LAW_61 = re.compile(r"/laws-2017-ja/61(?:[A-Z][^/]*)?$")
VIEWPORTS = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
              "device_scale_factor": 2, "locale": "ja-JP"},
    "desktop": {"viewport": {"width": 1280, "height": 900}, "locale": "en-US"},
}
RUNNING_TEXT = ".unit-text, .unit-title, .note-first, .footnote-text, .side-text, h1"
# (name, path, expected status, CSS selector -> minimum count of rows that must be there)
PAGES = [
    ("home", "/", 200, {".document-card": 5}),
    ("contents-2017", "/laws-2017-ja", 200, {"details.toc-group": 10}),
    ("contents-1997", "/laws-1997-zh", 200, {"details.toc-group": 5}),
    ("contents-regulations", "/jcbl-regs-ja", 200, {"details.toc-group": 10}),
    ("law-61", "/laws-2017-ja/61", 200, {"details.commentary-note": 4}),
    ("section-61B", "/laws-2017-ja/61B", 200, {".unit-subitem": 2}),
    ("subitem-61B2a", "/laws-2017-ja/61B2(a)", 200, {"button.cite-copy": 1}),
    ("definition", "/laws-2017-ja/def:ダミー", 200, {"article.law-text": 1}),
    ("part-5-with-footnotes", "/laws-2017-ja/part:5", 200, {".footnotes li": 5}),
    ("index-entry", "/laws-2017-ja/index:リボーク", 200, {"article.law-text": 1}),
    ("commentary-note", "/revoke-notes-ja/L61A", 200, {"article.law-text": 1}),
    ("law-77-scoring-table", "/laws-2017-ja/77", 200, {"table.law-table": 6, "table.law-table tbody tr": 29}),
    ("law-78B-imp-table", "/laws-2017-ja/78B", 200, {"table.law-table tbody tr": 25}),
    ("law-2-1997-table", "/laws-1997-zh/2", 200, {"table.law-table tbody tr": 4}),
    ("regulation-vp-scale", "/jcbl-regs-ja/appendix-1-table-1", 200, {"table.law-table tbody tr": 58}),
    ("regulation-article-8", "/jcbl-regs-ja/8", 200, {"table.law-table tbody tr": 8}),
    ("index-ri", "/laws-2017-ja/-/index?row=り", 200, {".index-entries dt": 20}),
    ("search", "/-/search?q=リボーク", 200, {".search-results li": 10}),
    ("glossary", "/-/glossary", 200, {"table.glossary tbody tr": 50}),
    ("diff-1997-2017", "/-/diff?ref=6&from=laws-1997-zh&to=laws-2017-ja", 200, {".diff-row": 10}),
    ("diff-reprint", "/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja", 200, {".diff-row": 8, "del.op": 1}),
    ("diff-overview", "/-/diff/overview?from=laws-1997-zh&to=laws-2017-ja", 200, {"table.overview tbody tr": 93}),
    ("citations", "/-/citations", 200, {"svg.citation-matrix a.cell": 20, "details.law-citations": 93}),
    ("not-found", "/laws-2017-ja/61Z", 404, {".suggestions li": 1}),
]

# a machine without Chromium skips these; CI, where .ci/run installs it, fails instead
pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(not CHROMIUM.exists() and os.environ.get("CI") != "true",
                                 reason="/usr/bin/chromium is not installed")]

MEASURE = """([runningText]) => {
  const root = document.documentElement;
  const targets = [];
  for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, summary')) {
    if (!el.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (el.closest(runningText)) continue;               // a link inside a sentence: WCAG's inline exception
    targets.push({tag: el.tagName.toLowerCase(), text: (el.textContent || el.value || '').trim().slice(0, 30),
                  width: Math.round(box.width * 10) / 10, height: Math.round(box.height * 10) / 10});
  }
  const smallest = targets.reduce((min, t) => Math.min(min, t.width, t.height), Infinity);
  const header = document.querySelector('header.site-header').getBoundingClientRect().height +
                 (document.querySelector('header.crumbs-bar')?.getBoundingClientRect().height || 0);
  return {sideways: root.scrollWidth - root.clientWidth, height: root.scrollHeight, header: Math.round(header),
          targets: targets.length, smallest: smallest === Infinity ? null : smallest,
          too_small: targets.filter(t => t.width < 24 || t.height < 24)};
}"""


@pytest.fixture(scope="module")
def served(laws_db_path):
    with serving(laws_db_path) as (base, _process):
        yield base


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def pages(browser, served):
    """One page per width, reused by every test in the module."""
    contexts = {name: browser.new_context(**options) for name, options in VIEWPORTS.items()}
    for context in contexts.values():
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=served)
    yield {name: context.new_page() for name, context in contexts.items()}
    for context in contexts.values():
        context.close()


@pytest.fixture(scope="module")
def measurements():
    found: dict[str, dict] = {}
    yield found
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "measurements.json").write_text(json.dumps(found, ensure_ascii=False, indent=1), encoding="utf-8")


@pytest.mark.parametrize("width", list(VIEWPORTS))
@pytest.mark.parametrize("name, path, status, rows", PAGES, ids=[p[0] for p in PAGES])
def test_page_reads_at_phone_and_desktop_width(pages, served, measurements, width, name, path, status, rows):
    page = pages[width]
    response = page.goto(served + path)
    assert response.status == status, path
    page.wait_for_load_state("load")
    measured = page.evaluate(MEASURE, [RUNNING_TEXT])
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"))
    measurements[f"{name}@{width}"] = {k: v for k, v in measured.items() if k != "too_small"}
    assert measured["sideways"] <= 0, f"{path} scrolls sideways by {measured['sideways']} px at {width} width"
    assert not measured["too_small"], f"{path} at {width}: targets under 24x24 px: {measured['too_small'][:5]}"
    for selector, minimum in rows.items():
        assert page.locator(selector).count() >= minimum, (path, selector)
    if width == "phone":
        assert measured["header"] <= 140, f"the header takes {measured['header']} px of a phone screen"


def test_wide_table_scrolls_in_its_own_box_on_a_phone(pages, served):
    page = pages["phone"]
    page.goto(served + "/jcbl-regs-ja/appendix-1-table-3")
    box = page.locator(".table-scroll").first
    scroll = box.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert scroll[0] > scroll[1]                      # 15 columns do not fit 390 px: the box scrolls...
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    assert page.locator("table.law-table caption").first.inner_text() == "WBF - VP SCALE (整数版)"
    assert page.locator("table.law-table thead th").count() == 15   # ...with its header row


def test_deep_link_scrolls_to_the_sub_item_and_marks_it(pages, served):
    page = pages["phone"]
    page.goto(served + "/laws-2017-ja/40#u-40B2(a)(v)")
    target = page.locator('[id="u-40B2(a)(v)"]')
    assert target.evaluate("el => el.matches(':target')")
    assert target.evaluate("el => getComputedStyle(el).backgroundColor") != "rgba(0, 0, 0, 0)"
    top = target.evaluate("el => el.getBoundingClientRect().top")
    assert 0 <= top < 200, top                         # scrolled to, near the top of the window


def test_copy_button_copies_the_citation_in_the_readers_language(pages, served):
    for width, expected in (("phone", "第61条B項2(a)"), ("desktop", "Law 61B2(a)")):   # ja-JP and en-US readers
        page = pages[width]
        page.goto(served + "/laws-2017-ja/61B2(a)")
        assert page.locator(".cite-link").inner_text() == expected
        page.locator("button.cite-copy").click()
        page.wait_for_function("document.querySelector('.cite-status').textContent !== ''")
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == f"{expected} {served}/laws-2017-ja/61B2(a)"
    page = pages["phone"]
    page.goto(served + "/laws-1997-zh/20F1")
    forms = json.loads(page.locator(".cite").get_attribute("data-cite-forms"))
    assert forms == {"ja": "第20条F項1", "zh": "第20条F款1", "en": "Law 20F1"}


def test_without_script_the_citation_is_a_plain_permalink(browser, served):
    context = browser.new_context(java_script_enabled=False, **VIEWPORTS["phone"])
    page = context.new_page()
    page.goto(served + "/laws-2017-ja/61B2(a)")
    assert page.locator(".cite-link").get_attribute("href") == "/laws-2017-ja/61B2(a)"
    assert page.locator(".cite-link").inner_text() == "第61条B項2(a)"
    assert not page.locator("button.cite-copy").is_visible()
    context.close()


def test_a_part_of_the_contents_opens_from_its_anchor(pages, served):
    page = pages["phone"]
    page.goto(served + "/laws-2017-ja#part-5")
    part = page.locator("details#part-5")
    assert part.evaluate("el => el.open")
    law_61 = part.locator('a[href="/laws-2017-ja/61"]')
    assert law_61.is_visible() and law_61.inner_text().startswith("61")
    assert not page.locator("details#part-4").evaluate("el => el.open")


def test_commentary_note_expands(pages, served):
    page = pages["phone"]
    page.goto(served + "/laws-2017-ja/61")
    note = page.locator("details.commentary-note").first
    rest = note.locator(".unit-text")
    assert not rest.is_visible()
    note.locator("summary .note-first").click()
    assert rest.is_visible()


def test_search_to_law_61_then_follow_the_reference_to_law_44(pages, served):
    page = pages["desktop"]
    page.goto(served + "/")
    page.fill("header.site-header input[name=q]", "リボーク")
    with page.expect_navigation() as navigation:
        page.press("header.site-header input[name=q]", "Enter")
    assert page.url.startswith(served + "/-/search?q=")
    assert navigation.value.status == 200
    hrefs = page.locator("a[href]").filter(has_not=page.locator("header a")).evaluate_all(
        "links => links.map(a => a.getAttribute('href'))")
    law_61 = next(href for href in hrefs if LAW_61.search(href.split("?")[0].split("#")[0]))
    page.click(f'a[href="{law_61}"] >> nth=0')
    page.wait_for_load_state()
    assert LAW_61.search(page.url), page.url
    link = page.locator("article.law-text a.xref", has_text="第44条").first
    assert link.get_attribute("href") == "/laws-2017-ja/44"
    link.click()
    page.wait_for_url(served + "/laws-2017-ja/44")
    assert page.locator("article.law-text h1").inner_text().startswith("44")
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "law-44-from-search.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
