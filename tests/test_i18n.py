"""The interface language: in the URL (/en/, /zh/, Japanese unprefixed), picked from Accept-Language
on a first visit, remembered when chosen, every chrome string in the ja and zh catalogues."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from laws_site.i18n import catalog as i18n
from laws_site.i18n import prefix as ui_lang

ROOT = Path(__file__).resolve().parent.parent
BROWSER = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


def html_lang(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html).group(1)


@pytest.mark.parametrize(
    "prefix, tag, search, glossary",
    [
        ("", "ja", "検索", "用語集"),
        ("/zh", "zh-Hans", "搜索", "术语表"),
        ("/en", "en", "Search", "Glossary"),
    ],
)
async def test_the_chrome_is_in_the_language_of_the_url(datasette, prefix, tag, search, glossary):
    response = await datasette.client.get(f"{prefix}/laws-2017-ja/27B1(b)")
    assert response.status_code == 200
    html = response.text
    assert html_lang(html) == tag
    assert f'<button type="submit">{search}</button>' in html
    assert f">{glossary}</a>" in html
    # the law text stays as printed, in its own language
    assert '<article class="law-text" lang="ja" data-text-lang="ja">' in html


async def test_the_switcher_links_the_same_page_in_each_language_with_hreflang(datasette):
    html = (await datasette.client.get("/en/laws-2017-ja/61B2?from_search=x")).text
    switcher = re.search(r'<nav class="ui-languages".*?</nav>', html, re.S).group(0)
    assert (
        '<a class="ui-language" hreflang="ja" lang="ja" href="/ja/laws-2017-ja/61B2?from_search=x">日本語</a>'
        in switcher
    )
    assert (
        '<a class="ui-language" hreflang="zh-Hans" lang="zh-Hans" href="/zh/laws-2017-ja/61B2?from_search=x">中文</a>'
        in switcher
    )
    assert '<span class="ui-language current" lang="en" aria-current="true">English</span>' in switcher
    assert '<link rel="alternate" hreflang="ja" href="/laws-2017-ja/61B2?from_search=x">' in html
    assert '<link rel="alternate" hreflang="zh-Hans" href="/zh/laws-2017-ja/61B2?from_search=x">' in html


async def test_links_inside_an_english_page_stay_in_english(datasette):
    html = (await datasette.client.get("/en/laws-2017-ja/61B")).text
    hrefs = re.findall(r'<a [^>]*href="(/[^"]*)"', html)
    assert "/en/laws-2017-ja/61B2" in hrefs and "/en/-/glossary" in hrefs
    pages = [h for h in hrefs if not h.endswith(".json") and "hreflang" not in h]
    # every on-site page link keeps the prefix, except the switcher's link to Japanese
    assert [h for h in pages if not h.startswith(("/en/", "/zh/"))] == ["/ja/laws-2017-ja/61B"]
    assert 'action="/en/-/search"' in html
    assert 'href="/-/static-plugins/bridge-laws/site.css?v=' in html  # files are not in a language
    assert 'href="/laws-2017-ja/61B.json"' in html  # nor is JSON


@pytest.mark.parametrize(
    "path",
    [
        "/laws-2017-ja/61B.json",
        "/-/glossary.json?q=dummy",
        "/-/glossary/ダミー.json",
        "/-/citations.json",
        "/laws-2017-ja.json",
    ],
)
async def test_json_is_the_same_in_every_language(datasette, path):
    plain = await datasette.client.get(path)
    for prefix in ("/en", "/zh"):
        other = await datasette.client.get(prefix + path)
        assert plain.status_code == other.status_code == 200
        assert plain.json() == other.json(), prefix


async def test_accept_language_picks_the_language_on_a_first_visit(datasette):
    response = await datasette.client.get(
        "/laws-2017-ja/61B", headers={**BROWSER, "accept-language": "zh-TW,zh;q=0.9,en;q=0.5"}
    )
    assert response.status_code == 302 and response.headers["location"] == "/zh/laws-2017-ja/61B"
    assert "Accept-Language" in response.headers["vary"]
    english = await datasette.client.get("/-/glossary?x=1", headers={**BROWSER, "accept-language": "en-GB,en;q=0.8"})
    assert english.headers["location"] == "/en/-/glossary?x=1"
    japanese = await datasette.client.get("/laws-2017-ja/61B", headers={**BROWSER, "accept-language": "ja,en;q=0.5"})
    assert japanese.status_code == 200 and html_lang(japanese.text) == "ja"
    assert "Accept-Language" in japanese.headers["vary"]


async def test_a_shared_link_opens_as_shared_and_json_is_never_redirected(datasette):
    english_browser = {**BROWSER, "accept-language": "en"}
    shared = await datasette.client.get("/zh/laws-2017-ja/61B", headers=english_browser)
    assert shared.status_code == 200 and html_lang(shared.text) == "zh-Hans"
    as_json = await datasette.client.get("/laws-2017-ja/61B.json", headers=english_browser)
    assert as_json.status_code == 200
    api_client = await datasette.client.get("/laws-2017-ja/61B", headers={"accept-language": "en"})
    assert api_client.status_code == 200  # curl, httpx: no text/html in Accept, no redirect


async def test_a_chosen_language_is_remembered(datasette):
    to_japanese = await datasette.client.get("/ja/laws-2017-ja/61B?q=1")
    assert to_japanese.status_code == 302 and to_japanese.headers["location"] == "/laws-2017-ja/61B?q=1"
    assert to_japanese.headers["set-cookie"].startswith("ui_lang=ja;")
    stays = await datasette.client.get(
        "/laws-2017-ja/61B", headers={**BROWSER, "accept-language": "en", "cookie": "ui_lang=ja"}
    )
    assert stays.status_code == 200 and html_lang(stays.text) == "ja"
    chosen = await datasette.client.get("/en/laws-2017-ja/61B", headers=BROWSER)
    assert chosen.headers["set-cookie"].startswith("ui_lang=en;")
    assert "public" not in chosen.headers["cache-control"]  # a response that sets a cookie is not shared
    back = await datasette.client.get("/laws-2017-ja/61B", headers={**BROWSER, "cookie": "ui_lang=en"})
    assert back.status_code == 302 and back.headers["location"] == "/en/laws-2017-ja/61B"


async def test_each_language_is_kept_apart_in_the_page_memory(datasette):
    japanese = await datasette.client.get("/laws-2017-ja/62A")
    chinese = await datasette.client.get("/zh/laws-2017-ja/62A")
    again = await datasette.client.get("/laws-2017-ja/62A")
    assert html_lang(japanese.text) == html_lang(again.text) == "ja" and html_lang(chinese.text) == "zh-Hans"


async def test_a_redirect_inside_a_language_stays_in_it(datasette):
    response = await datasette.client.get("/en/laws-2017-ja/61b2")  # a differently spelt ref
    assert response.status_code == 302 and response.headers["location"] == "/en/laws-2017-ja/61B2"


@pytest.mark.parametrize(
    "prefix, title, message",
    [
        ("", "見つかりません", "に <code>99Z</code> はありません。"),
        ("/zh", "未找到", "中没有 <code>99Z</code>。"),
        ("/en", "Not found", "There is no unit <code>99Z</code> in"),
    ],
)
async def test_error_pages_are_translated(datasette, prefix, title, message):
    response = await datasette.client.get(f"{prefix}/laws-2017-ja/99Z")
    assert response.status_code == 404
    assert f"<h1>{title}</h1>" in response.text and message in response.text
    # the page's title says what its heading says (it said "Not found: …" over "Not Found")
    assert f"<title>{title}: " in response.text


@pytest.mark.parametrize("prefix", ["", "/zh", "/en"])
@pytest.mark.parametrize(
    "path",
    ["/nothing-here", "/laws-2017-ja/99Z", "/-/guides/nope", "/-/history/999", "/laws/nope", "/nothing"],
)
async def test_an_error_pages_title_begins_with_its_heading(datasette, prefix, path):
    """404 pages of every kind, in the address's language: the <title> a tab shows and the <h1> agree."""
    page = (await datasette.client.get(prefix + path)).text
    heading = re.search(r"<h1>([^<]*)</h1>", page).group(1)
    title = re.search(r"<title>([^<]*)</title>", page).group(1)
    assert title.startswith(heading), (heading, title)
    assert (prefix == "/en") == bool(re.fullmatch(r"[ -~]+", heading)), heading
    assert "Database not found" not in page  # Datasette's own English page, outside the site (/nothing)
    assert html_lang(page) == {"": "ja", "/zh": "zh-Hans", "/en": "en"}[prefix]


