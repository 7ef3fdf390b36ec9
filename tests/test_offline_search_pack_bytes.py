"""The search pack is the same bytes whatever Python's string hashing: a set iterated while making a
table (the honour letters of 黑桃A, a frozenset) put its rows in a per-process order, and the "same packs
twice" check failed when its two processes happened to hash alike or not. Here three fixed seeds, on the
export itself (slow tier: ~10 s)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import pytest

EXPORT = """
import hashlib, json, sqlite3, sys
from laws_site.offline import search_data
conn = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
text = json.dumps(search_data.export(conn, "build"), ensure_ascii=False)
print(hashlib.sha256(text.encode()).hexdigest())
"""


@pytest.mark.slow
def test_the_search_export_does_not_depend_on_string_hashing(laws_db_path):
    digests = {
        subprocess.run(
            [sys.executable, "-c", EXPORT, str(laws_db_path)],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for seed in ("1", "2", "3")
    }
    assert len(digests) == 1, digests
    assert all(len(d) == len(hashlib.sha256().hexdigest()) for d in digests)
