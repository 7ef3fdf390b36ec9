"""The search page on a 390 px phone and at 1280 px (issue 22, item 5; issue 24): the first result in
the first screen (the header's box holds the query, the filters fold away), no sideways scrolling,
labels instead of ids, the expansions one tap away. Chromium through Playwright, as tests/test_browser.py."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from tests.browser_fixtures import BROWSER_MARKS, VIEWPORTS

pytestmark = BROWSER_MARKS


@pytest.mark.parametrize("width", ["phone", "desktop"])
@pytest.mark.parametrize(
    "path", ["/-/search?q=" + quote("りぼーく"), "/zh/-/search?q=" + quote("不十分なビッド"), "/en/-/search?q=revoek"]
)
def test_the_first_result_is_in_the_first_screen(pages, served, width, path):
    page = pages[width]
    page.goto(served + path)
    box = page.locator(".search-results li").first.bounding_box()
    height = VIEWPORTS[width]["viewport"]["height"]
    assert box is not None and box["y"] + 60 <= height * 0.5  # its label and first line in the upper half
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") == 0
    assert page.locator("form.search-form").is_visible() is False  # the filters are folded away
    text = page.locator("section.content").inner_text()
    assert "laws-2017-ja:" not in text and "quote:" not in text and "def:" not in text


def test_one_tap_searches_exactly_what_was_typed(pages, served):
    page = pages["phone"]
    page.goto(served + "/-/search?q=" + quote("りぼーく"))
    assert page.locator(".also-searched a.also").all_inner_texts() == ["リボーク", "revoke"]
    page.locator("a.exact").click()
    page.wait_for_load_state()
    assert "exact=1" in page.url and page.locator(".search-results li").count() == 0
    assert page.locator(".also-searched").count() == 0