@pytest.mark.parametrize(
    "header, expected",
    [
        (None, "ja"),
        ("", "ja"),
        ("fr", "ja"),
        ("en-US,en;q=0.9", "en"),
        ("zh-Hant-TW", "zh"),
        ("fr;q=1, zh;q=0.5, en;q=0.7", "en"),
        ("en;q=0, zh", "zh"),
        ("ja;q=0.1,en;q=abc", "ja"),
    ],
)
def test_best_language(header, expected):
    assert i18n.best_language(header) == expected


def test_links_are_localized_but_not_files_switcher_or_other_sites():
    html = (
        '<a href="/laws-2017-ja/61">x</a><a class="y" href="/">h</a><form action="/-/search">'
        '<a href="//evil.example/">e</a><a href="/-/static-plugins/x/site.css">c</a>'
        '<a hreflang="ja" href="/ja/x">j</a><a href="/en/x">already</a><a href="/61.json">j</a>'
    )
    assert ui_lang.localize_links(html, "zh") == (
        '<a href="/zh/laws-2017-ja/61">x</a><a class="y" href="/zh/">h</a><form action="/zh/-/search">'
        '<a href="//evil.example/">e</a><a href="/-/static-plugins/x/site.css">c</a>'
        '<a hreflang="ja" href="/ja/x">j</a><a href="/en/x">already</a><a href="/61.json">j</a>'
    )


