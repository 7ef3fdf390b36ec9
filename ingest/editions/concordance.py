"""The provision concordance laws-1997-zh -> laws-2017-ja: which 2017 unit(s) each 1997 unit became.

Every 1997 unit (law, section, item, sub-item) gets one row per 2017 unit it became, or one row
saying it was removed; every 2017 unit no 1997 unit became gets a row saying it is new (or, past
the point where the 1997 text is cut off, that no 1997 text is in the corpus). Each row carries

* ``relation``: same, reworded, moved (moved or renumbered), split, merged, partial, removed,
  new, not_in_source;
* ``basis``: ``reviewed`` (the law was read in both texts and the pair confirmed or decided,
  ``corpus/concordance.yml`` ``provisions``), ``content`` (the evidence below picks the pair) or
  ``number`` (nothing but the printed number pairs them).

The proposal is made from content: the glossary terms each text names (mapped to one English
term), the references it cites (1997 refs mapped to where those units went), the numbers it
states, its depth and its place in the law. A pair is labelled ``same`` only when the reading
confirmed it and its cross-language evidence agrees (references mapped across editions and
numbers); otherwise ``reworded``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ingest.build.sqlite_write import json_text
from ingest.editions.align import CONCORDANCE_PATH, LAW_KINDS, Concordance, last_law_number
from ingest.editions.diff import GlossaryTerms, law_refs, numbers_in
from ingest.parsers.records import ParseError, Unit
from ingest.sources.corpus import read_yaml
from ingest.text.refs import law_ancestors, law_number, parse_law_ref

# how much structure counts beside content when proposing: the same depth, the same place in the law
DEPTH_WEIGHT, ORDER_WEIGHT = 0.6, 0.5
RELATIONS = ("same", "reworded", "moved", "split", "merged", "partial", "removed", "new", "not_in_source")
DECIDED_RELATIONS = ("same", "reworded", "moved", "split", "merged", "partial", "removed")
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
    "evidence": str,
    "position": int,
}


@dataclass(frozen=True)
class Decision:
    """One reviewed decision: a 1997 unit -> the 2017 unit(s) it became (none: removed)."""

    from_ref: str
    to_refs: tuple[str, ...]
    relation: str | None
    reason: str
    line: int | None = None


@dataclass
class Provisions:
    from_doc: str
    to_doc: str
    reviewed_laws: frozenset[int]
    decisions: dict[str, Decision] = field(default_factory=dict)
    source: str = str(CONCORDANCE_PATH)
    new_notes: dict[str, str] = field(default_factory=dict)  # 2017 ref -> why it is new (concordance moves)
    # 1997 ref -> why the reading kept it under its number against the content proposal
    confirmed: dict[str, str] = field(default_factory=dict)


# --- the file ----------------------------------------------------------------------------------------


def load_provisions(path: Path | str = CONCORDANCE_PATH, concordance: Concordance | None = None) -> Provisions:
    """``provisions`` of ``corpus/concordance.yml`` plus the curated moves between the two editions;
    a malformed decision is a ParseError naming the file and the decision's line."""
    path = Path(path)
    data, lines = _read_with_lines(path)
    section = data.get("provisions") or {}
    if not isinstance(section, dict):
        raise ParseError(str(path), None, "'provisions' must be a mapping with from, to, reviewed and decisions")
    from_doc, to_doc = section.get("from"), section.get("to")
    if section and not (from_doc and to_doc):
        raise ParseError(
            str(path), None, "'provisions' needs 'from' and 'to': the older and the newer edition's document ids"
        )
    provisions = Provisions(
        from_doc,
        to_doc,
        frozenset(_law_range(str((section.get("reviewed") or {}).get("laws", "")), str(path))),
        source=str(path),
    )
    for entry, line in zip(section.get("decisions") or [], lines):
        decision = _decision(entry, str(path), line)
        if decision.from_ref in provisions.decisions:
            raise ParseError(
                str(path),
                line,
                f"1997 {decision.from_ref} is decided twice "
                f"(first at line {provisions.decisions[decision.from_ref].line})",
            )
        provisions.decisions[decision.from_ref] = decision
    confirmed = section.get("confirmed") or {}
    if not isinstance(confirmed, dict):
        raise ParseError(str(path), None, "'provisions.confirmed' maps a 1997 ref to why its number was kept")
    for ref, reason in confirmed.items():
        if parse_law_ref(str(ref)) is None or not str(reason or "").strip():
            raise ParseError(str(path), None, f"confirmed {ref!r}: a law ref with a reason")
        if str(ref) in provisions.decisions:
            raise ParseError(
                str(path), provisions.decisions[str(ref)].line, f"1997 {ref} is both decided and confirmed"
            )
        provisions.confirmed[str(ref)] = " ".join(str(reason).split())
    for move in concordance.between(from_doc, to_doc) if concordance else []:
        if move.kind == "new" and move.to_ref:
            provisions.new_notes[move.to_ref] = f"{move.note} (concordance: {move.id})"
        if move.kind in ("moved", "removed") and move.from_ref and move.from_ref not in provisions.decisions:
            provisions.decisions[move.from_ref] = Decision(
                move.from_ref,
                (move.to_ref,) if move.kind == "moved" else (),
                move.kind,
                f"{move.note} (concordance: {move.id})",
            )
    return provisions


