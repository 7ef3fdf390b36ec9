"""Corpus YAML read within bounds: what a small file may not do to the build.

PyYAML's safe loader still expands aliases of lists and mappings (nine anchors of nine aliases
each made a 2 KB errata file take 25 s and 2.2 GB before a MemoryError) and libyaml's composer
recurses once per nesting level (50,000 ``[`` crash the interpreter). Before anything is composed,
the file's events are scanned - libyaml's parser keeps its own stack, so the scan itself is safe -
and refused, with the line, when:

- a list or mapping carries an anchor (only single values may: the corpus shares a long
  ``reason:`` that way, and an alias of a string costs nothing);
- there are more than MAX_ALIASES aliases, or nesting deeper than MAX_DEPTH;
- a plain number has more digits than Python converts (``int()`` refuses 4,300 and more).
"""

from __future__ import annotations

import re

import yaml

# libyaml's loader when present: the pure-Python one is a tenth of the build's time
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_DEPTH = 32  # the corpus nests 5 deep at most
MAX_ALIASES = 10_000  # the corpus uses ~100
MAX_NUMBER_DIGITS = 100
LONG_NUMBER_RE = re.compile(r"[-+]?[0-9][0-9_]{%d,}" % MAX_NUMBER_DIGITS)


class UnsafeYamlError(yaml.MarkedYAMLError):
    """A well-formed file the build refuses to construct (bounds above); carries the line."""

    def __init__(self, problem: str, mark):
        super().__init__(problem=problem, problem_mark=mark)


def check_events(text: str) -> None:
    """UnsafeYamlError at the first event out of bounds; yaml.YAMLError for a syntax error."""
    loader = LOADER(text)
    scalar, alias = yaml.ScalarEvent, yaml.AliasEvent
    opening, closing = (yaml.SequenceStartEvent, yaml.MappingStartEvent), (yaml.SequenceEndEvent, yaml.MappingEndEvent)
    try:
        depth = aliases = 0
        next_event = loader.get_event  # None after the end of the stream
        while (event := next_event()) is not None:
            kind = type(event)
            if kind is scalar:  # most events: keep this test cheap
                if len(event.value) > MAX_NUMBER_DIGITS and not event.style and LONG_NUMBER_RE.fullmatch(event.value):
                    raise UnsafeYamlError(
                        f"a number of {len(event.value):,} characters (at most {MAX_NUMBER_DIGITS} digits)",
                        event.start_mark,
                    )
            elif kind in opening:
                depth += 1
                if depth > MAX_DEPTH:
                    raise UnsafeYamlError(f"nested deeper than {MAX_DEPTH} levels", event.start_mark)
                if event.anchor is not None:
                    what = "list" if kind is yaml.SequenceStartEvent else "mapping"
                    raise UnsafeYamlError(
                        f"anchor &{event.anchor} on a {what}: only single values may be "
                        f"anchored and repeated with *{event.anchor}",
                        event.start_mark,
                    )
            elif kind in closing:
                depth -= 1
            elif kind is alias:
                aliases += 1
                if aliases > MAX_ALIASES:
                    raise UnsafeYamlError(f"more than {MAX_ALIASES:,} aliases", event.start_mark)
    finally:
        loader.dispose()


def load(text: str):
    """The data of one YAML document, after check_events."""
    check_events(text)
    return yaml.load(text, Loader=LOADER)


def load_with_node(text: str):
    """(data, root node) of one YAML document after check_events: the nodes carry line numbers."""
    check_events(text)
    loader = LOADER(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    return data, node
