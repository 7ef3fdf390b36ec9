"""Same-language and cross-language diffs, and edition flags, on the real corpus database."""

from __future__ import annotations

import sqlite3

import pytest

from ingest.editions.diff import GlossaryTerms, fold, law_refs, numbers_in, text_ops, title_terms
from ingest.editions.edition_flags import edition_flags
from laws_site.read.diffs import DiffError, diff_units, overview

COMMENTARY, LAWS_2017, LAWS_1997 = "revoke-notes-ja", "laws-2017-ja", "laws-1997-zh"


@pytest.fixture(scope="module")
def db(laws_db_path):
    connection = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    yield connection
    connection.close()


@pytest.fixture
def conn(db, require_documents):
    require_documents(COMMENTARY, "out-of-turn-notes-ja", LAWS_2017, LAWS_1997, "jcbl-regs-ja")
    return db


def row(result: dict, ref: str) -> dict:
    rows = [r for r in result["rows"] if r["ref"] == ref]
    assert len(rows) == 1, [r["ref"] for r in result["rows"]]
    return rows[0]


def changes(r: dict) -> list[tuple]:
    return [(op["op"], op["from"], op["to"], op["class"]) for op in r["ops"] if op["op"] != "equal"]


# --- same language: commentary reprint vs the 2017 Laws ------------------------------------------


def test_61A_the_reprint_has_an_extra_ka(conn):
    r = row(diff_units(conn, "61", COMMENTARY, LAWS_2017), "61A")
    assert r["status"] == "changed"
    assert changes(r) == [("delete", "か、", "", "wording")]
    assert "要求されているか、カード" in r["from_text"] and "要求されているカード" in r["to_text"]


def test_63B_the_laws_say_双方の側(conn):
    r = row(diff_units(conn, "63B", COMMENTARY, LAWS_2017), "63B")
    assert changes(r) == [("insert", "", "の側", "wording")]


def test_ops_rebuild_both_texts(conn):
    r = row(diff_units(conn, "63B", COMMENTARY, LAWS_2017), "63B")
    assert "".join(op["from"] for op in r["ops"]) == r["from_text"]
    assert "".join(op["to"] for op in r["ops"]) == r["to_text"]


def test_61C_is_the_same(conn):
    r = row(diff_units(conn, "61", COMMENTARY, LAWS_2017), "61C")
    assert (r["status"], changes(r)) == ("same", [])


def test_64B2_suit_spelling_is_a_variant(conn):
    r = row(diff_units(conn, "64B2", COMMENTARY, LAWS_2017), "64B2")
    assert r["status"] == "changed"
    assert changes(r) == [("replace", "ツ", "ト", "spelling")]


def test_declarer_spelling_is_a_variant(conn):
    # the revoke commentary reprints 62B2 with ディクレアラ, the Laws print ディクレアラー: spelling
    r = row(diff_units(conn, "62B2", COMMENTARY, LAWS_2017), "62B2")
    assert changes(r) == [("insert", "", "ー", "spelling")]
    # both texts' doubled ラ (ディクレアララー) is corrected by their errata (corpus/errata/*.yml),
    # so 45D1 differs in its 2018 wording only
    r = row(diff_units(conn, "45D1", COMMENTARY, LAWS_2017), "45D1")
    assert changes(r) == [("replace", "ず、", "ない。", "wording")]


def test_player_long_vowel_is_a_variant(conn):
    r = row(diff_units(conn, "43A1(a)", COMMENTARY, LAWS_2017), "43A1(a)")
    assert changes(r) == [("delete", "ー", "", "spelling")]  # プレイヤー -> プレイヤ


def test_revoke_vs_report_is_no_difference_once_corrected(conn):
    # the Laws' 14B4 printed リポート (report) for リボーク; corpus/errata/laws-2017-ja.yml corrects it,
    # and the commentary's reprint, which reads リボーク, is now the same text
    r = row(diff_units(conn, "14B4", COMMENTARY, LAWS_2017), "14B4")
    assert r["status"] == "same" and changes(r) == []


