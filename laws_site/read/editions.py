"""What the provision concordance says about a unit, read from tables the build wrote
(ingest/editions/concordance.py: provision_pairs; edition_flags.py; ingest/editions/history.py: law_history).

Every pairing the site shows between the 1997 and the 2017 Laws comes from table provision_pairs:
the unit page's other-edition box (both directions), the unit JSON's ``counterparts``, the diff
rows, the citation map's edition links and the history pages.
"""

from __future__ import annotations

import json
import sqlite3
from urllib.parse import urlencode

from ingest.editions.relations import relation_words
from ingest.references.labels import law_citation
from ingest.text.refs import law_number
from laws_site.i18n.catalog import N_
from laws_site.i18n.message import message as by_id
from laws_site.read import queries, reasons
from laws_site.read.units import labels as people_labels
from laws_site.read.units import permalink

# what the pages print for each relation and basis (English msgids; the templates translate them);
# the words are ingest.editions.relations.relation_words', which the stored history carries
RELATION_NAMES = {
    "same": N_("the same provision"),
    "reworded": N_("the same provision, reworded"),
    "moved": N_("moved or renumbered"),
    "split": N_("split"),
    "merged": N_("merged"),
    "partial": N_("only in part the same"),
    "removed": N_("removed"),
    "new": N_("new"),
    "not_in_source": N_("no text in the corpus"),
}
# a pair is read in both texts (corpus/concordance.yml) or made by the build's rule and not yet read
BASIS_NAMES = {
    "reviewed": N_("read in both texts"),
    "content": N_("paired by the build's rule, not yet read"),
    "number": N_("paired by the build's rule (by number only), not yet read"),
}
# a unit with no counterpart, as a reader is told it (%(old)s, %(new)s: the two editions): new when the
# reading says so, its source named when the reading knows it is in the part of the older Laws the
# corpus does not hold, or left unpaired by the build's rule
STATUS_NAMES = {
    ("new", True): N_("new in %(new)s"),
    ("new", False): N_("no %(old)s counterpart found by the build's rule, not yet read"),
    ("removed", True): N_("removed in %(new)s"),
    ("removed", False): N_("no %(new)s counterpart found by the build's rule, not yet read"),
    ("not_in_source", True): N_("its %(old)s source is in the part of the %(old)s Laws this corpus does not hold"),
    ("not_in_source", False): N_("no %(old)s text in this corpus"),
}
VERSION_LABELS = {
    "old": N_("%(edition)s Laws, Chinese translation"),
    "reprint": N_("%(edition)s Laws as the commentaries reprint them (%(year)s)"),
    "new": N_("%(edition)s Laws, web PDF (%(year)s)"),
}

PAIR_SQL = """
select p.from_id, p.to_id, p.from_doc, p.to_doc, p.from_ref, p.to_ref, p.relation, p.basis, p.reason,
       f.title, t.title, p.reason_ja, p.reason_zh, p.source_ref
from provision_pairs p left join sections f on f.id = p.from_id left join sections t on t.id = p.to_id
where {where} order by p.position
"""


def status_of(relation: str, basis: str, source_ref: str | None, editions: dict[str, str]) -> dict:
    """What a unit without a counterpart is, in words (a msgid and its editions)."""
    read = source_ref is not None if relation == "not_in_source" else basis == "reviewed"
    return {"words": STATUS_NAMES.get((relation, read), RELATION_NAMES.get(relation, relation)), "editions": editions}


def translations(reason_ja: str | None, reason_zh: str | None) -> dict[str, str]:
    """A reason's own Japanese and Chinese, as the build wrote them beside the English."""
    return {lang: text for lang, text in (("ja", reason_ja), ("zh", reason_zh)) if text}


def _rows(conn: sqlite3.Connection, where: str, args: tuple) -> list[tuple]:
    return conn.execute(PAIR_SQL.format(where=where), args).fetchall()


