"""corpus/english_lexicon_corrections.tsv: well formed, and every correction present in the shipped
corpus/english_lexicon.tsv (a regeneration that skips them, or a hand edit of a corrected row, fails here and
stops the build at the correction's line)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.parsers.records import ParseError
from ingest.search.english_lexicon import (
    CORRECTIONS_FILE,
    LEXICON_FILE,
    check_corrections_applied,
    correction_lines,
    read_corrections,
    read_lexicon,
)

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def test_corrections_are_well_formed():
    corrections = read_corrections(CORPUS / CORRECTIONS_FILE)
    assert corrections["agree"] == "同意"  # 68D2(b)(i) 同意しなければならない
    assert corrections["winner"] == ""  # reads nothing


@pytest.mark.parametrize("word, reading", sorted(read_corrections(CORPUS / CORRECTIONS_FILE).items()))
def test_every_correction_is_in_the_shipped_lexicon(word, reading):
    rows = read_lexicon(CORPUS / LEXICON_FILE)
    of_word = [(english, japanese) for english, japanese, _, dictionary_word in rows if dictionary_word == word]
    if reading:
        assert (word, reading) in of_word  # the word itself, then its inflections (took out) all alike
        assert {japanese for _, japanese in of_word} == {reading}
    else:
        assert of_word == []
        assert word not in {english for english, *_ in rows}


@pytest.mark.parametrize(
    "line, problem",
    [
        ("agree\t同意\n", "expected `word<TAB>reading"),  # no reason
        ("agree\t同意\tthe Laws say so\n", "expected `word<TAB>reading"),  # a reason quoting no Japanese
        ("Agree\t同意\t68D2(b)(i) 同意\n", "expected `word<TAB>reading"),
        ("agree\t同意\t68D2(b)(i) 同意\nagree\t\t69A 同意\n", "corrected twice"),
    ],
)
def test_a_bad_correction_names_its_line(tmp_path, line, problem):
    path = tmp_path / CORRECTIONS_FILE
    path.write_text("# word\treading\treason\n" + line, encoding="utf-8")
    with pytest.raises(ParseError, match=problem) as raised:
        read_corrections(path)
    assert raised.value.line in (2, 3)


def test_the_shipped_lexicon_passes_the_builds_check():
    check_corrections_applied(read_lexicon(CORPUS / LEXICON_FILE), CORPUS / CORRECTIONS_FILE)


@pytest.mark.parametrize("word", ["agree", "winner"])
def test_a_lexicon_edited_by_hand_stops_the_build_at_the_correction(tmp_path, word):
    """agree is corrected to 同意: a row of agree read otherwise fails; winner reads nothing: a row of it fails."""
    pairs = read_lexicon(CORPUS / LEXICON_FILE) + [(word, "勝者", "to win", word)]
    line = next(number for number, corrected, _ in correction_lines(CORPUS / CORRECTIONS_FILE) if corrected == word)
    with pytest.raises(ParseError, match="make the lexicon again") as raised:
        check_corrections_applied(pairs, CORPUS / CORRECTIONS_FILE)
    assert raised.value.line == line and repr(word) in str(raised.value)
