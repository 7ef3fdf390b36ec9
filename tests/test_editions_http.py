"""The edition JSON over HTTP (the site's ASGI stack): unit counterparts in both directions, the
moved references, the history JSON, and the diff rows that pair different refs."""

from __future__ import annotations

import html as html_lib
import re

import pytest


def short(counterparts: list[dict]) -> list[tuple]:
    return [(c["doc"], c["ref"], c["relation"], c["basis"]) for c in counterparts]


async def get(datasette, path: str) -> dict:
    response = await datasette.client.get(path)
    assert response.status_code == 200, (path, response.text[:300])
    return response.json()


async def test_counterparts_in_both_directions(datasette):
    old = await get(datasette, "/laws-1997-zh/23.json")
    assert short(old["counterparts"]) == [("laws-2017-ja", "72C", "moved", "reviewed")]
    assert old["counterparts"][0]["url"] == "/laws-2017-ja/72C"
    new = await get(datasette, "/laws-2017-ja/72C.json")
    assert short(new["counterparts"]) == [("laws-1997-zh", "23", "moved", "reviewed")]
    assert new["history"] == "/-/history/72"


async def test_2017_law_23_has_no_1997_counterpart_and_says_why(datasette):
    unit = await get(datasette, "/laws-2017-ja/23.json")
    assert unit["counterparts"] == []
    assert unit["edition_status"]["relation"] == "new"
    assert "Comparable Call" in unit["edition_status"]["reason"]


async def test_2017_16A1_is_not_paired_with_1997_16A1(datasette):
    unit = await get(datasette, "/laws-2017-ja/16A1.json")
    assert short(unit["counterparts"]) == [("laws-1997-zh", "16", "split", "reviewed")]
    old = await get(datasette, "/laws-1997-zh/16A1.json")
    assert short(old["counterparts"]) == [("laws-2017-ja", "16B2", "moved", "reviewed")]


async def test_a_2017_law_beyond_the_1997_text(datasette):
    unit = await get(datasette, "/laws-2017-ja/61.json")
    assert unit["counterparts"] == []
    assert unit["edition_status"]["relation"] == "not_in_source"
    assert "stops inside 52A" in unit["edition_status"]["reason"]


async def test_the_2016_regulations_reference_to_law_23_is_flagged(datasette):
    unit = await get(datasette, "/jcbl-regs-ja/appendix-7-4-a-ii.json")
    [flag] = unit["moved_references"]
    assert (flag["surface"], flag["target_ref"], flag["cited_edition"]) == ("23条", "23", "2007")
    assert [(n["ref"], n["url"]) for n in flag["now"]] == [("72C", "/laws-2017-ja/72C")]


async def test_the_unit_page_shows_the_pairs_relation_in_words(datasette):
    html = (await datasette.client.get("/en/laws-1997-zh/16A")).text
    assert html.count('class="counterpart relation-moved"') == 3
    assert '<span class="relation"' in html and ">moved or renumbered</span>" in html
    assert 'href="/en/-/history/16"' in html
    page = (await datasette.client.get("/en/laws-1997-zh/24B")).text
    assert "References to provisions that have moved" in page and 'href="/en/laws-2017-ja/72C"' in page


async def test_history_json(datasette):
    history = await get(datasette, "/-/history/23.json")
    moved = [row for row in history["rows"] if row["old"] and row["old"]["ref"] == "23"]
    assert [(row["new"]["ref"], row["steps"]["old_to_new"]["relation"]) for row in moved] == [("72C", "moved")]
    assert (history["previous"], history["next"]) == (22, 24)
    late = await get(datasette, "/-/history/93.json")
    assert late["versions"][0]["reaches"] is False
    assert late["versions"][0]["note"].endswith("stops inside 52A.")
    index = await get(datasette, "/-/history.json")
    assert [law["law"] for law in index["laws"]] == list(range(1, 94))


async def test_history_of_an_unknown_law_is_a_404_not_a_500(datasette):
    for path in ("/-/history/999.json", "/-/history/abc.json", "/-/history/%E5%8D%81%E5%85%AD", "/-/history/16x"):
        response = await datasette.client.get(path)
        assert response.status_code == 404, path