def edition_info(conn: sqlite3.Connection, unit: dict) -> dict | None:
    """The other-edition box: the unit's counterparts in the other edition with each pair's
    relation in words, or why it has none (new in 2017, removed, no 1997 text in the corpus)."""
    rows = _rows(conn, "p.from_id = ? or p.to_id = ?", (unit["id"], unit["id"]))
    if not rows:
        return None
    docs = queries.registry(conn)
    counterparts, status = [], None
    for row in rows:
        from_id, to_id, from_doc, to_doc, from_ref, to_ref, relation, basis, reason, from_title, to_title = row[:11]
        reason_ja, reason_zh, source_ref = row[11:]
        mine_is_old = from_id == unit["id"]
        other_id, other_doc, other_ref, other_title = (
            (to_id, to_doc, to_ref, to_title) if mine_is_old else (from_id, from_doc, from_ref, from_title)
        )
        if other_id is None:
            editions = {
                key: docs.get(d).edition if docs.get(d) else "" for key, d in (("old", from_doc), ("new", to_doc))
            }
            status = {
                "relation": relation,
                "words": relation_words(relation),
                "basis": basis,
                "reason": reason,
                "translations": translations(reason_ja, reason_zh),
                "source_ref": source_ref,
                "shown": status_of(relation, basis, source_ref, editions),
            }
            continue
        document = docs.get(other_doc)
        counterparts.append(
            {
                "id": other_id,
                "doc": other_doc,
                "ref": other_ref,
                "title": other_title,
                "relation": relation,
                "words": relation_words(relation),
                "basis": basis,
                "basis_words": BASIS_NAMES[basis],
                "reason": reason,
                "translations": translations(reason_ja, reason_zh),
                "url": permalink(other_doc, other_ref),
                "lang": document.language if document else None,
                "doc_title": (document.short_title or document.title) if document else other_doc,
                "edition": document.edition if document else None,
                "compare_url": "/-/diff?" + urlencode({"ref": from_ref, "from": from_doc, "to": to_doc}),
            }
        )
    labels = unit_labels(conn, [c["id"] for c in counterparts])
    for c in counterparts:
        c["labels"] = labels.get(c["id"], {})
    law = law_number(unit["ref"])
    return {"counterparts": counterparts, "status": status, "history_url": history_url(law)}


def unit_labels(conn: sqlite3.Connection, ids: list[str]) -> dict[str, dict[str, str]]:
    """What people read for each unit, per interface language: {"ja": "規則 2017: 第72条C項", ...}, from the
    one reader of table unit_labels (laws_site/read/units.py); the template picks the reader's."""
    found: dict[str, dict[str, str]] = {}
    for lang in ("ja", "zh", "en"):
        for unit_id, label in people_labels(conn, ids, lang, full=True).items():
            found.setdefault(unit_id, {})[lang] = label
    return found


def counterparts_json(info: dict | None) -> list[dict]:
    """Unit JSON ``counterparts: [{id, doc, ref, relation, basis}]`` (plus reason and url)."""
    return [
        {key: c[key] for key in ("id", "doc", "ref", "relation", "basis", "reason", "url")}
        for c in (info or {}).get("counterparts", [])
    ]


def history_url(law: int | None) -> str:
    return f"/-/history/{law}" if law is not None else "/-/history"


def unit_flags(conn: sqlite3.Connection, unit_ids: list[str]) -> list[dict]:
    """References in these units printed against an older edition to a provision that has moved."""
    if not unit_ids:
        return []
    marks = ",".join("?" * len(unit_ids))
    try:
        rows = conn.execute(
            f"""select source_id, surface, field, start, "end", target_id, target_ref, cited_edition,
                                       relation, now, message from edition_flags where source_id in ({marks})
                                order by id""",
            unit_ids,
        ).fetchall()
    except sqlite3.OperationalError:
        return []
    flags = []
    for source_id, surface, field, start, end, target_id, target_ref, cited_edition, relation, now, message in rows:
        doc, _, source_ref = source_id.partition(":")
        flags.append(
            {
                "source_id": source_id,
                "source_ref": source_ref,
                "source_url": permalink(doc, source_ref),
                "surface": surface,
                "field": field,
                "start": start,
                "end": end,
                "target_id": target_id,
                "target_ref": target_ref,
                "cited_edition": cited_edition,
                "relation": relation,
                "words": relation_words(relation),
                "message": message,
                "now": [{**n, "url": permalink(n["id"].partition(":")[0], n["ref"])} for n in json.loads(now or "[]")],
            }
        )
    return flags


