"""The corpus's YAML files parsed in a forked child while the build's own process is still importing
its modules: `bridge-laws build` starts one before it imports the build, when one of the machine's
two cores has nothing else to do. Reading the corpus's YAML is ~0.1 s of CPU (vocabulary.yml alone
0.04 s), else spent by the build's process on its critical path.

The child parses each file exactly as `ingest.sources.corpus` would (the same functions: bounds, shape,
errata lines) and sends it through a pipe, in the order the build asks for them; `ingest.sources.corpus`
takes a file from here when its path, modification time and size are those the child read, and
parses it itself otherwise. A file the child cannot parse is not sent: the build reads it and
reports the error, with its line, as it always did.
"""

from __future__ import annotations

import fcntl
import os
import pickle
from pathlib import Path
from typing import Any

from ingest.build.forking import can_fork, close_child, enter_child, read_exactly, write_all
from ingest.sources import corpus

Item = tuple[str, tuple]  # ("yaml" or "errata", the file's cache key in ingest.sources.corpus)
FIRST = ("sources.yml", "variants.yml")  # what the build reads first, with the errata


def corpus_files(corpus_dir: Path) -> list[tuple[str, Path]]:
    """(kind, path) of every YAML file of the corpus, in the order the build reads them."""
    top = sorted(Path(corpus_dir).glob("*.yml"), key=lambda path: (path.name not in FIRST, path.name))
    errata = [("errata", path) for path in sorted((Path(corpus_dir) / "errata").glob("*.yml"))]
    ordered = [("yaml", path) for path in top]
    return ordered[:1] + errata + ordered[1:]


def parsed(kind: str, key: tuple) -> Any:
    """What ingest.sources.corpus caches for this file (the same function it calls)."""
    return corpus.parsed_errata(*key) if kind == "errata" else corpus.parsed_yaml(*key)


class YamlPrefetch:
    """A forked child parsing the corpus's YAML files; `wait_for(item)` (ingest.sources.corpus asks)
    receives what it sent until that file has come, if the child announced it."""

    def __init__(self, corpus_dir: Path):
        files = [(kind, path) for kind, path in corpus_files(corpus_dir) if path.is_file()]
        self.announced: list[Item] = [(kind, corpus.cache_key(path)) for kind, path in files]
        self.received: dict[Item, Any] = {}
        self.owner = os.getpid()  # the build's later children inherit this object, not the right to read
        read_end, write_end = os.pipe()
        try:  # room for every file, so that the child is done and gone whenever the build reads
            fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, 1 << 20)
        except (AttributeError, OSError):
            pass
        self.pid: int | None = os.fork()
        if self.pid == 0:
            status = 1
            try:
                enter_child()
                os.close(read_end)
                for item in self.announced:
                    try:
                        value = parsed(*item)
                    except Exception:  # noqa: BLE001 - not sent: the build parses it and reports the error
                        continue
                    send(write_end, item, value)
                status = 0
            finally:
                os._exit(status)
        os.close(write_end)
        self.pipe: int | None = read_end

    def wait_for(self, item: Item) -> Any:
        """The file's parsed data, or corpus.NOT_SENT if the child does not send it. Only the process
        that started the child reads the pipe: a later child of the build reading it too would take
        messages the build waits for, or half of one; it gets what had come before it was forked."""
        while (
            item not in self.received and self.pipe is not None and item in self.announced and os.getpid() == self.owner
        ):
            sent = receive(self.pipe)
            if sent is None:  # the child is done (or failed): the rest is parsed here
                self.close()
                break
            self.received.update([sent])
        return self.received.get(item, corpus.NOT_SENT)

    def close(self) -> None:
        close_child(self.pipe, self.pid)
        self.pipe = self.pid = None


def send(fd: int, item: Item, value: Any) -> None:
    payload = pickle.dumps((item, value), protocol=pickle.HIGHEST_PROTOCOL)
    write_all(fd, len(payload).to_bytes(8, "little") + payload)


def receive(fd: int) -> tuple[Item, Any] | None:
    head = read_exactly(fd, 8)
    if len(head) < 8:
        return None
    size = int.from_bytes(head, "little")
    payload = read_exactly(fd, size)
    return pickle.loads(payload) if len(payload) == size else None


def start(corpus_dir: Path) -> YamlPrefetch | None:
    """A prefetch that ingest.sources.corpus uses from now on; None where forking is unsafe or the corpus
    directory cannot be listed (the build then reads every file itself, and reports what it must)."""
    if not can_fork():
        return None
    try:
        prefetch = YamlPrefetch(corpus_dir)
    except OSError:
        return None
    corpus.use_prefetch(prefetch.wait_for)
    return prefetch


def stop(prefetch: YamlPrefetch | None) -> None:
    corpus.use_prefetch(None)
    if prefetch is not None:
        prefetch.close()
