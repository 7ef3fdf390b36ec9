"""The provision concordance laws-1997-zh -> laws-2017-ja: which 2017 unit(s) each 1997 unit became.

Every 1997 unit (law, section, item, sub-item) gets one row per 2017 unit it became, or one row
saying it was removed; every 2017 unit no 1997 unit became gets a row saying it is new, or that its
1997 source is not in the corpus (``source_ref`` names it where the reading knows it: 2017 20F4 is
1997 75D1; past the point where the 1997 text is cut off, none). Each row carries

* ``relation``: same, reworded, moved (moved or renumbered), split, merged, partial, removed,
  new, not_in_source;
* ``basis``: ``reviewed`` (read in both texts: a decision, confirmation or new unit recorded in
  ``corpus/concordance.yml`` ``provisions``, or a curated move), ``content`` (the build's rule made it
  and the content evidence below agrees) or ``number`` (the build's rule, by the printed number
  alone); a pair not read says so in its reason;
* ``reason`` in English with ``reason_ja`` and ``reason_zh``: no internal id, readable as it is.

The proposal is made from content: the glossary terms each text names (mapped to one English
term), the references it cites (1997 refs mapped to where those units went), the numbers it
states, its depth and its place in the law. A pair the build makes by its rule is ``same`` when
its cross-language evidence agrees (references mapped across editions and numbers), else
``reworded``; the reading's relation stands wherever it was recorded.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from ingest.build.sql import json_text
from ingest.editions.align import LAW_KINDS, last_law_number
from ingest.editions.concordance_file import (  # noqa: F401 (load_provisions: the module's public entry, re-exported)
    DECIDED_RELATIONS,
    Decision,
    Provisions,
    Reason,
    load_provisions,
)
from ingest.editions.diff import GlossaryTerms, law_refs, numbers_in
from ingest.editions.relations import RELATIONS
from ingest.parsers.records import ParseError, Unit
from ingest.text.refs import law_ancestors, law_number, parse_law_ref

# how much structure counts beside content when proposing: the same depth, the same place in the law
DEPTH_WEIGHT, ORDER_WEIGHT = 0.6, 0.5
BASES = ("reviewed", "content", "number")
PAIR_COLUMNS = {
    "from_doc": str,
    "to_doc": str,
    "from_id": str,
    "to_id": str,
    "from_ref": str,
    "to_ref": str,
    "from_law": int,
    "to_law": int,
    "relation": str,
    "basis": str,
    "reason": str,
    "reason_ja": str,
    "reason_zh": str,
    # the 1997 unit a 2017 unit comes from where it is in the part of the 1997 Laws the corpus does not hold
    "source_ref": str,
    "evidence": str,
    "position": int,
}

# What the build says of a pair it made by its rule and nobody has read yet (in each interface
# language: ingest/editions/editorial_notes.py writes them beside the editors' notes).
RULE_SAME = Reason(
    "paired by the build's rule (the same number; the references and numbers each text cites agree), "
    "not yet read in both texts",
    "ビルドの規則による対応です（番号が同じで、両方の本文が引く条項と数が一致）。両方の本文を読んだ確認はまだです。",
    "由构建规则配对（编号相同，两边条文引用的条款和数字一致），尚未对照两边条文阅读确认。",
)
RULE_REWORDED = Reason(
    "paired by the build's rule (the same number; the references or numbers each text cites differ), "
    "not yet read in both texts",
    "ビルドの規則による対応です（番号は同じですが、両方の本文が引く条項または数が異なる）。両方の本文を読んだ確認はまだです。",
    "由构建规则配对（编号相同，但两边条文引用的条款或数字不同），尚未对照两边条文阅读确认。",
)
RULE_NEW = Reason(
    "the build's rule paired no 1997 unit with this one; not yet read in both texts",
    "ビルドの規則では、この条項に対応する1997年版の条項が見つかりませんでした。両方の本文を読んだ確認はまだです。",
    "构建规则没有为此条找到对应的1997年版条款，尚未对照两边条文阅读确认。",
)
RULE_REMOVED = Reason(
    "the 2017 Laws have no unit of this number and the build's rule found none it became; not yet read in both texts",
    "2017年版にはこの番号の条項がなく、ビルドの規則でも移った先は見つかりませんでした。両方の本文を読んだ確認はまだです。",
    "2017年版没有这个编号的条款，构建规则也没有找到它的去向，尚未对照两边条文阅读确认。",
)
RULE_SENTENCES = (RULE_SAME, RULE_REWORDED, RULE_NEW, RULE_REMOVED)


def beyond_the_source(last_ref: str) -> Reason:
    """A 2017 unit past the point where the corpus's 1997 text stops (it stops inside 52A)."""
    return Reason(
        f"the 1997 text in this corpus stops inside {last_ref}: no 1997 text to compare",
        f"このコーパスの1997年版の本文は{last_ref}の途中で終わっています。比べる1997年版の本文はありません。",
        f"本语料库的1997年版条文止于{last_ref}之中，没有可比较的1997年版条文。",
    )


