"""The reference grammar, pattern by pattern, on sentences copied from corpus/*.txt.

Each case: (citing context, sentence) -> the (surface, target) pairs, in order. The span of each
surface is checked against the sentence, so a link would cover exactly that text.
"""

import pytest

from ingest.text.index_locators import parse_index_locators
from ingest.text.refs import (
    LAWS_JA,
    LAWS_ZH,
    REGULATIONS,
    Context,
    extract_ja_law_refs,
    extract_regulation_refs,
    extract_zh_law_refs,
    format_law_ref,
    law_ancestors,
    parse_law_ref,
)


def pairs(refs, text):
    for r in refs:
        assert text[r.start : r.end] == r.surface, r
    return [(r.surface, f"{r.doc}:{r.ref}" if r.ref else f"{r.doc}:fn@{r.footnote_of}") for r in refs]


JA = [
    # (id, citing law, sentence, expected)
    ("law", "19", "とみなす（第16条、不当な情報を適用することがある）。", [("第16条", "16")]),
    ("section", "11", "（第16条B項1参照）", [("第16条B項1", "16B1")]),
    (
        "item-subitem",
        "61",
        "2. (a) ダミーはディクレアラーに質問することができる（ただし、第43条B項2(b)参照）。",
        [("第43条B項2(b)", "43B2(b)")],
    ),
    ("subsubitem", "20", "（ただし、第40条B項2(b)参照）", [("第40条B項2(b)", "40B2(b)")]),
    (
        "list-of-laws",
        "29",
        "反則側には第30条、第31条、または第32条の規定を適用する。",
        [("第30条", "30"), ("第31条", "31"), ("第32条", "32")],
    ),
    (
        "list-and",
        "29",
        "第30条、第31条および第32条の規定を適用する。",
        [("第30条", "30"), ("第31条", "31"), ("第32条", "32")],
    ),
    ("or", "45", "（第53条または第56条参照）", [("第53条", "53"), ("第56条", "56")]),
    (
        "mixed-list",
        None,
        "が予定されている期間（第4条、第12条C項2および第91条では意味が異なることがある）。",
        [("第4条", "4"), ("第12条C項2", "12C2"), ("第91条", "91")],
    ),
    (
        "deep-list",
        "23",
        "同等なコールに置き換えた後（第27条B項1(b)、第30条B項1(b)(i)、第31条A項2(a)、第32条A項2(a)参照）",
        [
            ("第27条B項1(b)", "27B1(b)"),
            ("第30条B項1(b)(i)", "30B1(b)(i)"),
            ("第31条A項2(a)", "31A2(a)"),
            ("第32条A項2(a)", "32A2(a)"),
        ],
    ),
    (
        "spaced",
        "32",
        "第 16 条 C 項、第 26 条 B 項および第 72 条 C 項を適用することがある。",
        [("第 16 条 C 項", "16C"), ("第 26 条 B 項", "26B"), ("第 72 条 C 項", "72C")],
    ),
    ("shared-jo", "70", "第70および71条の解釈で、「普通」と", [("第70", "70"), ("71条", "71")]),
    ("this-law-section", "16", "3. 本条C項2の違反により非反則者側に損害が生じた場合", [("本条C項2", "16C2")]),
    (
        "this-law",
        "30",
        "はアーティフィシヤルコールに対するパスのときは、本条ではなく第31条を適用する。",
        [("本条", "30"), ("第31条", "31")],
    ),
    (
        "bare-section-after-this-law",
        "31",
        "ディレクターは本条A項2(a)またはA項2(b)を適用する。",
        [("本条A項2(a)", "31A2(a)"), ("A項2(b)", "31A2(b)")],
    ),
    (
        "bare-section-own-law",
        "25",
        "1. A項で認められない言い直したコールを反則者のLHOは受け入れることができる",
        [("A項", "25A")],
    ),
    ("this-law-and-section", "6", "4. 本条A項およびB項と同様に全くの無作為", [("本条A項", "6A"), ("B項", "6B")]),
    ("subsub-unbracketed", "45", "（ただし、本条B項2(a) v 参照）", [("本条B項2(a) v", "45B2(a)(v)")]),
    ("preceding-section", "51", "（ただし、このときは前項B 1(a)を適用する）", [("前項B 1(a)", "51B1(a)")]),
    (
        "range",
        "1",
        "第61条から第64条",
        [("第61条", "61"), ("第61条から第64条", "62"), ("第61条から第64条", "63"), ("第64条", "64")],
    ),
    (
        "bare-section-follows-last-named-law",
        "61",
        "○第44条『プレイの順序と進行』\n\nC項『スートにフォローする義務』",
        [("第44条", "44"), ("C項", "44C")],
    ),
    (
        "continued-item",
        "20",
        "3. 本条F項1および2の下にプレイヤーはある1つのコールに関して",
        [("本条F項1", "20F1"), ("2", "20F2")],
    ),
    (
        "continued-item-subitem",
        "16",
        "ディレクターは本条D項2(c)および2(d)に従い処理する",
        [("本条D項2(c)", "16D2(c)"), ("2(d)", "16D2(d)")],
    ),
    ("continued-subitem", "12", "本条C項2(a)および(b)の規定", [("本条C項2(a)", "12C2(a)"), ("(b)", "12C2(b)")]),
    (
        "below-section-is-own-law",
        "86",
        "ディレクターは選定調整スコアを与えるものとする（第12条C項1(c)参照、ただし、複数の調整スコアについては以下のB項2参照）",
        [("第12条C項1(c)", "12C1(c)"), ("B項2", "86B2")],
    ),
    (
        "a-count-is-not-an-item",
        "64",
        "リボークがあった場合（本条B項2参照）、2回目以降のリボークの1つ",
        [("本条B項2", "64B2")],
    ),
    (
        "definition",
        None,
        "【日本語版注】オークションやプレイを行う際プレイヤーが利用できる情報（「不当な情報」および第16条参照）。",
        [("不当な情報", "def:不当な情報"), ("第16条", "16")],
    ),
]


