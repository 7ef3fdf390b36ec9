"""Resolve every reference of every unit against all parsed units: the rows of table ``xrefs``.

`build_xrefs(units)` is the one entry point. For each unit it picks the grammar of its document
family (`ingest.text.refs`), works out what relative references are relative to (`context_for`),
extracts from ``text`` and ``title``, adds the links a parser knows structurally (a note covers
Law paragraphs, a quote reprints a Law unit) and resolves each target to the exact unit.

A target that names no unit stays unresolved (``target_id`` NULL) with its reason; it is never
silently pointed at its parent. ``resolved_to_parent`` names the nearest enclosing unit that
does exist, as a documented fallback for a page that still wants to link somewhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from ingest.parsers.records import Unit, unit_id
from ingest.sources.registry import Registry
from ingest.text.index_locators import parse_index_locators
from ingest.text.refs import (
    JA_CAN_REFER,
    LAWS_JA,
    ZH_CAN_REFER,
    Context,
    Reference,
    extract_ja_law_refs,
    extract_regulation_refs,
    extract_zh_law_refs,
    law_ancestors,
    law_number,
    parse_law_ref,
)
from ingest.text.tokenize import fold_katakana

XREF_COLUMNS = (
    "id",
    "source_id",
    "surface",
    "target_doc",
    "target_ref",
    "target_id",
    "kind",
    "resolved",
    "reason",
    "field",
    "start",
    "end",
    "resolved_to_parent",
    "as_printed_ref",
)
TEXT_FIELDS = ("text", "title")


# --- context: what 本条, B項, 3項, 前項 are relative to -----------------------------------------


def law_of(ref: str | None) -> tuple[str | None, str | None]:
    """(law, section) of a WBF-style ref, (None, None) for anything else."""
    parsed = parse_law_ref(ref) if ref else None
    return (parsed.law, parsed.section) if parsed else (None, None)


def regulation_path(ref: str) -> tuple[str, ...]:
    """`25-4-1-1-a` -> ("25", "4", "1", "1", "a"); `appendix-7-4-g` -> ("appendix", "7", "4", "g")."""
    return tuple(ref.split("-")) if ":" not in ref else ()


def context_for(unit: Unit, role: str) -> Context:
    """The citing unit's own position, which relative references lean on."""
    if role == "regulations":
        return Context(unit.doc, path=regulation_path(unit.ref))
    if unit.kind == "footnote":  # a footnote speaks for the Law (or reprint of it) it hangs from
        return Context(unit.doc, *law_of((unit.attrs.get("anchor_ref") or "").removeprefix("quote:")))
    if unit.kind == "quote":
        return Context(unit.doc, *law_of(unit.attrs.get("law_ref")))
    if unit.kind == "note":
        covers = unit.attrs.get("covers") or []
        return Context(unit.doc, *law_of(covers[0] if covers else None))
    if unit.kind == "closing":  # `71/closing`: a Law's own closing paragraph
        return Context(unit.doc, *law_of(unit.parent_ref))
    return Context(unit.doc, *law_of(unit.ref))


# --- extraction per unit ----------------------------------------------------------------------


def index_terms(unit: Unit) -> tuple[str | None, str | None]:
    """(sub-term, heading) of an index entry ref `index:<heading>/<sub-term>`."""
    path = unit.ref.removeprefix("index:")
    heading, _, term = path.partition("/")
    return (term or heading), heading


def extract(unit: Unit, text: str, registry: Registry) -> list[Reference]:
    """The references in one field of one unit, by its document's grammar (role and language)."""
    if unit.kind == "index_entry":
        term, heading = index_terms(unit)
        return parse_index_locators(text, term, heading)
    document = registry.get(unit.doc)
    # Each grammar's quick test first: most texts refer to nothing, and need no context made.
    if document.language == "zh":
        return extract_zh_law_refs(text, context_for(unit, document.role)) if ZH_CAN_REFER.search(text) else []
    if document.role == "regulations":
        return extract_regulation_refs(text, context_for(unit, document.role))
    if not JA_CAN_REFER.search(text):
        return []
    # The Japanese Laws and the commentaries keep footnote markers (*5) in the carrying unit's text.
    footnotes = document.role in ("laws", "commentary")
    return extract_ja_law_refs(text, context_for(unit, document.role), with_footnotes=footnotes)