async def test_diff_json_rows_pair_different_refs(datasette):
    diff = await get(datasette, "/-/diff.json?ref=23&from=laws-1997-zh&to=laws-2017-ja")
    row = next(r for r in diff["rows"] if r["from_ref"] == "23")
    assert (row["to_ref"], row["relation"], row["basis"], row["status"]) == ("72C", "moved", "reviewed", "changed")
    law_16 = await get(datasette, "/-/diff.json?ref=16&from=laws-1997-zh&to=laws-2017-ja")
    same = {(r["from_ref"], r["to_ref"]) for r in law_16["rows"] if r["status"] == "same"}
    assert same == {("16C", "16C"), ("16C1", "16C1"), ("16C2", "16C2")}  # never 16A1/16A2


async def test_english_reasons_name_the_provisions_never_the_concordance_ids(datasette):
    """The English interface showed "(concordance: comparable-call)" and "(see damaging-enforced-pass)": the
    ids the concordance names its moves by. It names the provisions, as the Japanese and Chinese notes do."""
    for path in ("/en/laws-2017-ja/23", "/en/laws-2017-ja/23A1", "/en/-/history/23"):
        response = await datasette.client.get(path)
        text = response.text
        assert "2017 Law 72C" in text, path  # the provisions by name
        assert "concordance: " not in text and "damaging-enforced-pass" not in text, path
    text = (await datasette.client.get("/en/laws-1997-zh/17D")).text
    assert "15A3 (人為的調整スコア) and 15A4 (手順上のペナルティ, 第90条)." in text
    assert "Concordance move" not in text


def test_an_english_note_loses_the_ids_it_was_composed_with():
    from laws_site.read.reasons import in_english_words

    moves = {
        "damaging-enforced-pass": "1997 Law 23 → 2017 Law 72C",
        "end-of-auction-period": "1997 Law 17E → 2017 Law 17D",
    }
    assert in_english_words("New. (concordance: comparable-call)", moves) == "New."
    assert in_english_words("damaging-enforced-pass: The rule moved.", moves) == "The rule moved."
    assert in_english_words("Not a move: a note.", moves) == "Not a move: a note."  # not an id: kept
    assert in_english_words("It is 17D. Concordance move end-of-auction-period.", moves) == (
        "It is 17D (recorded in the concordance as a move)."
    )
    assert in_english_words("(see damaging-enforced-pass)", moves) == "(see 1997 Law 23 → 2017 Law 72C)"


def other_edition_box(html: str) -> str:
    box = html[html.index('<section class="other-edition">') :]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", box[: box.index("</section>")])).strip()


async def page_text(datasette, path: str) -> str:
    response = await datasette.client.get(path)
    assert response.status_code == 200, path
    return response.text


@pytest.mark.parametrize(
    "path, says",
    [
        # read in both texts: the relation alone (30C: 2017 adds "a pass of an artificial call" and drops the
        # definition; the rule had paired it as the same and the page said 「両方の本文を読んで確認」)
        ("/laws-2017-ja/30C", "规则 1997: 第30条C項 同じ条項（文言変更） 2つの版を比較"),
        ("/en/laws-2017-ja/30C", "Laws 1997: Law 30C the same provision, reworded Compare the two editions"),
        # a law's headline relation says what happened to its parts (Law 25 was 「同じ条項（文言変更）」)
        ("/laws-2017-ja/25", "第25条 合法的和不合法的更改叫牌 改訂：変更9、追加6、削除1 2つの版を比較"),
        ("/zh/laws-2017-ja/40", "同伴间的默契 修订：修改16处，新增18处，无1997年版条文2处"),
        # new in 2017, read; its 1997 source named where it is in the part of the 1997 Laws the corpus lacks
        ("/laws-2017-ja/23A1", "2017年版で新設： 2017年版の第23条（同等なコール）は2017年版で新設された規定です。"),
        (
            "/en/laws-2017-ja/20F4",
            "Its 1997 source is in the part of the 1997 Laws this corpus does not hold: 1997 Law 75D1.",
        ),
        ("/laws-2017-ja/20F4", "1997年版の出典はこのコーパスにない部分にある： 1997年版第75条D項1。"),
        ("/en/laws-2017-ja/61", "no 1997 text in the corpus The 1997 text in this corpus stops inside 52A"),
        ("/laws-1997-zh/11B1", "2017年版で削除："),
    ],
)
async def test_the_other_edition_box_says_what_the_concordance_says(datasette, path, says):
    box = other_edition_box(await page_text(datasette, path))
    assert says.replace("'", "&#39;") in box or says in html_lib.unescape(box), box


