"""Map the ways people type a ref onto the canonical spelling: for redirects and for search.

`61-B-2-a`, `61b2a`, `第61条B項2(a)`, `61 B 2 (a)`, `Law 61B2(a)`, `６１Ｂ２ａ` all mean `61B2(a)`;
`第25条B款` (Chinese) means `25B`; `第24条5項1号`, `24.5.1` or `24-5-1` mean the regulation item
`24-5-1`; `付表5` the regulations' `appendix-5`; `l61a` means the commentary note `L61A`.

`citation_candidates(typed)` says where a typed citation may point, most wanted first, as
(scope, ref) pairs: a scope is a document role (laws, commentary, regulations) or a document id
(`laws-1997-zh:50` typed as an id); the caller keeps the units that exist.
"""

from __future__ import annotations

import re
import unicodedata

from ingest.text.refs import ARTICLE_MARK, ITEM_MARK, ROMAN, SECTION_MARK, format_law_ref

# A citation as people type it is the printed grammar of ingest/text/refs.py, loosened: its marks
# (第N条, B項, C款, 2号) read off, then the levels in WBF order with any case and no parentheses.
# 第 is often left out (27条, 27条B項): the article number is read the same either way
JA_LAW_WORDS = [
    (re.compile(rf"^第?([0-9]+){ARTICLE_MARK}"), r"\1"),
    (re.compile(rf"([A-Za-z]){SECTION_MARK}"), r"\1"),
    (re.compile(rf"([0-9]+){ITEM_MARK}"), r"\1"),
]
LOOSE_LAW_REF = re.compile(rf"^([0-9]+)([a-z])?([0-9]+)?([a-z])?({ROMAN}|[0-9]+)?$", re.IGNORECASE)
# a regulation as its label prints it in each interface language, loosened: 第24条5項1号 (项 in
# Chinese), Article 24(5)(1), 24-5-1, 24.5.1; a fourth level is an item's circled number (第27条2項3号①:
# NFKC reads ① as 1), a fifth its lettered sub-item (第25条4項1号①(a))
REG_NUMBERS = re.compile(
    r"^(?:第|article)?([0-9]+)条?(?:[-.・(]?第?([0-9]+)[項项]?\)?)?(?:[-.・(]?第?([0-9]+)号?\)?)?"
    r"(?:[-.・(]?([0-9]+)\)?)?(?:[-.・(]?([a-z])\)?)?$",
    re.IGNORECASE,
)
# an appendix as printed (付表7-4(a)(ii), 附表7-4, Appendix 7-4(a), 付表1 表1, Appendix 1, table 1) or as
# its ref (appendix-7-4-a-ii): (appendix, table | paragraph, item (a letter, or a number: 付表5-2(1)),
# sub-item)
APPENDIX = re.compile(
    rf"^(?:付表|附表|appendix)-?([0-9]+)(?:,?(?:表|table)-?([0-9]+)"
    rf"|[-(]?([0-9]+)\)?(?:[-(]?([a-z]|[0-9]+)\)?(?:[-(]?({ROMAN})\)?)?)?)?$",
    re.IGNORECASE,
)
NOTE_LABEL = re.compile(r"^L(?=[0-9])", re.IGNORECASE)
LAW_WORD = re.compile(r"^(?:laws?|規則|规则)[-_.]?", re.IGNORECASE)  # `Law-73`: its dash goes with the word
# two numbers side by side with only a separator between them (24-5-1, 6.1), or a numbered 項 right
# after the article (第24条5項): a regulation, not a Law (whose 項 are lettered: 第16条B項)
SEPARATED_NUMBERS = re.compile(r"[0-9][-_.・/\s]+[0-9]|条\s*[0-9]+\s*項")
DOC_ID = re.compile(r"^([a-z0-9]+(?:-[a-z0-9]+)+):(.+)$")
CITATION_SEPARATORS = re.compile(r"\s*[,，、;；]\s*|\s+")
# a list's separators typed before or after the citations (`64A1、`, `Law 73,` on a phone's keyboard)
CITATION_ENDS = re.compile(r"^[\s,，、;；]+|[\s,，、;；]+$")
MAX_CITATION_CHARS = 40
# between a law ref's levels, as typed: none in the ref. Only between levels: a separator with nothing
# on one side (`-1`, `1-`, `(1)`) is not a citation's (a minus, a dash), and stays to fail the match
LAW_SEPARATORS = re.compile(r"(?<=[0-9A-Za-z)])[-_./(](?=[0-9A-Za-z(])|(?<=[0-9A-Za-z])\)")
SPACES = re.compile(r"\s+")
NAME_JOINERS = "の:："  # between a document's name and the citation after it (運営規則の27条)
CITATION_STARTS = "第0123456789付"  # how a citation after a document's name begins
ROLES = ("laws", "commentary", "regulations")


def squeeze(typed: str) -> str:
    """Full-width to ASCII (NFKC), and no spaces."""
    return SPACES.sub("", unicodedata.normalize("NFKC", typed))


def law_spelling(typed: str) -> str | None:
    """`61-B-2-a` / `61b2a` / `第61条B項2(a)` / `Law 61B` -> `61B2(a)` / `61B`; None if it is not a law ref."""
    spaced = unicodedata.normalize("NFKC", typed).strip()
    if SEPARATED_NUMBERS.search(LAW_WORD.sub("", spaced).strip()):
        return None
    text = LAW_WORD.sub("", squeeze(typed))
    for pattern, replacement in JA_LAW_WORDS:
        text = pattern.sub(replacement, text)
    text = LAW_SEPARATORS.sub("", text)
    match = LOOSE_LAW_REF.match(text)
    if not match:
        return None
    law, section, item, sub, subsub = match.groups()
    if (item and not section) or (sub and not item) or (subsub and not sub):
        return None
    return format_law_ref(
        law,
        section.upper() if section else None,
        item,
        sub.lower() if sub else None,
        subsub.lower() if subsub else None,
    )


