"""laws-1997-zh: exact records on excerpts copied from the corpus, invariants on the real file."""

from __future__ import annotations

import re

import pytest

from ingest.parsers import laws_zh
from ingest.parsers.records import ParseError, Unit
from ingest.sources.corpus import load_sources
from ingest.text.refs import law_ancestors, parse_law_ref

DOC = "laws-1997-zh"


def parse(text: str):
    return laws_zh.parse(text, doc=DOC, source="excerpt.txt")


def record(unit: Unit) -> tuple:
    return (unit.ref, unit.kind, unit.title, unit.text, unit.parent_ref, unit.attrs)


def records(text: str, kinds: set[str] | None = None) -> list[tuple]:
    return [record(u) for u in parse(text).units if kinds is None or u.kind in kinds]


@pytest.fixture(scope="module")
def source():
    return next(s for s in load_sources() if s.id == DOC)


@pytest.fixture(scope="module")
def document(source):
    return laws_zh.parse(source.text, doc=DOC, source=source.name)


# --- excerpts: laws ---------------------------------------------------------------------------

LAW_50 = """第六章 打牌

第二部分 罚张

第50条:罚张的处理

防家过早暴露(但非引牌,参阅第57条)的牌张,只要不是裁判另有指定的均为罚张。除下列和款的判罚外,当裁判认为适用第72条B款1时,应判给调整分。

A.罚张须保持暴露状态

罚张必须牌面向上地放在持有者面前,直到选定了对其判罚为止。

D.重罚张的处理

当防家有重罚张时,违规者在轮到打牌时,其同伴在轮到他引牌时均受到限制。

2.违规者同伴引牌时

当轮到某防家引牌,如果其同伴有一重罚张时,在庄家尚未对下述罚则作出选择前,不得引牌(如果该防家过早引牌,他将受到第49条的判罚)。庄家可作的选择有:

(a)要求或禁止引出罚张花色

庄家可要求(如果该赛员不能执行该要求,参阅第59条。)该防家引出罚张花色,或者禁止其引出罚张花色,并在其保持引牌权时此禁止一直有效(两张或更多罚张时,参阅第51条);如庄家做了此项选择,该牌张不再成为罚张,应收回。

(b)对引牌不限制

如庄家不作要求或禁止某个引牌,该防家可引出任何牌张,罚张仍然保持为罚张。
"""


def test_law_50_down_to_50D2a_exact_records():
    assert records(LAW_50) == [
        ("chapter:6", "chapter", "打牌", "", None, {"number": 6, "number_printed": "第六章"}),
        ("part:6-2", "part", "罚张", "", "chapter:6", {"number": 2, "number_printed": "第二部分"}),
        (
            "50",
            "law",
            "罚张的处理",
            "防家过早暴露(但非引牌,参阅第57条)的牌张,只要不是裁判另有指定的均为罚张。除下列和款的判罚外,当裁判认为适用第72条B款1时,应判给调整分。",
            "part:6-2",
            {"number": 50},
        ),
        (
            "50A",
            "section",
            "罚张须保持暴露状态",
            "罚张必须牌面向上地放在持有者面前,直到选定了对其判罚为止。",
            "50",
            {"letter": "A", "label_printed": "A."},
        ),
        (
            "50D",
            "section",
            "重罚张的处理",
            "当防家有重罚张时,违规者在轮到打牌时,其同伴在轮到他引牌时均受到限制。",
            "50",
            {"letter": "D", "label_printed": "D."},
        ),
        (
            "50D2",
            "item",
            "违规者同伴引牌时",
            "当轮到某防家引牌,如果其同伴有一重罚张时,在庄家尚未对下述罚则作出选择前,不得引牌(如果该防家过早引牌,他将受到第49条的判罚)。庄家可作的选择有:",
            "50D",
            {"number": 2, "label_printed": "2."},
        ),
        (
            "50D2(a)",
            "subitem",
            "要求或禁止引出罚张花色",
            "庄家可要求(如果该赛员不能执行该要求,参阅第59条。)该防家引出罚张花色,或者禁止其引出罚张花色,并在其保持引牌权时此禁止一直有效(两张或更多罚张时,参阅第51条);如庄家做了此项选择,该牌张不再成为罚张,应收回。",
            "50D2",
            {"label": "a", "label_printed": "(a)"},
        ),
        (
            "50D2(b)",
            "subitem",
            "对引牌不限制",
            "如庄家不作要求或禁止某个引牌,该防家可引出任何牌张,罚张仍然保持为罚张。",
            "50D2",
            {"label": "b", "label_printed": "(b)"},
        ),
    ]


