"""The diffs the site offers, read from tables the build wrote (ingest/editions/diff.py made the rows).

`diff_units` answers /-/diff and `bridge-laws diff`: a law unit and its sub-units in two
documents, aligned, with what changed; `overview` answers /-/diff/overview: per law, counts of
same / changed / only_from / only_to. A request that cannot be answered raises DiffError with a
message meant for the reader.
"""

from __future__ import annotations

import difflib
import json
import sqlite3

from ingest.editions.relations import relation_words
from ingest.text.refs import law_ancestors, parse_law_ref
from ingest.text.spelling import typed_law_ref
from laws_site.i18n.message import Doc, Docs, Side, message
from laws_site.read.editions import BASIS_NAMES
from laws_site.read.queries import registry

STATUSES = ("same", "changed", "only_from", "only_to")


class DiffError(ValueError):
    """A request the diff cannot answer (unknown document, ref not in either document)."""


class DiffNotFound(DiffError):
    """The request is well formed but neither document has the ref (the CLI exits 1 for it)."""


def document_info(conn: sqlite3.Connection, doc: str) -> dict | None:
    row = conn.execute(
        "select id, title, language, edition, version_date from documents where id = ?", (doc,)
    ).fetchone()
    if row is None:
        return None
    return {"doc": row[0], "document_title": row[1], "lang": row[2], "edition": row[3], "version_date": row[4]}


def validate_request(conn: sqlite3.Connection, from_doc: str, to_doc: str) -> tuple[dict, dict]:
    """Both documents' info, or DiffError: missing, unknown, the same, or a pair not offered."""
    pairs = registry(conn).diff_pairs()
    comparable = list(dict.fromkeys(doc for pair in pairs for doc in pair))
    infos = []
    for side, doc in (("from", from_doc), ("to", to_doc)):
        if not doc:
            raise DiffError(
                message(
                    "Choose the %(side)s document: %(docs)s.",
                    "missing '%(side)s': one of %(docs)s",
                    side=Side(side),
                    docs=Docs(comparable),
                )
            )
        if doc not in comparable:
            close = difflib.get_close_matches(doc, comparable, n=1, cutoff=0.4)
            if close:
                raise DiffError(
                    message(
                        "“%(doc)s” cannot be compared (did you mean %(a)s?); choose the %(side)s document from %(docs)s.",
                        "'%(side)s' document '%(doc)s' cannot be compared (did you mean %(a)s?); choose one of %(docs)s",
                        side=Side(side),
                        doc=Doc(doc),
                        a=Doc(close[0]),
                        docs=Docs(comparable),
                    )
                )
            raise DiffError(
                message(
                    "“%(doc)s” cannot be compared; choose the %(side)s document from %(docs)s.",
                    "'%(side)s' document '%(doc)s' cannot be compared; choose one of %(docs)s",
                    side=Side(side),
                    doc=Doc(doc),
                    docs=Docs(comparable),
                )
            )
        infos.append(document_info(conn, doc))
    if from_doc == to_doc:
        raise DiffError(
            message("The older and the newer document are the same.", "'from' and 'to' are the same document")
        )
    if (from_doc, to_doc) not in pairs:
        offered = "; ".join(f"from={a}&to={b}" for a, b in pairs)
        raise DiffError(
            message(
                "%(a)s → %(b)s is not a comparison this site offers: choose one of the comparisons below.",
                "%(a)s -> %(b)s is not a comparison this site offers; choose one of: %(offered)s",
                a=Doc(from_doc),
                b=Doc(to_doc),
                offered=offered,
            )
        )
    return infos[0], infos[1]


def normalise_ref(ref: str) -> str:
    """What a reader types, in any spelling the search box takes (`61 b 2`, `第61条B項`, `quote:61`)
    -> the WBF ref (ingest/text/spelling.py), or DiffError."""
    cleaned = typed_law_ref(ref)
    if cleaned is None:
        raise DiffError(
            message(
                "“%(ref)s” is not a law reference such as 61, 61B, 61B2(a) or 40B2(a)(v).",
                "ref '%(ref)s' is not a law reference like 61, 61B, 61B2(a) or 40B2(a)(v)",
                ref=ref,
            )
        )
    return cleaned


def within(ref: str | None, root: str) -> bool:
    """Is ``ref`` the unit ``root`` or one of its sub-units?"""
    return ref is not None and (ref == root or root in law_ancestors(ref))


def stored_rows(conn: sqlite3.Connection, from_doc: str, to_doc: str, whitespace: bool, law: int) -> list[dict]:
    """The stored rows of one law, each with its two units' texts (kept once, in sections)."""
    rows = conn.execute(
        """
        select d.row, f.text, t.text from diff_rows d
          left join sections f on f.id = d.from_id left join sections t on t.id = d.to_id
        where d.from_doc = ? and d.to_doc = ? and d.whitespace = ? and (d.from_law = ? or d.to_law = ?)
        order by d.position
    """,
        (from_doc, to_doc, int(whitespace), law, law),
    )
    return [with_relation(with_texts(json.loads(row), from_text, to_text)) for row, from_text, to_text in rows]


