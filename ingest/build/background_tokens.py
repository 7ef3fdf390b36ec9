"""Work of the build done in forked children while the parent goes on: most of the tokenizing,
and any other step whose inputs are ready (`Forked`; `ForkedTables` for a step that makes tables:
the child writes them into a SQLite file of its own, which the build copies from;
`ForkedTablesAwaiting` for one that can start before its last input is ready).

Tokenizing is the largest part of a build and a single CPU's work; the machine has two. A forked
child inherits the loaded Sudachi dictionary and the katakana variants in force (no second load)
and starts on a document's texts as soon as that document is parsed (`add`: one child for
all of them, fed through a pipe), while the parent takes in the next ones, then resolves cross-references
and makes the glossary. Each child hands back plain data, pickled through a pipe. Where forking is unsafe
(other threads running, no `fork`) the parent does all the work itself: same result, one core.
A child that fails or dies is not trusted: the parent does that part itself (and so raises the
same error with its real traceback).
"""

from __future__ import annotations

import fcntl
import io
import os
import pickle
import select
from typing import Any, BinaryIO, Callable, Iterable

from ingest.build.forking import can_fork, close_child, enter_child, stop_child, write_all  # noqa: F401 (tests replace can_fork here)
from ingest.text import tokenize

Key = tuple[str | None, str]  # (text, lang)
# The parent has the other documents to parse and cross-references, alignments, glossary and diffs
# to make before it turns to its own texts, so the children take all but one text in
# PARENT_EVERY (benchmarks/RESULTS.md has the measurements behind the number).
PARENT_EVERY = 8


def tokenize_all(keys: list[Key]) -> dict[Key, tuple[str, bytes]]:
    """(text, lang) -> (the FTS column, its tokens' packed offsets in the text)."""
    return {key: tokenize.index_tokens_and_offsets(*key) for key in keys}


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
                enter_child()
                os.close(read_end)
                write_all(write_end, pickle.dumps(self._child_value(), protocol=pickle.HIGHEST_PROTOCOL))
                status = 0
            finally:
                os._exit(status)
        os.close(write_end)
        self.pid, self.pipe = pid, read_end

    def _child_value(self) -> Any:
        return self.fn(*self.args)

    def done(self) -> bool:
        """Whether `result()` would return without waiting for the child (it has answered)."""
        return self.pid is None or answered(self.pipe)

    def result(self) -> Any:
        if self.value is _UNSET:
            payload = self._receive()
            self.value = pickle.loads(payload) if payload else self.fn(*self.args)
        return self.value

    @staticmethod
    def _read(fd: int) -> bytes:
        """Everything until the writer closes its end; closes fd."""
        chunks = []
        with open(fd, "rb", closefd=True) as pipe:
            while chunk := pipe.read(1 << 20):
                chunks.append(chunk)
        return b"".join(chunks)

    def _receive(self) -> bytes:
        if self.pid is None:
            return b""
        payload, self.pipe = self._read(self.pipe), None
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        return payload if os.waitstatus_to_exitcode(status) == 0 else b""

    def close(self) -> None:
        """Stop the child if it still runs (the build failed meanwhile)."""
        close_child(self.pipe, self.pid)
        self.pipe = self.pid = None


class ForkedTables(Forked):
    """``fn(*args)`` -> ``(tables, extra)``, computed in a forked child that writes ``tables`` (name ->
    rows) into a SQLite file of its own with ``write(path, tables)`` and hands back only ``extra``: the
    parent copies the rows from that file in SQLite (`INSERT ... SELECT`, three times cheaper than
    inserting them from Python, and nothing to unpickle). ``result()`` returns ``(path, extra)``, or
    ``(tables, extra)`` computed here when there is no child or the child failed (a dict, not a path)."""

    def __init__(
        self,
        fn: Callable[..., Any],
        write: Callable[[str, dict], None],
        path: str,
        *args: Any,
        parallel: bool | None = None,
    ):
        self.write, self.path = write, path
        super().__init__(fn, *args, parallel=parallel)

    def _child_value(self) -> Any:
        tables, extra = self.fn(*self.args)
        self.write(self.path, tables)
        return extra

    def result(self) -> tuple[Any, Any]:
        if self.value is _UNSET:
            payload = self._receive()
            self.value = (self.path, pickle.loads(payload)) if payload else self.fn(*self.args)
        return self.value