def reason_columns(reason: Reason) -> dict:
    return {"reason": reason.en, "reason_ja": reason.ja or None, "reason_zh": reason.zh or None}


# --- evidence ----------------------------------------------------------------------------------------


@dataclass
class Evidence:
    """What a unit says that does not depend on its language."""

    terms: frozenset[str]
    refs: tuple[str, ...]
    numbers: tuple[str, ...]

    @property
    def sets(self) -> tuple[frozenset, frozenset, frozenset]:
        """(terms, refs, numbers) as sets, for comparing many candidates."""
        return self.terms, frozenset(self.refs), frozenset(self.numbers)


class Texts:
    """Each unit's evidence: from its own title and text, or, for a heading with no text of its own,
    its title plus what the units under it say (each text is read once, not again in every heading
    above it)."""

    def __init__(self, units: list[Unit], lang: str, glossary: GlossaryTerms):
        self.lang, self.glossary = lang, glossary
        self.children: dict[str, list[Unit]] = {}
        for unit in units:
            if unit.parent_ref:
                self.children.setdefault(unit.parent_id, []).append(unit)
        self.found: dict[str, Evidence] = {}

    def evidence(self, unit: Unit) -> Evidence:
        if unit.id not in self.found:
            self.found[unit.id] = self._evidence(unit)
        return self.found[unit.id]

    def _evidence(self, unit: Unit) -> Evidence:
        title = frozenset(self.glossary.named(unit.title, self.lang)) if self.glossary and unit.title else frozenset()
        if (unit.text or "").strip():
            terms = frozenset(self.glossary.named(unit.text, self.lang)) if self.glossary else frozenset()
            return Evidence(
                terms=title | terms,
                refs=tuple(law_refs(unit.text, self.lang, unit.ref)),
                numbers=tuple(numbers_in(unit.text, self.lang, unit.ref)),
            )
        below = [self.evidence(child) for child in self.children.get(unit.id, [])]
        own = {unit.ref, *law_ancestors(unit.ref)}
        return Evidence(
            terms=title.union(*(e.terms for e in below)),
            refs=tuple(dict.fromkeys(r for e in below for r in e.refs if r not in own)),
            numbers=tuple(n for e in below for n in e.numbers),
        )


def jaccard(a: frozenset, b: frozenset) -> float:
    if not a or not b:  # most units state no number, many cite nothing: no sets to build
        return 0.0
    return len(a & b) / len(a | b)


@lru_cache(maxsize=8192)
def depth(ref: str) -> int:
    return len(law_ancestors(ref)) + 1


# --- the table -----------------------------------------------------------------------------------------