def test_revoke_vs_report_is_wording_not_spelling():
    # the web PDF printed 14B4's リボーク as リポート, another word; since the erratum mends it
    # (corpus/errata/laws-2017-ja.yml) the reprint and the Laws agree
    ops = text_ops(
        "このカードをプレイしなかったことはリボークになる", "このカードをプレイしなかったことはリポートになる"
    )
    assert [(op["op"], op["from"], op["to"], op["class"]) for op in ops if op["op"] != "equal"] == [
        ("replace", "ボ", "ポ", "wording"),
        ("replace", "ク", "ト", "wording"),
    ]


def test_whitespace_and_width_only_differences_are_same(conn):
    # out-of-turn-notes-ja prints 53A's parentheses half-width, the Laws full-width: （ vs (
    r = row(diff_units(conn, "53A", "out-of-turn-notes-ja", LAWS_2017), "53A")
    assert "(ただし" in r["from_text"] and "（ただし" in r["to_text"]
    # both print ディクレアラー since the Laws' ディクレアララー is corrected (corpus/errata/laws-2017-ja.yml)
    assert r["status"] == "same" and changes(r) == []
    # the title 61 differs only in the dash: 「こと－リボーク」 vs 「こと ー リボーク」
    head = row(diff_units(conn, "61", COMMENTARY, LAWS_2017), "61")
    assert head["from_title"] != head["to_title"] and head["status"] == "same"


def test_show_whitespace_reports_the_formatting(conn):
    r = row(diff_units(conn, "61", COMMENTARY, LAWS_2017, show_whitespace=True), "61")
    assert r["status"] == "changed"
    assert {op["class"] for op in r["title_ops"] if op["op"] != "equal"} == {"format"}


def test_fold_keeps_a_map_to_the_printed_text():
    folded = fold("第 23 条Ａ項*3")
    assert folded.text == "第23条A項"
    assert [folded.origin[i] for i in range(len(folded.text))] == [0, 2, 3, 5, 6, 7]


def test_text_ops_without_database():
    # spellings that search folds together (corpus/variants.yml) are a spelling change here too
    ops = text_ops("同じスーツでの", "同じスートでの")
    assert [(o["op"], o.get("class")) for o in ops if o["op"] != "equal"] == [("replace", "spelling")]
    ops = text_ops("デュブリケートブリッジ", "デュプリケートブリッジ")
    assert [o.get("class") for o in ops if o["op"] != "equal"] == ["spelling"]
    ops = text_ops("同じスーツでの", "同じカードでの")
    assert {o.get("class") for o in ops if o["op"] != "equal"} == {"wording"}


# --- cross language: 1997 Chinese vs 2017 Japanese -------------------------------------------------


def test_6D3_references_changed(conn):
    result = diff_units(conn, "6D3", LAWS_1997, LAWS_2017)
    assert result["comparison"] == "signals"
    r = row(result, "6D3")
    assert r["status"] == "changed"
    assert (r["refs_removed"], r["refs_added"]) == (["22A", "86C"], ["22B", "86A"])
    assert r["ops"] == []


def test_24B_reference_moved_by_the_concordance(conn):
    r = row(diff_units(conn, "24B", LAWS_1997, LAWS_2017), "24B")
    assert (r["refs_removed"], r["refs_added"]) == (["23"], ["72C"])
    assert r["refs_moved"] == [{"from": "23", "to": "72C", "concordance": "damaging-enforced-pass"}]


def test_24A_numbers_removed(conn):
    # 1997: a card of 9 or lower (一张9或9以下的小牌); 2017: a card that is not an honour
    r = row(diff_units(conn, "24A", LAWS_1997, LAWS_2017), "24A")
    assert r["numbers_removed"] == ["9"] and r["numbers_added"] == []


def test_numbers_ignore_references_and_count_cjk_numerals():
    assert numbers_in("如果只是一张9或9以下的小牌(参阅第23条)", "zh", "24A") == ["1", "9", "9"]
    assert numbers_in("一个实质叫牌超过前一个实质叫牌时", "zh", "18B") == []  # 一个 = "a", not 1
    assert numbers_in("暴露了两张或更多的牌张", "zh", "24C") == ["2"]
    assert numbers_in("1枚のカード（第72条C項参照）*4", "ja", "24A") == ["1"]
    assert numbers_in("平均负分(双人赛中至多40%比赛分)", "zh", "12C1") == ["40%"]