@pytest.mark.parametrize("law,text,expected", [c[1:] for c in JA], ids=[c[0] for c in JA])
def test_japanese_law_refs(law, text, expected):
    refs = extract_ja_law_refs(text, Context(LAWS_JA, law))
    assert pairs(refs, text) == [(s, f"{LAWS_JA}:{t}") for s, t in expected]


def test_footnote_marker_in_law_text():
    text = "2. ディクレアララー*6とディフェンダーのどちらも、プレイする最初の順番に今までのコールすべての復唱を要求できる。"
    refs = extract_ja_law_refs(text, Context(LAWS_JA, "20"), with_footnotes=True)
    assert [(r.surface, r.ref, r.kind) for r in refs] == [("*6", "fn:6", "footnote")]


def test_footnote_markers_are_only_read_when_asked():
    assert extract_ja_law_refs("ディクレアララー*6と", Context("revoke-notes-ja", "61")) == []


ZH = [
    ("law", None, "个宕墩(参阅第77条)。", [("第77条", "77")]),
    ("section", None, "的总称(参阅第17条E款)。", [("第17条E款", "17E")]),
    ("item", "23", "调整分(参阅第72条B款1)。", [("第72条B款1", "72B1")]),
    ("subitem", None, "参阅第45条C款4(b)", [("第45条C款4(b)", "45C4(b)")]),
    ("this-law-section", "25", "之前,如果不符合本条A款的规定的叫牌被替", [("本条A款", "25A")]),
    ("this-law-compact", "31", "性不叫,此时应用本条A2(b))。如果:", [("本条A2(b)", "31A2(b)")]),
    ("section-list", "20", "牌过程(参阅第41条B款及C款)。", [("第41条B款", "41B"), ("C款", "41C")]),
    (
        "bare-law-list",
        "29",
        "规方可能受到第30条、31条、32条的判罚。",
        [("第30条", "30"), ("31条", "31"), ("32条", "32")],
    ),
    ("item-list", "43", "明手违反了上述A款1、2中的任何一种限", [("A款1", "43A1"), ("2", "43A2")]),
    ("bare-law-section", "27", "叫损害非违规方时参阅23条A款,并可应用第26", [("23条A款", "23A")]),
    ("this-chapter-means-this-law", "41", "当再要求复述竞叫过程的权利丧失后(参阅本章B款),庄家", [("本章B款", "41B")]),
]


@pytest.mark.parametrize("law,text,expected", [c[1:] for c in ZH], ids=[c[0] for c in ZH])
def test_chinese_law_refs(law, text, expected):
    refs = extract_zh_law_refs(text, Context(LAWS_ZH, law))
    assert pairs(refs, text) == [(s, f"{LAWS_ZH}:{t}") for s, t in expected]


def test_chinese_this_section_item():
    text = "予判罚(参阅以下本款3)。"
    refs = extract_zh_law_refs(text, Context(LAWS_ZH, "14", "B"))
    assert pairs(refs, text) == [("本款3", f"{LAWS_ZH}:14B3")]


