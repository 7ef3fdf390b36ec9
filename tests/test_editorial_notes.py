"""The editors' notes of corpus/concordance.yml in the reader's language (ingest/editions/editorial_notes.py,
laws_site/read/reasons.py): every note has a Japanese and a Chinese version beside its English, the build
refuses one without, and the pages show the interface language's with its lang attribute."""

from __future__ import annotations

import json
import sqlite3

import pytest

from ingest.editions.editorial_notes import editorial_note_rows
from ingest.parsers.records import ParseError
from laws_site.i18n.catalog import current
from laws_site.read import reasons


def test_every_note_of_the_concordance_has_its_japanese_and_chinese_version(laws_db_path):
    conn = sqlite3.connect(laws_db_path)
    kinds = dict(conn.execute("select kind, count(*) from editorial_notes group by kind").fetchall())
    # 104 decisions of issue 23 and 196 of issue 37 (every pair re-read), 87 2017 units read as new or from
    # a 1997 law the corpus does not hold, 27 confirmed numbers, 6 moves and the older meaning of Law 23,
    # and the 4 sentences the build says of a pair made by its rule (ingest/editions/concordance.py)
    assert kinds == {"decision": 300, "new": 87, "confirmed": 27, "move": 7, "build": 4}
    assert (
        conn.execute("select count(*) from editorial_notes where ja = '' or zh = '' or ja = en or zh = en").fetchone()[
            0
        ]
        == 0
    )
    row = conn.execute("select ja, zh from editorial_notes where kind = 'decision' and key = '27A'").fetchone()
    assert row == (
        "不十分なビッドの受け入れ（1997年版27A の本文）は2017年版の27A1 です。2017年版の27A2 は1997年版の27C です。",
        "接受不足叫牌（1997年版27A的条文）是2017年版的27A1；2017年版的27A2是1997年版的27C。",
    )


def test_a_note_without_its_translations_fails_the_build_naming_file_and_line(tmp_path):
    path = tmp_path / "concordance.yml"
    path.write_text(
        "moves: []\nprovisions:\n  decisions:\n"
        '    - {from: "1", to: "1A", relation: moved, reason: "one", reason_ja: "一", reason_zh: "一"}\n'
        '    - {from: "7B", to: "7B1", relation: moved,\n'
        '       reason: "two", reason_ja: "二"}\n',
        encoding="utf-8",
    )
    with pytest.raises(ParseError) as failure:
        editorial_note_rows(path)
    assert (
        str(failure.value)
        == f"{path}:5: decision 7B: the note needs its Japanese and Chinese versions too (missing: zh)"
    )


def test_one_english_note_translated_two_ways_is_refused(tmp_path):
    path = tmp_path / "concordance.yml"
    path.write_text(
        "provisions:\n  decisions:\n"
        '    - {from: "1", to: "1A", reason: "same", reason_ja: "一", reason_zh: "一"}\n'
        '    - {from: "2", to: "2A", reason: "same", reason_ja: "二", reason_zh: "一"}\n',
        encoding="utf-8",
    )
    with pytest.raises(
        ParseError, match=r":4: decision 2: the same English note as decision 1, translated differently"
    ):
        editorial_note_rows(path)


def shown_texts(conn) -> set[str]:
    """Every reason and message a page shows beside a pairing, a flag, a history step or a diff row."""
    texts = {r[0] for r in conn.execute("select distinct reason from provision_pairs where reason is not null")}
    texts |= {r[0] for r in conn.execute("select distinct message from edition_flags")}
    for (history,) in conn.execute("select history from law_history"):
        data = json.loads(history)
        texts |= {v["note"] for v in data.get("versions", []) if v.get("note")}
        texts |= {
            s["reason"]
            for row in data.get("rows", [])
            for s in row.get("steps", {}).values()
            if isinstance(s, dict) and s.get("reason")
        }
    for (row,) in conn.execute("select row from diff_rows"):
        note = json.loads(row).get("note")
        if note:
            texts.add(note)
    return texts


@pytest.mark.parametrize("lang", ["ja", "zh"])
def test_every_reason_a_page_shows_reads_in_japanese_and_chinese(laws_db_path, lang):
    conn = sqlite3.connect(laws_db_path)
    notes = reasons.notes_for(conn)
    texts = shown_texts(conn)
    assert len(texts) > 140
    token = current.set(lang)
    try:
        english = [t for t in texts if reasons.reason(t, notes).get("lang") == "en"]
    finally:
        current.reset(token)
    assert english == []


@pytest.mark.parametrize(
    "prefix, tag, text",
    [
        ("", "ja", "不十分なビッドの受け入れ（1997年版27A の本文）は2017年版の27A1 です。"),
        ("/zh", "zh-Hans", "接受不足叫牌（1997年版27A的条文）是2017年版的27A1；"),
        ("/en", "en", "Acceptance of an insufficient bid (1997 27A&#39;s text) is 2017 27A1;"),
    ],
)
async def test_the_unit_page_and_the_diff_show_the_note_in_the_interface_language(datasette, prefix, tag, text):
    html = (await datasette.client.get(f"{prefix}/laws-1997-zh/27A")).text
    assert f'<p class="relation-reason"><span lang="{tag}">{text}' in html
    diff = (await datasette.client.get(f"{prefix}/-/diff?ref=27&from=laws-1997-zh&to=laws-2017-ja")).text
    assert f'<p class="diff-note"><span lang="{tag}">{text}' in diff


@pytest.mark.parametrize(
    "prefix, tag, text",
    [
        ("", "ja", "「23条」は2017年版規則の施行（2018年3月31日）より前に書かれたもので、第23条（1997年版: "),
        (
            "/zh",
            "zh-Hans",
            "“23条”写于2017年版规则施行（2018年3月31日）之前，指的是第23条（1997年版：有损害的强制性不叫；",
        ),
        ("/en", "en", "23条 was written before the 2017 Laws took effect (2018-03-31): it means Law 23 (1997: "),
    ],
)
async def test_a_reference_written_before_the_2017_laws_is_explained_in_the_interface_language(
    datasette, prefix, tag, text
):
    html = (await datasette.client.get(f"{prefix}/jcbl-regs-ja/appendix-7-4-a-ii")).text
    assert f'<p class="relation-reason"><span lang="{tag}">{text}' in html


@pytest.mark.parametrize(
    "prefix, path, note",
    [
        (
            "",
            "/laws-2017-ja",
            '<span lang="ja">2019年4月15日付の JCBL ウェブ版 PDF。日本では2018年3月31日から施行</span>',
        ),
        ("/zh", "/laws-1997-zh", '<span lang="zh-Hans">2013年2月28日发布的中文网页版；页面在第52条A款中途截止</span>'),
        ("/en", "/jcbl-regs-ja", '<span lang="en">enacted 1999-01-20, last revised 2016-04-01</span>'),
    ],
)
async def test_a_documents_version_note_is_in_the_interface_language(datasette, prefix, path, note):
    """corpus/sources.yml's version_note was printed in English, marked lang="en", on every contents page."""
    assert note in (await datasette.client.get(prefix + path)).text
