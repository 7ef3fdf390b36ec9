"""Datasette's own pages in real Chromium at a phone's 390 px and a desktop's 1280 px, in each interface
language: the same checks as tests/test_browser.py (no sideways scroll, tap targets >= 24 px, the phone
header <= 140 px, <html lang>), plus the chrome's words in the interface language, the column menu too."""

from __future__ import annotations

import pytest

from tests.browser_fixtures import ARTIFACTS, BROWSER_MARKS
from tests.test_browser import MEASURE, RUNNING_TEXT, UI_LANGUAGES, keep_screenshot

pytestmark = BROWSER_MARKS  # the served, browser and pages fixtures: tests/browser_fixtures.py

# (name, path, status, a CSS selector whose text must be the word in ja, zh, en)
DATASETTE = [
    (
        "ds-table",
        "/laws/sections?kind=law",
        200,
        ".export-links",
        ("このデータの形式:", "此数据的格式：", "This data as"),
    ),
    (
        "ds-row",
        "/laws/sections/laws-2017-ja:61B",
        200,
        "h2",
        ("他のテーブルからのリンク", "来自其他表的链接", "Links from other tables"),
    ),
    (
        "ds-query",
        "/laws?sql=select+id,+label+from+sections+limit+5",
        200,
        "form.sql h3",
        ("SQL クエリ（5 行）", "自定义 SQL 查询（返回 5 行）", "Custom SQL query returning 5 rows"),
    ),
    ("ds-database", "/laws", 200, "h2#tables", ("テーブル", "表", "Tables")),
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
        assert measured["header"] <= 140, f"the header takes {measured['header']} px of a phone screen"


@pytest.mark.parametrize("lang, sort", [("ja", "昇順に並べ替え"), ("zh", "升序排列"), ("en", "Sort ascending")])
def test_the_column_menu_speaks_the_interface_language(pages, served, lang, sort):
    page = pages["desktop"]
    page.goto(served + UI_LANGUAGES[lang] + "/laws/sections?kind=law")
    page.wait_for_load_state("load")
    page.locator("th.col-ref .dropdown-menu-icon").click()
    assert page.locator(".dropdown-menu a.dropdown-sort-asc").inner_text() == sort
