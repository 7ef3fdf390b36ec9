"""Map the ways people type a ref onto the canonical spelling, for redirects.

`61-B-2-a`, `61b2a`, `第61条B項2(a)`, `61 B 2 (a)` all mean `61B2(a)`; `第24条5項1号` or
`24.5.1` mean the regulation item `24-5-1`; `l61a` means the note `L61A`.
"""
from __future__ import annotations

import re
import unicodedata

from ingest.refs import format_law_ref

JA_LAW_WORDS = [(re.compile(r"^第(\d+)条"), r"\1"), (re.compile(r"([A-Za-z])[項款]"), r"\1"),
                (re.compile(r"(\d+)[号項]"), r"\1")]
LOOSE_LAW_REF = re.compile(r"(?i)^(\d+)([a-z])?(\d+)?([a-z])?(viii|vii|iii|ix|iv|vi|ii|x|v|i)?$")
REG_NUMBERS = re.compile(r"^第?(\d+)条?(?:[-.・ ]?第?(\d+)項?)?(?:[-.・ ]?第?(\d+)号?)?$")


def squeeze(typed: str) -> str:
    """Full-width to ASCII (NFKC), and no spaces."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", typed))


def law_spelling(typed: str) -> str | None:
    """`61-B-2-a` / `61b2a` / `第61条B項2(a)` -> `61B2(a)`; None if it is not a law ref at all."""
    text = squeeze(typed)
    if text.lower().startswith("law"):
        text = text[3:]
    for pattern, replacement in JA_LAW_WORDS:
        text = pattern.sub(replacement, text)
    text = re.sub(r"[-_.()（）/]", "", text)
    match = LOOSE_LAW_REF.match(text)
    if not match:
        return None
    law, section, item, sub, subsub = match.groups()
    if (item and not section) or (sub and not item) or (subsub and not sub):
        return None
    return format_law_ref(law, section.upper() if section else None, item,
                          sub.lower() if sub else None, subsub.lower() if subsub else None)


def regulation_spelling(typed: str) -> str | None:
    """`第24条5項1号`, `24.5.1`, `24_5_1` -> `24-5-1`."""
    match = REG_NUMBERS.match(squeeze(typed).replace("_", "-"))
    if not match:
        return None
    return "-".join(part for part in match.groups() if part)


def candidate_refs(role: str, typed: str) -> list[str]:
    """Canonical spellings to try in a document of this role, most likely first (the caller keeps
    those that exist)."""
    candidates = []
    if role == "regulations":
        candidates.append(regulation_spelling(typed))
    law = law_spelling(typed)
    if law:
        candidates += [law, f"L{law}", f"quote:{law}"]  # commentary notes print `L61A`
    return [c for c in dict.fromkeys(candidates) if c and c != typed]


def case_insensitive_match(typed: str, refs: list[str]) -> str | None:
    folded = squeeze(typed).casefold()
    for ref in refs:
        if ref.casefold() == folded:
            return ref
    return None


def canonical_ref(role: str, typed: str, refs: list[str]) -> str | None:
    """The existing ref that ``typed`` spells differently in a document of this role, or None."""
    existing = set(refs)
    for candidate in candidate_refs(role, typed):
        if candidate in existing:
            return candidate
    exact = case_insensitive_match(typed, refs)
    return exact if exact != typed else None
