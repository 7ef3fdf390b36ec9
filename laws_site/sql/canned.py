"""The laws database's canned queries (laws_site/queries.yml), given to Datasette by the plugin.

Datasette 0.65 asks for them through its `canned_queries` hook; the 1.0 line keeps stored queries
in its internal database, where the `startup` hook adds them (compat.add_queries). Either way they
belong to the laws database only, whatever its name (ownership.py).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

QUERIES = Path(__file__).resolve().parents[1] / "queries.yml"


@lru_cache(maxsize=1)
def queries() -> dict[str, dict]:
    import yaml

    return yaml.safe_load(QUERIES.read_text(encoding="utf-8"))["queries"]