LAW_25B2 = """第二章 竞叫

第25条:合法的和不合法的更改叫牌

B.延迟的或故意的更改叫牌

2.替代叫牌不予承认

(b)第一个叫牌合法

如果第一个叫牌合法,违规者必须作出选择:

(1)让第一个叫牌成立

让第一个叫牌成立,(判罚)在这种情况下违规者的同伴在该轮轮到他叫牌时必须不叫(当强制性不叫损害非违规方时,参阅第23条),或者,

(2)用另一个叫牌替代

改叫任何合法的叫牌,(判罚)在这种情况下竞叫正常进行下去(但违规者的同伴不能基于取消叫牌所提人的信息作出叫牌);违规方得分不得高于平均负分(参阅第12条C款1)。(注:非违规方按实际结果计分)
"""


def test_sub_sub_item_keeps_printed_number_in_its_ref():
    assert records(LAW_25B2, {"subitem", "subsubitem"}) == [
        (
            "25B2(b)",
            "subitem",
            "第一个叫牌合法",
            "如果第一个叫牌合法,违规者必须作出选择:",
            "25B2",
            {"label": "b", "label_printed": "(b)"},
        ),
        (
            "25B2(b)(1)",
            "subsubitem",
            "让第一个叫牌成立",
            "让第一个叫牌成立,(判罚)在这种情况下违规者的同伴在该轮轮到他叫牌时必须不叫(当强制性不叫损害非违规方时,参阅第23条),或者,",
            "25B2(b)",
            {"label": "1", "label_printed": "(1)"},
        ),
        (
            "25B2(b)(2)",
            "subsubitem",
            "用另一个叫牌替代",
            "改叫任何合法的叫牌,(判罚)在这种情况下竞叫正常进行下去(但违规者的同伴不能基于取消叫牌所提人的信息作出叫牌);违规方得分不得高于平均负分(参阅第12条C款1)。(注:非违规方按实际结果计分)",
            "25B2(b)",
            {"label": "2", "label_printed": "(2)"},
        ),
    ]


def test_roman_sub_sub_items_nest_under_their_sub_item_but_i_after_h_is_a_sub_item():
    # The page prints sub-sub-items as (1) (2); the 2017 Laws print (i) (ii): same excerpt, relabelled.
    roman = LAW_25B2.replace("(1)让", "(i)让").replace("(2)用", "(ii)用")
    assert [(u.ref, u.kind, u.parent_ref) for u in parse(roman).units if u.kind.endswith("item")] == [
        ("25B2", "item", "25B"),
        ("25B2(b)", "subitem", "25B2"),
        ("25B2(b)(i)", "subsubitem", "25B2(b)"),
        ("25B2(b)(ii)", "subsubitem", "25B2(b)"),
    ]
    after_h = LAW_25B2.replace("(b)第一个", "(h)第一个").replace("(1)让", "(i)让").replace("(2)用", "(j)用")
    assert [u.ref for u in parse(after_h).units if u.kind == "subitem"] == ["25B2(h)", "25B2(i)", "25B2(j)"]


LAW_48A = """第六章 打牌

第48条:庄家暴露牌张

(A)庄家暴露的牌张

庄家暴露的牌张不受判罚,并且庄家和明手的牌张永远不会成为罚张。对于庄家不慎掉落的牌张,不要求强制打出。
"""

LAW_30C = """第五章 竞叫

第30条:越序不叫

C.当越序不叫为约定性叫牌时,则不使用本条规则,而按第31条处理。如果经过特殊的商定,不叫表示持有一特定数量以上的牌力,或在前面所叫的一个花色之外别的花色中承诺或否定有长度,则这个不叫就是约定性不叫。
"""


def test_parenthesised_section_letter_and_section_that_is_a_whole_sentence():
    assert records(LAW_48A, {"section"}) + records(LAW_30C, {"section"}) == [
        (
            "48A",
            "section",
            "庄家暴露的牌张",
            "庄家暴露的牌张不受判罚,并且庄家和明手的牌张永远不会成为罚张。对于庄家不慎掉落的牌张,不要求强制打出。",
            "48",
            {"letter": "A", "label_printed": "(A)"},
        ),
        # "C.<sentence>。" has no heading: the sentence is the section's text
        (
            "30C",
            "section",
            None,
            "当越序不叫为约定性叫牌时,则不使用本条规则,而按第31条处理。如果经过特殊的商定,不叫表示持有一特定数量以上的牌力,或在前面所叫的一个花色之外别的花色中承诺或否定有长度,则这个不叫就是约定性不叫。",
            "30",
            {"letter": "C", "label_printed": "C."},
        ),
    ]


