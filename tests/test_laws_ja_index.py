"""The 索引 of laws-2017-ja: exact records on excerpts copied from the corpus (tabs and the
two-space Markdown line breaks kept), and invariants over the whole real section.

Each excerpt comment cites the corpus line where it starts.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from ingest.parsers.laws_ja_index import find_index_start, parse_index
from ingest.parsers.records import ParseError

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "laws-2017-ja.txt"
DOC = "laws-2017-ja"
HEADER = ["## 索引－2017年規則－", "", "編集：Richard Hills(Rick Assad の作成した 1997年規則の索引に基づく)", ""]


def parse_excerpt(body: str, row: str = "### 【あ】") -> dict[str, object]:
    """Parse header + row marker + excerpt; the excerpt's first line is reported as line 1001."""
    lines = HEADER + [row, ""] + body.split("\n")
    first_line = 1001 - len(HEADER) - 2
    units = parse_index(lines, first_line, DOC, "excerpt")
    return {u.ref: u for u in units if u.kind == "index_entry"}


def record(unit) -> tuple:
    a = unit.attrs
    return (
        unit.ref,
        unit.title,
        unit.text,
        unit.parent_ref,
        unit.line,
        a["subterm"],
        a["see"] + a["see_also"],
        a["remark"],
    )


@pytest.fixture(scope="module")
def section() -> tuple[list[str], int]:
    lines = CORPUS.read_text(encoding="utf-8").split("\n")
    start = find_index_start(lines)
    return lines[start:], start + 1


@pytest.fixture(scope="module")
def units(section):
    lines, first_line = section
    return parse_index(lines, first_line, DOC, str(CORPUS))


@pytest.fixture(scope="module")
def entries(units):
    return [u for u in units if u.kind == "index_entry"]


# --- exact records on excerpts ------------------------------------------------------------


def test_space_format_heading_with_subterms_alert():
    # line 3184: a paragraph; first line the heading, the rest its sub-terms
    got = parse_excerpt(
        "アラート 定義  \n予想外の、不当な情報 16B1, 73C  \nしない、不当な情報 16B1, 73C  \n"
        "しない、間違った説明 20F5(a)  \n公開 40B2(a)(iii)\n"
    )
    assert [record(u) for u in got.values()] == [
        ("index:アラート", "アラート", "定義", "index-row:あ", 1001, None, [], None),
        (
            "index:アラート/予想外の、不当な情報",
            "予想外の、不当な情報",
            "16B1, 73C",
            "index:アラート",
            1002,
            "予想外の、不当な情報",
            [],
            None,
        ),
        (
            "index:アラート/しない、不当な情報",
            "しない、不当な情報",
            "16B1, 73C",
            "index:アラート",
            1003,
            "しない、不当な情報",
            [],
            None,
        ),
        (
            "index:アラート/しない、間違った説明",
            "しない、間違った説明",
            "20F5(a)",
            "index:アラート",
            1004,
            "しない、間違った説明",
            [],
            None,
        ),
        ("index:アラート/公開", "公開", "40B2(a)(iii)", "index:アラート", 1005, "公開", [], None),
    ]
    assert got["index:アラート/公開"].attrs["refs_printed"] == "40B2(a)(iii)"
    assert got["index:アラート"].attrs["row"] == "あ"


def test_tab_format_bold_heading_with_subterms_and_see_also_line():
    # line 3236: <b>heading</b>, its see-also on the next line, then plain sub-terms
    got = parse_excerpt("<b>オークション期間</b>\t17\n(「オークション」も参照)\t\n開始\t17A\n最初のコール\t17B\n")
    assert [record(u) for u in got.values()] == [
        ("index:オークション期間", "オークション期間", "17", "index-row:あ", 1001, None, ["オークション"], None),
        ("index:オークション期間/開始", "開始", "17A", "index:オークション期間", 1003, "開始", [], None),
        (
            "index:オークション期間/最初のコール",
            "最初のコール",
            "17B",
            "index:オークション期間",
            1004,
            "最初のコール",
            [],
            None,
        ),
    ]
    assert got["index:オークション期間"].attrs["lines"] == [1001, 1002]


