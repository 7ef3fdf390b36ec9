"""Every witness asked: wherever a commentary prints the Laws' words, it is compared with laws-2017-ja, and
every disagreement is decided (issue 37.2). Part of `bridge-laws check --text`.

The printings: reprint units and the footnotes under them (ingest/editions/witnesses.py), quotations a
note attributes to a law and lines of a note that reprint one (ingest/editions/quotations.py). Each is
compared with the Laws as corrected; a disagreement is decided in ``corpus/witnesses.yml`` (the
commentary is wrong, it abridges, or it prints the 2018 edition's words). Compared with the Laws as
converted (no errata), a disagreement the errata make go away is decided by an erratum of the Laws
(its reason is in corpus/errata/laws-2017-ja.yml). An undecided disagreement, or a decision that
matches nothing any more, fails the check.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ingest.editions.quotations import quotation_printings
from ingest.editions.witnesses import Disagreement, disagreements, printings
from ingest.parsers.documents import parse_document
from ingest.parsers.records import ParseError
from ingest.sources.corpus import DEFAULT_CORPUS, load_sources, read_yaml
from ingest.sources.registry import Registry

DECISIONS = ("erratum", "commentary", "abridged", "edition")
FILE = "witnesses.yml"


@dataclass(frozen=True)
class Finding:
    disagreement: Disagreement
    decision: str | None  # one of DECISIONS, None: undecided
    reason: str


@dataclass
class WitnessCheck:
    printings: dict[str, int]  # commentary -> printings compared
    findings: list[Finding]
    stale: list[dict]  # decisions that match no disagreement

    def counts(self) -> dict[str, int]:
        counted = Counter(f.decision or "undecided" for f in self.findings)
        return {decision: counted.get(decision, 0) for decision in (*DECISIONS, "undecided")}

    @property
    def ok(self) -> bool:
        return not self.stale and all(f.decision for f in self.findings)


def key(d: Disagreement) -> tuple:
    return (d.doc, d.ref, d.line, d.field, d.printed, d.witness)


def load_decisions(corpus_dir: Path) -> dict[tuple, dict]:
    """corpus/witnesses.yml's decisions by (doc, ref, line, field, printed, laws); a malformed one is a
    ParseError naming the file."""
    path = corpus_dir / FILE
    data = read_yaml(path) or {}
    decided: dict[tuple, dict] = {}
    for number, entry in enumerate(data.get("decisions") or [], start=1):
        fields = ("doc", "ref", "line", "field", "printed", "laws", "decision", "reason")
        if not isinstance(entry, dict) or any(entry.get(name) in (None, "") for name in fields):
            raise ParseError(str(path), None, f"decision {number}: needs {', '.join(fields)}")
        if entry["decision"] not in DECISIONS[1:]:
            raise ParseError(
                str(path), None, f"decision {number}: {entry['decision']!r} is not one of {', '.join(DECISIONS[1:])}"
            )
        found = (entry["doc"], str(entry["ref"]), int(entry["line"]), entry["field"], entry["printed"], entry["laws"])
        decided[found] = entry
    return decided


def compared(commentary, laws, registry: Registry, source_text: str) -> list:
    return printings(commentary, laws) + quotation_printings(commentary, laws, registry, source_text)


def check_witnesses(corpus_dir: Path | str = DEFAULT_CORPUS) -> WitnessCheck:
    corpus_dir = Path(corpus_dir)
    corrected = {s.id: s for s in load_sources(corpus_dir)}
    converted = {s.id: s for s in load_sources(corpus_dir, errata=False)}
    registry = Registry.from_rows(s.meta for s in corrected.values())
    decided = load_decisions(corpus_dir)
    parsed: dict[str, object] = {}

    def parse(source):
        if (source.id, source.text) not in parsed:
            parsed[(source.id, source.text)] = parse_document(source.id, source.text, source.name)
        return parsed[(source.id, source.text)]

    findings, counted, used = [], {}, set()
    for doc, source in corrected.items():
        laws_id = source.meta.get("comments_on")
        if source.meta.get("kind") != "commentary" or laws_id not in corrected:
            continue
        commentary = parse(source)
        now = compared(commentary, parse(corrected[laws_id]), registry, source.text)
        counted[doc] = len(now)
        mended = {key(d) for p in now for d in disagreements(p)}
        for printing in now:
            for d in disagreements(printing):
                entry = decided.get(key(d))
                used.add(key(d))
                findings.append(Finding(d, entry["decision"] if entry else None, entry["reason"] if entry else ""))
        for printing in compared(commentary, parse(converted[laws_id]), registry, source.text):
            for d in disagreements(printing):
                if key(d) not in mended:  # gone once the Laws' errata are applied
                    findings.append(Finding(d, "erratum", f"mended by corpus/errata/{laws_id}.yml"))
    stale = [dict(zip(("doc", "ref", "line", "field", "printed", "laws"), k)) for k in decided if k not in used]
    return WitnessCheck(counted, findings, stale)


def witness_report(check: WitnessCheck) -> dict:
    return {
        "printings": check.printings,
        "disagreements": len(check.findings),
        "by_decision": check.counts(),
        "undecided": [vars(f.disagreement) for f in check.findings if not f.decision],
        "decisions_matching_nothing": check.stale,
        "ok": check.ok,
    }


def format_witnesses(check: WitnessCheck, show_all: bool = False) -> str:
    """The counts, then every undecided disagreement and stale decision (with ``show_all``, every one)."""
    counts = ", ".join(f"{decision} {n}" for decision, n in check.counts().items())
    lines = [
        "Witnesses (the Laws' words as the commentaries print them, against the Laws they comment on):",
        f"  printings compared: {', '.join(f'{doc} {n}' for doc, n in check.printings.items())}",
        f"  disagreements {len(check.findings)}: {counts}",
    ]
    for finding in check.findings:
        if show_all or not finding.decision:
            d = finding.disagreement
            lines.append(
                f"  {finding.decision or 'UNDECIDED':<10} {d.doc} {d.ref} line {d.line} ({d.field}): "
                f"{d.printed!r} where the Laws read {d.witness!r}"
            )
    for entry in check.stale:
        lines.append(f"  a decision matches nothing: {entry}")
    lines.append(f"  {'OK' if check.ok else 'NOT OK'}")
    return "\n".join(lines)