def test_dates_are_in_the_interface_language():
    assert i18n.format_date("2019-04-15", "ja") == "2019年4月15日"
    assert i18n.format_date("2019-04-15", "zh") == "2019年4月15日"
    assert i18n.format_date("2019-04-15", "en") == "15 April 2019"
    assert i18n.format_date("2017", "en") == "2017"  # not a date: as printed


def test_every_interface_string_is_in_the_japanese_and_chinese_catalogues():
    """Each `_()` in the templates and each `N_()` in the code has a translation in ja and zh."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.pofile import read_po

    method_map = [
        ("laws_site/templates/**.html", "jinja2"),
        ("laws_site/**.py", "python"),
        ("metadata.yml", "laws_site.i18n.catalog:extract_metadata"),
        ("laws_site/queries.yml", "laws_site.i18n.catalog:extract_metadata"),
    ]  # Datasette's pages show its texts
    found = {
        message
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, keywords={"_": None, "gettext": None, "N_": None, "ngettext": (1, 2)}
        )
    }
    msgids = {m if isinstance(m, str) else m[0] for m in found}
    assert {
        "Search",
        "Glossary",
        "Not found",
        "Interface language",
        "Every addressable unit in reading order; the permalink of a unit is /<doc>/<ref>.",
    } <= msgids
    for lang in ("ja", "zh"):
        path = ROOT / "laws_site" / "locale" / lang / "LC_MESSAGES" / "messages.po"
        with path.open("rb") as po:
            catalog = read_po(po)
        missing = sorted(m for m in msgids if not (catalog.get(m) and catalog.get(m).string))
        assert missing == [], f"{lang}: untranslated {missing}"


def test_the_chinese_catalogue_writes_no_japanese_punctuation():
    """「引用 0・被引用 0」 and 「日文・英文・中文」: the Chinese interface printed the Japanese 中黒 (・), which
    Chinese does not use (· between items, 、 in a list)."""
    from babel.messages.pofile import read_po

    with (ROOT / "laws_site" / "locale" / "zh" / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po)
    japanese = sorted(m.string for m in catalog if m.id and isinstance(m.string, str) and "・" in m.string)
    assert japanese == []


@pytest.mark.parametrize(
    "prefix, words, english",
    [
        (
            "/zh",
            ["<h1>比较第16条</h1>", "首页</a>", "比较</button>", "仅新版", "显示空格及全角半角差异"],
            ["Compare Law", "only in the newer", "show spacing and width", ">Home<", ">All laws<"],
        ),
        (
            "",
            ["<h1>第16条の比較</h1>", "ホーム</a>", "比較</button>", "新しい方のみ", "全条の一覧"],
            ["Compare Law", "only in the newer", "show spacing and width", ">Home<", ">All laws<"],
        ),
        ("/en", ["<h1>Compare Law 16</h1>", ">Home</a>", ">Compare</button>", "only in the newer", ">All laws<"], []),
    ],
)
async def test_the_compare_page_chrome_is_in_the_interface_language(datasette, prefix, words, english):
    html = (await datasette.client.get(f"{prefix}/-/diff?ref=16&from=laws-1997-zh&to=laws-2017-ja")).text
    for word in words:
        assert word in html, word
    chrome = re.sub(r'<div class="diff-side.*?</div>\s*</div>', "", html, flags=re.S)  # not the texts compared
    assert [w for w in english if w in chrome] == []
    overview = (await datasette.client.get(f"{prefix}/-/diff/overview?from=laws-1997-zh&to=laws-2017-ja")).text
    assert [w for w in ["units changed", "Compare all laws", '<th scope="col">only older'] if w in overview] == (
        [] if english else [w for w in ["units changed", "Compare all laws", '<th scope="col">only older']]
    )


async def test_edition_reasons_the_build_writes_are_in_the_interface_language(datasette):
    """'no 1997 unit became this one' (the other-edition box of a 2017 unit new in 2017) and the
    history's 'The commentaries of 2018 do not reprint Law 16.' were printed in English on ja and zh pages."""
    zh = (await datasette.client.get("/zh/laws-2017-ja/27B1(b)")).text
    # 27B1(b) was read in both texts and is new in 2017 (issue 37): the page says so, in Chinese
    assert "对照两边条文阅读确认：2017年版新增：不足叫牌以同等叫品（第23条A款）更正时" in zh
    assert "Read in both texts" not in zh
    ja = (await datasette.client.get("/laws-2017-ja/60")).text
    assert "このコーパスの1997年版の本文は52Aの途中で終わっています" in ja and "no 1997 text to compare" not in ja
    en = (await datasette.client.get("/en/laws-2017-ja/27B1(b)")).text
    assert "Read in both texts: new in 2017: an insufficient bid corrected by a comparable call" in en
    history = (await datasette.client.get("/zh/-/history/16")).text
    assert '<p class="version-note">2018年的注释书未转载第16条。</p>' in history
    assert "do not reprint" not in history