@dataclass
class Side:
    doc: str
    lang: str
    units: list[Unit]

    def __post_init__(self):
        self.by_ref = {u.ref: u for u in self.units}
        self.position = {u.ref: i for i, u in enumerate(self.units)}
        self.by_law: dict[int, list[Unit]] = {}
        for unit in self.units:
            self.by_law.setdefault(law_number(unit.ref), []).append(unit)
        self.place_in_law = {unit.id: i for units in self.by_law.values() for i, unit in enumerate(units)}


def law_units(units: list[Unit], doc: str) -> list[Unit]:
    return [u for u in units if u.doc == doc and u.kind in LAW_KINDS and parse_law_ref(u.ref)]


def provision_pairs(
    units: list[Unit], glossary: list[dict], languages: dict[str, str], provisions: Provisions
) -> list[dict]:
    """Rows of table ``provision_pairs`` (see the module docstring), in 2017 reading order with each
    1997-only row before the next paired unit."""
    if provisions.from_doc not in languages or provisions.to_doc not in languages:
        return []  # no provisions section, or editions this corpus does not have
    old = Side(provisions.from_doc, languages[provisions.from_doc], law_units(units, provisions.from_doc))
    new = Side(provisions.to_doc, languages[provisions.to_doc], law_units(units, provisions.to_doc))
    if not old.units or not new.units:
        return []
    terms = GlossaryTerms(glossary)
    old_texts, new_texts = Texts(old.units, old.lang, terms), Texts(new.units, new.lang, terms)
    old_ev = {u.ref: old_texts.evidence(u) for u in old.units}
    new_ev = {u.ref: new_texts.evidence(u) for u in new.units}
    for ref, decision in provisions.decisions.items():
        missing = [r for r in (ref,) if r not in old.by_ref] + [r for r in decision.to_refs if r not in new.by_ref]
        if missing:
            raise ParseError(
                provisions.source, decision.line, f"decision for 1997 {ref}: no unit {', '.join(missing)} in the corpus"
            )
    for ref, read in provisions.new_units.items():
        if ref not in new.by_ref:
            raise ParseError(provisions.source, read.line, f"new unit 2017 {ref}: no such unit in the corpus")

    old_sets = {ref: ev.sets for ref, ev in old_ev.items()}
    new_sets = {ref: ev.sets for ref, ev in new_ev.items()}
    moved = {d.from_ref: d.to_refs[0] for d in provisions.decisions.values() if d.line is None and d.to_refs}
    rows: list[dict] = []
    for unit in old.units:
        proposed, score = propose(unit, old, new, old_sets, new_sets, moved)
        rows += pairs_of(unit, proposed, score, old, new, provisions)
    # the references each 1997 unit cites, mapped to where the cited units went
    went = {}
    for row in rows:
        if row["to_ref"]:
            went.setdefault(row["from_ref"], []).append(row["to_ref"])
    for row in rows:
        if row["to_ref"]:
            row.update(relation_of(row, old_ev[row["from_ref"]], new_ev[row["to_ref"]], went))
    rows = merged(rows)
    rows += unsourced_rows(rows, old, new, provisions)
    ordered = order(rows, old, new)
    for position, row in enumerate(ordered):
        row["position"] = position
        row["evidence"] = json_text(row.pop("_evidence", {}))
        row.pop("_decided_relation", None)
    return ordered


def propose(
    unit: Unit, old: Side, new: Side, old_sets: dict, new_sets: dict, moved: dict[str, str]
) -> tuple[str | None, float]:
    """The 2017 unit of the same law the content points at: shared terms, references (1997 refs
    mapped through the curated moves: 第23条 is 72C) and numbers, then depth and place in the law
    (an order score breaks ties, never the number)."""
    law = law_number(unit.ref)
    candidates = new.by_law.get(law, [])
    if not candidates:
        return None, 0.0
    terms, refs, numbers = old_sets[unit.ref]
    refs = frozenset(moved.get(r, r) for r in refs)
    where = old.place_in_law[unit.id] / max(1, len(old.by_law[law]) - 1)
    my_depth, last = depth(unit.ref), max(1, len(candidates) - 1)
    best, best_score = None, -1.0
    for i, other in enumerate(candidates):
        their_terms, their_refs, their_numbers = new_sets[other.ref]
        content = jaccard(terms, their_terms) + 1.5 * jaccard(refs, their_refs) + jaccard(numbers, their_numbers)
        structure = DEPTH_WEIGHT * (my_depth == depth(other.ref)) + ORDER_WEIGHT * (1 - abs(where - i / last))
        score = content + structure
        if score > best_score:
            best, best_score = other.ref, score
    return best, best_score


