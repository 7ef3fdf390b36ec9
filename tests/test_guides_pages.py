"""The ruling guides on the site (issue 36, item 4): /-/guides, /-/guides/<id>?path=..., their JSON,
and where the site offers them (a covered unit's page, search results that fall in a guide's laws).

Through Datasette's test client over the session's build (tests/conftest.py): every guide renders in
Japanese, Chinese and English; every step and ruling is reached by following the answers' links from
the first question (what a reader without JavaScript does, and what the offline crawl does); every
ruling page quotes its unit exactly, the quote marked inside the unit's text as built; bad guides
and paths are 4xx in Datasette's error shape, never a 500.
"""

from __future__ import annotations

import html
import re
import sqlite3
from urllib.parse import unquote

import pytest

from laws_site.offline import pack
from laws_site.read import guides as reading
from laws_site.read.units import permalink
from tests.test_guides_build import GUIDE_IDS

PREFIXES = {"ja": "", "zh": "/zh", "en": "/en"}
HREF_RE = re.compile(r'href="([^"]*)"')
ANSWER_RE = re.compile(r'<a class="guide-answer[^"]*" href="([^"]*)">(.*?)</a>', re.S)
MARKED_RE = re.compile(
    r'<figure class="guide-law">.*?<blockquote lang="ja"[^>]*><p>(.*?)<mark>(.*?)</mark>(.*?)</p></blockquote>', re.S
)


@pytest.fixture(scope="module")
def built(laws_db_path):
    conn = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    yield {guide.id: guide for guide in reading.all_guides(conn)}, conn
    conn.close()


@pytest.fixture(scope="module")
def all_guides(built):
    return built[0]


