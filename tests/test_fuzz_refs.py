"""Properties of the reference grammar (ingest/text/refs.py), checked on generated input.

* a WBF ref formats and parses back to itself, and parse accepts nothing format cannot print;
* every Japanese citation 第{n}条{L}項{m}({a})({v}) (full-width digits, PDF spaces, fillers
  around it) yields exactly the ref it spells, and every law ref the extractor emits parses;
* no extractor raises on any text, and every reference's span is its surface in that text.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ingest.text.index_locators import parse_index_locators
from ingest.text.refs import (
    LAWS_JA,
    LAWS_ZH,
    Context,
    LawRef,
    extract_ja_law_refs,
    extract_regulation_refs,
    extract_zh_law_refs,
    format_law_ref,
    parse_law_ref,
)

FUZZ = settings(max_examples=300, deadline=None)

LAW = st.integers(1, 93).map(str)
SECTION = st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
ITEM = st.integers(1, 20).map(str)
SUB = st.sampled_from("abcdefghijklmnopqrstuvwxyz")
ROMANS = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"]
SUBSUB = st.sampled_from(ROMANS) | st.integers(1, 9).map(str)


@st.composite
def law_refs(draw) -> LawRef:
    """A ref at any depth: each level present only under the one above it."""
    parts = [draw(LAW)]
    for level in (SECTION, ITEM, SUB, SUBSUB):
        if not draw(st.booleans()):
            break
        parts.append(draw(level))
    return LawRef(*parts, *[None] * (5 - len(parts)))


@FUZZ
@given(law_refs())
def test_format_then_parse_round_trips(ref):
    text = format_law_ref(ref.law, ref.section, ref.item, ref.sub, ref.subsub)
    assert str(ref) == text
    assert parse_law_ref(text) == ref
    assert format_law_ref(*_parts(parse_law_ref(text))) == text


def _parts(ref: LawRef):
    return ref.law, ref.section, ref.item, ref.sub, ref.subsub


REF_ALPHABET = st.sampled_from(list("0123456789ABCZabivx()") + ["(a)", "(ii)", "(v)", "(1)", "12"])
# Ref-shaped text: each level drawn independently (so some skip a level, 40B2(ii)), numbers with
# leading zeros, letters in either case. Most of it parses, so nothing needs filtering out.
REF_SHAPED = st.tuples(
    st.from_regex(r"0?[0-9]{1,2}", fullmatch=True),
    st.sampled_from(["", "B", "b", "Z"]),
    st.sampled_from(["", "2", "02", "12"]),
    st.sampled_from(["", "(a)", "(A)", "(z)"]),
    st.sampled_from(["", "(ii)", "(v)", "(1)", "(x)", "(I)"]),
).map("".join)


@pytest.mark.slow
@FUZZ
@given(REF_SHAPED | st.lists(REF_ALPHABET, max_size=10).map("".join))
@example("40B2(ii)")  # a sub-sub-item with no sub-item above it
def test_parse_accepts_only_what_format_prints(text):
    parsed = parse_law_ref(text)
    if parsed is not None:
        assert format_law_ref(*_parts(parsed)) == text, f"{text!r} parsed to {parsed} which prints differently"


def test_ref_shaped_text_mostly_parses():
    """The strategy above exercises the parser's accepting side, not only its refusals."""
    from hypothesis import Phase, find, settings

    accepted = find(
        REF_SHAPED,
        lambda t: parse_law_ref(t) is not None and "(" in t,
        settings=settings(phases=[Phase.generate], database=None),  # any accepted text will do: no shrinking
    )
    assert parse_law_ref(accepted) is not None


FULL_WIDTH = str.maketrans(
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", "０１２３４５６７８９ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸＹＺ"
)
# Fillers as they surround citations in the Laws: none contains a digit, a Latin letter or a
# word that itself starts a reference (本条, 前項, 「…」参照), so the citation is the only ref.
BEFORE = st.sampled_from(["", "この場合、", "ディレクターは", "（", "それは", "リボークについては"])
AFTER = st.sampled_from(
    ["", "の規定に従う。", "を適用する。", "）", "に定める通りとする。", "により訂正される。", "が適用される。"]
)
SPACE = st.sampled_from(["", " ", "\u3000"])