def regulation_spelling(typed: str) -> str | None:
    """`第24条5項1号`, `Article 24(5)(1)`, `24.5.1`, `24_5_1` -> `24-5-1`; `付表5` -> `appendix-5`,
    `付表7-4(a)(ii)` -> `appendix-7-4-a-ii`, `付表1 表1` -> `appendix-1-table-1`: every label the site
    prints for a regulation reads back as its ref."""
    text = squeeze(typed)
    appendix = APPENDIX.match(text)
    if appendix:
        number, table, paragraph, item, sub = appendix.groups()
        if table:
            return f"appendix-{int(number)}-table-{int(table)}"
        levels = (
            [str(int(number))] + ([str(int(paragraph))] if paragraph else []) + [p.lower() for p in (item, sub) if p]
        )
        return "appendix-" + "-".join(levels)
    match = REG_NUMBERS.match(text.replace("_", "-"))
    if not match:
        return None
    return "-".join(part for part in match.groups() if part)


def note_spelling(typed: str) -> str | None:
    """`L62C3`, `l61a`, `Ｌ６２Ｃ３` -> the commentary label `L62C3`."""
    text = squeeze(typed)
    if not NOTE_LABEL.match(text):
        return None
    law = law_spelling(text[1:])
    return f"L{law}" if law else None


def candidate_refs(role: str, typed: str) -> list[str]:
    """Canonical spellings to try in a document of this role, most likely first (the caller keeps
    those that exist)."""
    candidates = []
    if role == "regulations":
        candidates.append(regulation_spelling(typed))
    law = law_spelling(typed)
    if law:
        candidates += [law, f"L{law}", f"quote:{law}"]  # commentary notes print `L61A`
    candidates.append(note_spelling(typed))
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


# ---------------------------------------------------------------- citations typed into a search box


def named_document(typed: str, names: dict[str, str]) -> tuple[str, str] | None:
    """(document id, the citation after the name) when a citation starts with a document's name
    (`競技会運営規則第27条`, `運営規則27条`); `names` maps each accepted name to its document."""
    text = squeeze(typed)
    for name in sorted(names, key=len, reverse=True):
        if text.startswith(name) and len(text) > len(name):
            rest = text[len(name) :].lstrip(NAME_JOINERS)
            if rest and rest[0] in CITATION_STARTS:
                return names[name], rest
    return None


def document_names(title: str, short_title: str = "") -> list[str]:
    """The names a person may put before a citation of a document: its title and short title, and
    their endings of four characters or more (`運営規則` of `競技会運営規則`)."""
    names = []
    for full in (title, short_title):
        full = squeeze(full)
        names += [full[i:] for i in range(len(full) - 3)] if full else []
    return list(dict.fromkeys(names))


def citation_candidates(typed: str) -> list[tuple[str, str]] | None:
    """Where one typed citation may point, most wanted first: [(scope, ref)], scope a role or a
    document id; None when `typed` is not written like a citation at all.

    A law ref is looked for in the Laws (every edition), then as a commentary note (`L…`) and
    reprint (`quote:…`), then, if it is a bare number, as a regulations article; a commentary
    label first as the note, then the law it comments on; a regulation ref in the regulations."""
    typed = typed.strip()
    if not typed or len(typed) > MAX_CITATION_CHARS:
        return None
    explicit = DOC_ID.match(unicodedata.normalize("NFKC", typed).strip())
    if explicit:
        return [(explicit.group(1), explicit.group(2))]
    note = note_spelling(typed)
    if note:
        law = note[1:]
        return [("commentary", note), ("laws", law), ("commentary", f"quote:{law}")]
    candidates = []
    law = law_spelling(typed)
    if law:
        candidates += [("laws", law), ("commentary", f"L{law}"), ("commentary", f"quote:{law}")]
    regulation = regulation_spelling(typed)
    if regulation and (not law or regulation == law):
        candidates.append(("regulations", regulation))
    return candidates or None


def split_citations(typed: str) -> list[str] | None:
    """The citations a query consists of (`64A1`, `Law 73`, `61B、64A1`), or None if any part of
    it is not a citation."""
    typed = CITATION_ENDS.sub("", unicodedata.normalize("NFKC", typed))
    if citation_candidates(typed):
        return [typed]
    parts = [part for part in CITATION_SEPARATORS.split(typed) if part]
    # `Law 73 74` and `第16条 B項`: glue a law word or a bare section to its neighbour
    if len(parts) > 1 and all(citation_candidates(part) for part in parts):
        return parts
    return None


def typed_law_ref(typed: str) -> str | None:
    """The law ref a typed citation names, in any spelling the search box takes (`第61条B項`,
    `61b2a`, `Law 61`), or as a commentary's note (`L61B`) or reprint (`quote:61B`) of it; None if it
    names no law unit. The diff and history pages read what people type with this."""
    text = unicodedata.normalize("NFKC", typed or "").strip().removeprefix("quote:")
    note = note_spelling(text)
    return note[1:] if note else law_spelling(text)