def test_law_refs_leave_out_the_units_own_law():
    assert law_refs("许多...都应参考本条规则。(参阅第72条B款1)", "zh", "23") == ["72B1"]


def test_text_moved_into_sub_units_is_a_structural_change(conn):
    result = diff_units(conn, "8B", LAWS_1997, LAWS_2017)
    r = row(result, "8B")
    assert r["status"] == "changed" and r["to_text"] == "" and r["relation"] == "split"
    assert (r["numbers_removed"], r["refs_removed"]) == ([], [])
    # the reviewed concordance says where 1997 8B's text went: 2017 8B1
    assert "2017 8B1" in r["note"]
    assert [(x["from_ref"], x["to_ref"], x["relation"]) for x in result["rows"]] == [
        ("8B", "8B", "split"),
        ("8B", "8B1", "split"),
        (None, "8B2", "new"),
    ]


def test_law_53_only_in_2017(conn):
    result = diff_units(conn, "53", LAWS_1997, LAWS_2017)
    assert {r["status"] for r in result["rows"]} == {"only_to"}
    assert result["counts"]["only_to"] == len(result["rows"]) == 4
    assert row(result, "53")["note"] == "the 1997 text in this corpus stops inside 52A: no 1997 text to compare"
    assert {r["relation"] for r in result["rows"]} == {"not_in_source"}


def test_1997_40D_and_40E_are_in_2017_40B2(conn):
    # by number 1997 40D-40E2 had no 2017 unit; read in both texts they are 2017 40B2 (system cards)
    result = diff_units(conn, "40", LAWS_1997, LAWS_2017)
    assert [r["ref"] for r in result["rows"] if r["status"] == "only_from"] == []
    assert [
        (r["from_ref"], r["to_ref"], r["relation"])
        for r in result["rows"]
        if r["from_ref"] in ("40D", "40E", "40E1", "40E2")
    ] == [
        ("40E2", "20G3", "split"),  # not consulting one's own card during the auction and play
        ("40E1", "40A4", "split"),  # the same system for both partners; methods, not style and judgement
        ("40E", "40B2", "partial"),
        ("40D", "40B2(a)", "partial"),
        ("40E1", "40B2(a)(ii)", "split"),
        ("40E2", "40B2(b)", "split"),
        ("40E2", "40B2(c)", "split"),
        ("40E2", "40B2(c)(iii)", "split"),
        ("40E2", "40B2(d)", "split"),
    ]


def test_law_23_diff_shows_the_move_and_the_new_law(conn):
    result = diff_units(conn, "23", LAWS_1997, LAWS_2017)
    moved = [r for r in result["rows"] if r["from_ref"] == "23"]
    assert [(r["to_ref"], r["method"], r["relation"]) for r in moved] == [("72C", "reviewed", "moved")]
    assert row(result, "23")["status"] == "only_to"


def test_title_terms_via_a_glossary():
    glossary = GlossaryTerms(
        [{"ja": "ディクレアララー", "zh": "庄家", "en": "declarer"}, {"ja": "ダミー", "zh": "明手", "en": "dummy"}]
    )
    assert title_terms("庄家的权利", "ダミーの権利", "zh", "ja", glossary) == {
        "removed": ["declarer"],
        "added": ["dummy"],
    }
    assert title_terms("庄家的权利", "ディクレアララーの権利", "zh", "ja", glossary) is None


def test_title_terms_read_every_spelling_and_skip_one_character_words():
    glossary = GlossaryTerms(
        [
            {"ja": "ディール", "zh": "发牌或牌局", "en": "Deal"},
            {"ja": "パック", "zh": "牌", "en": "Pack"},
            {"ja": "ボード", "zh": "牌套或套中的牌", "en": "Board"},
        ]
    )
    assert title_terms("洗牌与发牌", "シャフルとディール", "zh", "ja", glossary) is None
    assert title_terms("牌的复制", "ボードの複製", "zh", "ja", glossary) is None