def test_wrapped_refs_space_format():
    # line 3193: the see-also line carries the ### heading's refs; 3196-3197 refs wrap after a comma
    got = parse_excerpt(
        "### 意思の伝達、テンポとディセプション\n\n(「情報」も参照) 73  \n"
        "パートナーから得た不当な情報 16B1(a), 16B3,  \n73C  \n"
    )
    heading, sub = got.values()
    assert record(heading) == (
        "index:意思の伝達、テンポとディセプション",
        "意思の伝達、テンポとディセプション",
        "73",
        "index-row:あ",
        1001,
        None,
        ["情報"],
        None,
    )
    assert record(sub) == (
        "index:意思の伝達、テンポとディセプション/パートナーから得た不当な情報",
        "パートナーから得た不当な情報",
        "16B1(a), 16B3, 73C",
        "index:意思の伝達、テンポとディセプション",
        1004,
        "パートナーから得た不当な情報",
        [],
        None,
    )
    assert sub.attrs["lines"] == [1004, 1005]


def test_wrapped_refs_tab_format_after_empty_heading():
    # line 3550: a bold heading with no refs, its refs on the next line after a tab
    got = parse_excerpt("<b>説明期間</b>\t\n\t17D1, 20F4, 20F5(b)(ii), 40B2(b), 40B2(c)(ii), 41\n", row="### 【さ】")
    (unit,) = got.values()
    assert (unit.ref, unit.text, unit.attrs["lines"]) == (
        "index:説明期間",
        "17D1, 20F4, 20F5(b)(ii), 40B2(b), 40B2(c)(ii), 41",
        [1001, 1002],
    )


def test_wrapped_term_is_one_subterm():
    # line 3201: the term breaks after the adverb あらかじめ; refs come with the second half
    got = parse_excerpt(
        "### 意思の伝達、テンポとディセプション\n\n(「情報」も参照) 73\n\n"
        "規則が認める以外のあらかじめ\t\n取り決めた意思の伝達\t73B2\nしぐさ\t73D\n"
    )
    wrapped = got["index:意思の伝達、テンポとディセプション/規則が認める以外のあらかじめ取り決めた意思の伝達"]
    assert (wrapped.title, wrapped.text, wrapped.line, wrapped.attrs["lines"]) == (
        "規則が認める以外のあらかじめ取り決めた意思の伝達",
        "73B2",
        1005,
        [1005, 1006],
    )
    assert got["index:意思の伝達、テンポとディセプション/しぐさ"].text == "73D"


def test_remark_wrapped_over_two_lines():
    # line 3176: 注： and its continuation belong to the entry, not to new entries
    got = parse_excerpt("アベレージスコア 12C2(a)  \n注：「アベレージスコア」は  \n「0」と同一ではない\n")
    (unit,) = got.values()
    assert record(unit) == (
        "index:アベレージスコア",
        "アベレージスコア",
        "12C2(a)",
        "index-row:あ",
        1001,
        None,
        [],
        "注：「アベレージスコア」は「0」と同一ではない",
    )
    assert unit.attrs["lines"] == [1001, 1002, 1003]


def test_remark_in_tab_format():
    # line 3564: heading, refs on their own line, remark (with the conversion's stray space kept)
    got = parse_excerpt(
        "<b>ゼロスコア</b>\t\n\t77\n注：「ゼロスコア」は「アベレー ジスコア」と同一ではない\t\n", row="### 【さ】"
    )
    (unit,) = got.values()
    assert (unit.text, unit.attrs["remark"]) == ("77", "注：「ゼロスコア」は「アベレー ジスコア」と同一ではない")


