"""The static export served by `python -m http.server` (what any static host does), in Chromium at
phone size: one visit saves the site; units, references, the 索引's rows, the glossary, search words
and citations work online and offline, in ja, zh and en, and search's top result is the server's."""

from __future__ import annotations

import asyncio
from urllib.parse import quote

import pytest

from tests import test_export
from tests.browser_fixtures import BROWSER_MARKS, CHROMIUM, CHROMIUM_ARGS, VIEWPORTS

# the export and its static file server, as tests/test_export.py makes them (pytest finds fixtures by name)
exported, static_host = test_export.exported, test_export.static_host

pytestmark = BROWSER_MARKS
READY = "#offline-status[data-state=ready]"
SAVE_TIMEOUT_MS = 600_000
QUERIES = [
    "リボーク",
    "順番外のリード",
    "ダミー",
    "藏牌",
    "revoke",
    "claim",
    "ペナルティ・カード",
    "罰張",
    "調整スコア",
]


@pytest.fixture(scope="module")
def server_tops(datasette) -> dict[str, str | None]:
    """The server's top result for each query, asked before the browser starts: Playwright's sync
    API keeps an event loop running in this thread (asyncio.run raises once it has started)."""
    return {query: asyncio.run(server_top(datasette, query)) for query in QUERIES}


@pytest.fixture(scope="module")
def phone(static_host, server_tops):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(**VIEWPORTS["phone"])
        yield context, context.new_page()
        browser.close()


def test_a_page_with_a_query_is_right_once_the_copy_is_saved(phone, static_host):
    """The first visit lands on a 索引 row: the host shows the 索引 without its query, the page reloads
    once the worker can answer, and then it is the row asked for."""
    context, page = phone
    page.goto(static_host + "/laws-2017-ja/-/index?row=" + quote("ら"))
    page.wait_for_selector(READY, timeout=SAVE_TIMEOUT_MS)
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.wait_for_load_state()
    page.wait_for_function("document.querySelectorAll('.index-entries dt').length >= 20", timeout=60_000)
    assert "ら" in page.url or quote("ら") in page.url


def test_a_comparison_the_copy_lacks_is_said_truly_online_and_in_a_language_not_saved_yet(phone, static_host):
    """Online on a static host, a comparison the copy lacks was headed "Not available offline"; and in a
    language not saved yet (English here: only Japanese pages were opened) the host sent its bare form, the
    query dropped unseen. The worker saves the language first and the copy says what it holds."""
    context, page = phone
    page.goto(static_host + "/laws-2017-ja/16")
    page.wait_for_selector(READY, timeout=SAVE_TIMEOUT_MS)
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    response = page.goto(static_host + "/-/diff?ref=16b1&from=laws-1997-zh&to=laws-2017-ja")
    assert response.status == 404  # the site has no such page; 503 said the host was down
    assert page.inner_text("#offline-unavailable h1") == page.title() == "このサイトの写しにはありません"
    assert "オフライン" not in page.inner_text(".offline-diff")
    page.goto(static_host + "/en/-/diff?ref=61&from=laws-1997-zh&to=laws-2017-ja&whitespace=1")
    assert page.get_attribute("html", "lang").startswith("en")
    assert page.inner_text("#offline-unavailable h1") == "Not in this copy of the site"
    assert page.inner_text(".offline-diff a") == "Compare Law 61"


def test_units_references_glossary_and_languages_from_the_static_host(phone, static_host):
    context, page = phone
    page.goto(static_host + "/laws-2017-ja/61B2(a)")
    assert "61条B項2(a)" in page.inner_text("h1")
    page.click("a.xref[href='/laws-2017-ja/43B2(b)']")  # the first tap previews it, as online
    page.wait_for_selector(".xref-preview")
    page.click("a.xref[href='/laws-2017-ja/43B2(b)']")  # the second follows it
    page.wait_for_url("**/laws-2017-ja/43B2(b)**")
    assert "43条B項2(b)" in page.inner_text("h1")
    page.goto(static_host + "/-/glossary/" + quote("ダミー"))
    assert "ダミー" in page.inner_text("h1")
    for lang, word in (("en", "Law 61"), ("zh", "第61条")):
        page.goto(f"{static_host}/{lang}/laws-2017-ja/61")
        assert word in page.inner_text("h1") and page.get_attribute("html", "lang").startswith(lang)
    # the host's 404 (python's own page here), then the worker's: the copy is the site, so not found, said so
    response = page.goto(static_host + "/laws-2017-ja/99Z")
    assert response.status == 404 and page.inner_text("#offline-unavailable h1") == "このサイトの写しにはありません"
    assert "オフライン" not in page.inner_text("#offline-unavailable .error-message")
    context.set_offline(True)
    try:
        response = page.goto(static_host + "/laws-2017-ja/99Z")  # offline: the copy is the site, still not found
        assert response.status == 404 and page.inner_text("#offline-unavailable h1") == "このサイトの写しにはありません"
        assert "オフライン" not in page.inner_text("#offline-unavailable .error-message")
        page.goto(static_host + "/laws-2017-ja/62")
        assert "62" in page.inner_text("h1")
        page.goto(static_host + "/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja")
        assert "61" in page.inner_text("h1")
    finally:
        context.set_offline(False)