DECISION_LINE = re.compile(r"^\s*-\s*\{?\s*from\s*:", re.M)


def _read_with_lines(path: Path) -> tuple[dict, list[int]]:
    """The file's data (parsed once per build, shared with ingest.editions.align) and the line each decision
    starts on: every decision begins `- {from:` or `- from:` (the moves above use `- id:`)."""
    data = read_yaml(path) or {}  # bad YAML is a ParseError with its line (ingest.sources.corpus)
    if not isinstance(data, dict):
        raise ParseError(str(path), 1, "expected a mapping with 'moves' and 'provisions'")
    text = path.read_text(encoding="utf-8")
    return data, [text.count("\n", 0, m.start()) + 1 for m in DECISION_LINE.finditer(text)]


def _law_range(text: str, source: str) -> list[int]:
    laws: list[int] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        low, _, high = part.partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            raise ParseError(source, None, f"reviewed laws {text!r}: expected numbers and ranges like '1-52'")
        laws += range(int(low), int(high or low) + 1)
    return laws


def _decision(entry, source: str, line: int | None) -> Decision:
    if not isinstance(entry, dict) or "from" not in entry or "to" not in entry:
        raise ParseError(
            source, line, "each decision is a mapping with from, to (a ref, a list of refs or null) and reason"
        )
    from_ref, to = str(entry["from"]), entry["to"]
    to_refs = tuple(str(r) for r in (to if isinstance(to, list) else [] if to is None else [to]))
    relation, reason = entry.get("relation"), " ".join(str(entry.get("reason") or "").split())
    for ref in (from_ref, *to_refs):
        if parse_law_ref(ref) is None:
            raise ParseError(source, line, f"{ref!r} is not a law ref like 61, 61B, 61B2(a)")
    if relation is not None and relation not in DECIDED_RELATIONS:
        raise ParseError(source, line, f"relation {relation!r}: one of {', '.join(DECIDED_RELATIONS)}")
    if not reason:
        raise ParseError(source, line, f"decision for 1997 {from_ref} has no reason")
    if (relation == "removed") != (not to_refs):
        raise ParseError(source, line, f"decision for 1997 {from_ref}: 'to: null' and 'relation: removed' go together")
    return Decision(from_ref, to_refs, relation, reason, line)


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
    law = law_number(unit.ref)
    reviewed = law in provisions.reviewed_laws
    decision = provisions.decisions.get(unit.ref)
    base = {
        "from_doc": old.doc,
        "to_doc": new.doc,
        "from_id": unit.id,
        "from_ref": unit.ref,
        "from_law": law,
        "_evidence": {"proposed": proposed, "number": unit.ref if unit.ref in new.by_ref else None},
    }
    if decision is None:
        decision = inherited(unit.ref, provisions)
    if decision is not None:
        basis = "reviewed" if reviewed or decision.line is None else "content"
        if not decision.to_refs:
            return [
                {
                    **base,
                    "to_id": None,
                    "to_ref": None,
                    "to_law": None,
                    "relation": "removed",
                    "basis": basis,
                    "reason": decision.reason,
                }
            ]
        relation = decision.relation or ("split" if len(decision.to_refs) > 1 else None)
        return [
            {
                **base,
                "to_id": new.by_ref[ref].id,
                "to_ref": ref,
                "to_law": law_number(ref),
                "_decided_relation": relation,
                "basis": basis,
                "reason": decision.reason,
            }
            for ref in decision.to_refs
        ]
    target = unit.ref if unit.ref in new.by_ref else None
    if target is None:
        return [
            {
                **base,
                "to_id": None,
                "to_ref": None,
                "to_law": None,
                "relation": "removed",
                "basis": "reviewed" if reviewed else "content",
                "reason": f"no unit {unit.ref} in {new.doc}, and the reading found none it became",
            }
        ]
    basis = "reviewed" if reviewed else ("content" if proposed == target and score > 0.5 else "number")
    reason = (
        provisions.confirmed.get(unit.ref) or "read in both texts: the same provision"
        if reviewed
        else "the content evidence points at this unit"
        if basis == "content"
        else "paired by number only"
    )
    return [
        {
            **base,
            "to_id": new.by_ref[target].id,
            "to_ref": target,
            "to_law": law_number(target),
            "_decided_relation": None,
            "basis": basis,
            "reason": reason,
        }
    ]


def inherited(ref: str, provisions: Provisions) -> Decision | None:
    """A unit under a removed unit goes with it (1997 11B1 and 11B2 with 11B)."""
    for ancestor in law_ancestors(ref):
        decision = provisions.decisions.get(ancestor)
        if decision is not None and not decision.to_refs:
            return Decision(ref, (), "removed", f"part of 1997 {ancestor}: {decision.reason}", decision.line)
    return None