def test_see_also_inside_bold_heading():
    # line 3208
    got = parse_excerpt("<b>違反行為（「反則行為」も参照）</b>\t定義\n違反行為後の手順\t9\n")
    assert [record(u) for u in got.values()] == [
        ("index:違反行為", "違反行為", "定義", "index-row:あ", 1001, None, ["反則行為"], None),
        (
            "index:違反行為/違反行為後の手順",
            "違反行為後の手順",
            "9",
            "index:違反行為",
            1002,
            "違反行為後の手順",
            [],
            None,
        ),
    ]


def test_merged_line_holds_a_heading_and_its_subterm_with_two_see_also_targets():
    # line 3782-3783: the conversion merged index lines: n terms <TAB> n reference groups
    got = parse_excerpt(
        "パートスコア 得点\t定義 77\nパートナー (「合意」、「パートナー間の了解事項」参照) 余計な情報\t定義 16B\n",
        row="【は】\t",
    )
    assert [record(u) for u in got.values()] == [
        ("index:パートスコア", "パートスコア", "定義", "index-row:は", 1001, None, [], None),
        ("index:パートスコア/得点", "得点", "77", "index:パートスコア", 1001, "得点", [], None),
        (
            "index:パートナー",
            "パートナー",
            "定義",
            "index-row:は",
            1002,
            None,
            ["合意", "パートナー間の了解事項"],
            None,
        ),
        ("index:パートナー/余計な情報", "余計な情報", "16B", "index:パートナー", 1002, "余計な情報", [], None),
    ]
    # `参照` without `も` is *see*: look there instead, as printed
    partner = got["index:パートナー"].attrs
    assert (partner["see"], partner["see_also"], partner["see_printed"]) == (
        ["合意", "パートナー間の了解事項"],
        [],
        ["(「合意」、「パートナー間の了解事項」参照)"],
    )
    assert {u.attrs["split_line"] for u in got.values()} == {1001, 1002}


def test_merged_line_of_three_subterms():
    # line 3790 (under パートナー間の了解事項, line 3784)
    got = parse_excerpt(
        "パートナー間の了解事項\t40\n"
        "システム、パートナーとの異なる スタイルや判断、パートナーとの異なる 特別な\t40A4 40A4 40B\n",
        row="【は】\t",
    )
    assert [(u.title, u.text, u.parent_ref) for u in got.values()] == [
        ("パートナー間の了解事項", "40", "index-row:は"),
        ("システム、パートナーとの異なる", "40A4", "index:パートナー間の了解事項"),
        ("スタイルや判断、パートナーとの異なる", "40A4", "index:パートナー間の了解事項"),
        ("特別な", "40B", "index:パートナー間の了解事項"),
    ]


def test_term_with_space_and_one_reference_group_stays_whole():
    # line 3498: the space after 、 is a line wrap; line 3302: 側 (サイド) is one term
    got = parse_excerpt(
        "<b>情報</b> （「意思の伝達」も参照）\t<b>16</b>\nディセプション、 はっきりしたブリッジ上の理由がない\t73E2\n",
        row="### 【さ】",
    )
    assert [(u.ref, u.text, u.attrs["see_also"]) for u in got.values()] == [
        ("index:情報", "16", ["意思の伝達"]),
        ("index:情報/ディセプション、はっきりしたブリッジ上の理由がない", "73E2", []),
    ]


# lines 3300-3330, verbatim: plain tab lines, whose headings only the reading order tells
KA_EXCERPT = (
    "過不足、カード\t13\n過不足のあるトリック\t67\n側 (サイド)\t定義\n管轄団体\t80A\n世界ブリッジ連合\t80A1(a)\n"
    "ゾーン組織\t80A1(b)\n各国ブリッジ組織\t80A1(c)\n責任と権限\t80A2\n権限の委任\t80A3\n権限の委譲\t80A3\n"
    "主催者となることもできる\t80B1\nさらに上告する可能性\t93C\n記憶、計算または技術の助け\t40B2(d)\n規則\t\n"
    "調整を定めていない\t12A\n肯定の表現の使い分け\t前書き\n(「することができる」\t\n「する」\t\n「するようにする」\t\n"
    "「すべきである」\t\n「しなければならない」)\t\n規則の解釈\t前書き, 81C2\n競技会\t定義\n競技会場\t76 脚注\n"
    "競技者\t定義\n規律罰則\t91A\n\n配り直し\t6D\n配り直ししない、チーム戦\t86A\nゲーム\t定義, 77\n"
    "ゲームの楽しみ\t74A2\n"
)


