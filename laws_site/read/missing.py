"""What the page of a unit no document has offers instead (pages/unit.py's 404): the nearest refs of
its document, and for an earlier edition of the Laws the same provision in the current Laws - the
1997 text in the corpus stops inside Law 52A, so /laws-1997-zh/61 once offered only 第51条, 第41条,
第31条... although 規則 2017 has Law 61."""

from __future__ import annotations

from ingest.text.refs import law_number
from ingest.text.spelling import candidate_refs, canonical_ref
from laws_site.read import queries
from laws_site.read.units import labels, nearest_refs, permalink

MAX_SUGGESTIONS = 8


def offered(conn, doc: str, ref: str, refs: list[str], lang: str) -> list[dict]:
    """[{label (the ref), url, name (as people read it)}], the current Laws' provision first (with
    its `doc`, and named with its document: 「規則 2017: 第61条」)."""
    near = suggest(conn, doc, ref, refs)
    if refs:  # a known document: each ref named in the interface language (第9条 / Law 9)
        names = labels(conn, [f"{doc}:{s['label']}" for s in near], lang)
        for s in near:
            s["name"] = names.get(f"{doc}:{s['label']}")
    current = in_current_laws(conn, doc, ref)
    if current:
        current_doc, current_ref = current
        name = labels(conn, [f"{current_doc}:{current_ref}"], lang, full=True).get(f"{current_doc}:{current_ref}")
        near.insert(
            0, {"label": current_ref, "url": permalink(current_doc, current_ref), "name": name, "doc": current_doc}
        )
    return near


def suggest(conn, doc: str, ref: str, refs: list[str]) -> list[dict]:
    """Nearest existing refs: close spellings, then the enclosing law of a too-deep ref."""
    existing = set(refs)
    role = (queries.document(conn, doc) or {}).get("kind", "")
    near = [c for c in candidate_refs(role, ref) if c in existing] + nearest_refs(conn, doc, ref)
    law = law_number(ref)
    if law is not None and str(law) in existing:
        near.append(str(law))
    if not refs:  # unknown document: nearest_refs names documents instead
        return [{"label": s, "url": f"/{s.removeprefix('document ')}"} for s in near]
    return [{"label": r, "url": permalink(doc, r)} for r in dict.fromkeys(near) if r in existing][:MAX_SUGGESTIONS]


def in_current_laws(conn, doc: str, ref: str) -> tuple[str, str] | None:
    """(current Laws' id, ref) of the provision an earlier edition's missing ref names, in any
    spelling the permalink takes (61, 第61条); None for any other document or a ref neither has."""
    registry = queries.registry(conn)
    document, current = registry.get(doc), registry.current_laws
    if document is None or current is None or document.role != "laws" or document.id == current.id:
        return None
    refs = queries.doc_refs(conn, current.id)
    found = ref if ref in set(refs) else canonical_ref(current.role, ref, refs)
    return (current.id, found) if found else None
