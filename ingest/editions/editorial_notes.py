"""The editors' notes of corpus/concordance.yml in each interface language: table ``editorial_notes``.

The concordance's notes are written by this project, in English, beside their Japanese and Chinese
versions: a decision's ``reason`` with ``reason_ja`` and ``reason_zh``, a move's ``note`` with
``note_ja`` and ``note_zh`` (its ``older_meaning`` with ``older_meaning_ja`` and ``older_meaning_zh``), a confirmed number's reason as ``{en, ja, zh}``. The build keeps the
English text where it always was (the pairs, flags and histories are made from it) and writes one
row per English text with its two versions; the site shows the reader's (laws_site/read/reasons.py).

Every note must have both versions: a missing or empty one is a ParseError naming the file and the
line of its entry, so a note added in English only fails the build instead of showing English on
a Japanese page.
"""

from __future__ import annotations

import re
from pathlib import Path

from ingest.editions.concordance import RULE_SENTENCES
from ingest.parsers.records import ParseError
from ingest.sources.corpus import read_yaml

COLUMNS = {"en": str, "ja": str, "zh": str, "kind": str, "key": str}
LANGUAGES = ("ja", "zh")


def text(value) -> str:
    """A note as the build reads it everywhere (ingest/editions/concordance.py, ingest/editions/align.py): one line."""
    return " ".join(str(value or "").split())


def entry_lines(source: str) -> dict[tuple[str, str], int]:
    """The line each entry starts on: ('move', id), ('decision', from ref), ('new', to ref), ('confirmed', ref)."""
    lines: dict[tuple[str, str], int] = {}
    section = None
    for number, line in enumerate(source.splitlines(), 1):
        if re.match(r"\s*confirmed\s*:", line):
            section = "confirmed"
        elif re.match(r"\s*decisions\s*:", line):
            section = "decisions"
        if found := re.match(r"\s*-\s*id\s*:\s*\"?([^\s\"]+)", line):
            lines.setdefault(("move", found.group(1)), number)
        elif found := re.match(r"\s*-\s*\{?\s*from\s*:\s*\"?([^\",}]+)\"?", line):
            lines.setdefault(("decision", found.group(1).strip()), number)
        elif found := re.match(r"\s*-\s*\{?\s*to\s*:\s*\"?([^\",}]+)\"?", line):
            lines.setdefault(("new", found.group(1).strip()), number)
        elif section == "confirmed" and (found := re.match(r"\s+\"?([0-9][0-9A-Za-z()]*)\"?\s*:", line)):
            lines.setdefault(("confirmed", found.group(1)), number)
    return lines


def editorial_note_rows(path: Path | str) -> list[dict]:
    """One row per English note: {en, ja, zh, kind (move | decision | new | confirmed | build), key}."""
    path = Path(path)
    data = read_yaml(path) or {}
    lines = entry_lines(path.read_text(encoding="utf-8"))
    rows: dict[str, dict] = {}

    def add(kind: str, key: str, english, versions: dict) -> None:
        en = text(english)
        if not en:
            return
        line = lines.get((kind, key))
        missing = [lang for lang in LANGUAGES if not isinstance(versions.get(lang), str) or not text(versions[lang])]
        if missing:
            raise ParseError(
                str(path),
                line,
                f"{kind} {key}: the note needs its Japanese and Chinese versions too (missing: {', '.join(missing)})",
            )
        row = {"en": en, **{lang: text(versions[lang]) for lang in LANGUAGES}, "kind": kind, "key": key}
        if en in rows and any(rows[en][lang] != row[lang] for lang in LANGUAGES):
            raise ParseError(
                str(path),
                line,
                f"{kind} {key}: the same English note as {rows[en]['kind']} {rows[en]['key']}, translated differently",
            )
        rows.setdefault(en, row)

    for move in data.get("moves") or []:
        if isinstance(move, dict):
            add("move", str(move.get("id")), move.get("note"), {l: move.get(f"note_{l}") for l in LANGUAGES})
            # what an older number meant, quoted in the flag on a reference written before the change
            add(
                "move",
                str(move.get("id")),
                move.get("older_meaning"),
                {l: move.get(f"older_meaning_{l}") for l in LANGUAGES},
            )
    provisions = data.get("provisions") or {}
    for decision in provisions.get("decisions") or []:
        if isinstance(decision, dict):
            add(
                "decision",
                str(decision.get("from")),
                decision.get("reason"),
                {l: decision.get(f"reason_{l}") for l in LANGUAGES},
            )
    for entry in provisions.get("new") or []:
        if isinstance(entry, dict):
            add("new", str(entry.get("to")), entry.get("reason"), {l: entry.get(f"reason_{l}") for l in LANGUAGES})
    for ref, reason in (provisions.get("confirmed_translations") or {}).items():
        if not isinstance(reason, dict):
            raise ParseError(
                str(path),
                lines.get(("confirmed", str(ref))),
                f"confirmed_translations {ref}: expected a mapping with ja and zh",
            )
    for ref, reason in (provisions.get("confirmed") or {}).items():
        versions = (provisions.get("confirmed_translations") or {}).get(ref) or {}
        add("confirmed", str(ref), reason, versions)
    # what the build itself says of a pair it made by its rule, not read (ingest/editions/concordance.py)
    for sentence in RULE_SENTENCES:
        rows.setdefault(
            sentence.en, {"en": sentence.en, "ja": sentence.ja, "zh": sentence.zh, "kind": "build", "key": ""}
        )
    return list(rows.values())