def test_gloss_lines_belong_to_the_subterm_before_them():
    # line 3315: a parenthesised list of expressions wrapped over five lines (3316-3320)
    got = parse_excerpt(KA_EXCERPT, row="<b>【か】</b>\t")
    unit = got["index:規則/肯定の表現の使い分け"]
    assert (unit.text, unit.line, unit.attrs["gloss"], unit.attrs["lines"]) == (
        "前書き",
        1016,
        "(「することができる」「する」「するようにする」「すべきである」「しなければならない」)",
        [1016, 1017, 1018, 1019, 1020, 1021],
    )
    assert [u.title for u in got.values() if u.parent_ref == "index:規則"] == [
        "調整を定めていない",
        "肯定の表現の使い分け",
        "規則の解釈",
    ]


def test_plain_tab_headings_follow_reading_order():
    # 管轄団体 (line 3303) is a heading; its sub-terms break the reading order (世界, ゾーン) or
    # lose to the longer ordered run (権限の委任); 記憶 continues the order, so it is a heading.
    # A term that repeats an earlier one plus a particle (規則の解釈, ゲームの楽しみ) is a sub-term.
    got = parse_excerpt(KA_EXCERPT, row="<b>【か】</b>\t")
    headings = [u.title for u in got.values() if u.attrs["subterm"] is None]
    assert headings == [
        "過不足、カード",
        "過不足のあるトリック",
        "側 (サイド)",
        "管轄団体",
        "記憶、計算または技術の助け",
        "規則",
        "競技会",
        "競技会場",
        "競技者",
        "規律罰則",
        "配り直し",
        "ゲーム",
    ]
    assert [u.title for u in got.values() if u.parent_ref == "index:管轄団体"] == [
        "世界ブリッジ連合",
        "ゾーン組織",
        "各国ブリッジ組織",
        "責任と権限",
        "権限の委任",
        "権限の委譲",
        "主催者となることもできる",
        "さらに上告する可能性",
    ]


def test_repeated_pair_gets_a_suffix():
    # lines 3365 and 3397: コールする権利の保持 printed twice under コール
    got = parse_excerpt(
        "<b>コール</b>\t定義\nコールする権利の保持\t17D3\n同等な\t23\nコールする権利の保持\t17D3\n",
        row="<b>【か】</b>\t",
    )
    second = got["index:コール/コールする権利の保持~2"]
    assert (second.text, second.attrs["duplicate_of"], second.parent_ref) == (
        "17D3",
        "index:コール/コールする権利の保持",
        "index:コール",
    )


def test_markdown_heading_with_see_also_paragraph_and_furniture():
    # line 4012: ## heading, its see-also in the next paragraph; line 4017 is a rule, not an entry
    got = parse_excerpt("## 了解事項\n\n(「パートナー間の了解事項」参照)\n\n礼儀\t74A1\n----\t------\n", row="【ら】\t")
    assert [(u.ref, u.text, u.attrs["see"], u.attrs["see_also"], u.attrs["lines"]) for u in got.values()] == [
        ("index:了解事項", "", ["パートナー間の了解事項"], [], [1001, 1003]),
        ("index:礼儀", "74A1", [], [], [1005]),
    ]


def test_index_and_row_units(units):
    index, first_row = units[0], units[1]
    assert (index.ref, index.kind, index.title, index.text, index.line) == (
        "index",
        "index",
        "索引－2017年規則－",
        "編集：Richard Hills(Rick Assad の作成した 1997年規則の索引に基づく)",
        3162,
    )
    assert (first_row.ref, first_row.kind, first_row.title, first_row.parent_ref, first_row.line) == (
        "index-row:あ",
        "index_row",
        "あ",
        "index",
        3166,
    )