def structural_refs(unit: Unit) -> list[tuple[Reference, str | None]]:
    """Links the parser knows from layout rather than wording: (reference, field of its span)."""
    refs = []
    if unit.kind == "note":
        label_in_title = unit.title is not None and unit.ref in unit.title
        start = unit.title.index(unit.ref) if label_in_title else None
        for covered in unit.attrs.get("covers") or []:
            ref = Reference(
                unit.ref, start, start + len(unit.ref) if label_in_title else None, LAWS_JA, covered, "covers"
            )
            refs.append((ref, "title" if label_in_title else None))
    if unit.kind == "quote" and unit.attrs.get("law_ref"):
        refs.append((Reference(unit.ref, None, None, LAWS_JA, unit.attrs["law_ref"], "reprints"), None))
    for label in unit.attrs.get("title_footnotes") or []:  # a heading's marker, kept apart from the title
        # a bare * is the law's 【日本語版注】 (75B 間違った説明* -> fn:ja-75)
        surface, target = (f"*{label}", f"fn:{label}") if label.isdigit() else ("*", f"fn:ja-{law_of(unit.ref)[0]}")
        refs.append((Reference(surface, None, None, unit.doc, target, "footnote"), None))
    if unit.kind == "ruling":  # a worked example applies a Law it does not print (commentary.RULING_APPLIES)
        for law in unit.attrs.get("applies") or []:
            refs.append((Reference(unit.ref, None, None, LAWS_JA, law, "applies"), None))
    if unit.kind == "index_entry":  # （「調整スコア」参照） is *see*, （「情報」も参照） *see also*
        for kind, key in (("see", "see"), ("see-also", "see_also")):
            for term in unit.attrs.get(key) or []:
                refs.append((Reference(term, None, None, unit.doc, f"index:{term}", kind), None))
    if unit.kind == "definition":  # 定義 ペナルティ: 「調整 (Rectification)」も参照
        for term in unit.attrs.get("see_also") or []:
            defined = re.sub(r"\s*[（(][^）)]*[）)]\s*$", "", term)
            refs.append((Reference(term, None, None, unit.doc, f"def:{defined}", "see-also"), None))
    return refs


def unit_references(unit: Unit, registry: Registry) -> list[tuple[Reference, str | None]]:
    """Everything `unit` refers to, with the field each span is in."""
    # an index entry's title is a term (`7を超える`); only its text holds locators
    fields = ("text",) if unit.kind == "index_entry" else TEXT_FIELDS
    # no text, no reference (most units have no title): every grammar finds none in ""
    found = [
        (ref, name) for name in fields if getattr(unit, name) for ref in extract(unit, getattr(unit, name), registry)
    ]
    return found + structural_refs(unit)


def target_document(doc: str, registry: Registry) -> str:
    """A role target (laws@ja: the newest Laws in Japanese) as the document the corpus has for it."""
    if "@" not in doc:
        return doc
    role, language = doc.split("@")
    found = (
        registry.laws_in(language)
        if role == "laws"
        else next((d for d in registry.of_role(role) if d.language == language), None)
    )
    return found.id if found else doc


# --- resolution -------------------------------------------------------------------------------


@dataclass
class Resolution:
    target_ref: str | None
    target_id: str | None
    reason: str | None
    parent_id: str | None = None


def fold_term(term: str) -> str:
    """Fold each katakana word of a term (ディクレアラール予定者 -> ディクレアラー予定者)."""
    return re.sub(r"[\u30a1-\u30ffー]+", lambda m: fold_katakana(m.group(0)), term)