def test_law_6_changes_are_not_glossary_words(conn):
    """1997 Law 6 and 2017 Law 6 name the same things (shuffle, deal): only references and numbers
    may make its rows changed, never a title word read inside another word (牌 in 发牌)."""
    rows = diff_units(conn, "6", LAWS_1997, LAWS_2017)["rows"]
    assert [r["ref"] for r in rows if r["title_terms"]] == []
    # read in both texts (concordance.yml): the headings 6 and 6D say the same; 6B, 6D1, 6D2, 6D3 and 6F
    # gained clauses or references in 2017; 6E (confirmed by number) counts 6E4's change under it
    assert {r["ref"] for r in rows if r["status"] == "changed"} == {
        "6B",
        "6D1",
        "6D2",
        "6D3",
        "6E",
        "6E4",
        "6F",
    }


# --- bad requests and overview --------------------------------------------------------------------


@pytest.mark.parametrize(
    "ref, from_doc, to_doc, message",
    [
        ("61", "laws-2017", LAWS_2017, "did you mean laws-2017-ja"),
        ("61", LAWS_2017, LAWS_2017, "same document"),
        ("zz", LAWS_1997, LAWS_2017, "not a law reference"),
        ("99", LAWS_1997, LAWS_2017, "has a unit '99'"),
        ("61", "", LAWS_2017, "missing 'from'"),
    ],
)
def test_bad_requests_raise_diff_error(conn, ref, from_doc, to_doc, message):
    with pytest.raises(DiffError, match=message):
        diff_units(conn, ref, from_doc, to_doc)


def test_reader_style_refs_are_accepted(conn):
    assert diff_units(conn, "第61条", COMMENTARY, LAWS_2017)["ref"] == "61"
    assert diff_units(conn, "61a", COMMENTARY, LAWS_2017)["ref"] == "61A"


def test_overview_counts_every_law(conn):
    result = overview(conn, LAWS_1997, LAWS_2017)
    laws = {law["law"]: law for law in result["laws"]}
    assert len(laws) == 93
    assert laws["53"]["only_to"] == 4 and laws["53"]["changed"] == laws["53"]["only_from"] == 0
    # 1997 40B is in part 2017 40B, 40A1(b) and 40B1(b); 40E and 40D in part 40B2 and 40B2(a)
    assert laws["40"]["only_from"] == 0 and laws["40"]["relations"]["partial"] == 5
    totals = result["totals"]
    assert sum(totals.values()) == sum(law["units"] for law in result["laws"])


def test_overview_of_a_commentary(conn):
    laws = {law["law"]: law for law in overview(conn, COMMENTARY, LAWS_2017)["laws"]}
    assert laws["61"]["changed"] == 1 and laws["61"]["same"] == 8


# --- references written against an older edition -----------------------------------------------------


def test_jcbl_appendix_7_law_23_is_flagged(conn):
    flags = edition_flags(conn)
    assert [(f["source_id"], f["surface"], f["now_at"]) for f in flags] == [
        ("jcbl-regs-ja:appendix-7-4-a-ii", "23条", "laws-2017-ja:72C"),
        ("jcbl-regs-ja:appendix-7-4-c-ii", "23条", "laws-2017-ja:72C"),
    ]
    assert flags[0]["cited_edition"] == "2007" and flags[0]["document_date"] == "2016-04-01"


def test_commentaries_citing_law_23_are_not_flagged(conn):
    # the commentaries (2018-11-17) were written for the 2017 Laws
    assert not [f for f in edition_flags(conn) if not f["source_id"].startswith("jcbl-regs-ja:")]


def test_edition_flags_from_parsed_units():
    from ingest.parsers.documents import parse_document
    from ingest.sources.corpus import load_sources

    units = []
    for source in load_sources():
        if source.id in ("jcbl-regs-ja", LAWS_2017):
            units += parse_document(source.id, source.text, source.name).units
    assert {f["source_id"] for f in edition_flags(units)} == {
        "jcbl-regs-ja:appendix-7-4-a-ii",
        "jcbl-regs-ja:appendix-7-4-c-ii",
    }


def test_a_reprint_of_the_heading_alone_is_abridged_not_changed(conn):
    # revoke-notes-ja lists 第45条 A.-G. by heading only (line 316 ff.): no text was deleted
    r = row(diff_units(conn, "45A", COMMENTARY, LAWS_2017), "45A")
    assert (r["status"], r["ops"], r["from_text"]) == ("same", [], "")
    assert "only this heading" in r["note"]
    # a reprint that does print text is still compared
    assert row(diff_units(conn, "61A", COMMENTARY, LAWS_2017), "61A")["status"] == "changed"
