"""The offline page shows a search's results with the search page's markup and wording, in each
interface language: offline-search.js fills the parts of templates/_search_results.html that the
offline page holds, the search page renders the same parts (issue 33 item 2: one definition of the
markup). Run in Node on this build's search pack and the offline page as the service worker gets it,
against the server's page through Datasette's test client (tests/test_offline_browser.py does it in
Chromium, offline, in the full tier)."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import subprocess
from html import unescape
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest
from markupsafe import escape

from laws_site.i18n import catalog
from laws_site.offline.pack import result_labels
from laws_site.offline.search_scripts import script_paths
from laws_site.search.query import page_sentences

RUNNER = Path(__file__).resolve().parent / "node" / "offline_page.js"
QUERIES = [
    "リボーク",
    "revoke",
    "revoek",
    "ribooku",
    "夢家",
    "61B、64A1",
    "61Z",  # a citation nobody holds: the same nearest units
    "罚牌",
    "犹豫",  # a spoken form the vocabulary lists as Chinese: marked zh offline as online
    "insufficient bid",  # Law 27 and the 1997 Law 27 the concordance pairs it with (zh, en: tests/test_search_paired.py)
    "ダミーがディクレアラーの間違ったハンドからのリードを止めようとした",
    "叫牌不足",  # the 1997 text's words: in /zh/ and /en/ the current Law 27B first, in the Japanese interface 1997 27B
    "「ダミーがカードを見せた」",  # typed in brackets: the sentences quote it once (test_a_query_in_quotation_marks...)
    "“罚牌”",
    "partner hesitated",  # read as パートナー 躊躇う: one search of two words, one link (test_a_reading_of_several...)
    "わざと止めた",  # 故意 found for わざと: 「わざと」→「故意」 (test_search_why: a word found through ...)
    "パートナーがためらった",  # every word held, 躊躇 through ためらった: the why says so
]


@pytest.fixture(scope="module")
def offline_page(search_pack_file):
    """ask(shell, labels, url) -> the service worker's answer, from one Node process."""
    assert shutil.which("node"), "node is not installed"
    pack = search_pack_file
    process = subprocess.Popen(
        ["node", str(RUNNER), str(pack), *map(str, script_paths())],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )

    def ask(shell: str, labels: dict, url: str) -> dict:
        process.stdin.write(json.dumps([shell, labels, url], ensure_ascii=False) + "\n")
        process.stdin.flush()
        return json.loads(process.stdout.readline())

    yield ask
    process.stdin.close()
    process.wait(timeout=10)


def between(html: str, start: str, end: str) -> str:
    """The markup between two marks, blank space between tags left out."""
    region = html[html.index(start) + len(start) :]
    return re.sub(r">\s+<", "><", region[: region.index(end)]).strip()


def unprefixed(region: str, prefix: str) -> str:
    """Links without the language prefix: the service worker adds it to the offline page's links
    that lack it (the pages' own links keep the address they were asked at)."""
    return region.replace(f'href="{prefix}/', 'href="/') if prefix else region


def online_results(html: str, prefix: str) -> str:
    """The search page's results, without its summary's link to the JSON (offline has none)."""
    region = between(html, "</details>", "</main>").removesuffix("</section>")
    return re.sub(r' · <a href="/-/search\.json\?[^"]*">JSON</a>', "", unprefixed(region, prefix))


@pytest.fixture(scope="module")
def labels(laws_db_path):
    conn = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    yield {lang: result_labels(conn, lang) for lang in ("ja", "zh", "en")}
    conn.close()


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("prefix", ["", "/zh", "/en"], ids=["ja", "zh", "en"])
async def test_offline_results_have_the_search_pages_markup(datasette, labels, offline_page, prefix, query):
    shell = (await datasette.client.get(f"{prefix}/-/offline/page")).text
    url = f"{prefix}/-/search?q={quote(query)}&list=1"
    online = online_results((await datasette.client.get(url)).text, prefix)
    offline = offline_page(shell, labels[prefix.strip("/") or "ja"], url)["html"]
    assert (
        unprefixed(between(offline, '<div id="offline-results">', '</div>\n<p class="offline-status'), prefix) == online
    )


