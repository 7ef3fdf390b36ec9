"""Slips a Chinese source prints (the 1997 web page's 。。 and CONTTESTANT), found by a scan and each judged
by reading (issue 37.7). Part of `bridge-laws check --text`.

The scan reads each line of a Chinese document as published (no errata) and flags:

* ``punctuation``: the same punctuation mark twice or more in a row (。。, ,,);
* ``bracket``: a line that opens more round brackets than it closes, or closes more than it opens;
* ``latin``: an English word no English term of the corpus has (the definitions of laws-2017-ja and
  corpus/glossary.yml): CONTTESTANT, AUTION, DIDE, OPENNINGLEAD.

A wrong character (复工 for 复式, 所提人 for 所提供) has no such mark; those were found by reading and are noted
like the rest. Every candidate must be judged in the document's ``as_printed`` list
(corpus/errata/<doc>.yml): a slip of the source (``source_typo: true`` with what it means; the unit's page
shows the note) or, with its reason, none. An unjudged candidate fails the check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ingest.sources.corpus import DEFAULT_CORPUS, errata_file, load_sources, read_yaml
from ingest.sources.registry import Registry

PUNCTUATION_RUN = re.compile(r"([。，,、；;：:？?！!])\1+")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
OPEN, CLOSE = "(（", ")）"


@dataclass(frozen=True)
class Slip:
    doc: str
    line: int
    kind: str  # punctuation, bracket, latin
    span: str
    context: str


@dataclass(frozen=True)
class Judged:
    slip: Slip
    verdict: str  # "slip" (a source typo, noted), "not a slip", or "unjudged"
    reason: str


def english_vocabulary(corpus_dir: Path) -> set[str]:
    """Every English word the corpus's English terms are made of, lower case: the definitions' printed
    English of laws-2017-ja and the curated glossary."""
    from ingest.parsers.documents import parse_document  # the Laws' definitions chapter, parsed

    sources = load_sources(corpus_dir)
    current = Registry.from_rows(s.meta for s in sources).current_laws
    words: set[str] = set()
    for source in sources:
        if current is not None and source.id == current.id:
            for unit in parse_document(source.id, source.text, source.name).units:
                if unit.kind == "definition":
                    words |= {w.lower() for w in LATIN_WORD.findall(unit.attrs.get("term_en") or "")}
    for term in (read_yaml(corpus_dir / "glossary.yml") or {}).get("terms") or []:
        words |= {w.lower() for w in LATIN_WORD.findall(str(term.get("en") or ""))}
    return words


def scan(doc: str, text: str, vocabulary: set[str]) -> list[Slip]:
    """Every candidate of one document, line by line."""
    found = []
    for number, line in enumerate(text.split("\n"), start=1):
        for m in PUNCTUATION_RUN.finditer(line):
            found.append(Slip(doc, number, "punctuation", m.group(0), around(line, m.start(), m.end())))
        opened = sum(line.count(c) for c in OPEN) - sum(line.count(c) for c in CLOSE)
        if opened:
            found.append(Slip(doc, number, "bracket", line.strip()[-12:], line.strip()[-30:]))
        for m in LATIN_WORD.finditer(line):
            if m.group(0).lower() not in vocabulary:
                found.append(Slip(doc, number, "latin", m.group(0), around(line, m.start(), m.end())))
    return found


def around(line: str, start: int, end: int, width: int = 8) -> str:
    return line[max(0, start - width) : end + width]


def judge(slip: Slip, entries: list[dict]) -> Judged:
    """The as_printed entry covering a candidate, on one of its lines (any, if it lists none) and of its
    kind (any, if it names none): its span holds the candidate's (。。 in 加倍。。), or, for a bracket left
    open, ends the line."""
    for entry in entries:
        span = str(entry.get("span") or "")
        lines, kind = entry.get("lines") or [], entry.get("kind")
        if not span or (lines and slip.line not in lines) or kind not in (None, slip.kind):
            continue
        if slip.span in span or (slip.kind == "bracket" and slip.context.endswith(span)):
            verdict = "slip" if entry.get("source_typo") else "not a slip"
            return Judged(slip, verdict, " ".join(str(entry.get("reason") or "").split()))
    return Judged(slip, "unjudged", "")


def check_slips(corpus_dir: Path | str = DEFAULT_CORPUS) -> list[Judged]:
    """Every candidate of every Chinese document, as converted, with its judgement."""
    corpus_dir = Path(corpus_dir)
    sources = [s for s in load_sources(corpus_dir, errata=False) if s.language.startswith("zh")]
    if not sources:
        return []
    vocabulary = english_vocabulary(corpus_dir)
    judged = []
    for source in sources:
        entries = [e for e in errata_file(corpus_dir, source.id)[1].get("as_printed") or [] if isinstance(e, dict)]
        judged += [judge(slip, entries) for slip in scan(source.id, source.text, vocabulary)]
    return judged


def slip_report(judged: list[Judged]) -> dict:
    counts = {verdict: sum(1 for j in judged if j.verdict == verdict) for verdict in ("slip", "not a slip", "unjudged")}
    return {
        "candidates": len(judged),
        "by_verdict": counts,
        "unjudged": [vars(j.slip) for j in judged if j.verdict == "unjudged"],
        "ok": not counts["unjudged"],
    }


def format_slips(judged: list[Judged], show_all: bool = False) -> str:
    report = slip_report(judged)
    counts = ", ".join(f"{verdict} {n}" for verdict, n in report["by_verdict"].items())
    lines = [
        "Source slips (Chinese texts as published: repeated punctuation, unclosed brackets, unknown English):",
        f"  candidates {report['candidates']}: {counts}",
    ]
    for j in judged:
        if show_all or j.verdict == "unjudged":
            lines.append(
                f"  {j.verdict.upper() if j.verdict == 'unjudged' else j.verdict:<10} {j.slip.doc} line "
                f"{j.slip.line} ({j.slip.kind}): {j.slip.span!r} in {j.slip.context!r}"
            )
    lines.append(f"  {'OK' if report['ok'] else 'NOT OK'}")
    return "\n".join(lines)