def law_editions(conn: sqlite3.Connection, law: int) -> list[dict]:
    """The citation map's edition links for one 2017 law: the 1997 units whose provisions it holds
    (a law-level pair, or a unit moved in from another law: 1997 23 in 2017 Law 72)."""
    rows = _rows(
        conn, "p.to_law = ? and p.from_id is not null and (p.from_law != p.to_law or p.to_ref = ?)", (law, str(law))
    )
    return [
        {
            "doc": from_doc,
            "ref": from_ref,
            "to_ref": to_ref,
            "relation": relation,
            "words": relation_words(relation),
            "url": permalink(from_doc, from_ref),
        }
        for _f, _t, from_doc, _td, from_ref, to_ref, relation, *_rest in rows
    ]


def edition_box(conn: sqlite3.Connection, unit: dict, unit_ids: list[str], lang: str) -> dict:
    """The other-edition box: counterparts from the provision concordance (both directions), each
    with its relation; the law's history; references here to provisions that have moved (named by
    their labels in the interface language)."""
    info = edition_info(conn, unit) or {
        "counterparts": [],
        "status": None,
        "history_url": history_url(law_number(unit["ref"])),
    }
    document = queries.document(conn, unit["doc"]) or {}
    # a regulation's article 8 is not Law 8; a definition, a part, an index entry belong to no one law
    # (the JSON's history keeps its URL: the list of histories)
    info = {**info, "history_shown": document.get("kind") != "regulations" and law_number(unit["ref"]) is not None}
    flags = unit_flags(conn, unit_ids)
    names = people_labels(conn, [f["source_id"] for f in flags] + [n["id"] for f in flags for n in f["now"]], lang)
    shown: set[str] = set()
    notes = reasons.notes_for(conn)  # the editors' notes in the reader's language
    for c in info["counterparts"]:  # a reason shared by several counterparts (a split) is printed once
        c["why"] = reasons.reason(c["reason"], notes, lang, c["translations"])
        c["why_shown"] = bool(c["reason"]) and c["reason"] not in shown
        shown.add(c["reason"])
    status = info.get("status")
    if status:
        status["why"] = reasons.reason(status["reason"], notes, lang, status["translations"])
        status["source_label"] = law_citation(status["source_ref"], lang) if status["source_ref"] else None
    if unit["kind"] in LAW_KINDS:  # a law's relation says what happened to its parts
        info["law_change"] = law_change(conn, unit["doc"], law_number(unit["ref"]), lang)
    for flag in flags:
        flag["why"] = reasons.reason(flag["message"], notes, lang)
        flag["source_label"] = names.get(flag["source_id"], flag["source_ref"])
        for now in flag["now"]:
            now["label"] = names.get(now["id"], now["ref"])
    return {**info, "flags": flags}


LAW_KINDS = ("law", "article")
LAW_CHANGE_SQL = (
    "select headline, same, changed, added, removed, not_in_source, not_read, summary, summary_ja, summary_zh "
)


def law_change(conn: sqlite3.Connection, doc: str, law: int | None, lang: str) -> dict | None:
    """What happened to a law's parts between the editions (table law_changes): its headline relation,
    its parts counted by kind and the sentence in the reader's language ("revised: 9 parts changed, 6
    added, 1 removed"); None for a law the concordance does not pair."""
    if law is None:
        return None
    row = conn.execute(LAW_CHANGE_SQL + "from law_changes where doc = ? and law = ?", (doc, law)).fetchone()
    if row is None:
        return None
    keys = ("headline", "same", "changed", "added", "removed", "not_in_source", "not_read")
    change = dict(zip(keys, row[:7]))
    summary, summary_ja, summary_zh = row[7:]
    change["summary"] = {"ja": summary_ja, "zh": summary_zh}.get(lang) or summary
    change["summary_lang"] = lang if change["summary"] != summary else "en"
    return change