@pytest.mark.parametrize(
    "prefix, said",
    [
        ("", "の検索結果はこのページより前で終わります"),
        ("/zh", "的搜索结果在本页之前已经结束"),
        ("/en", "end before this page"),
    ],
    ids=["ja", "zh", "en"],
)
async def test_a_page_past_the_last_result_says_so_and_links_the_first(datasette, labels, offline_page, prefix, said):
    """?offset=100 of 78 results said 「No results for “revoke”. Try another spelling…」, online and offline,
    with no way back: the results exist, the page is past them."""
    url = f"{prefix}/-/search?q=revoke&offset=100&list=1"
    online = online_results((await datasette.client.get(url)).text, prefix)
    assert said in online and 'href="/-/search?q=revoke&amp;list=1">' in online
    shell = (await datasette.client.get(f"{prefix}/-/offline/page")).text
    offline = offline_page(shell, labels[prefix.strip("/") or "ja"], url)["html"]
    assert (
        unprefixed(between(offline, '<div id="offline-results">', '</div>\n<p class="offline-status'), prefix) == online
    )


# a search that makes search say each of its messages (laws_site/search/query.py PAGE_MESSAGES), as typed
SAYING = {
    "empty": "q=&doc=laws-2017-ja",
    "too_long": "q=" + "あ" * 501,
    "unknown_language": "q=revoke&lang=xx",
    "unknown_document": "q=revoke&doc=no-such-document",
    "limit": "q=revoke&limit=0",
    "offset": "q=revoke&offset=100001",
    "only_operators": "q=OR",
    "nothing": "q=" + quote("！？"),
    "no_such_unit": "q=61Z",
    "no_such_unit_in_filters": "q=61Z&doc=laws-2017-ja",
    "elsewhere": "q=" + quote("L60A1,2") + "&list=1",
    "repeated": "q=revoke&q=" + quote("リボーク") + "&q=" + quote("it's"),  # the server's 400, not its search page
}
REFUSED = {"": "リクエストが正しくありません", "/zh": "请求有误", "/en": "Bad request"}  # a 400's title, first


def page_title(html: str) -> str:
    return unescape(re.search(r"<title>([^<]*)</title>", html).group(1))


OFFLINE_SCRIPTS = Path(__file__).resolve().parents[1] / "laws_site" / "static"


