"""References printed against an older edition, pointed where the provision they mean is now.

The 2016 regulations' 付表7-4 says 「23条が適用される」: written before the 2017 Laws took effect, its
23条 is the damaging-pass rule, which the 2017 Laws moved to Law 72C (and whose number 23 they
reused for the comparable call). The resolver (ingest/references/xrefs.py) reads numbers as the current Laws
print them, so its row names 2017 Law 23; `ingest.editions.edition_flags.flags_for` knows from corpus/concordance.yml
that this number changed meaning. The build flags such a reference (table edition_flags, made from
the rows as resolved) and then points the row itself at the provision meant, so that every reader
of table `xrefs` agrees with the pages: the link on the regulation, "cited by" on 2017 Law 23 (not
listed) and 72C (listed), the references in unit JSON, `bridge-laws refs`, search's citing units.

The row keeps its id (made from the number as printed) and says what it was re-pointed from in
`as_printed_ref` (the ref the printed number names in `target_doc`: `23`).
"""

from __future__ import annotations


def repoint(xrefs: list[dict], flags: list[dict]) -> int:
    """Point each flagged reference's row (``flags``: ``ingest.editions.edition_flags.flags_for``'s, each with the
    place of the reference and ``now_at``, the unit meant now) at that unit, in place. Returns how
    many rows changed. A flag whose row is not found, or whose unit is in another document, changes
    nothing: a reference never leaves the document it names."""
    by_place = {(f["source_id"], f.get("field"), f.get("start"), f["target_ref"]): f for f in flags if f.get("now_at")}
    changed = 0
    for xref in xrefs:
        flag = by_place.get((xref["source_id"], xref.get("field"), xref.get("start"), xref.get("target_ref")))
        if flag is None or not xref.get("resolved"):
            continue
        doc, _, ref = flag["now_at"].partition(":")
        if doc != xref.get("target_doc") or not ref:
            continue
        xref.update(as_printed_ref=xref["target_ref"], target_ref=ref, target_id=flag["now_at"])
        changed += 1
    return changed