def test_a_page_the_copy_lacks_is_said_in_the_addresss_language_before_it_is_saved(phone, static_host):
    """A reader whose copy holds only Japanese asked /zh/.../99Z: the host's 404 was answered by the copy in
    Japanese, the language saved before. The worker saves the address's language first, as for a query."""
    context = phone[0].browser.new_context(**VIEWPORTS["phone"])
    try:
        page = context.new_page()
        page.goto(static_host + "/laws-2017-ja/16")
        page.wait_for_selector(READY, timeout=SAVE_TIMEOUT_MS)
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        for prefix, heading in (("/zh", "本站副本中没有"), ("/en", "Not in this copy of the site")):
            response = page.goto(static_host + prefix + "/laws-2017-ja/99Z")
            assert response.status == 404 and page.get_attribute("html", "lang").startswith(prefix[1:])
            assert page.inner_text("#offline-unavailable h1") == heading
    finally:
        context.close()


# every text the search page's note shows, kept across the reload that follows the saving
RECORD_NOTES = """
new MutationObserver(() => {
  const note = document.querySelector("#offline-search .offline-note");
  const said = JSON.parse(sessionStorage.getItem("notes") || "[]");
  if (note && note.textContent && said[said.length - 1] !== note.textContent) {
    said.push(note.textContent);
    sessionStorage.setItem("notes", JSON.stringify(said));
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def test_search_on_the_first_visit_says_it_is_loading_not_that_nothing_is_saved(phone, static_host):
    """The first visit to the static copy is a search: online, while the worker saves the search data, the page
    said 'The offline search data is not saved yet: go online once' for seconds before the results came.
    It says the data is loading (offline-search.js savingNow), then shows the results."""
    context = phone[0].browser.new_context(**VIEWPORTS["phone"])
    try:
        context.add_init_script(RECORD_NOTES)
        page = context.new_page()
        page.goto(static_host + "/-/search?q=" + quote("リボーク"))
        box = page.locator("#offline-search")
        not_saved, loading = box.get_attribute("data-not-saved"), box.get_attribute("data-loading")
        page.wait_for_selector("#offline-results .search-results a", timeout=SAVE_TIMEOUT_MS)
        said = page.evaluate("JSON.parse(sessionStorage.getItem('notes') || '[]')")
        assert not_saved not in said, said
        assert loading == "検索データを読み込んでいます…" and loading in said, said
    finally:
        context.close()


async def server_top(datasette, query: str) -> str | None:
    answer = (await datasette.client.get("/-/search.json", params={"q": query})).json()
    return answer["results"][0]["url"] if answer.get("results") else None


def test_search_words_and_citations_agree_with_the_servers_top_result(phone, static_host, server_tops):
    context, page = phone
    differing = []
    for query in QUERIES:
        page.goto(static_host + "/-/search?q=" + quote(query))
        first = page.locator("#offline-results .search-results a").first
        offline = first.get_attribute("href") if first.count() else None
        online = server_tops[query]
        if offline is None or online is None or offline.split("?")[0] != online.split("?")[0]:
            differing.append((query, offline, online))
    assert not differing, differing
    page.goto(static_host + "/-/search?q=" + quote("第64条A項1"))  # a citation opens its unit
    page.wait_for_url("**/laws-2017-ja/64A1**")
    assert "64条A項1" in page.inner_text("h1")
    context.set_offline(True)
    try:
        page.goto(static_host + "/en/-/search?q=revoke")
        assert page.locator("#offline-results .search-results a").count() > 0
    finally:
        context.set_offline(False)