class ForkedTablesAwaiting(ForkedTables):
    """`ForkedTables` for a step that needs one input more, ready only later: ``fn(*args)`` does what
    it can without it and returns ``(tables, finish)``: the tables it made already, which the child
    writes while it waits, and a function of the input that gives the other ``(tables, extra)``;
    ``supply(value)`` hands the value over (before ``result()``). The value goes through a file
    beside the child's SQLite file and the pipe carries only "it is there": written into a pipe, it
    would stall the parent while the child is still busy (the tokens are more than a pipe holds)."""

    def __init__(
        self,
        fn: Callable[..., Any],
        write: Callable[[str, dict], None],
        path: str,
        *args: Any,
        parallel: bool | None = None,
    ):
        self.late: Any = _UNSET
        self.ready: int | None = None  # the parent's end of the "it is there" pipe
        self._child_ready: int | None = None
        super().__init__(fn, write, path, *args, parallel=parallel)

    def _start(self) -> None:
        self._child_ready, self.ready = os.pipe()
        super()._start()  # only the parent comes back
        os.close(self._child_ready)
        self._child_ready = None

    def _child_value(self) -> Any:
        os.close(self.ready)
        tables_now, finish = self.fn(*self.args)
        if tables_now:  # written now, not after the input comes, when the build waits for this child
            self.write(self.path, tables_now)
        with open(self._child_ready, "rb") as ready:
            if ready.read(1) != b"1":  # the parent closed it without a value: it failed meanwhile
                raise RuntimeError("no input came")
        with open(self.path + ".input", "rb") as handle:
            tables, extra = finish(unpickled_parts(handle))
        self.write(self.path, tables)
        return extra

    def supply(self, value: Any) -> None:
        self.supply_pickled([pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)])

    def supply_pickled(self, parts: list[bytes]) -> None:
        """`supply` the value as it came pickled: one pickle, or several pickled dicts that make it
        merged in order (the tokens: the token child's answer as it came, this process's share),
        so that the child has them without this process pickling them again (~5 ms of its time
        before the child can go on)."""
        self.late = parts
        if self.ready is None:
            return
        try:
            with open(self.path + ".input", "wb") as handle:
                for part in parts:
                    handle.write(part)
            write_all(self.ready, b"1")
        except BrokenPipeError:
            pass  # the child is gone: result() does its work
        finally:
            os.close(self.ready)
            self.ready = None

    def result(self) -> tuple[Any, Any]:
        if self.late is _UNSET:
            raise RuntimeError("supply() the input before asking for the result")
        if self.value is _UNSET:
            payload = self._receive()
            self.value = (self.path, pickle.loads(payload)) if payload else self._here()
        return self.value

    def _here(self) -> tuple[dict, Any]:
        """(tables, extra) made in this process, for a child that failed or died, or none."""
        tables_now, finish = self.fn(*self.args)
        tables, extra = finish(unpickled_parts(io.BytesIO(b"".join(self.late))))
        return {**tables_now, **tables}, extra

    def close(self) -> None:
        if self.ready is not None:
            os.close(self.ready)
            self.ready = None
        super().close()


def answered(pipe: int | None) -> bool:
    """Whether a child's answer pipe has something to read (its answer, or its end)."""
    return pipe is None or bool(select.select([pipe], [], [], 0)[0])


def unpickled_parts(stream: BinaryIO) -> Any:
    """What `ForkedTablesAwaiting.supply_pickled` wrote: its one pickle, or its dicts merged in order."""
    values = []
    while True:
        try:
            values.append(pickle.load(stream))
        except EOFError:
            break
    if len(values) == 1:
        return values[0]
    merged = {}
    for value in values:
        merged.update(value)
    return merged