# The page stops here: the last line has no newline and breaks off mid-sentence.
LAW_52 = """第六章 打牌

第52条:未能引出或打出罚张

A.防家未能及时打出罚张

当本防家未能按第50条及时引出或打出罚张,他不能主动将"""


def test_page_cut_off_inside_52A_flags_the_section_and_the_law():
    assert records(LAW_52, {"law", "section"}) == [
        ("52", "law", "未能引出或打出罚张", "", "chapter:6", {"number": 52, "truncated": True}),
        (
            "52A",
            "section",
            "防家未能及时打出罚张",
            "当本防家未能按第50条及时引出或打出罚张,他不能主动将",
            "52",
            {"letter": "A", "label_printed": "A.", "truncated": True},
        ),
    ]


def test_a_complete_law_93_is_not_flagged_truncated():
    text = "第六章 打牌\n\n第93条:上诉程序\n\nA.向裁判长上诉\n\n裁判长应听取上诉。"
    assert not any("truncated" in u.attrs for u in parse(text).units)


LAW_2 = (
    "第二章 准备事项\n\n第2条:复式桥牌牌套\n\n"
    "每一复式比赛所用牌套,均装有一副在一节中所用之牌。各牌套上编有号码,并有4个小袋标明北、东、南、西4家位置。每一副牌的发牌人及局况均指定如下:\n\n"
    "发牌人\n\xa0牌 套 号 码\n\xa0\xa0 局 况\xa0\xa0\n\xa0牌 套 号 码\n\xa0\n"
    "北 家\n\xa01 5\xa0 9 13\n\xa0双 无\n\xa01 8 11 14\n\xa0\n"
    "东 家\n\xa02 6 10 14\n\xa0南 北\n\xa02 5 12 15\n\xa0\n"
    "南 家\n\xa03 7 11 15\n\xa0东 西\n\xa03 6\xa0 9\xa0 16\n\xa0\n"
    "西 家\n\xa04 8 12 16\n\xa0双 有\n\xa04 7 10 13\n\n"
    "第17副至32副牌套,以及以后每16副牌为一组,均依序重复使用上表的规定。凡未标明上述规定条件的牌套不得使用。如果使用了未按规定条件标明的牌套,则该节比赛按照牌套上的局况及发牌人进行。\n"
)


def test_law_2_keeps_its_board_table_in_text_and_attrs():
    law = parse(LAW_2).by_ref()["2"]
    assert law.text == (
        "每一复式比赛所用牌套,均装有一副在一节中所用之牌。各牌套上编有号码,并有4个小袋标明北、东、南、西4家位置。每一副牌的发牌人及局况均指定如下:\n"
        "发牌人 | 牌套号码 | 局况 | 牌套号码\n"
        "北家 | 1 5 9 13 | 双无 | 1 8 11 14\n"
        "东家 | 2 6 10 14 | 南北 | 2 5 12 15\n"
        "南家 | 3 7 11 15 | 东西 | 3 6 9 16\n"
        "西家 | 4 8 12 16 | 双有 | 4 7 10 13\n"
        "第17副至32副牌套,以及以后每16副牌为一组,均依序重复使用上表的规定。凡未标明上述规定条件的牌套不得使用。如果使用了未按规定条件标明的牌套,则该节比赛按照牌套上的局况及发牌人进行。"
    )
    assert law.attrs["table"] == {
        "columns": ["发牌人", "牌套号码", "局况", "牌套号码"],
        "rows": [
            ["北家", "1 5 9 13", "双无", "1 8 11 14"],
            ["东家", "2 6 10 14", "南北", "2 5 12 15"],
            ["南家", "3 7 11 15", "东西", "3 6 9 16"],
            ["西家", "4 8 12 16", "双有", "4 7 10 13"],
        ],
    }