def pairs_of(
    unit: Unit, proposed: str | None, score: float, old: Side, new: Side, provisions: Provisions
) -> list[dict]:
    """The rows of one 1997 unit: as the reading decided or confirmed (basis ``reviewed``), else as
    the build's rule pairs it, by its number (basis ``content`` where the content evidence agrees,
    ``number`` where nothing else does), saying it is not yet read."""
    law = law_number(unit.ref)
    decision = provisions.decisions.get(unit.ref) or inherited(unit.ref, provisions)
    base = {
        "from_doc": old.doc,
        "to_doc": new.doc,
        "from_id": unit.id,
        "from_ref": unit.ref,
        "from_law": law,
        "source_ref": None,
        "_evidence": {"proposed": proposed, "number": unit.ref if unit.ref in new.by_ref else None},
    }
    if decision is not None:
        if not decision.to_refs:
            return [
                {**base, "to_id": None, "to_ref": None, "to_law": None, "relation": "removed", "basis": "reviewed"}
                | reason_columns(decision.reason)
            ]
        relation = decision.relation or ("split" if len(decision.to_refs) > 1 else None)
        return [
            {
                **base,
                "to_id": new.by_ref[ref].id,
                "to_ref": ref,
                "to_law": law_number(ref),
                "_decided_relation": relation,
                "basis": "reviewed",
            }
            | reason_columns(decision.reason)
            for ref in decision.to_refs
        ]
    target = unit.ref if unit.ref in new.by_ref else None
    if target is None:
        return [
            {**base, "to_id": None, "to_ref": None, "to_law": None, "relation": "removed", "basis": "content"}
            | reason_columns(RULE_REMOVED)
        ]
    confirmed = provisions.confirmed.get(unit.ref)
    basis = "reviewed" if confirmed else ("content" if proposed == target and score > 0.5 else "number")
    return [
        {
            **base,
            "to_id": new.by_ref[target].id,
            "to_ref": target,
            "to_law": law_number(target),
            "_decided_relation": None,
            "basis": basis,
            **reason_columns(confirmed or RULE_SAME),  # RULE_SAME or RULE_REWORDED once the evidence is read
        }
    ]


def inherited(ref: str, provisions: Provisions) -> Decision | None:
    """A unit under a removed unit goes with it (1997 11B1 and 11B2 with 11B), for the same reason."""
    for ancestor in law_ancestors(ref):
        decision = provisions.decisions.get(ancestor)
        if decision is not None and not decision.to_refs:
            return Decision(ref, (), "removed", decision.reason, decision.line)
    return None


def relation_of(row: dict, mine: Evidence, theirs: Evidence, went: dict[str, list[str]]) -> dict:
    """same / reworded from the evidence (a decision's relation stands); what was compared. A pair
    the build made by its rule says which of its two sentences applies."""
    mapped = set()
    for ref in mine.refs:
        mapped.update(went.get(ref) or [ref])
    refs_agree = mapped == set(theirs.refs)
    numbers_agree = set(mine.numbers) == set(theirs.numbers)
    decided = row.get("_decided_relation")
    if decided:
        relation = decided
    elif row["from_ref"] == row["to_ref"]:
        relation = "same" if refs_agree and numbers_agree else "reworded"
    else:
        relation = "moved"
    evidence = {
        **row.get("_evidence", {}),
        "refs_agree": refs_agree,
        "numbers_agree": numbers_agree,
        "refs_from": sorted(mapped),
        "refs_to": sorted(theirs.refs),
        "numbers_from": list(mine.numbers),
        "numbers_to": list(theirs.numbers),
        "terms_shared": sorted(mine.terms & theirs.terms),
    }
    found = {"relation": relation, "_evidence": evidence}
    if row["basis"] != "reviewed":
        found.update(reason_columns(RULE_SAME if relation == "same" else RULE_REWORDED))
    return found


