"""The cross-reference part of `bridge-laws check`: read-only queries on a built database.

Works on the tables `sections` (every unit) and `xrefs` (rows of `ingest.references.xrefs.build_xrefs`);
opens the database read-only, so a report can never change what it reports on.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

from ingest.build.read_only import connect_readonly

TARGET_RATE = 0.98


# --- check ------------------------------------------------------------------------------------

COUNTS_SQL = """
select s.doc as doc, count(*) as found, sum(x.resolved) as resolved
from xrefs x join sections s on s.id = x.source_id
group by s.doc order by s.doc
"""
UNRESOLVED_SQL = """
select s.doc as doc, x.source_id, s.line, x.surface, x.target_doc, x.target_ref, x.kind, x.reason,
       x.resolved_to_parent
from xrefs x join sections s on s.id = x.source_id
where not x.resolved
order by s.doc, s.position, x.start
"""
DANGLING_SQL = """
select count(*) from xrefs where resolved and target_id not in (select id from sections)
"""


def check_report(db_path: str | Path) -> dict:
    """Per citing document: references found / resolved / unresolved, and every unresolved one.

    ``{"documents": {doc: {"found", "resolved", "unresolved", "rate"}}, "total": {...},
    "unresolved": [{"doc", "source_id", "line", "surface", "target_doc", "target_ref", "kind",
    "reason", "resolved_to_parent"}], "broken_targets": n, "target_rate": 0.98, "ok": bool}``
    """
    with closing(connect_readonly(db_path)) as conn:
        documents = {row["doc"]: counts(row["found"], row["resolved"] or 0) for row in conn.execute(COUNTS_SQL)}
        unresolved = [dict(row) for row in conn.execute(UNRESOLVED_SQL)]
        broken = conn.execute(DANGLING_SQL).fetchone()[0]
        moved = moved_references(conn)
    total = counts(sum(d["found"] for d in documents.values()), sum(d["resolved"] for d in documents.values()))
    return {
        "documents": documents,
        "total": total,
        "unresolved": unresolved,
        "broken_targets": broken,
        "target_rate": TARGET_RATE,
        "ok": total["rate"] >= TARGET_RATE and broken == 0,
        "moved_references": moved,
    }


MOVED_SQL = """
select f.source_id, s.line, f.surface, f.target_ref, f.cited_edition, f.relation, f.now, f.message
from edition_flags f join sections s on s.id = f.source_id order by s.doc, s.position, f.start
"""


def moved_references(conn: sqlite3.Connection) -> list[dict]:
    """References printed against an older edition to a provision that has moved (table
    edition_flags, ingest/editions/concordance.py): 付表7-4's 「23条」 is 2017 72C. Informational: not a failure."""
    rows = conn.execute(MOVED_SQL).fetchall()
    return [{**dict(row), "now": [n["ref"] for n in json.loads(row["now"] or "[]")]} for row in rows]


def counts(found: int, resolved: int) -> dict:
    return {
        "found": found,
        "resolved": resolved,
        "unresolved": found - resolved,
        "rate": resolved / found if found else 1.0,
    }


def format_check_report(report: dict) -> str:
    """The check report as text: one line per document, then each unresolved reference."""
    lines = ["Cross-references (found / resolved / unresolved, rate):"]
    for doc, c in [*report["documents"].items(), ("TOTAL", report["total"])]:
        lines.append(f"  {doc:<22} {c['found']:>5} {c['resolved']:>5} {c['unresolved']:>5}  {c['rate']:.1%}")
    verdict = "OK" if report["ok"] else "BELOW TARGET"
    lines.append(
        f"  target {report['target_rate']:.0%}: {verdict}; resolved rows pointing nowhere: {report['broken_targets']}"
    )
    if report["unresolved"]:
        lines.append("Unresolved:")
    for u in report["unresolved"]:
        parent = f" (nearest existing: {u['resolved_to_parent']})" if u["resolved_to_parent"] else ""
        lines.append(
            f"  {u['source_id']} line {u['line']}: {u['surface']!r} -> "
            f"{u['target_doc']}:{u['target_ref']} [{u['kind']}] {u['reason']}{parent}"
        )
    if report.get("moved_references"):
        lines.append(
            f"References to provisions that have moved since the edition they were written for "
            f"({len(report['moved_references'])}):"
        )
    for m in report.get("moved_references", []):
        lines.append(
            f"  {m['source_id']} line {m['line']}: {m['surface']!r} ({m['cited_edition']} {m['target_ref']}) "
            f"is now {', '.join(m['now']) or 'removed'} [{m['relation']}]"
        )
    return "\n".join(lines)
