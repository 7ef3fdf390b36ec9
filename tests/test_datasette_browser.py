"""Datasette's own pages in real Chromium at a phone's 390 px and a desktop's 1280 px, in each interface
language: the same checks as tests/test_browser.py (no sideways scroll, tap targets >= 24 px, the phone
header <= 160 px, <html lang>), the site's chrome in the interface language around Datasette's own page
(whose words are Datasette's), its column menu working; and no crafted address leaves the site."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.browser_fixtures import ARTIFACTS, BROWSER_MARKS
from tests.test_browser import MEASURE, RUNNING_TEXT, UI_LANGUAGES, keep_screenshot

pytestmark = BROWSER_MARKS  # the served, browser and pages fixtures: tests/browser_fixtures.py

# (name, path, status, a CSS selector whose text must be the word in ja, zh, en)
SEARCH_BUTTON = ("form.site-search button", ("検索", "搜索", "Search"))
DATASETTE = [
    ("ds-table", "/laws/sections?kind=law", 200, *SEARCH_BUTTON),
    ("ds-row", "/laws/sections/laws-2017-ja:61B", 200, *SEARCH_BUTTON),
    ("ds-query", "/laws?sql=select+id,+label+from+sections+limit+5", 200, *SEARCH_BUTTON),
    ("ds-database", "/laws", 200, *SEARCH_BUTTON),
    (
        "ds-error",
        "/laws/no_such_table",
        404,
        ".error-message",
        ("そのテーブルはありません。", "没有这个表。", "There is no such table."),
    ),
]
LANGS = list(UI_LANGUAGES)


@pytest.mark.parametrize("width", ["phone", "desktop"])
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name, path, status, selector, words", DATASETTE, ids=[d[0] for d in DATASETTE])
def test_datasette_page_reads_in_the_interface_language(
    pages, served, width, lang, name, path, status, selector, words
):
    page = pages[width]
    response = page.goto(served + UI_LANGUAGES[lang] + path)
    assert response.status == status, path
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.lang") == {"ja": "ja", "zh": "zh-Hans", "en": "en"}[lang]
    measured = page.evaluate(MEASURE, [RUNNING_TEXT + ", .rows-and-columns, .facet-results, .metadata-description"])
    ARTIFACTS.mkdir(exist_ok=True)
    keep_screenshot(page, ARTIFACTS / f"{name}-{lang}-{width}.png")
    assert page.locator(selector).first.inner_text().strip().startswith(words[LANGS.index(lang)])
    assert measured["sideways"] <= 0, f"{path} scrolls sideways by {measured['sideways']} px at {width} width"
    assert not measured["too_small"], f"{path} at {width}: targets under 24x24 px: {measured['too_small'][:5]}"
    if width == "phone":
        # the site's header, as tests/test_browser.py bounds it (every link in view, a second row if need be)
        assert measured["header"] <= 160, f"the header takes {measured['header']} px of a phone screen"


@pytest.mark.parametrize("lang", LANGS)
def test_datasettes_column_menu_works_inside_the_site(pages, served, lang):
    page = pages["desktop"]
    page.goto(served + UI_LANGUAGES[lang] + "/laws/sections?kind=law")
    page.wait_for_load_state("load")
    page.locator("th.col-ref .dropdown-menu-icon").click()
    page.locator(".dropdown-menu a.dropdown-sort-asc").click()  # Datasette's own words and script
    page.wait_for_load_state("load")
    # Japanese has no prefix (/ja/ only chooses it); the page stays in the reader's language
    assert (
        "_sort=ref" in page.url and urlsplit(page.url).path == ("" if lang == "ja" else f"/{lang}") + "/laws/sections"
    )


# ---------------------------------------------------------------- issue 38 item 1: no address leaves the site

CRAFTED = [
    "/ja//evil.example",
    "/en//evil.example/",
    "/zh//evil.example/x",
    "/ja/%5Cevil.example",
    "/ja/%5C%5Cevil.example",
    "/ja/%2Fevil.example",
    "/ja/%2F%2Fevil.example",
    "/en/%2f%2fevil.example",
    "/ja/%09/evil.example",
    "/ja/%0d%0aLocation:%20http://evil.example",
    "/ja/%00",
    "/ja/%0a/evil.example",
    "/ja/%E3%80%80/evil.example",
    "/ja/.//evil.example",
    "/laws-2017-ja/%2F%2Fevil.example",
    "/-/search?q=%2F%2Fevil.example",
    "/-/diff?ref=&from=&to=",
]


@pytest.mark.parametrize("path", CRAFTED)
def test_no_crafted_address_leaves_the_site(pages, served, path):
    page = pages["phone"]
    try:
        response = page.goto(served + path)
    except Exception as error:  # noqa: BLE001 - a dropped connection is a failure too, named
        pytest.fail(f"{path}: no answer ({error})")
    assert urlsplit(page.url).netloc == urlsplit(served).netloc, (path, page.url)
    assert response is not None and response.status < 500, (path, response and response.status)
