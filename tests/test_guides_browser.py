"""The ruling guides in real headless Chromium (tests/browser_fixtures.py) against a real `bridge-laws serve`:
at a phone's 390 px every guide's first question and a ruling read without sideways scroll, every tap target
at least 24 px and every answer a large target, in Japanese, Chinese and English; a director taps through
a guide to a ruling, changes an answer, goes back; the ruling's law previews in place; all of it works
with JavaScript off."""

from __future__ import annotations

import pytest

from laws_site.read import guides as reading
from tests.browser_fixtures import ARTIFACTS, BROWSER_MARKS, VIEWPORTS
from tests.test_browser import MEASURE, RUNNING_TEXT, keep_screenshot
from tests.test_guides_build import GUIDE_IDS, guides_by_id

pytestmark = BROWSER_MARKS

UI_LANGUAGES = {"ja": "/ja", "zh": "/zh", "en": "/en"}  # /ja/ chooses Japanese (a remembered language would redirect)
LOCALES = {"ja": "ja", "zh": "zh-Hans", "en": "en"}
MIN_ANSWER_PX = 44  # an answer is tapped mid-ruling, standing at a table: well over WCAG's 24 px


@pytest.fixture(scope="module")
def all_guides(laws_db_path) -> dict[str, reading.Guide]:
    return guides_by_id(laws_db_path)


def first_ruling(guide: reading.Guide) -> str:
    """The path of the first ruling by the answers' order (the deepest page of the first branch)."""
    paths = guide.canonical_paths()
    return ".".join(paths[next(iter(guide.rules))])


@pytest.mark.parametrize("lang", list(UI_LANGUAGES))
@pytest.mark.parametrize("guide_id", GUIDE_IDS)
def test_a_guides_start_and_a_ruling_read_on_a_phone(pages, served, all_guides, guide_id, lang):
    page = pages["phone"]
    guide = all_guides[guide_id]
    for kind, path in (("start", ""), ("ruling", first_ruling(guide))):
        url = f"{served}{UI_LANGUAGES[lang]}/-/guides/{guide_id}" + (f"?path={path}" if path else "")
        response = page.goto(url)
        assert response.status == 200, url
        assert page.evaluate("document.documentElement.lang") == LOCALES[lang]
        measured = page.evaluate(MEASURE, [RUNNING_TEXT])
        ARTIFACTS.mkdir(exist_ok=True)
        keep_screenshot(page, ARTIFACTS / f"guide-{guide_id}-{kind}-{lang}-phone.png")
        assert measured["sideways"] <= 0, f"{url} scrolls sideways by {measured['sideways']} px"
        assert not measured["too_small"], f"{url}: targets under 24x24 px: {measured['too_small'][:5]}"
        if kind == "start":
            heights = page.locator("a.guide-answer").evaluate_all(
                "els => els.map(e => e.getBoundingClientRect().height)"
            )
            assert len(heights) == len(guide.steps[guide.start]["answers"])
            assert min(heights) >= MIN_ANSWER_PX, heights
            width = page.locator("a.guide-answer").first.evaluate("e => e.getBoundingClientRect().width")
            assert width >= 300  # the page's width, less its margins
        else:
            assert page.locator(".guide-law mark").inner_text() == guide.rules[path.split(".")[-1]]["quote"]
            # the ruling is on the first screen, above the answers that led to it
            assert page.locator(".guide-summary").evaluate("e => e.getBoundingClientRect().top") < 844


def test_a_director_taps_through_to_the_ruling_changes_an_answer_and_goes_back(pages, served, all_guides):
    page = pages["phone"]
    page.goto(served + "/ja/-/guides")
    page.locator("a.guide-open[href='/-/guides/revoke']").click()
    page.wait_for_url("**/-/guides/revoke")
    guide = all_guides["revoke"]
    for label in ("はい（成立している）", "いいえ", "それより前", "どれにも当たらない", "はい"):
        page.locator("a.guide-answer", has_text=label).first.click()
        page.wait_for_load_state("load")
    assert page.url.endswith("?path=trick-12.when-noticed.exceptions.offender-won.revoke-trick-and-one-more")
    assert page.locator(".guide-summary").inner_text() == guide.rules["revoke-trick-and-one-more"]["summary"]["ja"]
    assert page.locator(".guide-trail li").count() == 5
    page.go_back()  # the browser's back is one step back
    page.wait_for_url("**?path=trick-12.when-noticed.exceptions.offender-won")
    assert page.locator("#guide-question").inner_text().startswith("リボークしたプレイヤー本人が")
    page.locator(".guide-trail a.guide-change").nth(1).click()  # change the answer about trick 12
    page.wait_for_url("**?path=trick-12")
    assert page.locator("#guide-question").inner_text() == guide.steps["trick-12"]["question"]["ja"]
    page.locator("a.guide-answer").first.click()
    page.wait_for_url("**?path=trick-12.trick-12-corrected")
    assert page.locator(".guide-law mark").inner_text() == guide.rules["trick-12-corrected"]["quote"]


def test_the_rulings_law_previews_in_place_and_a_second_tap_opens_it(pages, served):
    page = pages["phone"]
    page.goto(
        served + "/en/-/guides/revoke?path=trick-12.when-noticed.exceptions.offender-won.revoke-trick-and-one-more"
    )
    link = page.locator(".guide-law figcaption a.xref")
    link.click()
    preview = page.locator(".xref-preview-text")
    preview.wait_for()
    page.wait_for_function("document.querySelector('.xref-preview-text').textContent.length > 5")
    assert "リボークの起きたトリックと" in preview.inner_text()
    link.click()
    page.wait_for_url("**/en/laws-2017-ja/64A1")
    assert page.locator(".guide-links a.guide-link").inner_text() == "Revoke →"  # and back to the guide from there


def test_without_javascript_every_step_is_a_link(browser, served):
    context = browser.new_context(java_script_enabled=False, **{**VIEWPORTS["phone"], "locale": "zh-CN"})
    page = context.new_page()
    try:
        page.goto(served + "/zh/-/guides/insufficient-bid")
        for _ in range(10):
            if page.locator(".guide-rule").count():
                break
            page.locator("a.guide-answer").last.click()
            page.wait_for_load_state("load")
        assert page.locator(".guide-rule .guide-law mark").count() == 1
        assert page.locator(".guide-trail li").count() >= 1
        page.locator(".guide-nav a[rel=prev]").click()
        page.wait_for_load_state("load")
        assert page.locator("#guide-question").count() == 1
    finally:
        context.close()
