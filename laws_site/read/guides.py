"""The ruling guides as the build wrote them (tables ``guides`` and ``guide_units``, made by
ingest/sources/guide_tables.py): a guide read back, the walk along one of its paths, and which
guides cover a unit - for the guide pages, a unit's page and search.

A path is where each answer led, step ids and at most one rule at its end, joined by dots
(``trick-12.when-noticed.next-deal``); the empty path is the guide's first question. Each step of
a guide has one answer per target (the build checks it), so a path names the answers too.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass, field
from urllib.parse import quote

from laws_site.i18n.message import Message, message
from laws_site.read.units import permalink

MAX_PATH_CHARS = 1000  # the deepest path of the eight guides is under 200 characters
PATH_RE = re.compile(r"[a-z0-9][a-z0-9-]*(?:\.[a-z0-9][a-z0-9-]*)*")
GUIDE_ID_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,99}")


@dataclass
class Guide:
    id: str
    doc: str
    title: dict
    scope: dict | None
    laws: list[str]
    start: str
    steps: dict[str, dict]
    rules: dict[str, dict]

    def url(self, path: tuple[str, ...] = ()) -> str:
        """The page of the guide at this path (the first question for the empty one)."""
        base = "/-/guides/" + quote(self.id)
        return base + ("?path=" + ".".join(path) if path else "")

    def canonical_paths(self) -> dict[str, tuple[str, ...]]:
        """Each step and rule: the first path that reaches it (answers in the file's order)."""
        found: dict[str, tuple[str, ...]] = {self.start: ()}
        todo = [self.start]
        while todo:
            step_id = todo.pop(0)
            for answer in self.steps[step_id]["answers"]:
                target = answer["next"] or answer["rule"]
                if target not in found:
                    found[target] = (*found[step_id], target)
                    if answer["next"]:
                        todo.append(target)
        return found


@dataclass
class Walk:
    """Where a path leads: the answers taken ((step id, answer index), in order) and the step or
    rule reached."""

    guide: Guide
    path: tuple[str, ...]
    taken: list[tuple[str, int]] = field(default_factory=list)
    at: str = ""

    @property
    def is_rule(self) -> bool:
        return self.at in self.guide.rules


class PathError(ValueError):
    """A path the guide cannot follow: ``status`` 400 (not a path at all) or 404 (no such answer),
    ``message`` what the answer says (laws_site/i18n/message.py: English in JSON, the interface
    language on a page) and ``valid`` the longest prefix that is a real path (where the page offers
    to go on from)."""

    def __init__(self, status: int, said: Message, valid: tuple[str, ...] = ()):
        super().__init__(said)
        self.status, self.message, self.valid = status, said, valid


# ---------------------------------------------------------------- reading


def guide_from_row(row) -> Guide:
    return Guide(
        id=row["id"],
        doc=row["doc"],
        title=json.loads(row["title"]),
        scope=json.loads(row["scope"]) if row["scope"] else None,
        laws=json.loads(row["laws"]),
        start=row["start"],
        steps=json.loads(row["steps"]),
        rules=json.loads(row["rules"]),
    )


def all_guides(conn: sqlite3.Connection) -> list[Guide]:
    cursor = conn.cursor()
    cursor.row_factory = sqlite3.Row  # this query's rows only: the connection may be Datasette's, shared
    return [guide_from_row(row) for row in cursor.execute("select * from guides order by position")]


def one_guide(conn: sqlite3.Connection, guide_id: str) -> Guide | None:
    cursor = conn.cursor()
    cursor.row_factory = sqlite3.Row
    row = cursor.execute("select * from guides where id = ?", (guide_id,)).fetchone()
    return guide_from_row(row) if row else None


def unit_texts(conn: sqlite3.Connection, doc: str, refs) -> dict[str, str]:
    """ref -> the unit's text as built (what the quotes are exact substrings of)."""
    refs = list(dict.fromkeys(refs))
    marks = ",".join("?" * len(refs))
    sql = f"select ref, text from sections where doc = ? and ref in ({marks})"
    return dict(conn.execute(sql, [doc, *refs]).fetchall()) if refs else {}


def unit_link(doc: str, ref: str, labels: dict[str, str] | None = None) -> dict:
    """A unit as the pages and the JSON link it: its ref, id, permalink and (for pages) its label."""
    unit_id = f"{doc}:{ref}"
    link = {"ref": ref, "id": unit_id, "url": permalink(doc, ref)}
    if labels is not None:
        link["label"] = labels.get(unit_id) or ref
    return link


# ---------------------------------------------------------------- a path


def walk(guide: Guide, path_text: str | None) -> Walk:
    """The walk along ``path_text`` (None or "" for the first question), or a PathError."""
    path_text = path_text or ""
    if len(path_text) > MAX_PATH_CHARS or (path_text and not PATH_RE.fullmatch(path_text)):
        shown = path_text[:60] + ("…" if len(path_text) > 60 else "")
        raise PathError(
            400,
            message(
                "“%(path)s” is not a path of this guide: follow the answers from its first question.",
                "path '%(path)s' is not a path: step ids (lower-case letters, digits, hyphens) joined by dots, "
                f"at most {MAX_PATH_CHARS} characters",
                path=shown,
            ),
        )
    path = tuple(path_text.split(".")) if path_text else ()
    result = Walk(guide=guide, path=path, at=guide.start)
    for depth, target in enumerate(path):
        if result.is_rule:
            raise PathError(
                404,
                message(
                    "The path ends at a ruling; nothing follows it.",
                    "the path ends at rule '%(rule)s'; nothing follows a rule",
                    rule=result.at,
                ),
                valid=path[:depth],
            )
        answers = guide.steps[result.at]["answers"]
        index = next((n for n, a in enumerate(answers) if (a["next"] or a["rule"]) == target), None)
        if index is None:
            raise PathError(
                404,
                message(
                    "No answer to this question leads to “%(target)s”: choose one of its answers.",
                    "step '%(step)s' of guide '%(guide)s' has no answer leading to '%(target)s'",
                    target=target,
                    step=result.at,
                    guide=guide.id,
                ),
                valid=path[:depth],
            )
        result.taken.append((result.at, index))
        result.at = target
    return result


# ---------------------------------------------------------------- which guides cover a unit

# The guides covering any of the units asked (a unit of the Laws a guide covers; a commentary's reprint
# of one, through alignments, or a 1997 provision that became one, through provision_pairs; a commentary note on one, through
# xrefs of kind covers): the guide of the earliest unit asked first, then the Laws' order. One statement:
# a unit page and a search page ask it each time.
COVERING_SQL = """
with wanted(unit_id, rank) as (select value ->> 0, value ->> 1 from json_each(?)),
hits(rank, guide_id) as (
    select w.rank, g.guide_id from wanted w join guide_units g on g.unit_id = w.unit_id
    union all
    select w.rank, g.guide_id from wanted w join alignments a on a.from_id = w.unit_id
        join guide_units g on g.unit_id = a.to_id
    union all
    select w.rank, g.guide_id from wanted w join provision_pairs p on p.from_id = w.unit_id
        join guide_units g on g.unit_id = p.to_id
    union all
    select w.rank, g.guide_id from wanted w join xrefs x on x.source_id = w.unit_id and x.kind = 'covers'
        join guide_units g on g.unit_id = x.target_id
)
select guides.id, guides.title from hits join guides on guides.id = hits.guide_id
group by guides.id order by min(hits.rank), guides.position
"""


def covering(conn: sqlite3.Connection, unit_ids: list[str]) -> list[tuple[str, dict]]:
    """(id, title in every language) of each guide that covers any of these units, in COVERING_SQL's order."""
    if not unit_ids:
        return []
    rows = conn.execute(COVERING_SQL, [json.dumps([[u, n] for n, u in enumerate(unit_ids)])]).fetchall()
    return [(guide_id, json.loads(title)) for guide_id, title in rows]


def guide_links(conn: sqlite3.Connection, unit_ids: list[str], lang: str, limit: int | None = None) -> list[dict]:
    """[{id, title (in the interface language), url}] of the guides covering these units."""
    return [
        {"id": guide_id, "title": title[lang], "url": "/-/guides/" + quote(guide_id)}
        for guide_id, title in covering(conn, unit_ids)[:limit]
    ]


# A search offers the guides (at most GUIDES_OFFERED) whose laws its first GUIDES_FROM_RESULTS results
# fall in, on its first page; the offline page applies the same rule to covering_by_unit's data.
GUIDES_FROM_RESULTS = 3
GUIDES_OFFERED = 2


def offered_guides(conn: sqlite3.Connection, ranked_ids: list[str], lang: str) -> list[dict]:
    """The guides a search whose results are ``ranked_ids`` (best first) offers, as guide_links."""
    return guide_links(conn, ranked_ids[:GUIDES_FROM_RESULTS], lang, limit=GUIDES_OFFERED)


def covering_by_unit(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """Every unit a guide covers -> those guides' ids in COVERING_SQL's order (the offline pack's copy of
    `covering`, asked unit by unit: the guides of several units are the first unit's, then the next
    unit's new ones)."""
    units = [row[0] for row in conn.execute("select id from sections order by rowid")]
    found = {unit: [guide_id for guide_id, _title in covering(conn, [unit])] for unit in units}
    return {unit: guides for unit, guides in found.items() if guides}