def test_board_table_is_one_row_per_board_with_the_standard_rotation():
    rows = parse(LAW_2).tables["board_table_1997"]
    # The Laws' rotation: dealer N E S W in turn; vulnerability in a 4-board cycle shifted by one
    # each round (None NS EW Both / NS EW Both None / EW Both None NS / Both None NS EW).
    vulnerability = [
        "None",
        "NS",
        "EW",
        "Both",
        "NS",
        "EW",
        "Both",
        "None",
        "EW",
        "Both",
        "None",
        "NS",
        "Both",
        "None",
        "NS",
        "EW",
    ]
    assert [(r["board"], r["dealer_en"], r["vulnerability_en"]) for r in rows] == [
        (b, "NESW"[(b - 1) % 4], vulnerability[b - 1]) for b in range(1, 17)
    ]
    assert rows[0] == {
        "board": 1,
        "dealer": "北家",
        "dealer_en": "N",
        "vulnerability": "双无",
        "vulnerability_en": "None",
    }


def test_a_table_that_lists_a_board_twice_is_not_a_board_table():
    bad = LAW_2.replace("\xa04 7 10 13", "\xa04 7 10 1")
    parsed = parse(bad)
    assert "board_table_1997" not in parsed.tables
    assert parsed.by_ref()["2"].attrs["table"]["rows"][3][3] == "4 7 10 1"


# --- excerpts: definitions --------------------------------------------------------------------

DEFINITIONS_TWICE = """第一章 定 义


宕墩(UNDER  TRICK)

庄家一方未能完成定约,所缺少的每一牌墩称为一个宕墩(参阅第77条)。

Premium Point 奖分

除墩分之外的所有得分。

宕墩

庄家一方未能完成定约,所缺少的每一墩牌称为一个宕墩(参阅第77条)。

奖分(PREMIUM  POINTS)

除墩分之外的所有得分(参阅第77条)。
"""


def test_terms_defined_twice_are_kept_twice_and_flagged():
    assert records(DEFINITIONS_TWICE, {"definition"}) == [
        (
            "def:宕墩",
            "definition",
            "宕墩",
            "庄家一方未能完成定约,所缺少的每一牌墩称为一个宕墩(参阅第77条)。",
            "chapter:1",
            {"term": "宕墩", "term_printed": "宕墩(UNDER TRICK)", "term_en": "UNDER TRICK", "defined_twice": True},
        ),
        (
            "def:奖分",
            "definition",
            "奖分",
            "除墩分之外的所有得分。",
            "chapter:1",
            {"term": "奖分", "term_printed": "Premium Point 奖分", "term_en": "Premium Point", "defined_twice": True},
        ),
        (
            "def:宕墩(2)",
            "definition",
            "宕墩",
            "庄家一方未能完成定约,所缺少的每一墩牌称为一个宕墩(参阅第77条)。",
            "chapter:1",
            {
                "term": "宕墩",
                "term_printed": "宕墩",
                "defined_twice": True,
                "term_en": "UNDER TRICK",
                "term_en_from": "def:宕墩",
            },
        ),
        (
            "def:奖分(2)",
            "definition",
            "奖分",
            "除墩分之外的所有得分(参阅第77条)。",
            "chapter:1",
            {
                "term": "奖分",
                "term_printed": "奖分(PREMIUM POINTS)",
                "term_en": "PREMIUM POINTS",
                "defined_twice": True,
            },
        ),
    ]


DEFINITION_CITING_LAW_78 = """第一章 定 义

国际比赛分(INTERNATIONAL  MATCH  POINT-IMP)

第78条B款所列换算表中的记分单位。

花色(SUIT)

一副牌中包含4种花色,每种13张牌,并各具有其特定的花色图案。
"""


def test_line_beginning_with_law_78_inside_a_definition_is_not_a_law():
    assert records(DEFINITION_CITING_LAW_78) == [
        ("chapter:1", "chapter", "定义", "", None, {"number": 1, "number_printed": "第一章", "title_printed": "定 义"}),
        (
            "def:国际比赛分",
            "definition",
            "国际比赛分",
            "第78条B款所列换算表中的记分单位。",
            "chapter:1",
            {
                "term": "国际比赛分",
                "term_printed": "国际比赛分(INTERNATIONAL MATCH POINT-IMP)",
                "term_en": "INTERNATIONAL MATCH POINT-IMP",
            },
        ),
        (
            "def:花色",
            "definition",
            "花色",
            "一副牌中包含4种花色,每种13张牌,并各具有其特定的花色图案。",
            "chapter:1",
            {"term": "花色", "term_printed": "花色(SUIT)", "term_en": "SUIT"},
        ),
    ]


