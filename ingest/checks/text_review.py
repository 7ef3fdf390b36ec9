"""The text check over the corpus (`bridge-laws check --text`): every document checked as converted
(verbatim) and as corrected (errata applied), each candidate textcheck.py finds sorted by the
review - *fixed* when the errata make it go away, *as printed* when an `as_printed` entry of
corpus/errata/<doc>.yml covers it, else *unreviewed* (tests/test_textcheck.py allows none in
laws-2017-ja) - and the report.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from ingest.checks.textcheck import Candidate, check_document, document_spellings, vocabulary
from ingest.parsers.documents import parse_document
from ingest.parsers.records import ParsedDocument, ParseError
from ingest.search.tables import install_variants
from ingest.sources.corpus import DEFAULT_CORPUS, errata_section, load_sources


@dataclass(frozen=True)
class Reviewed:
    candidate: Candidate
    status: str  # fixed, as-printed, unreviewed
    reason: str | None


def load_as_printed(corpus_dir: Path, doc: str) -> list[dict]:
    """The `as_printed:` entries of corpus/errata/<doc>.yml: spans reviewed and kept, with reasons."""
    return errata_section(corpus_dir, doc, "as_printed")


def covers(entry: dict, candidate: Candidate) -> bool:
    """An `as_printed` entry names the span, and may narrow it to a kind and to lines."""
    if entry.get("span") != candidate.span:
        return False
    if entry.get("kind") and entry["kind"] != candidate.kind:
        return False
    lines = entry.get("lines")
    return not lines or candidate.line in lines


def review(before: list[Candidate], after: list[Candidate] | None, as_printed: list[dict]) -> list[Reviewed]:
    """Sort candidates of the verbatim text: *fixed* when the errata make it go away (``after``:
    the candidates of the corrected text; the same kind, span and line), else *as-printed* when
    an `as_printed` entry covers it, else *unreviewed*. With ``after`` None, nothing is fixed."""
    remaining = Counter((c.kind, c.span, c.line) for c in after) if after is not None else None
    out = []
    for candidate in before:
        key = (candidate.kind, candidate.span, candidate.line)
        if remaining is not None and remaining[key] <= 0:
            out.append(Reviewed(candidate, "fixed", None))
            continue
        if remaining is not None:
            remaining[key] -= 1
        kept = next((entry for entry in as_printed if covers(entry, candidate)), None)
        if kept:
            out.append(Reviewed(candidate, "as-printed", kept.get("reason")))
        else:
            out.append(Reviewed(candidate, "explained" if candidate.explained else "unreviewed", candidate.explained))
    return out


@dataclass
class DocumentCheck:
    """One document: its verbatim candidates sorted by the review, and what the corrected text
    still shows (each of those must be as printed)."""

    doc: str
    verbatim: bool  # False: the verbatim text does not parse, so the errata were applied first
    note: str | None
    reviewed: list[Reviewed]
    remaining: list[Reviewed]

    @property
    def candidates(self) -> list[Reviewed]:
        """What the checker asks a person to look at: every candidate evidence does not explain."""
        return [r for r in self.reviewed if not r.candidate.explained]

    @property
    def explained(self) -> list[Reviewed]:
        return [r for r in self.reviewed if r.candidate.explained]

    def count(self, status: str) -> int:
        return sum(1 for r in self.candidates if r.status == status)

    @property
    def unreviewed(self) -> list[Reviewed]:
        return [r for r in self.reviewed + self.remaining if r.status == "unreviewed"]


def parse_sources(corpus_dir: Path, errata: bool) -> dict[str, tuple[object, ParsedDocument | None, str | None]]:
    parsed = {}
    for source in load_sources(corpus_dir, errata=errata):
        try:
            parsed[source.id] = (source, parse_document(source.id, source.text, source.name), None)
        except ParseError as error:
            parsed[source.id] = (source, None, f"{source.file} line {error.line}: {error.message}")
    return parsed


def check_corpus(corpus_dir: Path | str = DEFAULT_CORPUS) -> dict[str, DocumentCheck]:
    """Every document, checked as converted (verbatim) and as corrected (errata applied).

    A document whose errata are also structural (a commentary: a footnote marker the conversion
    lost) does not parse verbatim; it is checked as corrected only, and says so.
    """
    corpus_dir = Path(corpus_dir)
    install_variants(corpus_dir)  # spellings compare folded as search folds them (corpus/variants.yml)
    verbatim = parse_sources(corpus_dir, errata=False)
    corrected = parse_sources(corpus_dir, errata=True)
    documents = [d for _, d, _ in list(verbatim.values()) + list(corrected.values()) if d is not None]
    known = vocabulary(documents, corpus_dir)
    witnesses = reprint_witnesses(
        {doc: (source, document or corrected[doc][1]) for doc, (source, document, _) in verbatim.items()}
    )
    results = {}
    for doc, (source, document, error) in verbatim.items():
        lang = source.language.split("-")[0]
        fixed_source, fixed_document, _ = corrected[doc]
        after = check_document(
            fixed_document,
            lang,
            fixed_source.text,
            known,
            spellings_of(corrected, fixed_document, lang),
            witnesses.get(doc),
        )
        as_printed = load_as_printed(corpus_dir, doc)
        remaining = review(after, None, as_printed)
        if document is None:
            note = f"verbatim text does not parse ({error}); checked as corrected only"
            results[doc] = DocumentCheck(doc, False, note, remaining, [])
            continue
        before = check_document(
            document,
            lang,
            source.text,
            known,
            spellings_of({**corrected, **{k: v for k, v in verbatim.items() if v[1]}}, document, lang),
            witnesses.get(doc),
        )
        results[doc] = DocumentCheck(doc, True, None, review(before, after, as_printed), remaining)
    return results


def reprint_witnesses(parsed: dict) -> dict[str, dict[str, list[str]]]:
    """doc -> unit ref -> the texts of the same provision in another document: a commentary's
    reprint `quote:61B` of the Laws' 61B, and back (the reprints were converted from other PDFs)."""
    witnesses: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for doc, (source, document) in parsed.items():
        laws = parsed.get(source.meta.get("comments_on") or "")
        if document is None or laws is None or laws[1] is None or source.meta.get("kind") != "commentary":
            continue
        law_units = laws[1].by_ref()
        for unit in document.units:
            law = law_units.get(unit.ref.removeprefix("quote:")) if unit.ref.startswith("quote:") else None
            if law is not None and unit.text and law.text:
                witnesses[doc][unit.ref].append(law.text)
                witnesses[source.meta["comments_on"]][law.ref].append(unit.text)
            if law is not None and unit.title and law.title:  # a reprinted heading (58B's title)
                witnesses[doc][unit.ref].append(law.title)
                witnesses[source.meta["comments_on"]][law.ref].append(unit.title)
    return witnesses