def merged(rows: list[dict]) -> list[dict]:
    """A 2017 unit several 1997 units became, where no decision named the relation, is 'merged'."""
    sources: dict[str, int] = {}
    for row in rows:
        if row["to_ref"]:
            sources[row["to_ref"]] = sources.get(row["to_ref"], 0) + 1
    for row in rows:
        if (
            row["to_ref"]
            and sources[row["to_ref"]] > 1
            and not row.get("_decided_relation")
            and row["relation"] in ("same", "reworded", "moved")
        ):
            row["relation"] = "merged"
    return rows


def unsourced_rows(rows: list[dict], old: Side, new: Side, provisions: Provisions) -> list[dict]:
    """2017 units no 1997 unit became: read (``provisions.new_units``: new, or from a 1997 unit the
    corpus does not hold), new by a curated move (2017 Law 23 and its parts), past the point where
    the 1997 text stops, or left by the build's rule and not yet read."""
    paired = {row["to_ref"] for row in rows if row["to_ref"]}
    stray = sorted(set(provisions.new_units) & paired)
    if stray:
        line = provisions.new_units[stray[0]].line
        raise ParseError(provisions.source, line, f"2017 {stray[0]} is read as new but a 1997 unit became it")
    end = last_law_number(old.units)
    last_ref = old.units[-1].ref
    last_old = max(
        (new.position.get(r["to_ref"], -1) for r in rows if r["from_law"] == end and r["to_ref"]), default=-1
    )
    out = []
    for unit in new.units:
        if unit.ref in paired:
            continue
        law = law_number(unit.ref)
        beyond = end is not None and (law > end or (law == end and new.position[unit.ref] > last_old))
        read = provisions.new_units.get(unit.ref)
        move_note = next(
            (provisions.new_notes[r] for r in (unit.ref, *law_ancestors(unit.ref)) if r in provisions.new_notes), None
        )
        if read is not None:
            relation = "not_in_source" if read.source or beyond else "new"
            basis, reason, source = "reviewed", read.reason, read.source
        elif move_note is not None:
            relation, basis, reason, source = "new", "reviewed", move_note, None
        elif beyond:
            relation, basis, reason, source = "not_in_source", "content", beyond_the_source(last_ref), None
        else:
            relation, basis, reason, source = "new", "content", RULE_NEW, None
        out.append(
            {
                "from_doc": old.doc,
                "to_doc": new.doc,
                "from_id": None,
                "from_ref": None,
                "from_law": None,
                "to_id": unit.id,
                "to_ref": unit.ref,
                "to_law": law,
                "relation": relation,
                "basis": basis,
                "source_ref": source,
                **reason_columns(reason),
                "_evidence": {},
            }
        )
    return out


def order(rows: list[dict], old: Side, new: Side) -> list[dict]:
    """2017 reading order; a 1997-only row just before the 2017 unit its next paired sibling went to."""

    def key(row: dict) -> tuple:
        if row["to_ref"]:
            return (new.position[row["to_ref"]], 1, old.position.get(row["from_ref"], -1))
        position = old.position[row["from_ref"]]
        for later in old.units[position + 1 :]:  # the next 1997 unit that went somewhere, and where
            if later.ref in first_target:
                return (first_target[later.ref], 0, position)
        return (len(new.units), 0, position)

    first_target: dict[str, int] = {}
    for row in rows:
        if row["from_ref"] and row["to_ref"]:
            at = new.position[row["to_ref"]]
            first_target[row["from_ref"]] = min(at, first_target.get(row["from_ref"], at))

    return sorted(rows, key=key)


