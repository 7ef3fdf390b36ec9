"""Printed tables made at build (ingest/parsers/tables.py): Law 77's scoring table, 78B's IMP table, the
1997 Law 2 board table, the regulations' VP scales; each stored in unit_tables and shown in place."""

from __future__ import annotations

import json
import sqlite3

import pytest

from ingest.parsers.tables import text_tables


def stored(laws_db_path, unit_id: str) -> list[dict]:
    conn = sqlite3.connect(laws_db_path)
    rows = conn.execute(
        "select caption, source, text_start, text_end, data from unit_tables where unit_id = ? order by seq", (unit_id,)
    ).fetchall()
    return [{"caption": c, "source": s, "text_start": a, "text_end": b, **json.loads(d)} for c, s, a, b, d in rows]


def heads(table: dict) -> list[list[str]]:
    return [[cell["text"] for cell in row] for row in table["head"]]


def body(table: dict) -> list[tuple[str | None, list[list[str]]]]:
    return [(g["label"], [r["cells"] for r in g["rows"]]) for g in table["groups"]]


def test_law_77_is_six_tables_with_captions_headers_and_row_groups(laws_db_path):
    tables = stored(laws_db_path, "laws-2017-ja:77")
    assert [t["caption"] for t in tables] == [
        "トリック点",
        "ノートランプコントラクト",
        "プレミアム点 — ディクレアラー側の得点 — スラム",
        "オーバートリック",
        "ゲーム、パートスコア、コントラクトのメイクに対するプレミアム",
        "アンダートリック — ディクレアラーがコントラクトをダウンしたトリックにつき",
    ]
    trump, no_trump, slam, over, premiums, under = tables
    # ♣ was glued to the row-label heading by the conversion: clubs and diamonds share the 20/40/80 column
    assert heads(trump) == [["トランプコントラクト", "♣ ◇", "♡", "♠"]]
    assert body(trump) == [
        (
            "各オッドトリックにつき",
            [["ダブルなし", "20", "30", "30"], ["ダブル", "40", "60", "60"], ["リダブル", "80", "120", "120"]],
        )
    ]
    # two printed sub-tables with the same rows, side by side
    assert heads(no_trump) == [["", "最初のオッドトリック", "以後の各オッドトリックにつき"]]
    assert body(no_trump) == [(None, [["ダブルなし", "40", "30"], ["ダブル", "80", "60"], ["リダブル", "160", "120"]])]
    assert body(over)[0][1][0] == ["ダブルなし", "トリック点"] and over["width"] == 3
    assert heads(premiums) == [["", "得点"]] and len(body(premiums)[0][1]) == 5
    assert heads(under) == [["", "ノンバル", "バル"]]
    assert [label for label, _ in body(under)] == ["1 トリック目", "2 トリック以降", "4 トリック以降のボーナス"]
    assert body(under)[1][1][1] == ["ダブル", "200", "300"]
    assert heads(slam) == [["スラムのメイクに対して", "ノンバル", "バル"]]


def test_a_table_stands_in_for_exactly_its_lines_of_the_text(laws_db_path):
    conn = sqlite3.connect(laws_db_path)
    text = conn.execute("select text from sections where id = 'laws-2017-ja:77'").fetchone()[0]
    tables = stored(laws_db_path, "laws-2017-ja:77")
    assert text[tables[0]["text_start"] : tables[0]["text_end"]].startswith("トランプコントラクト ♣")
    assert text[tables[0]["text_start"] : tables[0]["text_end"]].endswith("リダブル\t80\t120\t120")
    kept = "".join(text[a["text_end"] : b["text_start"]] for a, b in zip(tables, tables[1:]))
    assert "1ボードで得点した100点以上のトリック点はゲームである。" in kept  # prose between tables stays text
    assert text[tables[-1]["text_end"] :].strip().startswith("4人のプレイヤー全員がパスした場合")


def test_78B_imp_table_printed_three_abreast_is_one_long_table(laws_db_path):
    [table] = stored(laws_db_path, "laws-2017-ja:78B")
    assert heads(table) == [["得点差", "IMP"]]
    rows = body(table)[0][1]
    assert (
        len(rows) == 25
        and rows[0] == ["0- 10", "0"]
        and rows[9] == ["370- 420", "9"]
        and rows[-1] == ["4000 以上", "24"]
    )