def spellings_of(parsed: dict, document: ParsedDocument, lang: str) -> Counter | None:
    """Katakana words of every Japanese document of the same reading (verbatim or corrected)."""
    if lang != "ja":
        return None
    total: Counter = Counter()
    for source, other, _ in parsed.values():
        if other is not None and source.language.startswith("ja"):
            total += document_spellings(other)
    return total


# ------------------------------------------------------------------------- report


def report(results: dict[str, DocumentCheck]) -> dict:
    """Counts per document (candidates by kind and by outcome) and every unreviewed candidate."""
    documents = {}
    for doc, result in results.items():
        documents[doc] = {
            "checked": "verbatim" if result.verbatim else "corrected",
            "note": result.note,
            "candidates": len(result.candidates),
            "explained": len(result.explained),
            "by_kind": dict(Counter(r.candidate.kind for r in result.candidates)),
            "fixed": result.count("fixed"),
            "as_printed": result.count("as-printed"),
            "unreviewed": result.count("unreviewed"),
            "reviewed": bool(result.count("fixed") or result.count("as-printed")),
        }
    unreviewed = [
        dict(vars(r.candidate), status=r.status)
        for result in results.values()
        if documents[result.doc]["reviewed"]
        for r in result.unreviewed
    ]
    return {"documents": documents, "unreviewed_in_reviewed_documents": unreviewed, "ok": not unreviewed}


def format_report(results: dict[str, DocumentCheck], show_all: bool = False) -> str:
    """The summary, then the rows: unreviewed candidates of reviewed documents, or with ``show_all``
    every candidate (as many rows under a document as its summary counts) and, apart, what
    evidence explained."""
    data = report(results)
    lines = ["Text check (candidates / fixed by errata / kept as printed / not reviewed):"]
    for doc, d in data["documents"].items():
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(d["by_kind"].items()))
        explained = f"; explained by evidence {d['explained']}" if d["explained"] else ""
        lines.append(
            f"  {doc:<22} {d['candidates']:>4} {d['fixed']:>4} {d['as_printed']:>4} {d['unreviewed']:>4}"
            f"  ({d['checked']}; {kinds or 'none'}{explained})"
        )
        if d["note"]:
            lines.append(f"      {d['note']}")
    for result in results.values():
        reviewed_document = data["documents"][result.doc]["reviewed"]
        if show_all:
            shown = result.candidates
        else:
            seen: set = set()
            shown = []
            for r in result.reviewed + result.remaining:  # the corrected text repeats what survives
                if r.status == "unreviewed" and reviewed_document and r.candidate.key not in seen:
                    seen.add(r.candidate.key)
                    shown.append(r)
        if shown:
            lines.append(f"{result.doc}:")
        lines.extend(candidate_row(r, show_all) for r in shown)
        if show_all and result.explained:
            lines.append(f"{result.doc} (explained by evidence, not counted):")
            lines.extend(candidate_row(r, show_all) for r in result.explained)
    verdict = "OK" if data["ok"] else "NOT REVIEWED: add an erratum or an as_printed entry for each"
    lines.append(f"  reviewed documents: {verdict}")
    return "\n".join(lines)


def candidate_row(r: Reviewed, with_reason: bool) -> str:
    c = r.candidate
    why = f"  — {r.reason}" if r.reason and with_reason else ""
    return f"  line {c.line} {c.ref} [{c.kind}] {c.span!r} in …{c.context}…: {c.detail} [{r.status}]{why}"