async def test_an_editors_note_shared_by_a_split_is_printed_once_in_the_interface_language(datasette):
    """1997 Law 16 became 2017 16, 16A, 16A1 and 16A1(a): one note, which was printed under each of the four
    (and in English on every page: corpus/concordance.yml now gives each note in Japanese and Chinese too)."""
    html = (await datasette.client.get("/zh/laws-1997-zh/16")).text
    box = re.search(r'<section class="other-edition">.*?</section>', html, re.S).group(0)
    assert box.count("1997年版第16条本身的条文") == 5  # the four badges' titles and one note
    assert box.count('<p class="relation-reason"><span lang="zh-Hans">1997年版第16条本身的条文') == 1
    assert "1997 Law 16&#39;s own text" not in box
    history = (await datasette.client.get("/zh/-/history/16")).text
    assert history.count('<p class="relation-reason"><span lang="zh-Hans">1997年版第16条本身的条文') == 1
    english = (await datasette.client.get("/en/-/history/16")).text
    assert english.count('<p class="relation-reason"><span lang="en">1997 Law 16&#39;s own text') == 1


@pytest.mark.parametrize(
    "prefix, document, suggestion",
    [
        ("", "規則 2017", "第93条C項"),
        ("/zh", "规则 2017", "第93条C款"),
        ("/en", "Laws 2017", "Law 93C"),
    ],
)
async def test_a_missing_unit_names_the_document_and_the_suggestions_as_people_read_them(
    datasette, prefix, document, suggestion
):
    """/laws-2017-ja/99Z: the suggestion was the bare ref (then '9', now the last unit before it, '93C'), the
    document its Japanese full title on every page, and the browser tab 'laws-2017-ja 99Z'."""
    response = await datasette.client.get(f"{prefix}/laws-2017-ja/99Z")
    assert response.status_code == 404
    html = response.text
    assert f'<a href="{prefix}/laws-2017-ja">{document}</a>' in html
    assert f'<ul class="suggestions">\n    <li><a href="{prefix}/laws-2017-ja/93C">{suggestion}</a></li>' in html
    assert "laws-2017-ja" not in re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    data = (await datasette.client.get("/laws-2017-ja/99Z.json")).json()
    assert data["suggestions"][0]["label"] == "93C"  # the JSON keeps the ref