REGS = [
    # (id, citing regulation ref, sentence, expected (surface, doc:ref))
    ("own-article-paragraph", "24-2", "- (2) 採点方式は第23条2項を準用する。", [("第23条2項", f"{REGULATIONS}:23-2")]),
    (
        "own-article-paragraph-2",
        "38-3",
        "(3) キャリオーバーの幅が上限を越える場合は第37条3項を準用する。",
        [("第37条3項", f"{REGULATIONS}:37-3")],
    ),
    (
        "own-article",
        "13",
        "第12条に拘わらず7人目のメンバーをプレイに参加しないことを条件に",
        [("第12条", f"{REGULATIONS}:12")],
    ),
    ("own-paragraph", "17-4", "- (4) 4回戦の試合の場合は3項の権利行使できるチームが", [("3項", f"{REGULATIONS}:17-3")]),
    ("preceding-item-n", "29-4-2", "前項1にあたらないスコア数のグループでは", [("前項1", f"{REGULATIONS}:29-4-1")]),
    (
        "preceding-of-first-subitem",
        "25-4-2-1",
        "① 前項に従い比較出来る方のペアのパーセンテージを算出する。",
        [("前項", f"{REGULATIONS}:25-4-1")],
    ),
    ("preceding-sibling", "25-4-2", "前項に従い", [("前項", f"{REGULATIONS}:25-4-1")]),
    (
        "paragraph-one-is-the-article",
        "7-2",
        "(2) 複数の会場でスコアを集計するときは、各会場毎に1項で定めたテーブル数を満たす必要がある。",
        [("1項", f"{REGULATIONS}:7")],
    ),
    (
        "lettered-sibling-item",
        "appendix-7-4-g",
        "- g) (f)項の定めに従わなかった場合は、ディレクターは",
        [("(f)項", f"{REGULATIONS}:appendix-7-4-f")],
    ),
    (
        "lettered-sibling-sub-item",
        "appendix-7-4-b",
        "違法なコールを受け入れてはならず、調整なしに訂正しなければならない（但し、(a) (ii) 参照）。その他の違反行為は",
        [("(a) (ii)", f"{REGULATIONS}:appendix-7-4-a-ii")],
    ),
    (
        "appendix-paragraph",
        "appendix-7-4-d",
        "アラート対象のコールがされた場合は(3)参照。",
        [("(3)", f"{REGULATIONS}:appendix-7-3")],
    ),
    ("paragraph-number-without-sankou", "appendix-7-3", "(3) アラートとその説明", []),
    (
        "article-list",
        "45",
        "プレイできないボードが多い場合は第50条と第51条を参照。",
        [("第50条", f"{REGULATIONS}:50"), ("第51条", f"{REGULATIONS}:51")],
    ),
    (
        "article-range",
        "36",
        "予選の結果を第37条乃至第38条の通り",
        [("第37条", f"{REGULATIONS}:37"), ("第38条", f"{REGULATIONS}:38")],
    ),
    (
        "article-range-between",
        "36",
        "第36条乃至第38条",
        [("第36条", f"{REGULATIONS}:36"), ("第36条乃至第38条", f"{REGULATIONS}:37"), ("第38条", f"{REGULATIONS}:38")],
    ),
    (
        "history-list",
        None,
        "2004年 9月 1日第27、28条改訂",
        [("第27", f"{REGULATIONS}:27"), ("28条", f"{REGULATIONS}:28")],
    ),
    (
        "appendix-list",
        None,
        "2013年 4月 1日第31条、付表1,4改訂",
        [("第31条", f"{REGULATIONS}:31"), ("付表1", f"{REGULATIONS}:appendix-1"), ("4", f"{REGULATIONS}:appendix-4")],
    ),
    (
        "chapter",
        "30",
        "個人戦は原則として第3章ペア戦の規則をそのまま準用する。",
        [("第3章", f"{REGULATIONS}:chapter:3")],
    ),
    (
        "laws-named",
        None,
        "（つまり間違い）と認めたときはコールを訂正することができます。（ブリッジ規則第25条）",
        [("ブリッジ規則第25条", f"{LAWS_JA}:25")],
    ),
    (
        "laws-named-spaced",
        None,
        "ブリッジの規則第 73 条は「常に要求されるわけではないが",
        [("ブリッジの規則第 73 条", f"{LAWS_JA}:73")],
    ),
    ("laws-named-no-dai", None, "c) ブリッジの規則25条が適用される場合。", [("ブリッジの規則25条", f"{LAWS_JA}:25")]),
    (
        "laws-named-space-before-number",
        None,
        "- i) 認められないコール（ブリッジの規則 35条参照）は訂正しなければならない",
        [("ブリッジの規則 35条", f"{LAWS_JA}:35")],
    ),
    (
        "lettered-section-is-law",
        None,
        "25条A項が適用される場合、意図しなかったコールの言い直しに関する",
        [("25条A項", f"{LAWS_JA}:25A")],
    ),
    (
        "lettered-item-is-law",
        None,
        "考える場合は 16条B項2 に従いディレクターを呼ぶべきである。",
        [("16条B項2", f"{LAWS_JA}:16B2")],
    ),
    ("bare-number-is-law", None, "表向きにリードしていない場合は、54条が適用される。", [("54条", f"{LAWS_JA}:54")]),
]


