"""The history and 1997 -> 2017 diff pages in real headless Chromium at a phone's 390 px and a
desktop's 1280 px (the set-up of tests/test_browser.py): no sideways scroll, tap targets of at
least 24x24 px, every row there, and the pairs the provision concordance decided shown in words."""

from __future__ import annotations

import pytest

from tests.browser_fixtures import ARTIFACTS, BROWSER_MARKS, VIEWPORTS
from tests.test_browser import MEASURE

pytestmark = BROWSER_MARKS

RUNNING_TEXT = ".unit-text, .unit-title, .note-first, .footnote-text, .side-text, h1, .cell-text, .relation-reason"
PAGES = [
    ("history-16", "/-/history/16", {".history-row": 25}),
    ("history-72", "/-/history/72", {".history-row": 7, ".relation-moved": 1}),
    ("history-61-reprint", "/-/history/61", {".history-row": 6, ".history-cell.reprint": 6}),
    ("history-index", "/-/history", {".history-index li": 93}),
    ("diff-16-1997-2017", "/-/diff?ref=16&from=laws-1997-zh&to=laws-2017-ja", {".diff-row": 25}),
    ("unit-1997-23", "/laws-1997-zh/23", {".counterpart": 1}),
]


@pytest.mark.parametrize("width", list(VIEWPORTS))
@pytest.mark.parametrize("name, path, rows", PAGES, ids=[p[0] for p in PAGES])
def test_edition_page_reads_at_phone_and_desktop_width(pages, served, width, name, path, rows):
    page = pages[width]
    response = page.goto(served + path)
    assert response.status == 200, path
    page.wait_for_load_state("load")
    measured = page.evaluate(MEASURE, [RUNNING_TEXT])
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=False)
    assert measured["sideways"] <= 0, f"{path} scrolls sideways by {measured['sideways']} px at {width} width"
    assert not measured["too_small"], f"{path} at {width}: targets under 24x24 px: {measured['too_small'][:5]}"
    for selector, minimum in rows.items():
        assert page.locator(selector).count() >= minimum, (path, selector)


def test_history_columns_side_by_side_on_a_desktop_and_stacked_on_a_phone(pages, served):
    def lefts(width):
        page = pages[width]
        page.goto(served + "/-/history/16")
        row = page.locator('[id="h-16B-from-16A"]')
        return [round(row.locator(f".history-cell.{side}").bounding_box()["x"]) for side in ("old", "new")]

    old_x, new_x = lefts("desktop")
    assert new_x > old_x + 300  # 1997 on the left, 2017 to its right
    old_x, new_x = lefts("phone")
    assert new_x == old_x  # one column: 2017 under 1997


def test_law_16_diff_says_16A_moved_and_never_pairs_16A1_with_16A1(pages, served):
    page = pages["desktop"]
    page.goto(served + "/en/-/diff?ref=16&from=laws-1997-zh&to=laws-2017-ja")
    moved = page.locator('[id="d-16B2-from-16A1"]')
    assert moved.locator(".relation").inner_text() == "moved or renumbered"
    assert moved.locator(".moved").inner_text() == "was 16A1"
    # 2017 16A1 (players' use of information) holds 1997 Law 16's own text, not 1997 16A1
    assert page.locator('[id="d-16A1"]').count() == 0
    assert page.locator('[id="d-16A1-from-16"] .relation').inner_text() == "split"