def with_relation(row: dict) -> dict:
    """A pair from the provision concordance says its relation in words (ingest.editions.concordance)."""
    if row.get("relation"):
        row["relation_words"] = relation_words(row["relation"])
        row["basis_words"] = BASIS_NAMES.get(row.get("basis"), row.get("basis"))
    return row


def with_texts(row: dict, from_text: str | None, to_text: str | None) -> dict:
    """The row with its texts back in their place, after the titles."""
    texts = {
        "from_text": (from_text or "") if row["from_id"] else None,
        "to_text": (to_text or "") if row["to_id"] else None,
    }
    keys = list(row)
    at = keys.index("to_title") + 1
    return {key: row.get(key, texts.get(key)) for key in keys[:at] + list(texts) + keys[at:]}


def side_info(info: dict, rows: list[dict], side: str, root: str) -> dict:
    row = next((r for r in rows if r[f"{side}_ref"] == root), None)
    return {**info, "title": row[f"{side}_title"] if row else None, "unit_id": row[f"{side}_id"] if row else None}


def count_statuses(rows: list[dict]) -> dict[str, int]:
    return {status: sum(1 for r in rows if r["status"] == status) for status in STATUSES}


def diff_units(conn: sqlite3.Connection, ref: str, from_doc: str, to_doc: str, show_whitespace: bool = False) -> dict:
    """The unit REF and its sub-units in two documents, aligned, with what changed.

    For a commentary, REF names the law it reprints (from_doc=revoke-notes-ja compares its
    ``quote:REF`` units). Raises DiffError for a bad document or a ref neither document has.
    """
    from_info, to_info = validate_request(conn, from_doc, to_doc)
    root = normalise_ref(ref)
    law_digits = parse_law_ref(root).law
    if len(law_digits) > 3:  # the Laws are numbered 1-93 (and int() refuses 4,300 digits)
        raise DiffError(  # bad input: no law number is that long
            message(
                "Neither %(a)s nor %(b)s has a Law %(law)s.",
                "neither %(a)s nor %(b)s has a law numbered %(law)s… (%(digits)s digits)",
                a=Doc(from_doc),
                b=Doc(to_doc),
                law=law_digits[:12],
                digits=f"{len(law_digits):,}",
            )
        )
    law = int(law_digits)
    # spacing and width only matter where texts are compared character by character (same language)
    literal = show_whitespace and from_info["lang"] == to_info["lang"]
    rows = [
        r
        for r in stored_rows(conn, from_doc, to_doc, literal, law)
        if within(r["from_ref"], root) or within(r["to_ref"], root)
    ]
    if not rows:
        raise DiffNotFound(
            message(
                "Neither %(a)s nor %(b)s has %(ref)s.",
                "neither %(a)s nor %(b)s has a unit '%(ref)s'",
                a=Doc(from_doc),
                b=Doc(to_doc),
                ref=root,
            )
        )
    return {
        "ref": root,
        "show_whitespace": show_whitespace,
        "comparison": "text" if from_info["lang"] == to_info["lang"] else "signals",
        "from": side_info(from_info, rows, "from", root),
        "to": side_info(to_info, rows, "to", root),
        "counts": count_statuses(rows),
        "rows": rows,
    }


def overview(conn: sqlite3.Connection, from_doc: str, to_doc: str) -> dict:
    """Every law with counts of same / changed / only_from / only_to units between two documents."""
    from_info, to_info = validate_request(conn, from_doc, to_doc)
    laws = [
        json.loads(r[0])
        for r in conn.execute(
            "select summary from diff_laws where from_doc = ? and to_doc = ? order by law", (from_doc, to_doc)
        )
    ]
    totals = {status: sum(law[status] for law in laws) for status in STATUSES}
    return {
        "from": from_info,
        "to": to_info,
        "comparison": "text" if from_info["lang"] == to_info["lang"] else "signals",
        "laws": laws,
        "totals": totals,
    }


def side_pieces_of(ops: list[dict] | None, from_text: str | None, to_text: str | None) -> tuple[list[dict], list[dict]]:
    """Both sides of one comparison as pieces (kept text; deleted on the from side, inserted on the
    to side, each with its class): what the diff and history pages mark up."""
    if not ops:
        return ([{"text": from_text}] if from_text else [], [{"text": to_text}] if to_text else [])
    left, right = [], []
    for op in ops:
        if op["op"] == "equal":
            left.append({"text": op["from"]})
            right.append({"text": op["to"]})
            continue
        kind = op.get("class", "wording")
        if op["from"]:
            left.append({"text": op["from"], "change": "delete", "class": kind})
        if op["to"]:
            right.append({"text": op["to"], "change": "insert", "class": kind})
    return left, right
