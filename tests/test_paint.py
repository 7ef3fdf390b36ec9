"""What issue 26's first-paint work changed in the site's CSS and scripts keeps every page as it was:
each language's text in its fonts (set where lang= is, no longer by a universal :lang() rule), the
breadcrumb bar scrolled to the current unit on a phone (read in the first frame)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.live_server import serving
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, VIEWPORTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SITE_CSS = Path(__file__).resolve().parent.parent / "laws_site" / "static" / "site.css"
JA = '"Hiragino Kaku Gothic ProN", "Hiragino Sans", "Yu Gothic", Meiryo, "Noto Sans CJK JP", "Noto Sans JP", IPAexGothic, TakaoGothic, sans-serif'
ZH = '"PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "Noto Sans SC", "WenQuanYi Micro Hei", "Source Han Sans SC", sans-serif'
EN = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'


def test_no_rule_is_matched_against_every_element_by_language():
    """A bare `:lang(x)` selector is tried on every element of every page (and gave each its own font
    list): the fonts go where lang= is."""
    selectors = [
        s.strip()
        for block in re.findall(r"([^{}]+)\{", re.sub(r"/\*.*?\*/", "", SITE_CSS.read_text(), flags=re.S))
        for s in block.split(",")
    ]
    assert [s for s in selectors if re.fullmatch(r":lang\([a-z-]+\)", s)] == []
    assert '[lang|="ja"]' in selectors and '[lang|="zh"]' in selectors and '[lang|="en"]' in selectors


@pytest.fixture(scope="module")
def phone(laws_db_path):
    if not CHROMIUM.exists() and os.environ.get("CI") != "true":
        pytest.skip("/usr/bin/chromium is not installed")
    from playwright.sync_api import sync_playwright

    with serving(laws_db_path) as (base, _process), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(service_workers="block", **VIEWPORTS["phone"])
        yield base, context.new_page()
        browser.close()


FONTS = """(selectors) => selectors.map((s) => { const e = document.querySelector(s); return e && getComputedStyle(e).fontFamily; })"""


@pytest.mark.browser
def test_each_language_reads_in_its_fonts(phone):
    base, page = phone
    # a Japanese unit page in the English interface: the chrome in English fonts, the law in Japanese
    # ones, down to the deepest element of its text and a <pre> hand diagram's own monospace
    page.goto(base + "/en/laws-2017-ja/40B2(a)")
    got = page.evaluate(
        FONTS,
        [
            "body",
            ".site-name",
            "article.law-text",
            ".unit-body .unit-text",
            "article.law-text h1",
            ".unit-meta .cite-link",
            "aside.unit-side h2",
        ],
    )
    assert got == [EN, EN, JA, JA, JA, EN, EN]
    page.goto(base + "/ja/laws-1997-zh/30")  # a Chinese law in the Japanese interface (/ja/ chooses it)
    got = page.evaluate(FONTS, ["body", "header.site-header button", "article.law-text", "article.law-text h1"])
    assert got == [JA, JA, ZH, ZH]
    page.goto(base + "/revoke-notes-ja/L64C")
    diagram = page.evaluate(
        "() => [...document.querySelectorAll('pre.diagram')].map((e) => getComputedStyle(e).fontFamily)"
    )
    assert diagram and all(f.startswith('"Noto Sans Mono CJK JP"') for f in diagram)


@pytest.mark.browser
def test_the_breadcrumbs_show_the_current_unit_on_a_phone(phone):
    base, page = phone
    page.goto(base + "/ja/laws-2017-ja/68D2(b)(ii)")  # document > law > section > item > sub-item: wider than a phone
    page.wait_for_function(
        "() => { const c = document.querySelector('.crumbs-bar .crumbs');"
        " return c.scrollWidth <= c.clientWidth || c.scrollLeft > 0; }"
    )
    crumbs = page.evaluate(
        "() => { const c = document.querySelector('.crumbs-bar .crumbs');"
        " return [c.scrollWidth, c.clientWidth, c.scrollLeft]; }"
    )
    assert crumbs[0] > crumbs[1] + 100 and crumbs[2] >= crumbs[0] - crumbs[1] - 1  # scrolled to its end
