"""How good the text checker is: precision and recall against what people judged by reading.

The judged set is the review itself, kept in corpus/errata/<doc>.yml, each entry with its reason:
every erratum is a real error (the recall set: did the checker flag it?), every `as_printed` entry a
span the checker flagged that the book really prints (a false alarm), unless the entry says the book
itself is wrong there (`source_typo: true`: a real error, kept as printed and noted on the page).

Precision counts the verbatim text's candidates: *fixed* by an erratum or a source typo is a true
alarm, any other *as printed* a false one; an unreviewed candidate is unjudged (a review leaves none).
Recall counts the errata that change words: one is *caught* when a candidate of the verbatim text
stands on its line and touches its span.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ingest.checks.text_review import DocumentCheck, check_corpus, covers
from ingest.checks.textcheck import Candidate
from ingest.sources.corpus import DEFAULT_CORPUS, errata_section, load_errata

# An erratum that only moves markup, spaces or marks is structure, not a word the checker reads.
_TEXTLESS = re.compile(r"[\s\u3000*#\\_|()（）\[\]<>/`-]+")


@dataclass(frozen=True)
class Quality:
    """One document's figures for one set of candidates."""

    doc: str
    candidates: int
    true_alarms: int
    false_alarms: int
    unjudged: int
    errata: int
    caught: int

    @property
    def precision(self) -> float | None:
        judged = self.true_alarms + self.false_alarms
        return self.true_alarms / judged if judged else None

    @property
    def recall(self) -> float | None:
        return self.caught / self.errata if self.errata else None


def word_errata(corpus_dir: Path, doc: str) -> list[dict]:
    """Errata that change the words of the text (not only its spaces, markup or marks)."""
    return [
        fix
        for fix in load_errata(corpus_dir, doc)
        if _TEXTLESS.sub("", str(fix.get("find", ""))) != _TEXTLESS.sub("", str(fix.get("replace", "")))
    ]


def touches(candidate: Candidate, fix: dict) -> bool:
    if candidate.line != fix.get("line"):
        return False
    find = _TEXTLESS.sub("", str(fix.get("find", "")))
    span = _TEXTLESS.sub("", candidate.span)
    context = _TEXTLESS.sub("", candidate.context.replace("⏎", ""))
    return bool(span) and (span in find or find in span or (len(find) <= 12 and find in context))


def is_source_typo(as_printed: list[dict], candidate: Candidate) -> bool:
    return any(entry.get("source_typo") and covers(entry, candidate) for entry in as_printed)


def quality(doc: str, result: DocumentCheck, corpus_dir: Path = DEFAULT_CORPUS, with_evidence: bool = True) -> Quality:
    """Precision and recall of what the checker shows (``with_evidence``), or of every raw
    detection before evidence explains some away (the checker as it was before it weighed them)."""
    as_printed = errata_section(corpus_dir, doc, "as_printed")
    shown = result.candidates if with_evidence else result.reviewed
    true_alarms = false_alarms = unjudged = 0
    for reviewed in shown:
        if reviewed.status == "fixed" or (
            reviewed.status == "as-printed" and is_source_typo(as_printed, reviewed.candidate)
        ):
            true_alarms += 1
        elif reviewed.status == "as-printed" or (reviewed.status == "explained" and not with_evidence):
            false_alarms += 1  # what evidence explains is what the book prints
        else:
            unjudged += 1
    # checked as corrected only (the verbatim text does not parse): the errata are already applied
    fixes = word_errata(corpus_dir, doc) if result.verbatim else []
    candidates = [r.candidate for r in shown]
    caught = sum(1 for fix in fixes if any(touches(c, fix) for c in candidates))
    return Quality(doc, len(shown), true_alarms, false_alarms, unjudged, len(fixes), caught)


def corpus_quality(
    corpus_dir: Path | str = DEFAULT_CORPUS, results: dict[str, DocumentCheck] | None = None
) -> tuple[dict[str, Quality], dict[str, Quality]]:
    """(before evidence, with evidence), per document."""
    corpus_dir = Path(corpus_dir)
    results = results if results is not None else check_corpus(corpus_dir)
    return (
        {doc: quality(doc, result, corpus_dir, with_evidence=False) for doc, result in results.items()},
        {doc: quality(doc, result, corpus_dir) for doc, result in results.items()},
    )


def total(measured: dict[str, Quality]) -> Quality:
    return Quality(
        "TOTAL",
        *(
            sum(getattr(q, f) for q in measured.values())
            for f in ("candidates", "true_alarms", "false_alarms", "unjudged", "errata", "caught")
        ),
    )


def format_quality(measured: dict[str, Quality]) -> str:
    def pct(value: float | None) -> str:
        return f"{100 * value:5.1f}%" if value is not None else "    -"

    lines = ["Checker quality (candidates: true / false / unjudged alarms, precision; word errata caught, recall):"]
    for q in [*measured.values(), total(measured)]:
        lines.append(
            f"  {q.doc:<22} {q.candidates:>4}: {q.true_alarms:>4} {q.false_alarms:>4} {q.unjudged:>4} "
            f"{pct(q.precision)};  {q.caught:>4}/{q.errata:<4} {pct(q.recall)}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    before, after = corpus_quality()
    print("Before evidence (every raw detection):\n" + format_quality(before))
    print("With evidence (what the checker shows):\n" + format_quality(after))
