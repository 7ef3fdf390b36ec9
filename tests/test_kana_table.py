"""One kana table (issue 33 item 3): small and large kana, hiragana and katakana, the gojūon rows live
in ingest/text/kana.py only; every other module, Python or the offline search's JavaScript, reads them
from there (the JavaScript through the search pack's rules). A second copy is what this test finds:
three small kana in a row, three kana of a gojūon row in order, or the 0x60 shift between hiragana and
katakana."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ingest.text import kana

ROOT = Path(__file__).resolve().parent.parent
HOME = ROOT / "ingest" / "text" / "kana.py"
# not a kana table: the endings a verb's stem takes (a word's grammar, which kana.py does not hold)
OTHER_CONCEPT = {"ingest/search/lexicon.py"}
ROWS = [row for row in kana.GOJUON_ROWS.values()]
TABLE_COPY = re.compile(
    "|".join(
        [
            "[ぁぃぅぇぉっゃゅょゎゕゖ]{3,}",  # small kana
            "[ァィゥェォッャュョヮヵヶ]{3,}",
            *(row[:3] for row in ROWS),  # a gojūon row, in hiragana or katakana
            *(kana.hiragana_to_katakana(row[:3]) for row in ROWS),
            r"[-+]\s*0x60\b",  # hiragana <-> katakana by code point
        ]
    )
)


def project_sources(root: Path = ROOT) -> list[Path]:
    found = [
        path for folder in ("ingest", "laws_site", "scripts", "benchmarks") for path in (root / folder).rglob("*.py")
    ]
    return sorted(found + list((root / "laws_site" / "static").glob("*.js")))


def copies(root: Path = ROOT) -> list[str]:
    home = root / HOME.relative_to(ROOT)
    return [
        f"{path.relative_to(root)}:{number}: {match.group()}"
        for path in project_sources(root)
        if path != home and str(path.relative_to(root)) not in OTHER_CONCEPT
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for match in [TABLE_COPY.search(line)]
        if match
    ]


def test_no_module_but_kana_py_spells_a_kana_table():
    assert not copies()


def test_the_check_finds_a_copy(tmp_path):
    module = tmp_path / "laws_site" / "pages" / "rows.py"
    module.parent.mkdir(parents=True)
    module.write_text('ROWS = {"か": "かきくけこがぎぐげご"}\nfirst = chr(ord(first) - 0x60)\n', encoding="utf-8")
    assert copies(tmp_path) == ["laws_site/pages/rows.py:1: かきく", "laws_site/pages/rows.py:2: - 0x60"]


@pytest.mark.parametrize(
    ("typed", "row"),
    [
        ("り", "ら"),
        ("リ", "ら"),
        ("ガ", "か"),
        ("っ", "た"),
        ("ゔ", "あ"),
        ("ぽ", "は"),
        ("ゐ", "わ"),
        ("ヵ", "か"),
        ("x", None),
        ("ー", None),
    ],
)
def test_any_kana_finds_its_row(typed, row):
    assert kana.gojuon_row(typed) == row


def test_a_rows_kana_are_every_kana_that_reads_into_it():
    assert kana.kana_of_row("や") == "ゃやゅゆょよ"
    assert "".join(kana.kana_of_row(row) for row in kana.GOJUON_ROWS).count("ん") == 1