class UnitIndex:
    """Which units exist, and which footnote hangs from which Law (for 索引 `53脚注`)."""

    def __init__(self, units: Iterable[Unit]):
        units = list(units)
        self.ids = {u.id for u in units}
        self.docs = {u.doc for u in units}
        # a source cut off before its end (laws-1997-zh stops in Law 52A): later Laws are missing, not wrong
        self.truncated = {u.doc for u in units if u.attrs.get("truncated")}
        self._laws_end: dict[str, int] = {}
        self.footnotes_of: dict[tuple[str, str], list[str]] = {}
        self.definitions_by_spelling = {
            (u.doc, fold_term(u.ref.removeprefix("def:"))): u.ref for u in units if u.kind == "definition"
        }
        self.index_headings: dict[str, list[str]] = {}
        for u in units:
            if u.kind == "index_entry" and "/" not in u.ref and "~" not in u.ref:
                self.index_headings.setdefault(u.doc, []).append(u.ref.removeprefix("index:"))
        for u in units:
            if u.kind == "footnote" and u.attrs.get("anchor_ref"):
                law, _ = law_of(u.attrs["anchor_ref"])
                self.footnotes_of.setdefault((u.doc, law or u.attrs["anchor_ref"]), []).append(u.ref)

    def definition_spelled_otherwise(self, doc: str, ref: str) -> str | None:
        """索引 `ディクレアラール 定義` names def:ディクレアララー: the same word in another spelling."""
        if not ref.startswith("def:"):
            return None
        return self.definitions_by_spelling.get((doc, fold_term(ref.removeprefix("def:"))))

    def index_heading_printed_otherwise(self, doc: str, ref: str) -> str | None:
        """A 索引 cross-reference naming a heading the way it is printed elsewhere: 「意思の伝達」
        for the heading 意思の伝達、テンポとディセプション, 「取り消した(withdrawn)行動」 for
        取り消した行動(withdrawn). Only a single such heading counts."""
        if not ref.startswith("index:"):
            return None
        term = ref.removeprefix("index:")
        found = [
            h
            for h in self.index_headings.get(doc, [])
            if h.startswith(term + "、") or without_parentheses(h) == without_parentheses(term)
        ]
        return f"index:{found[0]}" if len(found) == 1 else None

    def exists(self, doc: str, ref: str) -> bool:
        return unit_id(doc, ref) in self.ids

    def resolve(self, ref: Reference) -> Resolution:
        if ref.footnote_of is not None:
            return self.resolve_footnote_of(ref)
        for candidate in (ref.ref, *ref.fallbacks):
            if self.exists(ref.doc, candidate):
                return Resolution(candidate, unit_id(ref.doc, candidate), None)
            spelled = self.definition_spelled_otherwise(ref.doc, candidate) or self.index_heading_printed_otherwise(
                ref.doc, candidate
            )
            if spelled:
                return Resolution(spelled, unit_id(ref.doc, spelled), None)
        return Resolution(ref.ref, None, self.why_missing(ref), self.nearest_parent(ref.doc, ref.ref))

    def resolve_footnote_of(self, ref: Reference) -> Resolution:
        found = self.footnotes_of.get((ref.doc, ref.footnote_of), [])
        if len(found) == 1:
            return Resolution(found[0], unit_id(ref.doc, found[0]), None)
        reason = "ambiguous: " + ", ".join(found) if found else f"no footnote anchored in {ref.footnote_of}"
        return Resolution(None, None, reason, self.nearest_parent(ref.doc, ref.footnote_of, include_self=True))

    def why_missing(self, ref: Reference) -> str:
        if ref.doc not in self.docs:
            return f"document {ref.doc} not parsed"
        if ref.doc in self.truncated and self.laws_end(ref.doc) and (law_number(ref.ref) or 0) > self.laws_end(ref.doc):
            return f"beyond the end of the source (the page stops in Law {self.laws_end(ref.doc)})"
        return f"no unit {unit_id(ref.doc, ref.ref)}"

    def laws_end(self, doc: str) -> int:
        """The highest Law number parsed in `doc` (0 if none); computed once per document."""
        if doc not in self._laws_end:
            laws = [law_number(i.split(":", 1)[1]) or 0 for i in self.ids if i.startswith(doc + ":")]
            self._laws_end[doc] = max(laws, default=0)
        return self._laws_end[doc]

    def nearest_parent(self, doc: str, ref: str | None, include_self: bool = False) -> str | None:
        candidates = ([ref] if include_self and ref else []) + law_ancestors(ref or "")
        return next((unit_id(doc, c) for c in candidates if self.exists(doc, c)), None)


_PARENTHESES_RE = re.compile(r"[（(][^）)]*[）)]")
_SPACE_RUN_RE = re.compile(r"\s+")


def without_parentheses(term: str) -> str:
    return _SPACE_RUN_RE.sub("", _PARENTHESES_RE.sub("", term))


# --- rows -------------------------------------------------------------------------------------


def xref_row(unit: Unit, ref: Reference, field: str | None, res: Resolution) -> dict:
    where = f"{field}:{ref.start}-{ref.end}" if field else f"{ref.kind}:{ref.ref}"
    target = res.target_ref or ref.ref or f"fn@{ref.footnote_of}"
    return {
        "id": f"{unit.id}#{where}>{target}",
        "source_id": unit.id,
        "surface": ref.surface,
        "target_doc": ref.doc,
        "target_ref": res.target_ref,
        "target_id": res.target_id,
        "kind": ref.kind,
        "resolved": res.target_id is not None,
        "reason": res.reason,
        "field": field,
        "start": ref.start,
        "end": ref.end,
        "resolved_to_parent": res.parent_id,
        # set by the build for a reference printed against an older edition and pointed where the
        # provision it means is now (ingest/references/moved.py): the ref its number names as printed
        "as_printed_ref": None,
    }


def build_xrefs(
    units: Iterable[Unit], registry: Registry | None = None, found: dict[str, list] | None = None
) -> list[dict]:
    """One row per reference of every unit (columns `XREF_COLUMNS`), in document order.

    A unit naming itself (a heading such as 第7条 on Law 7's own title) is a label, not a
    reference, and yields no row. ``registry`` says which document plays which part (default:
    the corpus's sources.yml); ``found``, unit id -> `unit_references` of the units whose
    references were read already (the build reads them where it parses).
    """
    units = list(units)
    registry = registry or default_registry()
    found = found or {}
    index = UnitIndex(units)
    documents: dict[str, str] = {}  # role target (laws@ja) or document -> the document it names
    rows: dict[str, dict] = {}
    for unit in units:
        references = found.get(unit.id)
        for ref, field in unit_references(unit, registry) if references is None else references:
            if ref.doc not in documents:
                documents[ref.doc] = target_document(ref.doc, registry)
            ref = ref.aimed_at(documents[ref.doc])
            res = index.resolve(ref)
            if res.target_id == unit.id:
                continue
            row = xref_row(unit, ref, field, res)
            rows.setdefault(row["id"], row)
    return list(rows.values())


def default_registry() -> Registry:
    from ingest.sources.corpus import DEFAULT_CORPUS, load_manifest

    return Registry.from_rows(load_manifest(DEFAULT_CORPUS))