def law_changes_of(conn: sqlite3.Connection, law: int, sides: list[tuple[str, str]], lang: str) -> list[dict]:
    """What happened to a law's parts, for its history and compare pages, from ``sides``, the
    (document, edition) of the newer edition first: 2017 Law 25 "revised: 9 parts changed, 6 added,
    1 removed"; the older edition's law too where it says something else (1997 Law 23 moved to 72C,
    2017 Law 23 is new)."""
    found: list[dict] = []
    for doc, edition in sides:
        change = law_change(conn, doc, law, lang)
        if change and all(change["summary"] != f["summary"] for f in found):
            found.append({**change, "edition": edition})
    return found


def history_sides(history: dict) -> list[tuple[str, str]]:
    """The (document, edition) a history's law changes are read for: the newer edition's first."""
    versions = {v["key"]: v for v in history.get("versions", [])}
    return [
        (doc, versions[key]["edition"]) for key in ("new", "old") if key in versions for doc in versions[key]["docs"]
    ]


class HistoryError(ValueError):
    """A law the history cannot show (not a number, no such law): its one argument is the Message (a page
    shows it by its catalogue id, JSON its English)."""


def law_history(conn: sqlite3.Connection, law_text: str) -> dict:
    """One law through every version in the corpus (the stored JSON), with links added."""
    text = (law_text or "").strip()
    if not text.isascii() or not text.isdigit() or len(text) > 3:
        raise HistoryError(
            by_id(
                "%(typed)s is not a law number like 16 or 72.",
                "%(quoted)s is not a law number like 16 or 72",
                typed=law_text[:20],
                quoted=repr(law_text[:20]),
            )
        )
    try:
        row = conn.execute("select history from law_history where law = ?", (int(text),)).fetchone()
        known = [r[0] for r in conn.execute("select law from law_history order by law")]
    except sqlite3.OperationalError:
        row, known = None, []
    if row is None:
        span = f"{known[0]}-{known[-1]}" if known else "none"
        raise HistoryError(
            by_id(
                "There is no Law %(law)s in any edition in the corpus (laws %(span)s).",
                "no Law %(law)s in any edition in the corpus (laws %(span)s)",
                law=int(text),
                span=span,
            )
        )
    history = json.loads(row[0])
    cells = [c for entry in history["rows"] for c in (entry["old"], entry["new"], *entry["reprints"]) if c]
    ids = list({c["id"] for c in cells})
    texts = (
        dict(conn.execute(f"select id, text from sections where id in ({','.join('?' * len(ids))})", ids))
        if ids
        else {}
    )
    for c in cells:
        c["text"] = texts.get(c["id"])
    for entry in history["rows"]:
        for key in ("old", "new"):
            if entry[key]:
                entry[key]["url"] = permalink(entry[key]["doc"], entry[key]["ref"])
        for reprint in entry["reprints"]:
            reprint["url"] = permalink(reprint["doc"], reprint["ref"])
    for version in history["versions"]:
        version["label_key"] = VERSION_LABELS[version["key"]]
    law = history["law"]
    history["previous"] = max((k for k in known if k < law), default=None)
    history["next"] = min((k for k in known if k > law), default=None)
    return history


def history_index(conn: sqlite3.Connection) -> dict:
    """Every law with a history page, its 2017 and 1997 titles."""
    try:
        laws = [r[0] for r in conn.execute("select law from law_history order by law")]
    except sqlite3.OperationalError:
        laws = []
    titles = {}
    for doc, ref, title in (
        conn.execute(
            "select doc, ref, title from sections where kind = 'law' and doc in "
            "(select distinct from_doc from provision_pairs union select distinct to_doc from provision_pairs)"
        )
        if laws
        else []
    ):
        titles.setdefault(ref, {})[doc] = title
    return {"laws": [{"law": law, "titles": titles.get(str(law), {}), "url": history_url(law)} for law in laws]}
