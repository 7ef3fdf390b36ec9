"""Index tokens for the build, half of them made in a forked child while the parent works on.

Tokenizing is the largest part of a build and a single CPU's work; the machine has two. A forked
child inherits the loaded Sudachi dictionary and the katakana variants in force (no second load),
takes every other text, and hands back plain strings and packed token offsets. Where forking is unsafe (other threads running, no `fork` start method) the
parent does all the work itself: same result, one core.
"""
from __future__ import annotations

import multiprocessing
import threading

from . import tokenize

Key = tuple[str | None, str]  # (text, lang)
CHILD_TIMEOUT_S = 600


def tokenize_all(keys: list[Key]) -> dict[Key, tuple[str, bytes]]:
    """(text, lang) -> (the FTS column, its tokens' packed offsets in the text)."""
    return {key: tokenize.index_tokens_and_offsets(*key) for key in keys}


def can_fork() -> bool:
    # forking a process that runs other threads can copy a held lock into the child
    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


class BackgroundTokens:
    """Start with the distinct (text, lang) keys; `result()` returns the tokens of all of them."""

    def __init__(self, keys: set[Key], parallel: bool | None = None):
        ordered = sorted(keys, key=lambda key: (-len(key[0] or ""), key[0] or "", key[1]))
        self.pool = None
        self.own_keys = ordered
        if parallel if parallel is not None else can_fork():
            tokenize.warm()  # load the dictionaries before the fork, so the child inherits them
            self.own_keys, child_keys = ordered[1::2], ordered[0::2]
            self.pool = multiprocessing.get_context("fork").Pool(1)
            self.pending = self.pool.apply_async(tokenize_all, (child_keys,))

    def result(self) -> dict[Key, tuple[str, bytes]]:
        try:
            tokens = tokenize_all(self.own_keys)
            if self.pool is not None:
                tokens.update(self.pending.get(timeout=CHILD_TIMEOUT_S))
            return tokens
        finally:
            self.close()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None
