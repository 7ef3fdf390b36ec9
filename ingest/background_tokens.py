"""Work of the build done in forked children while the parent goes on: most of the tokenizing,
and any other step whose inputs are ready (`Forked`: the build runs its diffs this way).

Tokenizing is the largest part of a build and a single CPU's work; the machine has two. A forked
child inherits the loaded Sudachi dictionary and the katakana variants in force (no second load)
and starts on a document's texts as soon as that document is parsed (`add`: one child per
document), while the parent parses the next one, then resolves cross-references, aligns and makes
the glossary. Each child hands back plain data, pickled through a pipe. Where forking is unsafe
(other threads running, no `fork`) the parent does all the work itself: same result, one core.
A child that fails or dies is not trusted: the parent does that part itself (and so raises the
same error with its real traceback).
"""
from __future__ import annotations

import gc
import os
import pickle
import signal
import threading
from typing import Any, Callable, Iterable

from . import tokenize

Key = tuple[str | None, str]  # (text, lang)
# The parent has the other documents to parse and cross-references, alignments, glossary and diffs
# to make before it turns to its own texts, so the children take all but one text in
# PARENT_EVERY (benchmarks/RESULTS.md has the measurements behind the number).
PARENT_EVERY = 8
MIN_CHILD_CHARS = 30_000  # laws-2017-ja has 71,000 characters of texts, the others 10,000-19,000


def tokenize_all(keys: list[Key]) -> dict[Key, tuple[str, bytes]]:
    """(text, lang) -> (the FTS column, its tokens' packed offsets in the text)."""
    return {key: tokenize.index_tokens_and_offsets(*key) for key in keys}


def can_fork() -> bool:
    # forking a process that runs other threads can copy a held lock into the child
    return hasattr(os, "fork") and threading.active_count() == 1


_UNSET = object()


class Forked:
    """``fn(*args)`` computed in a forked child from now on; ``result()`` waits for it and returns
    it (or computes it here when there is no child, or the child failed)."""

    def __init__(self, fn: Callable[..., Any], *args: Any, parallel: bool | None = None):
        self.fn, self.args = fn, args
        self.value: Any = _UNSET
        self.pid: int | None = None
        self.pipe: int | None = None
        if parallel if parallel is not None else can_fork():
            self._start()

    def _start(self) -> None:
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: compute, send, and leave without running any of the parent's code
            status = 1
            try:
                gc.disable()  # short-lived: a collection would only copy the parent's pages (copy-on-write)
                os.close(read_end)
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                payload = pickle.dumps(self.fn(*self.args), protocol=pickle.HIGHEST_PROTOCOL)
                view = memoryview(payload)
                while view:
                    view = view[os.write(write_end, view):]
                status = 0
            finally:
                os._exit(status)
        os.close(write_end)
        self.pid, self.pipe = pid, read_end

    def result(self) -> Any:
        if self.value is _UNSET:
            payload = self._receive()
            self.value = pickle.loads(payload) if payload else self.fn(*self.args)
        return self.value

    def _receive(self) -> bytes:
        if self.pid is None:
            return b""
        chunks = []
        with open(self.pipe, "rb", closefd=True) as pipe:
            self.pipe = None
            while chunk := pipe.read(1 << 20):
                chunks.append(chunk)
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        return b"".join(chunks) if os.waitstatus_to_exitcode(status) == 0 else b""

    def close(self) -> None:
        """Stop the child if it still runs (the build failed meanwhile)."""
        if self.pipe is not None:
            os.close(self.pipe)
            self.pipe = None
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(self.pid, 0)
            self.pid = None


class BackgroundTokens:
    """`add` the distinct (text, lang) keys as they come; `result()` returns the tokens of all of them.

    A child starts once MIN_CHILD_CHARS of text are waiting (each fork copies page tables and every
    page its child touches: the small documents share one child), and on `flush()`."""

    def __init__(self, keys: Iterable[Key] = (), parallel: bool | None = None):
        self.parallel = parallel if parallel is not None else can_fork()
        self.children: list[Forked] = []
        self.own_keys: list[Key] = []
        self.waiting: list[Key] = []
        self.seen: set[Key] = set()
        self.add(keys)
        self.flush()

    def add(self, keys: Iterable[Key]) -> None:
        fresh = [key for key in dict.fromkeys(keys) if key not in self.seen]
        self.seen.update(fresh)
        if not self.parallel:
            self.own_keys += fresh
            return
        self.waiting += fresh
        if sum(len(text or "") for text, _ in self.waiting) >= MIN_CHILD_CHARS:
            self.flush()

    def flush(self) -> None:
        """Start a child on the keys waiting, however few."""
        if not self.waiting:
            return
        if not self.children:
            tokenize.warm()  # load the dictionaries before the fork, so the children inherit them
        ordered = sorted(self.waiting, key=lambda key: (-len(key[0] or ""), key[0] or "", key[1]))
        self.waiting = []
        self.own_keys += ordered[PARENT_EVERY - 1::PARENT_EVERY]
        child_keys = [key for n, key in enumerate(ordered) if n % PARENT_EVERY != PARENT_EVERY - 1]
        self.children.append(Forked(tokenize_all, child_keys, parallel=True))

    def result(self) -> dict[Key, tuple[str, bytes]]:
        self.flush()
        try:
            tokens = tokenize_all(self.own_keys)
            for child in self.children:
                tokens.update(child.result())
            return tokens
        finally:
            self.close()

    def close(self) -> None:
        for child in self.children:
            child.close()
        self.children = []
