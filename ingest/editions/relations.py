"""What became of a provision between two editions (table provision_pairs' ``relation``), and how a
reader is told it: the one list of relations, read by the build (concordance.py, history.py) and
by the site (laws_site/read: diffs, editions).
"""

from __future__ import annotations

RELATIONS = ("same", "reworded", "moved", "split", "merged", "partial", "removed", "new", "not_in_source")


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