def test_1997_law_2_pipe_table(laws_db_path, require_documents):
    require_documents("laws-1997-zh")
    [table] = stored(laws_db_path, "laws-1997-zh:2")
    assert table["caption"] == "每一副牌的发牌人及局况均指定如下"
    assert heads(table) == [["发牌人", "牌套号码", "局况", "牌套号码"]]
    assert body(table)[0][1][0] == ["北家", "1 5 9 13", "双无", "1 8 11 14"] and len(body(table)[0][1]) == 4


def test_2017_law_2_board_numbers_under_one_header(laws_db_path):
    [table] = stored(laws_db_path, "laws-2017-ja:2")
    assert [[(c["text"], c["span"]) for c in row] for row in table["head"]] == [[("", 1), ("ボード No.", 4)]]
    assert body(table)[0][1][0] == ["North ディーラー", "1", "5", "9", "13"]


def test_vp_scale_by_imp_margin_and_boards(laws_db_path, require_documents):
    require_documents("jcbl-regs-ja")
    [table] = stored(laws_db_path, "jcbl-regs-ja:appendix-1-table-1")
    assert table["source"] == "data:vp_scales" and table["caption"] == "WBF VP Scale *メジャートーナメント用"
    assert heads(table) == [["IMPs \\ Boards", "4", "5", "6", "7", "8", "9", "10", "12", "14"]]
    rows = body(table)[0][1]
    assert rows[1] == ["1", "10.61", "10.55", "10.50", "10.47", "10.44", "10.41", "10.39", "10.36", "10.33"]
    assert rows[30][:3] == ["30", "20.00", "19.49"]  # 4 boards reach 20 VPs at 30 IMPs
    assert len(rows) == 58 and rows[-1][-1] == "20.00"  # 14 boards: 0..56, then 57+ is 20 VPs


@pytest.mark.parametrize(
    "unit_id, head, first_row, count",
    [
        (
            "jcbl-regs-ja:appendix-1-table-3",
            ["VPs \\ Boards", "4", "5", "6", "7", "8", "9", "10", "12", "14", "16", "20", "24", "28", "32"],
            ["10-10", "0", "0", "0", "0", "0", "0", "0", "0-1", "0-1", "0-1", "0-1", "0-1", "0-1", "0-2"],
            11,
        ),
        (
            "jcbl-regs-ja:appendix-1-table-4",
            ["VPs \\ Boards", "5-6", "7-9"],
            ["10-10", "50.00-50.78", "50.00-50.65"],
            11,
        ),
        ("jcbl-regs-ja:appendix-1-table-5", ["VPs \\ Boards", "2", "3+"], ["3-3", "0-50", "0-80"], 4),
        ("jcbl-regs-ja:appendix-1-table-6", ["Result", "Points"], ["Win", "2"], 3),
        ("jcbl-regs-ja:appendix-2", ["SP", "HC"], ["0", "0"], 20),
    ],
)
def test_every_regulations_appendix_table(laws_db_path, require_documents, unit_id, head, first_row, count):
    require_documents("jcbl-regs-ja")
    [table] = stored(laws_db_path, unit_id)
    assert heads(table) == [head]
    rows = body(table)[0][1]
    assert rows[0] == first_row and len(rows) == count


def test_regulation_items_printed_as_a_table_are_rows_linking_to_the_items(laws_db_path, require_documents):
    require_documents("jcbl-regs-ja")
    [table] = stored(laws_db_path, "jcbl-regs-ja:25-3")
    assert heads(table) == [["アベレージ", "マッチポイント", "トータルポイント"]]
    assert [(r["ref"], r["cells"]) for r in table["groups"][0]["rows"]][0] == (
        "25-3-1",
        ["アベレージプラス", "1.5点", "100点"],
    )


@pytest.mark.parametrize(
    "text, expected",
    [
        ("前文。\nA\tB\n1\t2\n3\t4\n後文。", [(["A", "B"], [["1", "2"], ["3", "4"]])]),
        ("見出し\nx | y\n1 | 2", [(["x", "y"], [["1", "2"]])]),
        ("ただの文。\n次の文。", []),
    ],
)
def test_text_tables_on_small_texts(text, expected):
    assert [
        ([c["text"] for c in t["head"][0]], [r["cells"] for g in t["groups"] for r in g["rows"]])
        for t in text_tables(text)
    ] == expected
