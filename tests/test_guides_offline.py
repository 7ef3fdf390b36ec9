"""The ruling guides offline (full tier): the offline packs (`bridge-laws pack`, laws_site/offline/pack.py)
hold every page of every guide - each step and each ruling, in Japanese, Chinese and English - because
the crawl reaches them through the links of the units they cover; and in Chromium at 390 px, with the
network off, a guide's first question and a ruling open from the saved copy and read without sideways
scroll, in each interface language."""

from __future__ import annotations

import gzip
import json
import re

import pytest

from ingest.build.identity import read_build_id
from laws_site.offline import pack, pack_files
from laws_site.read import guides as reading
from tests import test_offline_browser as offline_browser
from tests.browser_fixtures import BROWSER_MARKS
from tests.test_browser import MEASURE, RUNNING_TEXT
from tests.test_guides_build import guides_by_id
from tests.test_offline_browser import open_online_until_saved

# the fixtures of the offline browser tests: a copy of the session's database with its packs, its server, a phone
db_copy, server, served, playwright, phone = (
    offline_browser.db_copy,
    offline_browser.server,
    offline_browser.served,
    offline_browser.playwright,
    offline_browser.phone,
)

pytestmark = [pytest.mark.slow]
LANGUAGES = {"ja": "", "zh": "/zh", "en": "/en"}


@pytest.fixture(scope="module")
def all_guides(db_copy) -> dict[str, reading.Guide]:
    return guides_by_id(db_copy)


def pages_pack(db_path, lang: str) -> dict:
    build = read_build_id(db_path)
    return json.loads(gzip.decompress(pack_files.pack_file(db_path, build, f"pages-{lang}").read_bytes()))


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_packs_hold_every_page_of_every_guide(db_copy, all_guides, lang):
    packed = pages_pack(db_copy, lang)
    assert "/-/guides" in packed["pages"]
    for guide in all_guides.values():
        for path in guide.canonical_paths().values():
            key = pack.page_key(guide.url(path))
            assert key in packed["pages"], (lang, key)
        ruling = guide.url(guide.canonical_paths()[next(iter(guide.rules))])
        page = pack.unpack_page(packed, pack.page_key(ruling))
        assert re.search(r'<html lang="([^"]+)"', page).group(1) == {"ja": "ja", "zh": "zh-Hans", "en": "en"}[lang]
        assert "<mark>" in page


def in_chromium(test):
    """The marks of a browser test (tests/browser_fixtures.py): the pack test above needs no browser."""
    for mark in BROWSER_MARKS:
        test = mark(test)
    return test


@in_chromium
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_guide_opens_offline_on_a_phone(phone, served, all_guides, lang):
    context, page = phone
    open_online_until_saved(page, f"{served}{LANGUAGES[lang]}/-/guides", lang)
    guide = all_guides["lead-out-of-turn"]
    ruling = guide.url(guide.canonical_paths()["opening-lead-options"])
    context.set_offline(True)
    try:
        for url in (f"{LANGUAGES[lang]}/-/guides/lead-out-of-turn", LANGUAGES[lang] + ruling):
            response = page.goto(served + url)
            assert response.status == 200, url
            page.wait_for_selector("#offline-status[data-state=offline]")
            measured = page.evaluate(MEASURE, [RUNNING_TEXT])
            assert measured["sideways"] <= 0, (url, measured["sideways"])
            assert not measured["too_small"], (url, measured["too_small"][:3])
        assert page.locator(".guide-law mark").count() == 1
        assert page.locator(".guide-rule > ol.guide-options > li").count() == 3  # 54A, 54B, 54D (50D2(a), (b) under it)
        page.locator(".guide-nav a[rel=prev]").click()  # one step back, from the saved copy too
        page.wait_for_load_state("load")
        assert page.locator("a.guide-answer").count() >= 2
    finally:
        context.set_offline(False)
