"""The interface language: in the URL (/en/, /zh/, Japanese unprefixed), picked from Accept-Language
on a first visit, remembered when chosen, every chrome string in the ja and zh catalogues."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from laws_site import i18n, ui_lang

ROOT = Path(__file__).resolve().parent.parent
BROWSER = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


def html_lang(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html).group(1)


@pytest.mark.parametrize("prefix, tag, search, glossary", [
    ("", "ja", "検索", "用語集"),
    ("/zh", "zh-Hans", "搜索", "术语表"),
    ("/en", "en", "Search", "Glossary"),
])
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
    assert '<a class="ui-language" hreflang="ja" lang="ja" href="/ja/laws-2017-ja/61B2?from_search=x">日本語</a>' in switcher
    assert '<a class="ui-language" hreflang="zh-Hans" lang="zh-Hans" href="/zh/laws-2017-ja/61B2?from_search=x">中文</a>' in switcher
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
    assert 'href="/-/static-plugins/bridge-laws/site.css"' in html  # files are not in a language
    assert 'href="/laws-2017-ja/61B.json"' in html  # nor is JSON


@pytest.mark.parametrize("path", ["/laws-2017-ja/61B.json", "/-/glossary.json?q=dummy", "/-/glossary/ダミー.json",
                                  "/-/citations.json", "/laws-2017-ja.json"])
async def test_json_is_the_same_in_every_language(datasette, path):
    plain = await datasette.client.get(path)
    for prefix in ("/en", "/zh"):
        other = await datasette.client.get(prefix + path)
        assert plain.status_code == other.status_code == 200
        assert plain.json() == other.json(), prefix


async def test_accept_language_picks_the_language_on_a_first_visit(datasette):
    response = await datasette.client.get("/laws-2017-ja/61B", headers={**BROWSER, "accept-language": "zh-TW,zh;q=0.9,en;q=0.5"})
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
    stays = await datasette.client.get("/laws-2017-ja/61B", headers={**BROWSER, "accept-language": "en",
                                                                     "cookie": "ui_lang=ja"})
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


@pytest.mark.parametrize("prefix, title, message", [
    ("", "見つかりません", "に <code>99Z</code> はありません。"),
    ("/zh", "未找到", "中没有 <code>99Z</code>。"),
    ("/en", "Not Found", "There is no unit <code>99Z</code> in"),
])
async def test_error_pages_are_translated(datasette, prefix, title, message):
    response = await datasette.client.get(f"{prefix}/laws-2017-ja/99Z")
    assert response.status_code == 404
    assert f"<h1>{title}</h1>" in response.text and message in response.text


@pytest.mark.parametrize("header, expected", [
    (None, "ja"), ("", "ja"), ("fr", "ja"), ("en-US,en;q=0.9", "en"), ("zh-Hant-TW", "zh"),
    ("fr;q=1, zh;q=0.5, en;q=0.7", "en"), ("en;q=0, zh", "zh"), ("ja;q=0.1,en;q=abc", "ja"),
])
def test_best_language(header, expected):
    assert i18n.best_language(header) == expected


def test_links_are_localized_but_not_files_switcher_or_other_sites():
    html = ('<a href="/laws-2017-ja/61">x</a><a class="y" href="/">h</a><form action="/-/search">'
            '<a href="//evil.example/">e</a><a href="/-/static-plugins/x/site.css">c</a>'
            '<a hreflang="ja" href="/ja/x">j</a><a href="/en/x">already</a><a href="/61.json">j</a>')
    assert ui_lang.localize_links(html, "zh") == (
        '<a href="/zh/laws-2017-ja/61">x</a><a class="y" href="/zh/">h</a><form action="/zh/-/search">'
        '<a href="//evil.example/">e</a><a href="/-/static-plugins/x/site.css">c</a>'
        '<a hreflang="ja" href="/ja/x">j</a><a href="/en/x">already</a><a href="/61.json">j</a>')


def test_dates_are_in_the_interface_language():
    assert i18n.format_date("2019-04-15", "ja") == "2019年4月15日"
    assert i18n.format_date("2019-04-15", "zh") == "2019年4月15日"
    assert i18n.format_date("2019-04-15", "en") == "15 April 2019"
    assert i18n.format_date("2017", "en") == "2017"  # not a date: as printed


def test_every_interface_string_is_in_the_japanese_and_chinese_catalogues():
    """Each `_()` in the templates and each `N_()` in the code has a translation in ja and zh."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.pofile import read_po

    method_map = [("laws_site/templates/**.html", "jinja2"), ("laws_site/**.py", "python")]
    found = {message for _file, _line, message, _comments, _context in
             extract_from_dir(str(ROOT), method_map, keywords={"_": None, "gettext": None, "N_": None,
                                                              "ngettext": (1, 2)})}
    msgids = {m if isinstance(m, str) else m[0] for m in found}
    assert {"Search", "Glossary", "Not Found", "Interface language"} <= msgids
    for lang in ("ja", "zh"):
        path = ROOT / "laws_site" / "locale" / lang / "LC_MESSAGES" / "messages.po"
        with path.open("rb") as po:
            catalog = read_po(po)
        missing = sorted(m for m in msgids if not (catalog.get(m) and catalog.get(m).string))
        assert missing == [], f"{lang}: untranslated {missing}"
