"""ingest/fast_regex.py: the regular expressions compile to the same code, faster."""
from __future__ import annotations

import re
import re._compiler as compiler
import re._parser as parser
import sys
import time

import pytest

import ingest  # noqa: F401  (installs the faster function)
from ingest import fast_regex

EDGE_CASES = [
    r"[\u3400-\u9fff\uf900-\ufaff]", r"[^\W_\u3040-\u30ff\u3400-\u9fff]+", r"[a-z]", r"[\x00-\xff]",
    r"[\xf0-\u0105]", r"[\u00ff-\u0100]", r"[\U00010000-\U0010ffff]", r"[\ud000-\U00010010]",
    r"[\ue000-\U0010ffff\x85]", r"[^\t\n\r -~\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]",
    r"[a-cx-z0-9\u3000]", r"[一-鿿]{1,8}", r"[A-Zａ-ｚ]", r"(?i)[a-zß-ÿ\u0400-\u04ff]", r"(?i)[\u3400-\u9fff]",
    r"[\u0100-\u01ff\u0300-\u03ff]", r"[\x00-\U0010ffff]", r"[^\x00-\x7f]",
]


def build_patterns() -> list[tuple[str, int]]:
    """The patterns the parsers use (every corpus document parsed: re's cache of patterns compiled
    inline) and every compiled pattern held at module level by the project's modules."""
    from ingest.corpus import DEFAULT_CORPUS, load_sources
    from ingest.documents import parse_document

    re.purge()
    for source in load_sources(DEFAULT_CORPUS):
        parse_document(source.id, source.text, source.name, source.parser)
    found = [(key[1], key[2]) for key in getattr(re, "_cache", {}) if isinstance(key[1], str)]
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in ("ingest", "laws_site"):
            for value in vars(module).values():
                if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                    found.append((value.pattern, value.flags))
    return found


def code_of(pattern: str, flags: int) -> list[int]:
    return compiler._code(parser.parse(pattern, flags), flags)


def test_every_pattern_compiles_to_the_same_code():
    patterns = [(p, 0) for p in EDGE_CASES] + build_patterns()
    assert len(patterns) > 200
    assert compiler._optimize_charset is not fast_regex.ORIGINAL, "installed on import of ingest"
    faster = [code_of(p, f) for p, f in patterns]
    fast_regex.uninstall()
    try:
        original = [code_of(p, f) for p, f in patterns]
    finally:
        assert fast_regex.install()
    assert [p for (p, _), a, b in zip(patterns, faster, original) if a != b] == []


def test_it_is_faster():
    pattern = r"(?<=[\u3040-\u30ff\u3400-\u9fff\uff01-\uff60])[ \u3000](?=[\u3040-\u30ff\u3400-\u9fff])"
    flags = re.compile(pattern).flags

    def seconds() -> float:
        started = time.process_time()
        for _ in range(20):
            code_of(pattern, flags)
        return time.process_time() - started
    faster = min(seconds() for _ in range(3))
    fast_regex.uninstall()
    try:
        original = min(seconds() for _ in range(3))
    finally:
        fast_regex.install()
    assert faster < original / 2


def test_other_source_is_left_alone(monkeypatch):
    monkeypatch.setattr(fast_regex, "LOOP", "no such text in the standard library\n")
    fast_regex.uninstall()
    try:
        assert fast_regex.install() is False
        assert compiler._optimize_charset is fast_regex.ORIGINAL
    finally:
        monkeypatch.undo()
        assert fast_regex.install()