def test_bad_references_name_the_line():
    with pytest.raises(ParseError, match=r"excerpt:1001"):
        parse_excerpt("アラート\t定義 see 73C\n")


# --- whole-section invariants on the real file ------------------------------------------------

ROW_LINE_RE = re.compile(r"^(?:###\s*)?(?:<b>)?【(.)】(?:</b>)?\t?$")
RULE_LINE_RE = re.compile(r"^[-\t ]+$")
LOCATOR = r"(?:\d+[A-Z]?\d*(?:\([a-z]+\)|\(1\))*(?:\s*脚注\d*)?|定義|前書き)"
LOCATORS_RE = re.compile(rf"^{LOCATOR}(?:(?:\s*[,、]\s*|\s+){LOCATOR})*$")


def test_every_kana_row_present_in_order(units):
    rows = [(u.title, u.attrs["printed"], u.attrs["kana"]) for u in units if u.kind == "index_row"]
    # な and わ head no term of this index: not printed, still there for a reader going by kana
    assert rows == [
        ("あ", "【あ】", "あいうえお"),
        ("か", "【か】", "かきくけこ"),
        ("さ", "【さ】", "さしすせそ"),
        ("た", "【た】", "たちつてと"),
        ("な", None, "なにぬねの"),
        ("は", "【は】", "はひふへほ"),
        ("ま", "【ま】", "まみむめも"),
        ("や", "【や】", "やゆよ"),
        ("ら", "【ら】", "らりるれろ"),
        ("わ", None, "わゐゑをん"),
    ]
    assert [u.line for u in units if u.kind == "index_row"] == [
        3166,
        3252,
        3400,
        3575,
        None,
        3781,
        3931,
        3949,
        3951,
        None,
    ]
    assert (
        "".join(kana for *_, kana in rows)
        == "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわゐゑをん"
    )
    positions = {u.ref: i for i, u in enumerate(units)}
    for i, unit in enumerate(units):
        if unit.kind == "index_entry" and unit.attrs["subterm"] is None:
            assert unit.parent_ref == f"index-row:{unit.attrs['row']}"
            assert positions[unit.parent_ref] < i


def content_lines(section) -> list[int]:
    """Lines that must end up in an entry: not blank, not the title, editor or row lines, not rules."""
    lines, first_line = section
    numbers = []
    for offset, raw in enumerate(lines[2:], start=2):
        text = raw.rstrip(" ")
        if not text.strip() or ROW_LINE_RE.match(text) or RULE_LINE_RE.match(text) or text.startswith("編集："):
            continue
        numbers.append(first_line + offset)
    return numbers


def test_every_content_line_is_accounted_for_by_exactly_one_entry(section, entries):
    claims = Counter(n for u in entries for n in u.attrs["lines"])
    split = Counter(u.attrs["split_line"] for u in entries if u.attrs.get("split_line"))
    expected = content_lines(section)
    assert set(claims) == set(expected)
    wrong = {n: c for n, c in claims.items() if c != split.get(n, 1)}
    assert wrong == {}
    # a merged line holds as many entries as it has reference groups
    assert all(count >= 2 for count in split.values())


def test_every_entry_text_matches_the_reference_grammar(entries):
    bad = [(u.line, u.text) for u in entries if u.text and not LOCATORS_RE.match(u.text)]
    assert bad == []
    assert all(u.text == u.attrs["refs_printed"] for u in entries)
    assert all("<" not in u.title and not u.title.startswith("#") for u in entries)


def test_pure_headings_are_the_only_entries_without_refs_apart_from_see_also(entries):
    bare = [u for u in entries if not u.text and not u.attrs["see"] and not u.attrs["see_also"]]
    children = Counter(u.parent_ref for u in entries)
    assert [u.title for u in bare if children[u.ref] == 0] == []