BROKEN_DEFINITIONS = """第一章 定 义

竞叫(AUTION)

1、经过依次叫牌决定定约的过程。

2、各赛员所有叫牌的总称(参阅第17条E款)。

将牌

(TRUMP)
有将定约所

指定的花色中的每一张牌。
叫牌(CALL)

任何实质叫牌、加倍、再加倍或不叫。

(Round)
比赛的一部分。赛员在一轮比赛中不必移动位置。
"""


def test_headword_split_over_lines_typo_and_missing_chinese_term():
    assert records(BROKEN_DEFINITIONS, {"definition"}) == [
        (
            "def:竞叫",
            "definition",
            "竞叫",
            "1、经过依次叫牌决定定约的过程。\n2、各赛员所有叫牌的总称(参阅第17条E款)。",
            "chapter:1",
            {"term": "竞叫", "term_printed": "竞叫(AUTION)", "term_en": "AUCTION"},
        ),
        # "(TRUMP)" on its own line, and the definition broken mid-sentence across a blank line
        (
            "def:将牌",
            "definition",
            "将牌",
            "有将定约所指定的花色中的每一张牌。",
            "chapter:1",
            {"term": "将牌", "term_printed": "将牌(TRUMP)", "term_en": "TRUMP"},
        ),
        (
            "def:叫牌",
            "definition",
            "叫牌",
            "任何实质叫牌、加倍、再加倍或不叫。",
            "chapter:1",
            {"term": "叫牌", "term_printed": "叫牌(CALL)", "term_en": "CALL"},
        ),
        (
            "def:Round",
            "definition",
            "Round",
            "比赛的一部分。赛员在一轮比赛中不必移动位置。",
            "chapter:1",
            {"term": None, "term_printed": "(Round)", "term_en": "Round", "term_zh_missing": True},
        ),
    ]


# --- excerpts: furniture, structure, markup, errors -------------------------------------------

PAGE_TOP = """所在的位置: 首页 > 非奥运体育项目介绍 > 桥牌

桥牌

发布时间: 2013年02月28日

桥牌是扑克的一种打法。起源于惠斯特的牌类游戏,是一种由四人分成两对同伴进行游戏,有多种记分方式,是牌类游戏中开展最规范的一种。
桥牌的比赛规则

第一章 定 义
"""


def test_web_page_furniture_is_one_preface_unit():
    preface = parse(PAGE_TOP).units[0]
    assert (record(preface), preface.line) == (
        (
            "preface:web",
            "preface",
            "桥牌",
            "桥牌是扑克的一种打法。起源于惠斯特的牌类游戏,是一种由四人分成两对同伴进行游戏,有多种记分方式,是牌类游戏中开展最规范的一种。",
            None,
            {
                "breadcrumb": ["首页", "非奥运体育项目介绍", "桥牌"],
                "published_printed": "2013年02月28日",
                "published": "2013-02-28",
                "document_title": "桥牌的比赛规则",
            },
        ),
        1,
    )


CHAPTER_5_PARTS = """第五章 竞叫

第一部分 正确的程序

第二节 竞叫结束

第22条:竞叫结束后的程序

竞叫阶段结束后,

A.没有赛员做过实质叫牌

如果没有赛员做过实质叫牌,则该副牌不打并原样装回牌套,该牌不应重发。

第二部分 竞叫过程中的违规

第23条:有损害的强制性不叫

许多对竞叫阶段中违规的判罚条款,都应参考本条规则。

第一节 竞叫过程暴露牌张

第24条:竞叫期间牌张的暴露或引牌

A.一张小牌且非过早引牌

如果只是一张9或9以下的小牌并且不是过早引牌,则不进一步判罚。
"""


