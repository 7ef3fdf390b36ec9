"""Offline, reading works as online (issue 37.8), in real Chromium at phone size over a real server:
a tap on a reference previews its text in place (the copy holds pages, not the JSON the preview reads
online: the preview reads the saved page), and the glossary's filter filters (the copy holds the
whole glossary, not a filtered page: the rows are filtered in place with the offline search's
folding). The set-up (packs, server, one phone) is tests/test_offline_browser.py's."""

from __future__ import annotations

from tests.test_browser import pytestmark  # noqa: F401
from tests.test_offline_browser import (  # noqa: F401
    READY,
    SAVE_TIMEOUT_MS,
    db_copy,
    phone,
    playwright,
    served,
    server,
)


def test_saved_online_first(phone, served):  # noqa: F811
    context, page = phone
    page.goto(served + "/")
    page.wait_for_selector(READY, timeout=SAVE_TIMEOUT_MS)


def test_offline_a_reference_previews_in_place_and_a_second_tap_follows_it(phone, served):  # noqa: F811
    """Offline, a tap on a reference jumped to the page (its JSON is not in the copy)."""
    context, page = phone
    context.set_offline(True)
    try:
        page.goto(served + "/laws-2017-ja/27B1(b)")
        page.wait_for_selector("#offline-status[data-state=offline]")
        link = page.locator(".unit-body a.xref[href='/laws-2017-ja/23A']")
        link.click()
        preview = page.locator(".xref-preview-text")
        page.wait_for_function("!document.querySelector('.xref-preview-text').textContent.startsWith('…')")
        assert page.url == served + "/laws-2017-ja/27B1(b)"  # still here
        lines = preview.inner_text().split("\n")
        assert lines[0] == "定義"  # 23A's heading, then its text and its items, as online
        assert lines[1] == "取り消したコールに置き換わるコールで以下のいずれかに該当するものは同等なコールである。"
        assert any(
            line.startswith("1.") and "取り消したコールと同じまたはほぼ同じ意味を持つコール" in line for line in lines
        )
        assert page.locator(".unit-context .lead-in").first.is_visible()  # the condition stays
        assert page.locator("iframe").count() == 0  # the saved page it read is gone
        link.click()  # the second tap follows it
        page.wait_for_url(served + "/laws-2017-ja/23A")
    finally:
        context.set_offline(False)


def test_offline_the_glossary_filter_filters(phone, served):  # noqa: F811
    """Offline, the filter answered "not available offline" (a page about SQL and Datasette)."""
    context, page = phone
    page.goto(served + "/en/-/glossary")  # online: the English copy is saved too
    page.wait_for_function(
        "caches.keys().then((names) => Promise.all(names.map((n) => caches.open(n)"
        ".then((c) => c.match('/-/offline/saved/state')).then((r) => r && r.json()))))"
        ".then((states) => states.some((s) => s && s.languages && s.languages.en))",
        timeout=SAVE_TIMEOUT_MS,
    )
    context.set_offline(True)
    try:
        for prefix, query, expected in (("", "ダミー", "ダミー"), ("/en", "Dummy", "ダミー"), ("", "明手", "ダミー")):
            page.goto(served + prefix + "/-/glossary")
            total = page.locator("table.glossary tbody tr").count()
            page.fill("form.glossary-filter input[name=q]", query)
            page.press("form.glossary-filter input[name=q]", "Enter")
            page.wait_for_function(
                "(total) => document.querySelectorAll('table.glossary tbody tr:not([hidden])').length < total",
                arg=total,
            )
            shown = page.locator("table.glossary tbody tr:not([hidden]) td[lang=ja]").all_inner_texts()
            assert expected in shown and len(shown) <= 3, (prefix, query, shown)
            assert page.url == served + prefix + "/-/glossary"  # no page the copy does not hold
            assert str(len(shown)) in page.inner_text(".glossary-count")
    finally:
        context.set_offline(False)