def relation_of(row: dict, mine: Evidence, theirs: Evidence, went: dict[str, list[str]]) -> dict:
    """same / reworded from the evidence (a decision's relation stands); what was compared."""
    mapped = set()
    for ref in mine.refs:
        mapped.update(went.get(ref) or [ref])
    refs_agree = mapped == set(theirs.refs)
    numbers_agree = set(mine.numbers) == set(theirs.numbers)
    decided = row.get("_decided_relation")
    if decided:
        relation = decided
    elif row["from_ref"] == row["to_ref"] or row["basis"] != "reviewed":
        relation = "same" if refs_agree and numbers_agree and row["basis"] == "reviewed" else "reworded"
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
    return {"relation": relation, "_evidence": evidence}


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
    """2017 units no 1997 unit became: new, or beyond where the 1997 text stops."""
    paired = {row["to_ref"] for row in rows if row["to_ref"]}
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
        if beyond:
            relation, reason = (
                "not_in_source",
                (f"the 1997 text in this corpus stops inside {last_ref}: no 1997 text to compare"),
            )
        else:
            relation = "new"
            reason = provisions.new_notes.get(unit.ref) or next(
                (
                    f"part of 2017 {a}, new: {provisions.new_notes[a]}"
                    for a in law_ancestors(unit.ref)
                    if a in provisions.new_notes
                ),
                "no 1997 unit became this one",
            )
        basis = "reviewed" if law in provisions.reviewed_laws and not beyond else "content"
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
                "reason": reason,
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
    by_basis = {b: sum(1 for row in rows if row["basis"] == b and row["relation"] != "not_in_source") for b in BASES}
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
    }


def relation_words(relation: str) -> str:
    """A relation as a reader sees it (English; the templates translate)."""
    return {
        "same": "the same provision",
        "reworded": "the same provision, reworded",
        "moved": "moved or renumbered",
        "split": "split",
        "merged": "merged",
        "partial": "only in part the same",
        "removed": "removed",
        "new": "new",
        "not_in_source": "no text in the corpus",
    }.get(relation, relation)


# --- the build's use of the table: diffs, flags, histories ----------------------------------------------

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


FLAG_COLUMNS = {
    "id": str,
    "source_id": str,
    "source_doc": str,
    "surface": str,
    "field": str,
    "start": int,
    "end": int,
    "target_id": str,
    "target_ref": str,
    "cited_edition": str,
    "relation": str,
    "now": str,
    "message": str,
}


def moved_reference_flags(
    xrefs: list[dict], pairs: list[dict], provisions: Provisions, regulation_flags: list[dict]
) -> list[dict]:
    """References printed in a document older than the 2017 Laws to a provision that has moved:

    * the 1997 Laws citing their own units (第23条 in 1997 24B is the damaging pass, now 2017 72C);
    * documents written before the 2017 Laws took effect citing a number the concordance says was
      reused (付表7-4's 「23条」: ``ingest.editions.diff.edition_flags``).

    Each flag says where the provision is now (``now``: JSON list of {id, ref, relation})."""
    went: dict[str, list[dict]] = {}
    for pair in pairs:
        if pair["from_ref"]:
            went.setdefault(pair["from_ref"], []).append(pair)
    flags = []
    for xref in xrefs:
        if not (
            xref.get("resolved")
            and xref["source_id"].startswith(provisions.from_doc + ":")
            and xref.get("target_doc") == provisions.from_doc
            and xref.get("target_ref") in went
        ):
            continue
        ref = xref["target_ref"]
        now = [p for p in went[ref] if p["to_ref"]]
        if any(p["to_ref"] == ref for p in now):
            continue  # still under its own number (a split or a partial keeps it): not moved
        relation = went[ref][0]["relation"]
        where = ", ".join(p["to_ref"] for p in now) or "nowhere (removed)"
        flags.append(
            {
                **_flag_base(xref),
                "cited_edition": "1997",
                "relation": relation,
                "now": json.dumps(
                    [{"id": p["to_id"], "ref": p["to_ref"], "relation": p["relation"]} for p in now], ensure_ascii=False
                ),
                "message": f"1997 {ref} is 2017 {where} ({relation_words(relation)}): {went[ref][0]['reason']}",
            }
        )
    for flag in regulation_flags:
        doc, _, ref = flag["now_at"].partition(":")
        flags.append(
            {
                **_flag_base(flag),
                "cited_edition": flag.get("cited_edition"),
                "relation": "moved",
                "target_ref": flag["target_ref"],
                "now": json.dumps([{"id": flag["now_at"], "ref": ref, "relation": "moved"}], ensure_ascii=False),
                "message": flag["message"],
            }
        )
    for number, flag in enumerate(flags, start=1):
        flag["id"] = number
    return flags


def _flag_base(xref: dict) -> dict:
    return {
        "source_id": xref["source_id"],
        "source_doc": xref["source_id"].split(":", 1)[0],
        "surface": xref["surface"],
        "field": xref.get("field"),
        "start": xref.get("start"),
        "end": xref.get("end"),
        "target_id": xref.get("target_id"),
        "target_ref": xref.get("target_ref"),
    }


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