@pytest.mark.parametrize("ref,text,expected", [c[1:] for c in REGS], ids=[c[0] for c in REGS])
def test_regulation_refs(ref, text, expected):
    path = tuple(ref.split("-")) if ref else ()
    refs = extract_regulation_refs(text, Context(REGULATIONS, path=path))
    assert pairs(refs, text) == expected


INDEX = [
    ("list", "61C, 66C", [("61C", "61C"), ("66C", "66C")]),
    ("deep", "40B2(a)(v)", [("40B2(a)(v)", "40B2(a)(v)")]),
    ("definition", "定義, 78B", [("定義", "def:IMP"), ("78B", "78B")]),
    ("introduction", "前書き, 81C2", [("前書き", "introduction"), ("81C2", "81C2")]),
    ("footnote-of-law", "53脚注", [("53脚注", "fn@53")]),
    ("numbered-footnote", "20B, 20脚注7", [("20B", "20B"), ("20脚注7", "fn:7")]),
    ("footnote-of-law-spaced", "76 脚注", [("76 脚注", "fn@76")]),
    ("japanese-comma", "定義、6D2、 6脚注", [("定義", "def:IMP"), ("6D2", "6D2"), ("6脚注", "fn@6")]),
    ("see-also", "(「情報」も参照) 73", [("情報", "index:情報"), ("73", "73")]),
]


@pytest.mark.parametrize("text,expected", [c[1:] for c in INDEX], ids=[c[0] for c in INDEX])
def test_index_locators(text, expected):
    refs = parse_index_locators(text, "IMP", "IMP")
    assert pairs(refs, text) == [(s, f"{LAWS_JA}:{t}") for s, t in expected]


def test_index_definition_falls_back_to_heading_then_chapter():
    [ref] = parse_index_locators("定義", "開始", "オークション")
    assert (ref.ref, ref.fallbacks) == ("def:開始", ("def:オークション", "definitions"))


@pytest.mark.parametrize("ref", ["61", "61B", "61B2", "61B2(a)", "40B2(a)(v)", "25B2(b)(1)"])
def test_law_ref_round_trip(ref):
    parsed = parse_law_ref(ref)
    assert format_law_ref(parsed.law, parsed.section, parsed.item, parsed.sub, parsed.subsub) == ref


@pytest.mark.parametrize("ref", ["def:ダミー", "L61A", "23-2", "61(a)", ""])
def test_non_law_refs_do_not_parse(ref):
    assert parse_law_ref(ref) is None


def test_law_ancestors_nearest_first():
    assert law_ancestors("40B2(a)(v)") == ["40B2(a)", "40B2", "40B", "40"]


@pytest.mark.parametrize(
    "ref, number",
    [
        ("61", 61),
        ("61B2(a)", 61),
        ("40B2(a)(v)", 40),
        ("quote:61B", 61),
        ("L61A", 61),
        ("L60A1,2", 60),
        ("def:ダミー", None),
        ("fn:3", None),
        ("index:リボーク/質問", None),
        ("", None),
        (None, None),
        ("9" * 4301, None),  # a number no Law has, never an int too long to parse
    ],
)
def test_law_number_is_read_off_any_ref_in_one_place(ref, number):
    from ingest.text.refs import law_number

    assert law_number(ref) == number


def test_the_quick_check_never_skips_a_text_that_refers(laws_db_path):
    """extract_*_law_refs leave texts without 条/項/参照/* (Japanese) or 条/款 (Chinese) unscanned:
    on every title and text of the corpus so skipped, the full scan finds nothing either; and the
    shortest forms of each kind of reference are never skipped."""
    import sqlite3

    from ingest.text import refs

    conn = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    texts = [
        (lang, field)
        for lang, title, text in conn.execute("select lang, title, text from sections")
        for field in (title, text)
        if field
    ]
    for lang, text in [
        ("ja", "Ｂ項２および３"),
        ("ja", "「ダミー」（定義参照）"),
        ("ja", "*12"),
        ("ja", "同条"),
        ("zh", "本款2"),
        ("zh", "本章B款"),
        ("zh", "第25条"),
    ]:
        assert (refs.JA_CAN_REFER if lang == "ja" else refs.ZH_CAN_REFER).search(text), text
    skipped = 0
    for lang, text in texts:
        pattern = refs.JA_CAN_REFER if lang == "ja" else refs.ZH_CAN_REFER
        if pattern.search(text):
            continue
        skipped += 1
        if lang == "ja":
            full = refs.scan(text, refs.ja_tokens(LAWS_JA, with_footnotes=True), Context(LAWS_JA, "61", "B"))
        else:
            full = refs.scan(text, refs.zh_tokens(), Context(LAWS_ZH, "61", "B"))
        assert full == [], (lang, text, full)
    assert skipped > 2000  # most texts are skipped: the check is worth having