def test_parts_and_divisions_restart_per_chapter_and_part_so_refs_carry_the_path():
    units = [u for u in parse(CHAPTER_5_PARTS).units if u.kind != "section"]
    assert [(u.ref, u.kind, u.title, u.parent_ref, u.attrs) for u in units] == [
        ("chapter:5", "chapter", "竞叫", None, {"number": 5, "number_printed": "第五章"}),
        ("part:5-1", "part", "正确的程序", "chapter:5", {"number": 1, "number_printed": "第一部分"}),
        ("division:5-1-2", "division", "竞叫结束", "part:5-1", {"number": 2, "number_printed": "第二节"}),
        ("22", "law", "竞叫结束后的程序", "division:5-1-2", {"number": 22}),
        ("part:5-2", "part", "竞叫过程中的违规", "chapter:5", {"number": 2, "number_printed": "第二部分"}),
        ("23", "law", "有损害的强制性不叫", "part:5-2", {"number": 23}),
        ("division:5-2-1", "division", "竞叫过程暴露牌张", "part:5-2", {"number": 1, "number_printed": "第一节"}),
        ("24", "law", "竞叫期间牌张的暴露或引牌", "division:5-2-1", {"number": 24}),
    ]


def test_markdown_and_html_are_stripped_from_titles_and_text():
    marked = "## 第六章 打牌\n\n**第44条:打牌的顺序与一般规定**\n\n<b>A.引牌</b>\n\n引牌者可以从其手中引出任何牌张(曾因违例被判罚,须受引牌的限制除外)。<br>\n"
    assert records(marked, {"law", "section"}) == [
        ("44", "law", "打牌的顺序与一般规定", "", "chapter:6", {"number": 44}),
        (
            "44A",
            "section",
            "引牌",
            "引牌者可以从其手中引出任何牌张(曾因违例被判罚,须受引牌的限制除外)。",
            "44",
            {"letter": "A", "label_printed": "A."},
        ),
    ]


CHAPTER_6 = "第六章 打牌\n\n"
LAW_44_HEADING = "第44条:打牌的顺序与一般规定\n"
LAW_44_HEAD = CHAPTER_6 + LAW_44_HEADING
LAW_45_HEAD = "第45条:牌张的打出\n"
LAW_46_HEAD = "第46条:对明手作了不完全或错误的打牌指示\n"
SECTION_44A = "A.引牌\n\n引牌者可以从其手中引出任何牌张(曾因违例被判罚,须受引牌的限制除外)。\n"


@pytest.mark.parametrize(
    "text, line, expected",
    [
        pytest.param(LAW_44_HEAD + "\n" + LAW_44_HEADING, 5, "repeated", id="duplicated-law-heading"),
        pytest.param(LAW_44_HEAD + "\n" + LAW_46_HEAD, 5, "out of order", id="law-skipped"),
        pytest.param(LAW_44_HEAD + "\n" + LAW_45_HEAD + "\n" + LAW_44_HEADING, 7, "repeated", id="law-goes-back"),
        pytest.param("第六章 打牌\n\n第五章 竞叫\n", 3, "chapter 7", id="chapters-out-of-order"),
        pytest.param("桥牌是扑克的一种打法。\n", None, "chapter headings", id="no-structure"),
        pytest.param(CHAPTER_6 + SECTION_44A, 3, "a law heading", id="section-outside-a-law"),
        pytest.param(LAW_44_HEAD + "\n1.由防家打出\n", 5, "a section (A.) before item", id="item-outside-a-section"),
        pytest.param(
            LAW_44_HEAD + "\n" + SECTION_44A + "\n(a)无人接续打牌\n",
            9,
            "an item (1.) before sub-item",
            id="subitem-outside-an-item",
        ),
        pytest.param(
            "第一章 定 义\n\n把一个参赛者的成绩与其他参赛者的成绩比较后,所给予该参赛者的得分单位。\n",
            3,
            "a defined term",
            id="definition-without-term",
        ),
        pytest.param(
            LAW_44_HEAD + "\n" + SECTION_44A + "\n" + SECTION_44A, 9, "44A a second time", id="duplicated-section"
        ),
    ],
)
def test_input_that_makes_no_sense_raises_parse_error_with_line(text, line, expected):
    with pytest.raises(ParseError) as error:
        parse(text)
    assert error.value.source == "excerpt.txt"
    assert error.value.line == line
    assert expected in error.value.message


# --- the real document ------------------------------------------------------------------------

LAW_HEADING_RE = re.compile(r"^第(\d+)条:(.+)$", re.M)


def test_laws_1_to_52_once_in_order_with_their_printed_titles(source, document):
    printed = [(m.group(1), m.group(2).strip()) for m in LAW_HEADING_RE.finditer(source.text)]
    laws = [(u.ref, u.title) for u in document.units if u.kind == "law"]
    assert laws == printed
    assert [ref for ref, _ in laws] == [str(n) for n in range(1, 53)]
    assert all(u.attrs["number"] == int(u.ref) for u in document.units if u.kind == "law")