class TokenChild:
    """One forked child that tokenizes the batches of keys sent to it through a pipe, as they come,
    and answers with all their tokens when told the last one was sent. One fork for all the
    documents: each fork makes the parent copy every page it writes afterwards (copy-on-write)."""

    def __init__(self):
        tasks_in, tasks_out = os.pipe()
        answer_in, answer_out = os.pipe()
        try:  # room for every later document's texts, so that sending never waits for the child
            fcntl.fcntl(tasks_out, fcntl.F_SETPIPE_SZ, 1 << 20)
        except (AttributeError, OSError):
            pass
        self.sent: list[Key] = []
        pid = os.fork()
        if pid == 0:
            status = 1
            try:
                enter_child()
                os.close(tasks_out)
                os.close(answer_in)
                tokens = {}
                with open(tasks_in, "rb") as tasks:
                    while (size := int.from_bytes(tasks.read(8) or b"\xff" * 8, "little")) not in (0, 2**64 - 1):
                        tokens.update(tokenize_all(pickle.loads(tasks.read(size))))
                if size == 0:  # the parent said so: else it is gone
                    write_all(answer_out, pickle.dumps(tokens, protocol=pickle.HIGHEST_PROTOCOL))
                    status = 0
            finally:
                os._exit(status)
        os.close(tasks_in)
        os.close(answer_out)
        self.pid, self.tasks, self.answer = pid, tasks_out, answer_in
        self.payload: bytes | None = None

    def send(self, keys: list[Key]) -> None:
        self.sent += keys
        payload = pickle.dumps(keys, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            write_all(self.tasks, len(payload).to_bytes(8, "little") + payload)
        except BrokenPipeError:
            pass  # the child is gone: result() does its work

    def pickled(self) -> bytes:
        """The tokens of every key sent, pickled: the child's answer as it came (or, from a child
        that failed or died, which is not trusted, made here)."""
        if self.payload is not None:
            return self.payload
        try:
            write_all(self.tasks, (0).to_bytes(8, "little"))
        except BrokenPipeError:
            pass
        os.close(self.tasks)
        self.tasks = None
        payload = Forked._read(self.answer)
        self.answer = None
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        if not payload or os.waitstatus_to_exitcode(status) != 0:
            payload = pickle.dumps(tokenize_all(self.sent), protocol=pickle.HIGHEST_PROTOCOL)
        self.payload = payload
        return payload

    def result(self) -> dict[Key, tuple[str, bytes]]:
        return pickle.loads(self.pickled())

    def close(self) -> None:
        for fd in (self.tasks, self.answer):
            if fd is not None:
                os.close(fd)
        self.tasks = self.answer = None
        stop_child(self.pid)
        self.pid = None


class BackgroundTokens:
    """`add` the distinct (text, lang) keys as they come; `result()` returns the tokens of all of them."""

    def __init__(self, keys: Iterable[Key] = (), parallel: bool | None = None):
        self.parallel = parallel if parallel is not None else can_fork()
        self.child: TokenChild | None = None
        self.parts: list[bytes] | None = None
        self.own: dict[Key, tuple[str, bytes]] | None = None
        self.tokens: dict[Key, tuple[str, bytes]] | None = None
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
        if self.child is None:
            tokenize.warm()  # load the dictionaries before the fork, so the child inherits them
            self.child = TokenChild()
        ordered = sorted(fresh, key=lambda key: (-len(key[0] or ""), key[0] or "", key[1]))
        self.own_keys += ordered[PARENT_EVERY - 1 :: PARENT_EVERY]
        self.child.send([key for n, key in enumerate(ordered) if n % PARENT_EVERY != PARENT_EVERY - 1])

    def tokenize_own(self) -> None:
        """This process's share of the keys, tokenized now (`pickled` does it first if not done)."""
        if self.own is None:
            self.own = tokenize_all(self.own_keys)

    def child_done(self) -> bool:
        """Whether the child has answered (`pickled` would not wait for it), or there is none."""
        return self.child is None or answered(self.child.answer)

    def pickled(self) -> list[bytes]:
        """The tokens of all keys as pickled dicts that `result()` merges in order: this process's
        share, tokenized now, and the child's answer as it came (for a process that needs them
        all, without this one pickling them again: `ForkedTablesAwaiting.supply_pickled`)."""
        if self.parts is None:
            try:
                self.tokenize_own()
                self.parts = [pickle.dumps(self.own, protocol=pickle.HIGHEST_PROTOCOL)]
                if self.child is not None:
                    self.parts.append(self.child.pickled())
            finally:
                self.close()
        return self.parts

    def result(self) -> dict[Key, tuple[str, bytes]]:
        if self.tokens is None:
            parts = self.pickled()
            self.tokens = self.own
            for part in parts[1:]:
                self.tokens.update(pickle.loads(part))
        return self.tokens

    def close(self) -> None:
        if self.child is not None:
            self.child.close()
            self.child = None