async def test_a_pair_the_builds_rule_made_says_it_is_not_yet_read(datasette):
    """Every pair is read in this build; a pair the rule makes (a corpus not yet reviewed) says so, and
    never 「両方の本文を読んで確認」 (99 rule-made pairs did, among them 30C)."""
    from laws_site.read.editions import BASIS_NAMES

    pair = {
        "id": "laws-1997-zh:30C",
        "ref": "30C",
        "labels": {"ja": "规则 1997: 第30条C項"},
        "title": "",
        "lang": "zh",
        "relation": "same",
        "words": "the same provision",
        "why": None,
        "why_shown": False,
        "url": "/laws-1997-zh/30C",
        "compare_url": "/-/diff?ref=30C",
    }
    for basis, shown in (
        ("content", "(ビルドの規則による対応、未確認)"),
        ("number", "(ビルドの規則による対応（番号のみ）、未確認)"),
    ):
        edition = {
            "counterparts": [{**pair, "basis": basis, "basis_words": BASIS_NAMES[basis]}],
            "status": None,
            "flags": [],
        }
        html = await datasette.render_template(
            "_other_edition.html", {"other_edition": edition, "ui_lang": "ja", "unit": {"ref": "30C"}}
        )
        assert f'<span class="basis">{shown}</span>' in html
        assert "両方の本文を読んで確認" not in html
    edition = {
        "counterparts": [{**pair, "basis": "reviewed", "basis_words": BASIS_NAMES["reviewed"]}],
        "status": None,
        "flags": [],
    }
    html = await datasette.render_template(
        "_other_edition.html", {"other_edition": edition, "ui_lang": "ja", "unit": {"ref": "30C"}}
    )
    assert 'class="basis"' not in html


def test_a_unit_without_a_counterpart_is_named_by_what_the_reading_knows():
    from laws_site.read.editions import status_of

    editions = {"old": "1997", "new": "2017"}
    words = lambda *args: status_of(*args, editions)["words"]  # noqa: E731
    assert words("new", "reviewed", None) == "new in %(new)s"
    assert words("new", "content", None) == "no %(old)s counterpart found by the build's rule, not yet read"
    # 2017 20F4 from 1997 75D1, in the part of the 1997 Laws the corpus does not hold: named where known
    assert words("not_in_source", "reviewed", "75D1") == (
        "its %(old)s source is in the part of the %(old)s Laws this corpus does not hold"
    )
    assert words("not_in_source", "content", None) == "no %(old)s text in this corpus"
    assert words("removed", "content", None) == "no %(new)s counterpart found by the build's rule, not yet read"


async def test_history_and_compare_pages_say_what_happened_to_a_laws_parts(datasette):
    history = await page_text(datasette, "/-/history/25")
    assert re.search(r'<strong>第25条 \(2017\)</strong> <span lang="ja">改訂：変更9、追加6、削除1</span>', history)
    compare = await page_text(datasette, "/en/-/diff?ref=23&from=laws-1997-zh&to=laws-2017-ja")
    changes = re.findall(r"<strong>(Law 23 \(\d+\))</strong> <span lang=\"en\">([^<]+)</span>", compare)
    assert changes == [("Law 23 (2017)", "new in 2017: 6 parts added"), ("Law 23 (1997)", "moved")]
    assert "whose pairs were read in both texts" not in compare


async def test_history_cells_of_a_heading_only_reprint_say_nothing_was_compared(datasette):
    """/-/history/50 showed 変更なし for 50A, 50C, 50D, 50E: the 2018 commentary printed only their headings."""
    html = await page_text(datasette, "/-/history/50")
    for ref in ("50A", "50C", "50D", "50E"):
        row = re.search(rf'id="h-{re.escape(ref)}(?:-from-[^"]*)?".*?</section>', html, re.S).group(0)
        assert "見出しのみ：比較なし" in row and "変更なし" not in row, ref
        assert "注釈書はここで見出しだけを載せ" in row
    row = html[html.index('id="h-50B"') :]
    assert "見出しのみ" not in row[: row.index("</section>")]
