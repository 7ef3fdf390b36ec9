"""The ruling guides of corpus/guides as tables of laws.db, checked against the Laws as built.

The build's one call here (``guide_tables``) loads every guide (ingest/sources/guides.py: shape,
languages, graph) and checks it against the units of the Laws in force as this build parsed them,
errata applied: every cite and ``see`` is a unit, every quote an exact substring of its unit's text,
every cite inside the guide's ``laws``. The first problem is a ParseError naming the guide's file
and line, and the build fails (exit status 2) leaving the previous database untouched.

Two tables, read by the site (laws_site/read/guides.py):

- ``guides``: one row per guide, in the Laws' order (by the law most of its rules cite); its texts,
  steps and rules as JSON in the file's own vocabulary (corpus/guides/README.md);
- ``guide_units``: every unit of the Laws a guide covers (a ``laws`` entry and everything under
  it), for "ruling guide: ..." on a unit's page and for search to offer the guide.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from ingest.parsers.records import ParseError, Unit
from ingest.sources import guides as guide_files
from ingest.sources.guides import ancestors
from ingest.sources.registry import Registry

GUIDE_COLUMNS = {
    "id": str,
    "position": int,
    "doc": str,  # the document every cite is a unit of (the Laws in force)
    "title": str,  # JSON {"ja", "zh", "en"}
    "scope": str,  # JSON {"ja", "zh", "en"} or null
    "laws": str,  # JSON [ref, ...] as the file lists them
    "start": str,
    "steps": str,  # JSON {step id: step}, in the file's order
    "rules": str,  # JSON {rule id: rule}, in the file's order
    "source": str,  # the file, relative to the corpus (guides/revoke.yml)
}
GUIDE_UNIT_COLUMNS = {"unit_id": str, "guide_id": str, "law_ref": str}
SCHEMAS = {
    "guides": (GUIDE_COLUMNS, {"pk": "id"}),
    "guide_units": (
        GUIDE_UNIT_COLUMNS,
        # keyed by unit first: a unit's page asks which guides cover it
        {"pk": ("unit_id", "guide_id"), "foreign_keys": [("guide_id", "guides", "id"), ("unit_id", "sections", "id")]},
    ),
}
GUIDES_DIRECTORY = "guides"


def guide_tables(corpus_dir: Path | str, units: list[Unit], registry: Registry) -> dict[str, list[dict]]:
    """{"guides": rows, "guide_units": rows} of the corpus's guides, each checked against the Laws
    in force as built; a ParseError (file and line) for the first problem found."""
    directory = Path(corpus_dir) / GUIDES_DIRECTORY
    loaded = guide_files.load_guides(directory) if directory.is_dir() else []
    if not loaded:
        return {"guides": [], "guide_units": []}
    laws = registry.current_laws
    if laws is None:
        raise ParseError(str(directory), None, "the guides cite the Laws in force, which this corpus does not have")
    law_units = [unit for unit in units if unit.doc == laws.id]
    by_ref = {unit.ref: unit for unit in law_units}
    for guide in loaded:
        guide_files.check_against_laws(guide, by_ref)
    order = {unit.ref: position for position, unit in enumerate(law_units)}
    loaded.sort(key=lambda guide: (order[main_law(guide, by_ref)], guide.id))
    return {
        "guides": [guide_row(guide, position, laws.id, Path(corpus_dir)) for position, guide in enumerate(loaded)],
        "guide_units": [row for guide in loaded for row in covered_units(guide, law_units, by_ref)],
    }


def guide_row(guide: guide_files.Guide, position: int, doc: str, corpus_dir: Path) -> dict:
    source = Path(guide.source)
    return {
        "id": guide.id,
        "position": position,
        "doc": doc,
        "title": dumps(guide.title),
        "scope": dumps(guide.scope) if guide.scope else None,
        "laws": dumps([ref for ref, _ in guide.laws]),
        "start": guide.start,
        "steps": dumps({step.id: step_data(step) for step in guide.steps.values()}),
        "rules": dumps({rule.id: rule_data(rule) for rule in guide.rules.values()}),
        "source": str(source.relative_to(corpus_dir)) if source.is_relative_to(corpus_dir) else source.name,
    }


def main_law(guide: guide_files.Guide, by_ref: dict[str, Unit]) -> str:
    """The ``laws`` entry most of the guide's rules cite (the first listed of those cited most): where
    the guide stands in the Laws (a guide lists the laws it borrows from too, 10C beside 53-56)."""
    listed = [ref for ref, _ in guide.laws]
    cited = Counter(
        next(ref for ref in ancestors(rule.citation.cite, by_ref) if ref in listed) for rule in guide.rules.values()
    )
    return max(listed, key=lambda ref: (cited[ref], -listed.index(ref)))


def covered_units(guide: guide_files.Guide, law_units: list[Unit], by_ref: dict[str, Unit]) -> list[dict]:
    """Each unit of the Laws that is one of the guide's ``laws`` or lies under one, in reading order."""
    listed = {ref for ref, _ in guide.laws}
    rows = []
    for unit in law_units:
        under = next((ref for ref in ancestors(unit.ref, by_ref) if ref in listed), None)
        if under is not None:
            rows.append({"unit_id": unit.id, "guide_id": guide.id, "law_ref": under})
    return rows


# ---------------------------------------------------------------- the guide as data


def step_data(step: guide_files.Step) -> dict:
    return {
        "question": step.question,
        "note": step.note,
        "see": [ref for ref, _ in step.see],
        "answers": [{"label": a.label, "next": a.next, "rule": a.rule} for a in step.answers],
    }


def rule_data(rule: guide_files.Rule) -> dict:
    return {
        "summary": rule.summary,
        "cite": rule.citation.cite,
        "quote": rule.citation.quote,
        "note": rule.note,
        "options": [citation_data(option) for option in rule.options],
        "also": [citation_data(extra) for extra in rule.also],
        "guide": rule.guide,
    }


def citation_data(citation: guide_files.Citation) -> dict:
    data = {"cite": citation.cite, "quote": citation.quote}
    if citation.label is not None:
        data["label"] = citation.label
    if citation.note is not None:
        data["note"] = citation.note
    if citation.options:
        data["options"] = [citation_data(option) for option in citation.options]
    return data


def dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