@st.composite
def ja_citations(draw) -> tuple[str, str]:
    """(citation text, the WBF ref it spells): 第61条B項2(a)(v) and its printed variants."""
    ref = draw(law_refs())
    wide = draw(st.booleans())

    def digits(s: str) -> str:
        return s.translate(FULL_WIDTH) if wide else s

    sp = lambda: draw(SPACE)  # noqa: E731 - the PDF puts spaces anywhere inside a ref
    text = f"第{sp()}{digits(ref.law)}{sp()}条"
    if ref.section:
        text += f"{sp()}{digits(ref.section)}{sp()}項"
        if ref.item:
            text += f"{sp()}{digits(ref.item)}"
            if ref.sub:
                text += f"{sp()}({ref.sub})"
                if ref.subsub and ref.subsub in ROMANS:
                    text += f"{sp()}({ref.subsub})"
    expected = LawRef(ref.law, ref.section, ref.item, ref.sub, ref.subsub if ref.sub and ref.subsub in ROMANS else None)
    return text, str(expected)


@FUZZ
@given(BEFORE, ja_citations(), AFTER, st.sampled_from([None, "12", "61"]))
def test_japanese_citation_yields_the_ref_it_spells(before, citation, after, citing_law):
    spelled, expected = citation
    text = before + spelled + after
    refs = extract_ja_law_refs(text, Context(LAWS_JA, law=citing_law))
    law_refs_found = [r for r in refs if r.doc == LAWS_JA and r.kind.startswith("cites")]
    assert [r.ref for r in law_refs_found] == [expected], (text, refs)
    ref = law_refs_found[0]
    assert text[ref.start : ref.end] == ref.surface
    assert ref.surface.strip() == ref.surface and ref.surface.startswith("第")
    for r in law_refs_found:
        assert parse_law_ref(r.ref) is not None


@pytest.mark.slow
@FUZZ
@given(st.lists(st.tuples(BEFORE, ja_citations(), AFTER), min_size=1, max_size=4))
def test_every_law_ref_emitted_from_citation_text_parses(pieces):
    text = "".join(b + c[0] + a for b, c, a in pieces)
    for ref in extract_ja_law_refs(text, Context(LAWS_JA, law="61", section="B"), with_footnotes=True):
        if ref.kind.startswith("cites") and ref.ref is not None:
            assert parse_law_ref(ref.ref) is not None, (text, ref)


# Text made of what the grammars are built from, so the fuzzer reaches deep into every pattern.
GRAMMAR_BITS = list("第条項款本前上記以下述同章付表脚注定義参照「」()（）、,，。 \u30000123456789０１２AZＡBCabivx*\n")
GRAMMAR_BITS += [
    "および",
    "及び",
    "から",
    "まで",
    "ないし",
    "ブリッジ規則",
    "ブリッジの規則",
    "前書き",
    "本条",
    "本款",
    "上述",
    "下記の",
    "第61条",
    "B項",
    "2(a)",
    "(v)",
    "～",
    "、2",
    "和",
    "或",
    "(f)項",
    "第2章",
    "付表1,4",
]
ANY_TEXT = st.text(max_size=200) | st.lists(st.sampled_from(GRAMMAR_BITS), max_size=60).map("".join)
CONTEXTS = st.builds(
    Context,
    doc=st.sampled_from([LAWS_JA, LAWS_ZH, "jcbl-regs-ja", "revoke-notes-ja"]),
    law=st.none() | LAW,
    section=st.none() | SECTION,
    path=st.lists(st.integers(1, 30).map(str) | st.just("appendix-1"), max_size=3).map(tuple),
)


@FUZZ
@given(ANY_TEXT, CONTEXTS)
def test_extractors_never_raise_and_spans_are_surfaces(text, ctx):
    found = (
        extract_ja_law_refs(text, ctx, with_footnotes=True)
        + extract_ja_law_refs(text, ctx)
        + extract_zh_law_refs(text, ctx)
        + extract_regulation_refs(text, ctx)
        + parse_index_locators(text, term="ダミー", heading="プレーヤー")
    )
    for ref in found:
        assert 0 <= ref.start <= ref.end <= len(text)
        assert text[ref.start : ref.end] == ref.surface, (text, ref)
        if ref.doc in (LAWS_JA, LAWS_ZH) and ref.ref and ref.ref[0].isdigit() and ref.kind != "locator":
            assert parse_law_ref(ref.ref) is not None, (text, ref)


@pytest.mark.parametrize("text", ["第\u3000６１\u3000条\u3000Ｂ\u3000項\u3000２\u3000(a)", "第61条B項2(a)(v)"])
def test_hand_picked_printed_forms(text):
    """Anchors for the generators above: the printed forms they are built from do extract."""
    refs = extract_ja_law_refs(text, Context(LAWS_JA))
    assert [r.ref for r in refs] in (["61B2(a)"], ["61B2(a)(v)"])
