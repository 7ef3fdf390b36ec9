"""laws-2017-ja: exact records on real excerpts, and invariants over the whole file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ingest.parsers import laws_ja
from ingest.parsers.laws_ja import LawBodyParser, parse_definitions
from ingest.parsers.records import ParseError
from ingest.parsers.textclean import normalise_spaces

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
SOURCE = CORPUS / "laws-2017-ja.txt"
RAW = SOURCE.read_text(encoding="utf-8")
RAW_LINES = RAW.split("\n")
RUNNING_HEADERS = {"定義", "前書き", "準備と進行", "違反行為に関する一般原則", "プレイ", "オークション"}


@pytest.fixture(scope="module")
def parsed():
    return laws_ja.parse(RAW, doc="laws-2017-ja", source=str(SOURCE))


@pytest.fixture(scope="module")
def units(parsed):
    return parsed.by_ref()


def excerpt(first: int, last: int) -> list[tuple[int, str]]:
    """Lines first..last (1-based, inclusive) of the real file, with their numbers."""
    return [(n, RAW_LINES[n - 1]) for n in range(first, last + 1)]


def body_parser(previous_law: int) -> LawBodyParser:
    parser = LawBodyParser("laws-2017-ja", "laws-2017-ja.txt", toc={}, part_of_law={}, running_headers=RUNNING_HEADERS)
    parser.law_number = previous_law
    return parser


def record(unit):
    return (unit.ref, unit.kind, unit.title, unit.text, unit.parent_ref)


# --- exact records on excerpts ------------------------------------------------------------


def test_definition_running_across_a_page_break():
    # 定義 コントラクト: the sentence breaks after 「オッド」, then `## 定義` + `---` (running header)
    lines = excerpt(655, 663)
    (unit,) = parse_definitions("laws-2017-ja", lines, page=4, running_headers=RUNNING_HEADERS, source="t")
    assert record(unit) == (
        "def:コントラクト",
        "definition",
        "コントラクト",
        "ダブル、リダブルの有無に関係なく、ディクレアラ側が最後のビッドで指定した数のオッドトリックを"
        "指定したデノミネーションで取る約束（第22条参照）。",
        "definitions",
    )
    assert (unit.attrs["term"], unit.attrs["term_en"]) == ("コントラクト", "Contract")


def test_definition_headings_at_three_levels_and_numbered_meanings():
    lines = excerpt(578, 603) + excerpt(706, 716)  # `####` headings, then `**bold**` ones
    defs = parse_definitions("laws-2017-ja", lines, page=4, running_headers=RUNNING_HEADERS, source="t")
    terms = [(d.attrs["term"], d.attrs["term_en"]) for d in defs]
    assert terms[:3] == [
        ("IMP", "International Match Point"),
        ("LHO", "Left-hand Opponent"),
        ("RHO", "Right-hand Opponent"),
    ]
    dummy = next(d for d in defs if d.ref == "def:ダミー")
    assert dummy.attrs["meanings"] == [
        "ディクレアラーのパートナー。オープニングリードが表向きになるとダミーになり、プレイが終了するとダミーではなくなる。",
        "オープニングリード後、テーブルの上に広げたディクレアラーのパートナーのカード。",
    ]


def test_definition_text_before_any_heading_is_an_error():
    with pytest.raises(ParseError) as error:
        parse_definitions("laws-2017-ja", [(10, "説明のない文")], page=4, running_headers=set(), source="defs.txt")
    assert "defs.txt:10" in str(error.value)


def test_law_2_keeps_its_board_table():
    parser = body_parser(previous_law=1)
    units = {u.ref: u for u in parser.read(excerpt(892, 909))}
    law = units["2"]
    assert law.title == "デュプリケートボード"
    assert law.attrs["table"][0] == ["North ディーラー", "ボード No. 1", "5", "9", "13"]
    assert law.attrs["table"][7] == ["双方バル", "ボード No. 4", "7", "10", "13"]
    assert len(law.attrs["table"]) == 8
    # `1 7 - 3 2` and `1 6` are numbers the conversion spaced out
    assert "ボード番号17 - 32とこの後の16ボード毎のグループにも同じ配列を繰り返す。" in law.text.split("\n")


def test_law_12C_down_to_its_sub_sub_items():
    parser = body_parser(previous_law=11)
    units = parser.read(excerpt(1069, 1115))
    refs = [u.ref for u in units]
    assert refs[refs.index("12C") :] == [
        "12C",
        "12C1",
        "12C1(a)",
        "12C1(b)",
        "12C1(c)",
        "12C1(d)",
        "12C1(e)",
        "12C1(e)(i)",
        "12C1(e)(ii)",
        "12C2",
        "12C2(a)",
        "12C2(b)",
        "12C2(c)",
        "12C2(d)",
        "12C3",
        "12C4",
    ]
    by_ref = {u.ref: u for u in units}
    assert record(by_ref["12C"]) == ("12C", "section", "調整スコアの査定", "", "12")
    # `(a)` opens on the item's own line; its sentence continues after a bullet: `- と置き換える。`
    assert record(by_ref["12C1(a)"]) == (
        "12C1(a)",
        "subitem",
        None,
        "違反行為の後、ディレクターはこの規則によりスコアを調整する権限を持ち、選定調整スコアを与えることが"
        "できるときはそうする。このようなスコアはプレイで得られたスコアと置き換える。",
        "12C1",
    )
    assert record(by_ref["12C1(e)(ii)"]) == (
        "12C1(e)(ii)",
        "subsubitem",
        None,
        "非反則側は、損害の自ら引き起こした部分に対しては救済を受けない。",
        "12C1(e)",
    )
    # a sentence split by a page break (running header in between) is joined again
    assert by_ref["12C2(d)"].text.endswith(
        "規則を定めることができる。その規則でそれぞれの2ボード目以降のボードについて"
        "与えられる調整スコアは、上記の(a)や(b)と異なるものでもよい。"
    )


def test_40B2a_v(units):
    unit = units["40B2(a)(v)"]
    assert record(unit) == (
        "40B2(a)(v)",
        "subsubitem",
        None,
        "アーティフィシャルコールのサイキックを規制できる。",
        "40B2(a)",
    )
    assert [u.ref for u in units.values() if u.parent_ref == "40B2(a)"] == [
        "40B2(a)(i)",
        "40B2(a)(ii)",
        "40B2(a)(iii)",
        "40B2(a)(iv)",
        "40B2(a)(v)",
    ]


def test_sub_item_i_after_h_is_a_letter_not_a_roman_numeral(units):
    # 80B2: (g) (i) (ii) are sub-sub-items of (g); the later (i) follows (h) as a sub-item
    assert units["80B2(g)(i)"].kind == "subsubitem"
    assert units["80B2(i)"].kind == "subitem"
    assert units["80B2(i)"].text == "適切なプレイの条件を定め、競技者に公表すること。"


def test_footnote_and_its_anchor(units):
    footnote = units["fn:1"]
    assert record(footnote) == (
        "fn:1",
        "footnote",
        "*1",
        "「揃えられたデッキ」とはカードが揃えられていて無作為ディールをされていないパックをいう。",
        "6D2",
    )
    assert footnote.attrs["anchor_ref"] == "6D2"
    # the footnote text sat between the two halves of this sentence; the marker stays in place
    assert units["6D2"].text.startswith(
        "過去のディールを再びプレイすることが競技会の目的でなければ、カードが揃えられたデッキ*1を"
        "シャフルしないで配ったディール"
    )


def test_heading_carrying_a_sup_marker(units):
    # `### 第13条 カードの過不足<sup>\*2</sup>`: the title is the words, the marker is listed apart
    law = units["13"]
    assert (law.title, law.attrs["title_footnotes"]) == ("カードの過不足", ["2"])
    assert units["fn:2"].attrs["anchor_ref"] == "13"


def test_doubled_bold_heading_is_a_law_and_its_section(units):
    # `**第66条 トリックの検査****A. 現行のトリック**`
    assert units["66"].title == "トリックの検査"
    assert (units["66A"].title, units["66A"].parent_ref) == ("現行のトリック", "66")


def test_title_wrapped_over_three_lines(units):
    assert (
        units["53C"].title == "ディクレアラの違法なリードに対して間違った順番のディフェンダーがカードをプレイした場合"
    )


def test_translator_notes_marked_with_a_bare_star(units):
    assert units["fn:ja-22"].text == "【日本語版注】第17条D項3参照"
    assert units["fn:ja-75"].attrs["anchor_ref"] == "75B"


def test_excerpt_with_a_law_out_of_sequence_is_not_a_heading():
    # 第88条's whole text is `第12条C項2参照。`: a reference, not the heading of Law 12
    parser = body_parser(previous_law=87)
    units = parser.read(excerpt(3073, 3076))
    assert [(u.ref, u.text) for u in units] == [("88", "第12条C項2参照。")]


# --- whole-document invariants -------------------------------------------------------------

BODY_HEADING_RE = re.compile(r"^(?:#+\s*|\*\*)?第\s*(\d+)\s*条\s*(.*?)(?:\*\*.*)?$")


def body_heading_titles() -> dict[int, str]:
    """Law titles as printed in the body headings, read independently of the parser."""
    start = next(i for i, line in enumerate(RAW_LINES) if re.match(r"^#+\s*第\s*1\s*条", line))
    end = next(i for i, line in enumerate(RAW_LINES) if line.startswith("## 索引"))
    titles: dict[int, str] = {}
    for line in RAW_LINES[start:end]:
        match = BODY_HEADING_RE.match(line)
        if match and (line.startswith(("#", "**"))) and int(match.group(1)) == len(titles) + 1:
            # the footnote marker (`<sup>\*2</sup>`) is not part of the title: it is kept apart
            title = re.sub(r"<sup>.*?</sup>|\*\*|\\\*", "", match.group(2))
            titles[int(match.group(1))] = normalise_spaces(title)
    return titles


def test_93_laws_in_order_titled_as_their_body_headings(parsed):
    laws = [u for u in parsed.units if u.kind == "law"]
    assert [u.ref for u in laws] == [str(n) for n in range(1, 94)]
    expected = body_heading_titles()
    assert len(expected) == 93
    assert {int(u.ref): normalise_spaces(u.title) for u in laws} == expected


# Places where the 目次 and the body print different titles (the body is what we keep).
KNOWN_TOC_DISCREPANCIES = {
    "19C",
    "19D",
    "20G",
    "39B",
    "40A",
    "48",
    "48A",
    "48B",
    "52",
    "53C",
    "54D",
    "55C",
    "57C",
    "58A",
    "58B",
    "75B",
    "75C",
    "84C",
}


def test_every_toc_entry_matches_a_parsed_unit(parsed, units):
    toc = [u for u in parsed.units if u.kind == "toc_entry"]
    assert len(toc) > 350
    mismatched = set()
    for entry in toc:
        target = units.get(entry.attrs["target_ref"])
        assert target is not None, f"目次 row {entry.attrs['target_ref']} (line {entry.line}) has no unit"
        # the 目次 prints no footnote markers, and no title keeps one (13 `カードの過不足`, marker apart)
        if normalise_spaces(target.title or "") != entry.title:
            mismatched.add(entry.attrs["target_ref"])
    assert mismatched == KNOWN_TOC_DISCREPANCIES


def test_every_law_and_section_has_its_toc_page(parsed, units):
    toc = {u.attrs["target_ref"]: u.page for u in parsed.units if u.kind == "toc_entry"}
    for ref, page in toc.items():
        assert units[ref].page == page, ref
    assert units["61"].page == 93 and units["12C1(a)"].page == 22


def test_no_page_furniture_in_any_text(parsed):
    furniture = re.compile(r"^#|^-{3}|<[a-z/]+>|\*\*|\\\*", re.M)
    page_number = re.compile(r"^\s*\d+\s*$", re.M)  # an index entry's text may be the ref `77`
    offenders = [
        (u.ref, u.text)
        for u in parsed.units
        if furniture.search(u.text)
        or furniture.search(u.title or "")
        or (u.kind != "index_entry" and page_number.search(u.text))
    ]
    assert offenders == []


def test_all_28_footnotes_anchored(parsed, units):
    numbered = [u for u in parsed.units if u.kind == "footnote" and u.attrs["label"] != "*"]
    assert [u.ref for u in numbered] == [f"fn:{n}" for n in range(1, 29)]
    for footnote in numbered:
        anchor = units[footnote.attrs["anchor_ref"]]
        marker = f"*{footnote.attrs['label']}"
        assert marker in anchor.text or footnote.attrs["label"] in anchor.attrs.get("title_footnotes", [])


def test_all_65_definitions(parsed):
    definitions = [u for u in parsed.units if u.kind == "definition"]
    assert len(definitions) == 65
    assert all(u.ref == f"def:{u.attrs['term']}" and u.attrs["term_en"] for u in definitions)
    assert definitions[0].ref == "def:IMP" and definitions[-1].ref == "def:リダブル"


def test_refs_unique_and_parents_exist(parsed, units):
    refs = [u.ref for u in parsed.units]
    assert len(refs) == len(set(refs))
    missing = [(u.ref, u.parent_ref) for u in parsed.units if u.parent_ref and u.parent_ref not in units]
    assert missing == []


def test_every_law_belongs_to_a_part(parsed, units):
    parts = [u for u in parsed.units if u.kind == "part"]
    assert [p.title for p in parts] == [
        "予備規則",
        "準備と進行",
        "違反行為に関する一般原則",
        "オークション",
        "プレイ",
        "作法",
        "スコア",
        "競技会の組織",
        "ディレクター",
        "上告",
    ]
    assert units["61"].parent_ref == "part:5" and units["93"].parent_ref == "part:10"


def test_prefaces_and_introduction(units):
    assert units["preface:wbf"].text.startswith("ブリッジはチェスや囲碁など")
    assert units["preface:jcbl"].text.startswith("初めて日本語での規則が施行されたのは1968年です。")
    assert units["introduction"].text.startswith("英語版では、指示、命令、禁止の度合いを助動詞で厳密に区別し")
    assert units["introduction/ja-note"].text.startswith("規則の一部としてわかりやすくするために")
    assert units["introduction/ja-note"].parent_ref == "introduction"


def test_missing_landmark_names_the_file():
    with pytest.raises(ParseError) as error:
        laws_ja.parse("# 目次\n", doc="laws-2017-ja", source="broken.txt")
    assert "broken.txt" in str(error.value)


def test_truncated_file_reports_the_law_it_expected():
    cut = RAW[: RAW.index("### 第53条")] + "\n## 索引－2017年規則－\n"
    with pytest.raises(ParseError) as error:
        laws_ja.parse(cut, doc="laws-2017-ja", source="cut.txt")
    assert "expected 93 laws, found 52" in str(error.value) and "第53条" in str(error.value)


# --- sections, closing paragraphs and sentences the conversion broke (issue 15) ----------------


def test_untitled_sections_keep_their_sentence_as_text():
    # 第56条: `- A. 第53条に定めるとおり、…または、` is the section's text, not a title
    parser = body_parser(previous_law=55)
    units = {u.ref: u for u in parser.read(excerpt(2235, 2240))}
    assert [record(units[r]) for r in ("56", "56A", "56B")] == [
        (
            "56",
            "law",
            "ディフェンダーの順番外のリード",
            "順番外のリードが表向きに出されたとき、ディクレアララーは：",
            None,
        ),
        ("56A", "section", None, "第53条に定めるとおり、この違法なリードを受け入れることができる。または、", "56"),
        (
            "56B",
            "section",
            None,
            "ディフェンダーに表向きになった順番外のリードを取り消すよう要求することができる。"
            "取り消したカードはメジャーペナルティカードになり第50条D項を適用する。",
            "56",
        ),
    ]


def test_law_71_closing_sentence_follows_its_sections():
    parser = body_parser(previous_law=70)
    units = parser.read(excerpt(2575, 2586))
    assert [record(u) for u in units if u.kind != "footnote"] == [
        (
            "71",
            "law",
            "「取られの宣言」の取り消し",
            "一旦行った「取られの宣言」は成立する。ただし、以下の場合には第79条C項で定められた訂正期間内に"
            "ディレクターが「取られの宣言」を取り消すものとする：",
            None,
        ),
        ("71A", "section", None, "プレイヤが自分の側が実際は勝ったトリックを対戦相手に譲った場合、または、", "71"),
        (
            "71B",
            "section",
            None,
            "残りのカードをどのような普通の*22プレイをしても負けることがないトリックを対戦相手に譲った場合。",
            "71",
        ),
        ("71/closing", "closing", None, "ボードのスコアは上記のトリックを加減して付け直す。", "71"),
    ]
    closing = units[3]
    assert (closing.line, closing.attrs) == (2582, {"after": "71B"})
    assert next(u for u in units if u.ref == "fn:22").attrs["anchor_ref"] == "71B"


def test_untitled_sections_in_the_whole_book_are_those_of_laws_without_toc_sections(parsed, units):
    toc = {u.attrs["target_ref"] for u in parsed.units if u.kind == "toc_entry"}
    untitled = {u.ref for u in parsed.units if u.kind == "section" and not u.title}
    assert untitled == {"22A", "22B", "35A", "35B", "35C", "35D", "56A", "56B", "71A", "71B"}
    assert all(
        ref[:-1] in toc and not any(t.startswith(ref[:-1]) and t[len(ref) - 1 :].isalpha() for t in toc)
        for ref in untitled
    )
    assert [u.ref for u in parsed.units if u.kind == "closing"] == ["69B/closing", "71/closing"]
    position = [u.ref for u in parsed.units].index
    assert position("71B") < position("71/closing") < position("72")


@pytest.mark.parametrize(
    "ref, text",
    [
        # 53B: `…間違っ⏎てプレイした…`: a word cut by a hard line break
        ("53B", "この場合、正しいリードが成立し、このトリックに間違ってプレイしたカードはすべて取り消すことができる。"),
        # 41C: `説明期間【日本語版注：…】` then, after a blank line, `の後、…`
        ("41C", "説明期間【日本語版注：第17条D項参照】の後、オープニングリードを表向きにして"),
        # 63A3: a page break before `「取られ」の宣言`
        ("63A3", "トリックの「取り」または「取られ」の宣言を行ったとき。"),
        # 64C2(a): `…同じスートでの2` / `回以上の…`
        ("64C2(a)", "同じプレイヤーによる同じスートでの2回以上のリボークがあった場合"),
        # 68B2: a running header between `…反対した場合は` and `「取られの宣言」も…`
        ("68B2", "そのパートナーが直ちに反対した場合は「取られの宣言」も「取りの宣言」も成立しない。"),
        # 73C1: `…しなければならない⏎(第16条B項1(a)参照)。`
        ("73C1", "この不当な情報を利用しないよう十分注意しなければならない(第16条B項1(a)参照)。"),
    ],
)
def test_sentence_broken_mid_line_is_joined(units, ref, text):
    assert text in units[ref].text
    assert "\n" not in units[ref].text


def test_a_hard_break_after_a_heading_like_phrase_stays(units):
    # 35C prints `7を超えるビッド` and, on its own line, `第38条を適用する。`
    assert units["35C"].text == "7を超えるビッド\n第38条を適用する。"


def test_footnote_marker_at_the_end_of_a_section_title_is_kept_apart_from_the_title(units):
    # `### B. オークション期間中またはプレイ期間中に間違ったボードを発見した場合<sup>\*4</sup>`
    assert (units["15B"].title, units["15B"].attrs["title_footnotes"]) == (
        "オークション期間中またはプレイ期間中に間違ったボードを発見した場合",
        ["4"],
    )
    assert units["15B"].text.startswith("オークション期間の開始より後に")
    assert units["fn:4"].attrs["anchor_ref"] == "15B"


def test_front_matter_and_prefaces_keep_one_line_per_printed_line(units):
    assert units["front-matter"].text.split("\n")[:8] == [
        "2019年4月15日",
        "WEB版PDF",
        "デュプリケートブリッジの規則",
        "2017年版",
        "公益社団法人日本コントラクトブリッジ連盟",
        "Copyright © World Bridge Federation",
        "W B F法規委員会委員に感謝します。",
        "マックス・バビン",
    ]
    assert units["preface:wbf"].text.split("\n")[-3:] == [
        "アダム・ウィルダフスキー",
        "ローリー・ケルソー(書記)",
        "トン・コイマン(委員長)",
    ]
    assert units["preface:jcbl"].text.split("\n")[-8:] == [
        "公益社団法人日本コントラクトブリッジ連盟",
        "ルール委員会",
        "委員長清水康裕",
        "委員 ロバート・ゲラー",
        "長坂整",
        "松田神一",
        "宮内宏",
        "2017年12月",
    ]


def test_introduction_list_one_entry_a_line(units):
    lines = units["introduction"].text.split("\n")
    assert lines[2] == '"may" do = 「することができる」もしくは「してもよい」（しないことは間違いではない）、'
    assert lines[3] == '"does" = 「する」（違反に対するペナルティの有無に言及せずに手順を定めている）、'
    assert len(lines) == 14 and lines[-1] == "この「前書き」と次に続く「定義」は規則の一部である。"


def test_translators_note_without_the_running_header(units):
    assert units["introduction/ja-note"].text.split("\n")[-4:] == [
        "Law, Laws, The Laws：規則（規則全文）",
        "This Law：本条",
        "Provision：規定（規則の条文に書かれた内容）",
        "Regulation：細則（管轄団体、主催団体が定めた競技会規定、試合要項など）",
    ]


# --- issue 25: structure mended (headings' markers, 20C's items, 69B's closing, 75B3's lead-in) ---


@pytest.fixture(scope="module")
def corrected():
    """laws-2017-ja as the build reads it: the errata applied."""
    from ingest.sources.corpus import load_sources

    source = next(s for s in load_sources() if s.id == "laws-2017-ja")
    return laws_ja.parse(source.text, doc="laws-2017-ja", source=str(SOURCE)).by_ref()


def test_no_title_holds_a_footnote_marker(parsed):
    # (a footnote's own title is its marker, `*19`: that is what it is called)
    assert [u.ref for u in parsed.units if u.kind != "footnote" and "*" in (u.title or "")] == []


def test_footnote_markers_printed_in_headings_are_kept_apart_from_the_titles(units):
    # `### 第13条 カードの過不足<sup>\*2</sup>`, `#### B. 間違った説明\*`, `#### 2. …複数の結果<sup>\*27</sup>`:
    # "過不足*2" reads like "×2" wherever a title is shown (tab, prev/next, search results, history)
    assert [(ref, units[ref].title, units[ref].attrs["title_footnotes"]) for ref in ("13", "15B", "75B", "86B2")] == [
        ("13", "カードの過不足", ["2"]),
        ("15B", "オークション期間中またはプレイ期間中に間違ったボードを発見した場合", ["4"]),
        ("75B", "間違った説明", ["*"]),
        ("86B2", "1つ以上のテーブルで得られた複数の結果", ["27"]),
    ]
    assert [units[f"fn:{n}"].attrs["anchor_ref"] for n in ("2", "4", "27")] == ["13", "15B", "86B2"]
    assert units["fn:ja-75"].attrs["anchor_ref"] == "75B"


def test_20c_has_two_items_once_the_lost_number_1_is_restored(corrected):
    # line 1356 `- 最後のパスの後、…` (the conversion's bullet for 1.), line 1362 `2. ディクレアララー<sup>\*6</sup>…`
    assert [record(corrected[ref]) for ref in ("20C", "20C1", "20C2")] == [
        ("20C", "section", "最後のパス後の復唱", "", "20"),
        (
            "20C1",
            "item",
            None,
            "最後のパスの後、どちらのディフェンダーも自分のオープニングリードかを質問する権利がある（第47条E項および第41条参照）。",
            "20C",
        ),
        (
            "20C2",
            "item",
            None,
            "ディクレアラー*6とディフェンダーのどちらも、プレイする最初の順番に今までのコールすべての復唱を要求できる。"
            "（第41条B項と第41条C項参照）。本条B項のとおり、プレイヤは部分的な復唱を求めたり、復唱を中止させてはならない。",
            "20C",
        ),
    ]
    assert (corrected["20C1"].line, corrected["20C2"].line) == (1356, 1362)
    assert "20C3" not in corrected


def test_69b_closing_sentence_is_the_sections_own(units):
    assert [record(units[ref]) for ref in ("69B1", "69B2", "69B/closing")] == [
        ("69B1", "item", None, "プレイヤが自分の側が実際は勝っていたトリックを負けたと合意した場合。", "69B"),
        (
            "69B2",
            "item",
            None,
            "プレイヤが自分の側がプレイを続ければ勝っていた公算が大きいトリックを負けたと合意した場合。",
            "69B",
        ),
        ("69B/closing", "closing", None, "ボードのスコアは上記のトリックを加減して付け直す。", "69B"),
    ]
    assert (units["69B/closing"].line, units["69B/closing"].attrs) == (2532, {"after": "69B2"})


def test_75b3_lead_in_is_text_not_a_title(corrected):
    # `### 3. プレイヤのパートナー：` then `- [a] …` `- [b] …` `- [c] …`
    assert record(corrected["75B3"]) == (
        "75B3",
        "item",
        None,
        "プレイヤのパートナー：\n"
        "[a] オークションが続いている間は間違いを訂正するような行為は一切してはならない。\n"
        "[b] ディフェンダーになったときは、プレイが終了してから、ディレクターを呼んで正しい説明をしなければならない。\n"
        "[c] ディクレアラーまたはダミーになったときは、最後のパスの後に、ディレクターを呼んで訂正をしなければならない。",
        "75B",
    )


def test_errata_mend_14b4_and_55b2(corrected):
    assert corrected["14B4"].text.endswith("このカードをプレイしなかったことはリボークになることもある。")
    assert "ディクレアラーは間違ってリードしたカードを取り消して、リード権のあるハンドから" in corrected["55B2"].text