def test_law_refs_follow_the_shared_wbf_grammar_and_nest_by_ref(document):
    """Every law-level ref parses with refs.parse_law_ref and its parent is its nearest ancestor."""
    law_kinds = {"law", "section", "item", "subitem", "subsubitem"}
    for unit in document.units:
        if unit.kind in law_kinds:
            assert parse_law_ref(unit.ref) is not None, unit.ref
            ancestors = law_ancestors(unit.ref)
            assert unit.parent_ref == (ancestors[0] if ancestors else unit.parent_ref), unit.ref


def test_refs_are_unique(document):
    refs = [u.ref for u in document.units]
    assert len(refs) == len(set(refs))


def test_every_definition_has_a_def_ref_and_an_english_term(document):
    definitions = [u for u in document.units if u.kind == "definition"]
    assert definitions
    for unit in definitions:
        assert unit.ref.startswith("def:") and unit.parent_ref == "chapter:1", unit.ref
        assert re.fullmatch(r"[A-Za-z][A-Za-z \-]*[A-Za-z]", unit.attrs["term_en"]), unit.ref
        assert unit.text, unit.ref


def test_every_headword_line_of_chapter_1_became_a_definition(source, document):
    """Independent of the parser: a line that is "中文(ENGLISH)" or "English 中文" is a headword."""
    lines = source.text.split("\n")
    chapter_2 = next(i for i, line in enumerate(lines) if line.startswith("第二章"))
    headword = re.compile(r"^[\u4e00-\u9fff]*\([A-Za-z][A-Za-z \-]*\)。?$|^[A-Za-z][A-Za-z ]+ [\u4e00-\u9fff]+$")
    headword_lines = {i + 1 for i, line in enumerate(lines[:chapter_2]) if headword.match(line.strip())}
    definition_lines = {u.line for u in document.units if u.kind == "definition"}
    # "(TRUMP)" and "(Rectification)" sit one or two lines under their Chinese headword
    assert {n for n in headword_lines if not definition_lines & {n, n - 1, n - 2}} == set()
    assert len(definition_lines) >= len(headword_lines)


def test_no_markdown_or_html_left(document):
    for unit in document.units:
        for text in (unit.text, unit.title or ""):
            assert not re.search(r"</?[A-Za-z][^>]*>|\*\*|^#|&[a-z]+;", text, re.M), unit.ref


def test_units_in_source_order_with_parents_before_children(document):
    seen: set[str] = set()
    previous_line = 0
    for unit in document.units:
        assert unit.line >= previous_line, unit.ref
        assert unit.parent_ref is None or unit.parent_ref in seen, unit.ref
        seen.add(unit.ref)
        previous_line = unit.line


def test_nothing_in_the_source_is_lost(source, document):
    """Every source line, minus its label, is in some unit's title, text or printed term."""
    kept = "\n".join(
        [u.text for u in document.units]
        + [u.title or "" for u in document.units]
        + [u.attrs.get("term_printed", "") for u in document.units]
        + [
            " > ".join(u.attrs.get("breadcrumb", []))
            + u.attrs.get("published_printed", "")
            + u.attrs.get("document_title", "")
            for u in document.units
        ]
    ).replace(" ", "")
    label = re.compile(r"^(所在的位置:|发布时间:|第.+?(章|部分|节)|第\d+条:|[A-Z]\.|\([A-Z]\)|\d+\.|\([a-z]\)|\(\d+\))")
    missing = []
    for number, raw in enumerate(source.text.split("\n"), start=1):
        line = label.sub("", laws_zh.clean(raw)).replace(" ", "")
        if line and line not in kept:
            missing.append((number, raw))
    assert missing == []


def test_suit_symbols_corrected_by_errata(document):
    assert "黑桃(♠),红心(♥),方块(♦),梅花(♣)" in document.by_ref()["1"].text
    assert not any(ch in u.text for u in document.units for ch in "ª©¨§")


def test_real_document_truncation_and_board_table(document):
    units = document.by_ref()
    truncated = [u.ref for u in document.units if u.attrs.get("truncated")]
    assert truncated == ["52", "52A"]
    assert units["52A"].text.endswith("他不能主动将")
    assert [r["board"] for r in document.tables["board_table_1997"]] == list(range(1, 17))
    assert "table" in units["2"].attrs
