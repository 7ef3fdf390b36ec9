"""The grammar of the locators in laws-2017-ja's 索引 (an index entry's pages, as printed): 61C,
40B2(a)(v), 定義, 前書き, 53脚注, 20脚注7, and 「...」参照. Built on the reference grammar's pieces
(refs.py): the same `Reference`, the same WBF law refs.
"""

from __future__ import annotations

import re

from ingest.text.refs import LAWS_JA, LETTER, NUM, ROMAN, Reference, S, format_law_ref, norm

INDEX_LOCATOR = re.compile(
    rf"(?P<law>{NUM})(?P<tail>{LETTER}(?:{NUM}(?:\((?:[a-z]|\d)\)(?:\({ROMAN}\))?)?)?)?(?P<fn>{S}脚注(?P<fn_n>{NUM})?)?"
    rf"|(?P<definition>定義)|(?P<introduction>前書き)"
)
# A sub-item letter the conversion read as a digit: 80B2(1) is 80B2(l). Only these look alike.
DIGIT_FOR_LETTER = {"1": "l", "0": "o"}
INDEX_TAIL = re.compile(rf"(?P<section>{LETTER})(?P<item>{NUM})?(?:\((?P<sub>[a-z]|\d)\))?(?:\((?P<subsub>{ROMAN})\))?")
INDEX_SEE = re.compile(r"「(?P<term>[^」「\n]{1,30})」(?=も?参照)")


def parse_index_locators(text: str, term: str | None = None, heading: str | None = None) -> list[Reference]:
    """`61C, 66C` / `定義` / `53脚注` / `20脚注7` -> references into laws-2017-ja.

    定義 points at the definition of the entry's own term (sub-term first, then heading) when
    ``term``/``heading`` are given; the resolver falls back to the definitions chapter.
    """
    refs = [index_locator(m, term, heading) for m in INDEX_LOCATOR.finditer(text)]
    refs += [
        Reference(m.group("term"), m.start("term"), m.end("term"), LAWS_JA, f"index:{m.group('term')}", "see-also")
        for m in INDEX_SEE.finditer(text)
    ]
    return sorted(refs, key=lambda r: r.start)


def index_locator(m: re.Match, term: str | None, heading: str | None) -> Reference:
    surface, start, end = m.group(0), m.start(), m.end()
    if m.group("definition"):
        # The entry's own term is defined, else its heading's, else 定義 just means the chapter.
        candidates = [f"def:{t}" for t in dict.fromkeys(t for t in (term, heading) if t)] + ["definitions"]
        return Reference(surface, start, end, LAWS_JA, candidates[0], "locator", fallbacks=tuple(candidates[1:]))
    if m.group("introduction"):
        return Reference(surface, start, end, LAWS_JA, "introduction", "locator")
    law = norm(m.group("law"))
    if m.group("fn"):
        if m.group("fn_n"):
            return Reference(surface, start, end, LAWS_JA, f"fn:{norm(m.group('fn_n'))}", "locator")
        return Reference(surface, start, end, LAWS_JA, None, "locator", footnote_of=law)
    tail = INDEX_TAIL.fullmatch(norm(m.group("tail") or ""))
    if not tail:
        return Reference(surface, start, end, LAWS_JA, law, "locator")
    section, item, sub, subsub = tail.group("section", "item", "sub", "subsub")
    if sub and sub.isdigit():
        # 80B2(1): the sub-item the digit stands for, if the conversion can have misread it;
        # else a ref that names no unit (unresolved, with its reason), never Law 1
        return Reference(
            surface,
            start,
            end,
            LAWS_JA,
            format_law_ref(law, section, item, DIGIT_FOR_LETTER.get(sub, f"{sub}"), subsub),
            "locator",
        )
    return Reference(surface, start, end, LAWS_JA, format_law_ref(law, section, item, sub, subsub), "locator")