def test_every_message_the_offline_search_can_say_is_in_the_catalogues():
    """issue 33 item 4: what the offline engine and page say (message("name") in offline-search*.js) is a
    catalogue entry, translated in ja and zh, and a search above makes each one said."""
    from babel.messages.pofile import read_po

    from laws_site.search.query import MESSAGES, PAGE_MESSAGES

    named = set()
    for script in OFFLINE_SCRIPTS.glob("offline-search*.js"):
        source = script.read_text(encoding="utf-8")
        # the names in message()'s first argument (a name, or a choice of two), and the page's counts
        for argument in re.findall(r"\bmessage\(([^,{)]*)", source):
            named |= set(re.findall(r'"([a-z_]+)"', argument))
        named |= set(re.findall(r'countParam\(params, "([a-z_]+)"', source))
    assert {"too_long", "no_such_unit", "no_such_unit_in_filters", "elsewhere"} <= named
    assert named <= set(PAGE_MESSAGES) == set(MESSAGES) == set(SAYING)
    for lang in ("ja", "zh", "en"):
        with (OFFLINE_SCRIPTS.parent / "locale" / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
            catalog = read_po(po)
        for name, (msgid, _renamed) in PAGE_MESSAGES.items():
            assert catalog.get(msgid) is not None, (lang, name)
            assert lang == "en" or catalog.get(msgid).string, (lang, name, "untranslated")


@pytest.mark.parametrize("name", sorted(set(SAYING) - {"repeated"}))
@pytest.mark.parametrize("prefix", ["", "/zh", "/en"], ids=["ja", "zh", "en"])
async def test_what_search_says_offline_is_the_servers_sentence(datasette, labels, offline_page, prefix, name):
    """A refusal (a query too long, a limit out of range, the engine's own) and a citation's note read
    offline as the server's page reads them, in the interface's language (they were English offline)."""
    shell = (await datasette.client.get(f"{prefix}/-/offline/page")).text
    url = f"{prefix}/-/search?{SAYING[name]}"
    page = await datasette.client.get(url)
    online = online_results(page.text, prefix)
    offline = offline_page(shell, labels[prefix.strip("/") or "ja"], url)["html"]
    shown = unprefixed(between(offline, '<div id="offline-results">', '</div>\n<p class="offline-status'), prefix)
    assert shown == online
    # the tab's title as the server's: a refused search says so first (offline it said only "Search")
    assert page_title(offline) == page_title(page.text)
    assert (page.status_code == 400) == page_title(page.text).startswith(REFUSED[prefix] + ": "), page_title(page.text)
    # the catalogue's sentence for the message, in the interface's language (slots filled by the search)
    token = catalog.current.set(prefix.strip("/") or "ja")
    try:
        sentence = page_sentences()[name]
    finally:
        catalog.current.reset(token)
    assert all(str(escape(piece)) in shown for piece in re.split(r"\{[a-z]+\}", sentence)), (sentence, shown)


@pytest.mark.parametrize(
    "given",
    [
        SAYING["repeated"],
        "q=revoke&limit=5&limit=6",
        "q=a&q=&lang=ja",
        "q=" + quote("x" * 45) + "&q=" + quote("a\\b\t"),
    ],
)
@pytest.mark.parametrize("prefix", ["", "/zh", "/en"], ids=["ja", "zh", "en"])
async def test_a_parameter_given_twice_is_refused_offline_as_online(datasette, labels, offline_page, prefix, given):
    """q=x&q=y: the server answers 400 naming q; the offline copy answered the first value. Offline the
    page says the server's sentence, in the interface's language, with the server's status."""
    url = f"{prefix}/-/search?{given}"
    online = await datasette.client.get(url)
    assert online.status_code == 400
    refusal = re.search(r'<p class="error-message">(.*?)</p>', online.text, re.S).group(1)
    shell = (await datasette.client.get(f"{prefix}/-/offline/page")).text
    offline = offline_page(shell, labels[prefix.strip("/") or "ja"], url)
    assert offline.get("status") == 400
    said_offline = re.search(r'<p class="search-error" role="alert">(.*?)</p>', offline["html"], re.S).group(1)
    assert unescape(said_offline) == unescape(refusal)
    # nothing was searched and no query read: the box is empty (as on the server's page), no "searched on
    # this device" note under the refusal
    assert re.search(r'id="site-search-q" name="q" value=""', offline["html"])
    assert '<p class="offline-status offline-note" role="status"></p>' in offline["html"]


@pytest.mark.parametrize("given", [SAYING["limit"], SAYING["too_long"], SAYING["only_operators"]])
async def test_a_refused_search_offline_says_nothing_was_searched_on_this_device(
    datasette, labels, offline_page, given
):
    """A refusal offline said "searched on this device (build ...)" under the error: nothing was."""
    shell = (await datasette.client.get("/-/offline/page")).text
    offline = offline_page(shell, labels["ja"], f"/-/search?{given}")
    assert offline.get("status") == 400
    assert '<p class="offline-status offline-note" role="status"></p>' in offline["html"]


@pytest.mark.parametrize(
    ("query", "shown"),
    [("「ダミーがカードを見せた」", "ダミーがカードを見せた"), ("“罚牌”", "罚牌"), ("「A」「B」", "「A」「B」")],
)
@pytest.mark.parametrize("prefix", ["", "/zh", "/en"], ids=["ja", "zh", "en"])
async def test_a_query_in_quotation_marks_is_quoted_once(datasette, labels, offline_page, prefix, query, shown):
    """「ダミーがカードを見せた」 read 「「ダミーがカードを見せた」」の検索結果: the sentences quote the query
    themselves, so the reader's pair that holds all of it is left out there (not in the box, the link, the JSON)."""
    url = f"{prefix}/-/search?q={quote(query)}&list=1"
    shell = (await datasette.client.get(f"{prefix}/-/offline/page")).text
    for html in (
        (await datasette.client.get(url)).text,
        offline_page(shell, labels[prefix.strip("/") or "ja"], url)["html"],
    ):
        sentences = re.findall(r'<p class="(?:search-summary|no-results)">(.*?)</p>', html, re.S)
        sentences = [sentence for sentence in sentences if "{query}" not in sentence]  # not the offline parts
        assert len(sentences) == 1
        words = re.sub(r"<[^>]+>", "", sentences[0])
        assert re.search("(?<![「“])[「“]" + re.escape(shown) + "[」”](?![」”])", words), words  # one pair
        assert f'name="q" value="{escape(query)}"' in html


@pytest.mark.parametrize("prefix", ["", "/zh", "/en"], ids=["ja", "zh", "en"])
async def test_a_result_without_a_title_has_no_empty_title_mark(datasette, labels, offline_page, prefix):
    """注釈 L61B (a commentary note: no title) was rendered with an empty <span lang="ja"></span>."""
    url = f"{prefix}/-/search?q={quote('61B、64A1')}&list=1"
    shell = (await datasette.client.get(f"{prefix}/-/offline/page")).text
    for html in (
        (await datasette.client.get(url)).text,
        offline_page(shell, labels[prefix.strip("/") or "ja"], url)["html"],
    ):
        results = between(html, '<ul class="search-results">', "</main>")
        assert "L61B" in results
        assert not re.search(r'<span lang="[^"]*"></span>', results)


@pytest.mark.parametrize("typed", ["%20%20", "%00", "%01" + quote("リボーク") + "%00"])
@pytest.mark.parametrize("prefix", ["", "/en"], ids=["ja", "en"])
async def test_a_blank_or_control_character_query_shows_as_the_server_shows_it(
    datasette, labels, offline_page, prefix, typed
):
    """Offline, "  " was titled '   – 検索' with the filters folded and nothing to say; the server's
    page shows the empty form. The title, the boxes and the filters' state are the server's."""
    url = f"{prefix}/-/search?q={typed}"
    shell = (await datasette.client.get(f"{prefix}/-/offline/page")).text
    online = (await datasette.client.get(url)).text
    offline = offline_page(shell, labels[prefix.strip("/") or "ja"], url)["html"]

    def shown(html: str) -> tuple:
        return (
            re.search(r"<title>(.*?)</title>", html, re.S).group(1),
            re.search(r'id="site-search-q" name="q" value="([^"]*)"', html).group(1),
            re.search(r'<input type="hidden" name="q" value="([^"]*)"', html).group(1),
            bool(re.search(r'<details class="search-filters"[^>]*\bopen\b', html)),
        )

    assert shown(offline) == shown(online)


@pytest.mark.parametrize("query", ["罚牌", "partner hesitated"])
@pytest.mark.parametrize("prefix", ["", "/zh", "/en"], ids=["ja", "zh", "en"])
async def test_a_reading_of_several_words_is_one_link_with_each_word_marked(
    datasette, labels, offline_page, prefix, query
):
    """「ペナルティカード ペナルティカードの処置」 showed as one term: it is one search (the link's q holds both
    words), so it stays one link, its words marked apart and joined by a sign."""
    url = f"{prefix}/-/search?q={quote(query)}&list=1"
    shell = (await datasette.client.get(f"{prefix}/-/offline/page")).text
    answer = (await datasette.client.get(f"{prefix}/-/search.json?q={quote(query)}")).json()
    (reading,) = [word for word in answer["also_searched"] if " " in word and answer["word_langs"][word] == "ja"]
    online = (await datasette.client.get(url)).text
    for html in (online, offline_page(shell, labels[prefix.strip("/") or "ja"], url)["html"]):
        link = re.search(
            r'<a class="also" href="[^"]*\?q=' + re.escape(quote_plus(reading)) + r'"[^>]*>(.*?)</a>', html
        )
        marks = re.findall(r'<span class="searched-word">([^<]*)</span>', link.group(1))
        assert marks == reading.split(" "), link.group(1)
        assert re.sub(r"<[^>]+>", "", link.group(1)) == " + ".join(marks)
