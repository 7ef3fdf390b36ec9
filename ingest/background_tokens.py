"""Index tokens for the build, most of them made in a forked child while the parent works on.

Tokenizing is the largest part of a build and a single CPU's work; the machine has two. A forked
child inherits the loaded Sudachi dictionary and the katakana variants in force (no second load)
and starts on a document's texts as soon as that document is parsed (`add`), while the parent
parses the next one, then resolves cross-references, aligns and diffs. The child hands back plain
strings and packed token offsets. Where forking is unsafe (other threads running, no `fork` start
method) the parent does all the work itself: same result, one core.
"""
from __future__ import annotations

import multiprocessing
import threading
from typing import Iterable

from . import tokenize

Key = tuple[str | None, str]  # (text, lang)
CHILD_TIMEOUT_S = 600
# The parent has the other documents to parse and cross-references, alignments, glossary and diffs
# to make (~0.8 s) before it turns to its own texts, so the child takes all but one text in
# PARENT_EVERY (benchmarks/RESULTS.md has the measurements behind the number).
PARENT_EVERY = 8


def tokenize_all(keys: list[Key]) -> dict[Key, tuple[str, bytes]]:
    """(text, lang) -> (the FTS column, its tokens' packed offsets in the text)."""
    return {key: tokenize.index_tokens_and_offsets(*key) for key in keys}


def can_fork() -> bool:
    # forking a process that runs other threads can copy a held lock into the child
    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


class BackgroundTokens:
    """`add` the distinct (text, lang) keys as they come; `result()` returns the tokens of all of them."""

    def __init__(self, keys: Iterable[Key] = (), parallel: bool | None = None):
        self.parallel = parallel if parallel is not None else can_fork()
        self.pool = None
        self.pending = []
        self.own_keys: list[Key] = []
        self.seen: set[Key] = set()
        self.add(keys)

    def add(self, keys: Iterable[Key]) -> None:
        fresh = [key for key in dict.fromkeys(keys) if key not in self.seen]
        if not fresh:
            return
        self.seen.update(fresh)
        if not self.parallel:
            self.own_keys += fresh
            return
        if self.pool is None:
            tokenize.warm()  # load the dictionaries before the fork, so the child inherits them
            self.pool = multiprocessing.get_context("fork").Pool(1)
        ordered = sorted(fresh, key=lambda key: (-len(key[0] or ""), key[0] or "", key[1]))
        self.own_keys += ordered[PARENT_EVERY - 1::PARENT_EVERY]
        child_keys = [key for n, key in enumerate(ordered) if n % PARENT_EVERY != PARENT_EVERY - 1]
        self.pending.append(self.pool.apply_async(tokenize_all, (child_keys,)))

    def result(self) -> dict[Key, tuple[str, bytes]]:
        try:
            tokens = tokenize_all(self.own_keys)
            for pending in self.pending:
                tokens.update(pending.get(timeout=CHILD_TIMEOUT_S))
            return tokens
        finally:
            self.close()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None