# --- what the build reports ----------------------------------------------------------------------------


def figures(rows: list[dict]) -> dict:
    """Pairs by relation and by basis; number-only pairs of reviewed laws; laws whose pairing is
    not the by-number pairing."""
    by_relation = {r: sum(1 for row in rows if row["relation"] == r) for r in RELATIONS}
    # basis is about pairing: a 2017 unit past the end of the 1997 text was not paired at all
    by_basis = {b: sum(1 for row in rows if row["basis"] == b and not beyond(row)) for b in BASES}
    changed = sorted(
        {
            row["from_law"]
            for row in rows
            if row["from_ref"] and row["to_ref"] != row["from_ref"] and row["relation"] != "removed"
        }
        | {row["from_law"] for row in rows if row["from_ref"] and row["relation"] == "removed"}
    )
    disagreements = [
        row["from_ref"]
        for row in rows
        if row["from_ref"]
        and row["to_ref"]
        and json.loads(row["evidence"]).get("proposed") not in (None, row["to_ref"])
    ]
    targets: dict[str, set] = {}
    for row in rows:
        if row["from_ref"]:
            targets.setdefault(row["from_ref"], set()).add(row["to_ref"])
    renumbered = sorted({law_number(ref) for ref, to in targets.items() if ref not in to})
    return {
        "relations": by_relation,
        "bases": by_basis,
        "laws_changed_from_number": changed,
        "laws_where_the_number_pairs_the_wrong_unit": renumbered,
        "units_not_under_their_number": sum(1 for ref, to in targets.items() if ref not in to),
        "number_only_1_52": sum(
            1 for row in rows if row["basis"] == "number" and 1 <= (row["from_law"] or row["to_law"] or 0) <= 52
        ),
        "content_disagrees_with_pair": len(disagreements),
        # what the build's rule made and nobody has read yet, by relation (past the 1997 text: nothing to read)
        "not_yet_read": {
            r: n
            for r in RELATIONS
            if (n := sum(1 for row in rows if row["relation"] == r and row["basis"] != "reviewed" and not beyond(row)))
        },
        "read": sum(1 for row in rows if row["basis"] == "reviewed"),
    }


def beyond(row: dict) -> bool:
    """A row past the point where the 1997 text stops: there was no 1997 text to read it against."""
    return row["relation"] == "not_in_source" and not row.get("source_ref") and row["basis"] != "reviewed"


# --- the build's use of the table: the diffs follow it (edition_flags.py: the moved references) ----------------------------------------------

CONFIDENCE = {"reviewed": 1.0, "content": 0.8, "number": 0.5}


def aligned_rows(pairs: list[dict]) -> list[dict]:
    """The pairs as ``ingest.editions.align`` rows, so the diff of laws-1997-zh -> laws-2017-ja follows them
    (a row may pair different refs: 1997 23 <-> 2017 72C)."""
    return [
        {
            "from_id": p["from_id"],
            "to_id": p["to_id"],
            "from_ref": p["from_ref"],
            "to_ref": p["to_ref"],
            "method": p["basis"],
            "confidence": CONFIDENCE[p["basis"]],
            "note": p["reason"],
            "relation": p["relation"],
            "basis": p["basis"],
        }
        for p in pairs
    ]


def main(argv: list[str] | None = None) -> None:
    """`python -m ingest.editions.concordance [laws.db]`: the concordance's figures, as JSON."""
    import sqlite3
    import sys

    args = sys.argv[1:] if argv is None else argv
    conn = sqlite3.connect(f"file:{args[0] if args else 'laws.db'}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    rows = [dict(r) for r in conn.execute("select * from provision_pairs order by position")]
    print(json.dumps(figures(rows), indent=1))


if __name__ == "__main__":
    main()