def test_refs_are_unique_and_parents_exist(units, entries):
    refs = [u.ref for u in units]
    assert len(refs) == len(set(refs))
    by_ref = {u.ref: u for u in units}
    for unit in entries:
        parent = by_ref[unit.parent_ref]
        if unit.attrs["subterm"] is None:
            assert unit.ref.split("~")[0] == f"index:{unit.title}"
        else:
            assert parent.attrs["subterm"] is None and parent.attrs["heading"] == unit.attrs["heading"]
            assert unit.ref.split("~")[0] == f"index:{unit.attrs['heading']}/{unit.title}"
        if "~" in unit.ref:
            assert unit.attrs["duplicate_of"] == unit.ref.split("~")[0] and unit.attrs["duplicate_of"] in by_ref


def test_known_odd_lines_in_the_real_section(entries):
    by_line = {}
    for unit in entries:
        by_line.setdefault(unit.line, []).append(unit)
    # 3555: a refs-only line after a sub-term with refs: appended to it, joined by a space
    assert [u.text for u in by_line[3554]] == ["16, 73C, 75A 21B, 75B1, 75D2"]
    # 3488: bold references
    assert [(u.title, u.text) for u in by_line[3488]] == [("証拠の重み", "85A1")]
    # 3323, 3736: a space before 脚注 is one locator
    assert [u.text for u in by_line[3323]] == ["76 脚注"]
    # 3570: `選択 有利な<TAB>10C2 10C3, 10C4` is two sub-terms of 選択権
    assert [(u.ref, u.text) for u in by_line[3570]] == [
        ("index:選択権/選択", "10C2"),
        ("index:選択権/有利な", "10C3, 10C4"),
    ]
    # 3741-3742: a see-also wrapped onto its own line
    assert by_line[3741][0].attrs["see"] == ["取り消した(withdrawn)行動"]
    assert by_line[3741][0].attrs["see_printed"] == ["（「取り消した(withdrawn)行動」参照）"]


def test_a_lone_number_after_complete_refs_is_a_page_number_not_a_reference():
    # Not in the converted section (see test_remark_in_tab_format for the real `\t77`, a
    # reference): lines 3245-3246 followed by an invented page number 35, to pin the rule down.
    got = parse_excerpt("<b>オーバートリック</b>\t定義\n得点\t77\n\t35\n")
    assert [(u.ref, u.text, u.attrs["lines"]) for u in got.values()] == [
        ("index:オーバートリック", "定義", [1001]),
        ("index:オーバートリック/得点", "77", [1002]),
    ]


def test_a_term_ending_in_a_verb_is_a_heading_not_a_wrapped_term(entries):
    # line 3800: パートナーとの異なる has no refs, but its sub-terms follow (unlike あらかじめ, 3201)
    children = [u.title for u in entries if u.parent_ref == "index:パートナーとの異なる"]
    assert children == ["スタイルや判断", "パートナー間の了解事項"]


def test_see_and_see_also_as_printed(entries):
    """Every 参照 of the section is kept with its kind: 「X」も参照 (see also) or 「X」参照 / を参照 (see)."""
    section_text = CORPUS.read_text(encoding="utf-8").split("## 索引", 1)[1]
    # counted on the raw text: one target per 」…参照, plus the second of 「合意」、「パートナー間の了解事項」参照
    printed_also = section_text.count("」も参照")
    printed_see = section_text.count("」参照") + section_text.count("」を参照") + section_text.count("」、「")
    assert (printed_see, printed_also) == (15, 17)
    assert sum(len(u.attrs["see_also"]) for u in entries) == printed_also
    assert sum(len(u.attrs["see"]) for u in entries) == printed_see
    by_ref = {u.ref: u for u in entries}
    assert (by_ref["index:違反行為"].attrs["see_also"], by_ref["index:違反行為"].attrs["see"]) == (["反則行為"], [])
    assert (by_ref["index:スコア調整"].attrs["see"], by_ref["index:スコア調整"].attrs["see_printed"]) == (
        ["調整スコア"],
        ["(「調整スコア」を参照)"],
    )