def text_of(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def guide_links_on(page: str) -> list[str]:
    """The links of a guide page that lead further in the guides (answers, the next guide)."""
    return [
        html.unescape(h) for h in HREF_RE.findall(page) if h.split("?")[0].startswith(("/-/guides/", "/en/-/guides/"))
    ]


# ---------------------------------------------------------------- the list and the first questions


async def test_the_list_names_every_guide_with_its_laws(datasette, all_guides):
    assert list(all_guides) == GUIDE_IDS
    response = await datasette.client.get("/en/-/guides")
    assert response.status_code == 200
    page = response.text
    opened = re.findall(r'<a class="guide-open" href="/en/-/guides/([^"]+)">', page)
    assert opened == GUIDE_IDS
    assert '<a class="guide-open" href="/en/-/guides/revoke">Revoke</a>' in page
    revoke = page[page.index('href="/en/-/guides/revoke"') :]
    assert '<a class="xref" href="/en/laws-2017-ja/61" title="Law 61">Law 61</a>' in revoke.split("</li>")[0]


@pytest.mark.parametrize("lang", PREFIXES)
@pytest.mark.parametrize("guide_id", GUIDE_IDS)
async def test_every_guide_starts_in_each_language(datasette, all_guides, guide_id, lang):
    guide = all_guides[guide_id]
    prefix = PREFIXES[lang]
    response = await datasette.client.get(f"{prefix}/-/guides/{guide_id}")
    assert response.status_code == 200
    page = response.text
    first = guide.steps[guide.start]
    assert f'<html lang="{ {"ja": "ja", "zh": "zh-Hans", "en": "en"}[lang] }"' in page
    assert f'<h1><a href="{prefix}/-/guides/{guide_id}">{html.escape(guide.title[lang])}</a>' in page
    assert text_of(re.search(r'<h2 id="guide-question">(.*?)</h2>', page, re.S).group(1)) == first["question"][lang]
    answers = ANSWER_RE.findall(page)
    assert [text_of(label) for _, label in answers] == [a["label"][lang] for a in first["answers"]]
    assert [html.unescape(url) for url, _ in answers] == [
        f"{prefix}/-/guides/{guide_id}?path={a['next'] or a['rule']}" for a in first["answers"]
    ]
    assert "guide-trail" not in page  # nothing answered yet


async def test_the_chrome_is_translated(datasette):
    """The page's own words (not the guide's texts) come from the catalogues."""
    path = "/-/guides/revoke?path=trick-12.when-noticed"
    words = {
        "": ["これまでの回答", "変更</a>", "← 戻る", "最初から", "ガイド一覧", "裁定ガイド</a>"],
        "/zh": ["已作的回答", "更改</a>", "← 返回", "重新开始", "全部指南", "裁定指南</a>"],
        "/en": ["Your answers so far", "change</a>", "← Back", "Start again", "All guides", "Ruling guides</a>"],
    }
    for prefix, expected in words.items():
        page = (await datasette.client.get(prefix + path)).text
        assert [word for word in expected if word not in page] == []
        if prefix:
            assert f'href="{prefix}/-/guides/revoke?path=trick-12">' in page  # links stay in the language


# ---------------------------------------------------------------- every step, every ruling, by links


async def follow(datasette, guide_id: str, prefix: str = "") -> dict[str, str]:
    """Every page of a guide reached from its first question through its answers' links: {path: html}."""
    start = f"{prefix}/-/guides/{guide_id}"
    pages, todo = {}, [start]
    while todo:
        url = todo.pop()
        response = await datasette.client.get(url)
        assert response.status_code == 200, url
        path = unquote(url.partition("?path=")[2])
        pages[path] = response.text
        for href, _label in ANSWER_RE.findall(response.text):
            href = html.unescape(href)
            if href.startswith(start + "?path=") and unquote(href.partition("?path=")[2]) not in pages:
                todo.append(href)
    return pages


@pytest.mark.parametrize("guide_id", GUIDE_IDS)
async def test_every_step_and_ruling_is_reached_by_links_and_every_ruling_quotes_its_unit(datasette, built, guide_id):
    all_guides, conn = built
    guide = all_guides[guide_id]
    pages = await follow(datasette, guide_id)
    reached = {path.split(".")[-1] if path else guide.start for path in pages}
    assert reached == set(guide.steps) | set(guide.rules)
    rulings = {path: page for path, page in pages.items() if path and path.split(".")[-1] in guide.rules}
    assert len(rulings) == len(list(reading_paths(guide)))
    texts = dict(conn.execute("select ref, text from sections where doc = ?", (guide.doc,)).fetchall())
    for path, page in rulings.items():
        rule = guide.rules[path.split(".")[-1]]
        before, marked, after = (text_of(part) for part in MARKED_RE.search(page).groups())
        assert marked == rule["quote"], path
        assert before + marked + after == texts[rule["cite"]], path  # the unit's whole text, as built
        assert f'<a class="xref" href="{html.escape(permalink(guide.doc, rule["cite"]))}"' in page, path
        for option in rule["options"]:
            assert html.escape(option["quote"], quote=False) in page, (path, option["cite"])
        assert '<h2 id="guide-question">' not in page


def reading_paths(guide: reading.Guide):
    """Every path from the first question to a ruling (depth first)."""

    def walk(step_id, prefix):
        for answer in guide.steps[step_id]["answers"]:
            target = answer["next"] or answer["rule"]
            if answer["rule"]:
                yield (*prefix, target)
            else:
                yield from walk(target, (*prefix, target))

    return walk(guide.start, ())


async def test_a_ruling_page_shows_the_answers_given_each_a_tap_from_change(datasette, all_guides):
    guide = all_guides["revoke"]
    path = "trick-12.when-noticed.exceptions.offender-won.revoke-trick-and-one-more"
    page = (await datasette.client.get(f"/en/-/guides/revoke?path={path}")).text
    trail = re.search(r'<nav class="guide-trail".*?</nav>', page, re.S).group(0)
    chosen = [text_of(c) for c in re.findall(r'<span class="guide-chosen">(.*?)</span>', trail, re.S)]
    assert chosen == ["Yes (established)", "No", "Before either", "None of these", "Yes"]
    changes = [html.unescape(h) for h in re.findall(r'<a class="guide-change" href="([^"]*)">change</a>', trail)]
    assert changes == [
        "/en/-/guides/revoke",
        "/en/-/guides/revoke?path=trick-12",
        "/en/-/guides/revoke?path=trick-12.when-noticed",
        "/en/-/guides/revoke?path=trick-12.when-noticed.exceptions",
        "/en/-/guides/revoke?path=trick-12.when-noticed.exceptions.offender-won",
    ]
    assert '<a rel="prev" href="/en/-/guides/revoke?path=trick-12.when-noticed.exceptions.offender-won">' in page
    assert guide.rules["revoke-trick-and-one-more"]["summary"]["en"] in html.unescape(page)
    assert "Open Law 64A1 →" in page and '<a href="/en/laws-2017-ja/64A1">' in page  # the permalink
    assert '<a class="xref" href="/en/laws-2017-ja/64A1" title="Law 64A1">Law 64A1</a>' in page  # a tap previews it


async def test_options_are_listed_as_the_law_lists_them_each_quoted_nested_where_the_law_nests_them(datasette):
    path = "which-lead.opening-faced.declarer-spread.dummy-seen.opening-lead-options"
    page = (await datasette.client.get(f"/-/guides/lead-out-of-turn?path={path}")).text
    options = re.search(r'<ol class="guide-options">.*</ol>', page.split('class="guide-also"')[0], re.S).group(0)
    cited = re.findall(r'<a class="xref" href="/laws-2017-ja/([^"]+)"', options)
    assert cited == ["54A", "54B", "54D", "50D2(a)", "50D2(b)"]
    nested = re.search(r"<li>.*?54D.*?(<ol.*?</ol>)", options, re.S).group(1)
    assert re.findall(r'href="/laws-2017-ja/([^"]+)"', nested) == ["50D2(a)", "50D2(b)"]


async def test_a_rule_handing_over_to_another_guide_links_it(datasette, all_guides):
    handing = [(g.id, rule_id, rule["guide"]) for g in all_guides.values() for rule_id, rule in g.rules.items()]
    handing = [h for h in handing if h[2]]
    assert handing
    for guide_id, rule_id, other in handing:
        path = ".".join(all_guides[guide_id].canonical_paths()[rule_id])
        page = (await datasette.client.get(f"/en/-/guides/{guide_id}?path={path}")).text
        title = all_guides[other].title["en"]
        assert (
            f'<a class="guide-answer" href="/en/-/guides/{other}">Go on with the guide: {html.escape(title)}</a>'
            in page
        )


def crawled_links(page: str, lang: str) -> set[str]:
    """The links of a page that the offline crawl follows (laws_site/offline/pack.py crawlable)."""
    return {found[0] for raw in pack.HREF_RE.findall(page) if (found := pack.crawlable(raw, lang))}


async def test_the_offline_crawl_follows_a_unit_page_into_every_page_of_its_guide(datasette, all_guides):
    """The packs hold what the crawl reaches from every unit's permalink (laws_site/offline/pack.py crawl):
    a covered unit links its guide, and each guide page links the next steps."""
    unit_page = (await datasette.client.get("/zh/laws-2017-ja/62B")).text
    assert "/zh/-/guides/revoke" in crawled_links(unit_page, "zh")
    guide_page = (await datasette.client.get("/zh/-/guides/revoke")).text
    followed = crawled_links(guide_page, "zh")
    for answer in all_guides["revoke"].steps["established"]["answers"]:
        assert f"/zh/-/guides/revoke?path={answer['next'] or answer['rule']}" in followed
    assert "/zh/-/guides" in followed  # the list, through the breadcrumb


# ---------------------------------------------------------------- bad guides and paths


@pytest.mark.parametrize(
    "url, status, words",
    [
        ("/-/guides/no-such-guide", 404, "裁定ガイド「no-such-guide」はありません"),
        ("/en/-/guides/no-such-guide", 404, "There is no ruling guide “no-such-guide”"),
        ("/-/guides/revoke?path=Trick-12", 400, "このガイドの経路ではありません"),
        ("/zh/-/guides/revoke?path=trick-12..when-noticed", 400, "不是本指南的路径"),
        ("/en/-/guides/revoke?path=" + "a." * 600 + "a", 400, "is not a path of this guide"),
        ("/en/-/guides/revoke?path=%00", 400, "is not a path of this guide"),
        ("/en/-/guides/revoke?path=when-noticed", 404, "No answer to this question leads to “when-noticed”"),
        ("/en/-/guides/revoke?path=who-revoked.defender-corrects.more", 404, "The path ends at a ruling"),
        ("/en/-/guides/revoke?path=trick-12.no-such-step", 404, "No answer to this question"),
    ],
)
async def test_a_bad_guide_or_path_is_a_helpful_4xx(datasette, url, status, words):
    response = await datasette.client.get(url)
    assert response.status_code == status
    assert words in html.unescape(response.text)
    assert '<ul class="suggestions">' in response.text  # where to go on from


async def test_a_bad_path_offers_the_answers_of_the_last_step_it_reached(datasette):
    page = (await datasette.client.get("/en/-/guides/revoke?path=trick-12.no-such-step")).text
    offered = [html.unescape(h) for h in re.findall(r'<li><a href="([^"]*)">', page.split('class="suggestions"')[1])]
    assert offered == [
        "/en/-/guides/revoke?path=trick-12.trick-12-corrected",
        "/en/-/guides/revoke?path=trick-12.trick-12-too-late",
        "/en/-/guides/revoke?path=trick-12.when-noticed",
        "/en/-/guides/revoke",
    ]


@pytest.mark.parametrize(
    "url, status",
    [
        ("/-/guides/no-such-guide.json", 404),
        ("/-/guides/revoke.json?path=BAD", 400),
        ("/-/guides/revoke.json?path=trick-12.nowhere", 404),
    ],
)
async def test_json_errors_have_datasettes_shape(datasette, url, status):
    response = await datasette.client.get(url)
    assert response.status_code == status
    assert response.headers["content-type"].startswith("application/json")
    assert response.headers["access-control-allow-origin"] == "*"
    data = response.json()
    assert data["ok"] is False and data["status"] == status and data["error"] and data["title"]
    assert data["suggestions"] and all(s["label"].isascii() for s in data["suggestions"])  # English, as the error


# ---------------------------------------------------------------- JSON


async def test_the_json_list_and_a_guide(datasette, all_guides):
    response = await datasette.client.get("/-/guides.json")
    assert response.status_code == 200 and response.headers["access-control-allow-origin"] == "*"
    listed = response.json()["guides"]
    assert [g["id"] for g in listed] == GUIDE_IDS
    revoke = listed[GUIDE_IDS.index("revoke")]
    assert revoke["title"] == {"ja": "リボーク", "zh": "藏牌", "en": "Revoke"}
    assert revoke["laws"][0] == {"ref": "61", "id": "laws-2017-ja:61", "url": "/laws-2017-ja/61"}
    data = (await datasette.client.get("/-/guides/revoke.json")).json()
    assert data["ok"] and data["start"] == "established" and data["doc"] == "laws-2017-ja"
    assert set(data["steps"]) == set(all_guides["revoke"].steps)
    rule = data["rules"]["revoke-trick-and-one-more"]
    assert rule["cite"] == {"ref": "64A1", "id": "laws-2017-ja:64A1", "url": "/laws-2017-ja/64A1"}
    assert (
        rule["url"] == "/-/guides/revoke?path=trick-12.when-noticed.exceptions.offender-won.revoke-trick-and-one-more"
    )
    assert data["steps"]["established"]["answers"][1]["url"] == "/-/guides/revoke?path=trick-12"
    assert "at" not in data


async def test_every_url_the_json_gives_answers(datasette, all_guides):
    for guide_id in GUIDE_IDS:
        data = (await datasette.client.get(f"/-/guides/{guide_id}.json")).json()
        urls = {node["url"] for node in [*data["steps"].values(), *data["rules"].values()]}
        assert len(urls) == len(data["steps"]) + len(data["rules"])
        for url in urls:
            assert (await datasette.client.get(url)).status_code == 200, url


async def test_the_json_of_a_path_says_where_it_leads(datasette):
    data = (await datasette.client.get("/-/guides/revoke.json?path=trick-12.when-noticed.next-deal")).json()
    assert data["at"] == {
        "path": "trick-12.when-noticed.next-deal",
        "kind": "rule",
        "id": "next-deal",
        "url": "/-/guides/revoke?path=trick-12.when-noticed.next-deal",
        "taken": [
            {
                "step": "established",
                "answer": 1,
                "label": {"ja": "はい（成立している）", "zh": "是（已经成立）", "en": "Yes (established)"},
            },
            {"step": "trick-12", "answer": 2, "label": {"ja": "いいえ", "zh": "否", "en": "No"}},
            {
                "step": "when-noticed",
                "answer": 0,
                "label": {
                    "ja": "非反則側が次のディールでコールした後",
                    "zh": "非违规方已在下一副牌叫牌之后",
                    "en": "After the non-offending side had called on the next deal",
                },
            },
        ],
    }


# ---------------------------------------------------------------- where the site offers a guide


@pytest.mark.parametrize(
    "url, offered",
    [
        ("/en/laws-2017-ja/64A1", ["revoke"]),  # under Law 64
        ("/en/laws-2017-ja/61", ["revoke"]),
        ("/en/laws-2017-ja/16C", ["unauthorised-information", "lead-out-of-turn"]),  # 16, and 16C for a lead
        ("/en/laws-2017-ja/23", ["insufficient-bid", "call-out-of-rotation"]),  # the Laws' order: 27 before 28
        ("/en/laws-1997-zh/50", ["exposed-cards"]),  # the 1997 provision paired with 2017 Law 50
        ("/en/revoke-notes-ja/quote:62A", ["revoke"]),  # a commentary's reprint of 62A
        ("/en/laws-2017-ja/1", []),
        ("/en/laws-2017-ja/def:ダミー", []),
    ],
)
async def test_a_covered_units_page_offers_its_guide(datasette, url, offered):
    page = (await datasette.client.get(url)).text
    links = re.search(r'<p class="guide-links" lang="en">(.*?)</p>', page, re.S)
    found = re.findall(r'href="/en/-/guides/([^"]+)"', links.group(1)) if links else []
    assert found == offered


@pytest.mark.parametrize(
    "query, offered",
    [
        ("リボーク", ["revoke"]),
        ("順番外のリード", ["lead-out-of-turn"]),
        ("不十分なビッド", ["insufficient-bid"]),
        ("藏牌", ["revoke"]),
        ("罚牌", ["exposed-cards"]),
        ("クレーム", ["claims"]),
        ("ダミー", []),
    ],
)
async def test_search_offers_the_guide_whose_laws_its_top_results_fall_in(datasette, query, offered):
    page = (await datasette.client.get("/en/-/search", params={"q": query})).text
    links = re.search(r'<p class="guide-links">(.*?)</p>', page, re.S)
    found = re.findall(r'href="/en/-/guides/([^"]+)"', links.group(1)) if links else []
    assert found[: len(offered)] == offered and (offered or not found)
    if links:
        assert page.index('class="guide-links"') < page.index('class="search-results"')  # above the results


async def test_every_page_links_the_guides(datasette):
    page = (await datasette.client.get("/zh/laws-2017-ja")).text
    assert '<a href="/zh/-/guides">裁定指南</a>' in page


@pytest.mark.parametrize("typed, printed", [("大罚牌", "重罚张"), ("小罚牌", "轻罚张"), ("罚牌", "罚张")])
async def test_the_guides_chinese_penalty_card_terms_find_the_1997_texts(datasette, typed, printed):
    """The guides print the later mainland terms (罚牌, 大罚牌, 小罚牌); the 1997 Chinese Laws print 罚张, 重罚张,
    轻罚张 (corpus/zh_variants.yml folds one to the other): a director who types the guides' word finds both."""
    data = (await datasette.client.get("/zh/-/search.json", params={"q": typed, "limit": 5})).json()
    assert printed in data["also_searched"]
    assert [r for r in data["results"] if r["doc"] == "laws-1997-zh" and printed in (r.get("title") or "")]
    page = (await datasette.client.get("/zh/-/search", params={"q": typed})).text
    assert '<a class="guide-link" href="/zh/-/guides/exposed-cards">暴露牌与罚牌 →</a>' in page