@pytest.mark.parametrize(
    "prefix, home, search, laws",
    [
        ("", "ホーム", "検索", "規則 2017"),
        ("/zh", "首页", "搜索", "规则 2017"),
        ("/en", "Home", "Search", "Laws 2017"),
    ],
)
async def test_search_and_index_breadcrumbs_are_in_the_interface_language(datasette, prefix, home, search, laws):
    """The search page showed Datasette's own lowercase 'home' crumb; the 索引's crumb named the
    document by its Japanese short title on /zh/ and /en/ pages; a missing index suggested 'laws-2017-ja/-/index'."""
    html = (await datasette.client.get(f"{prefix}/-/search?q=" + "罰張")).text
    assert (
        f'<p class="crumbs breadcrumb"><a href="{prefix}/">{home}</a> &gt; '
        f'<span aria-current="page">{search}</span></p>'
    ) in html
    html = (await datasette.client.get(f"{prefix}/laws-2017-ja/-/index")).text
    assert f'<a href="{prefix}/laws-2017-ja">{laws}</a> &gt; <span aria-current="page">' in html
    missing = await datasette.client.get(f"{prefix}/laws-1997-zh/-/index")
    assert missing.status_code == 404
    assert f'<li><a href="{prefix}/laws-2017-ja/-/index">{laws}: ' in missing.text
    assert ">laws-2017-ja/-/index<" not in missing.text and "No index (索引) in" not in missing.text


@pytest.mark.parametrize(
    "prefix, laws, notes",
    [
        ("", "規則 2017", "リボーク注釈"),
        ("/zh", "规则 2017", "藏牌注释"),
        ("/en", "Laws 2017", "Revoke notes"),
    ],
)
async def test_search_names_the_documents_in_the_interface_language(datasette, prefix, laws, notes):
    """The result groups and the document filter named each document by its full title in its own language
    (デュプリケートブリッジの規則 2017年版 on a Chinese page)."""
    html = (await datasette.client.get(f"{prefix}/-/search?q=revoke")).text
    assert f'<span class="document">{laws}</span></h2>' in html
    assert f'<option value="revoke-notes-ja">{notes}</option>' in html
    assert "デュプリケートブリッジの規則 2017年版" not in html


async def test_history_and_compare_errors_speak_the_interface_language(datasette):
    """/zh/-/history/99 said 'no Law 99 in any edition in the corpus' under an English 'No such law';
    /-/diff/overview with nothing chosen was a 400 listing document ids."""
    response = await datasette.client.get("/zh/-/history/99")
    assert response.status_code == 404
    assert "<h1>没有该条</h1>" in response.text and "语料库的任何版本中都没有第99条（第1-93条）。" in response.text
    assert (await datasette.client.get("/-/history/99.json")).json()[
        "error"
    ] == "no Law 99 in any edition in the corpus (laws 1-93)"  # the JSON keeps its message
    response = await datasette.client.get("/zh/-/diff/overview")
    assert response.status_code == 302 and response.headers["location"] == "/zh/-/diff"
    assert (await datasette.client.get("/-/diff/overview.json")).status_code == 400


@pytest.mark.parametrize("prefix, date", [("", "2013年2月28日"), ("/zh", "2013年2月28日"), ("/en", "28 February 2013")])
async def test_the_history_dates_its_versions_in_the_interface_language(datasette, prefix, date):
    """/zh/-/history/16 printed each version's date as 2013-02-28."""
    html = (await datasette.client.get(f"{prefix}/-/history/16")).text
    assert f'<small><time datetime="2013-02-28">{date}</time></small>' in html


@pytest.mark.parametrize("prefix, quoted", [("", "「OR」"), ("/zh", "“OR”"), ("/en", "“OR”")], ids=["ja", "zh", "en"])
async def test_search_quotes_what_was_typed_as_the_interface_language_quotes(datasette, prefix, quoted):
    """The English page said 「😀」 has no word...: Japanese brackets in an English sentence."""
    response = await datasette.client.get(f"{prefix}/-/search?q=OR")
    assert response.status_code == 400 and quoted in response.text


@pytest.mark.parametrize(
    "prefix, refused", [("", "リクエストが正しくありません"), ("/zh", "请求有误"), ("/en", "Bad request")]
)
@pytest.mark.parametrize(
    "path",
    ["/-/diff?ref=16", "/-/diff/overview?from=zz", "/-/citations?from=zzz", "/-/glossary?lang=xx", "/-/search?q=OR"],
)
async def test_a_400_pages_title_says_the_request_was_refused(datasette, prefix, refused, path):
    """A refused request's tab says so first, in the address's language: the diff form said only "Compare a law"."""
    response = await datasette.client.get(prefix + path)
    assert response.status_code == 400
    title = re.search(r"<title>([^<]*)</title>", response.text).group(1)
    assert title.startswith(refused), title
