"""The shape each corpus YAML file must have, checked on its nodes so an error names the line.

A file of the wrong shape stops the build: an errata file whose fixes are not under ``errata:``
would otherwise be ignored and its corrections dropped, and a list where a mapping belongs ends
in a traceback deep in the build.
"""

from __future__ import annotations

import yaml

from ingest.parsers.records import ParseError

LIST_OF_MAPPINGS = "a list of mappings"
MAPPING = "a mapping"
MAPPING_OF_MAPPINGS = "a mapping of mappings"
MAPPING_OF_LISTS = "a mapping of lists"


class Shape:
    """Top-level keys of one file: which must be there, what each holds, whether others may be; `then`
    checks further what the keys hold (source, {key: node})."""

    def __init__(self, keys: dict[str, str], required: tuple[str, ...] = (), closed: bool = False, then=None):
        self.keys, self.required, self.closed, self.then = keys, required, closed, then


# the languages a spoken form of the director vocabulary is in (vocabulary.yml: spoken: {ja: [...], en: [...]})
SPOKEN_LANGUAGES = ("ja", "zh", "en")


def check_spoken_languages(source: str, present: dict) -> None:
    """vocabulary.yml: each entry's spoken forms listed under the language they are in, so the site marks
    them (lang=) from the data, never by guessing from the script (点差 is Japanese, 有局 Chinese)."""
    entries = present.get("entries")
    for entry in entries.value if isinstance(entries, yaml.SequenceNode) else ():
        for key, value in entry.value:
            if not (isinstance(key, yaml.ScalarNode) and key.value == "spoken") or is_null(value):
                continue
            if not isinstance(value, yaml.MappingNode):
                raise ParseError(
                    source,
                    value.start_mark.line + 1,
                    "'spoken' must list the forms under their language: spoken: {ja: [ペナカ], zh: [罚张], en: [LOOT]}",
                )
            for language, forms in value.value:
                if not (isinstance(language, yaml.ScalarNode) and language.value in SPOKEN_LANGUAGES):
                    name = language.value if isinstance(language, yaml.ScalarNode) else "?"
                    raise ParseError(
                        source,
                        language.start_mark.line + 1,
                        f"spoken: unknown language {name!r}; use {', '.join(SPOKEN_LANGUAGES)}",
                    )
                if not isinstance(forms, yaml.SequenceNode) or not all(
                    isinstance(form, yaml.ScalarNode) and form.value for form in forms.value
                ):
                    raise ParseError(
                        source, forms.start_mark.line + 1, f"spoken {language.value}: must be a list of words"
                    )


ERRATA = Shape(
    {"errata": LIST_OF_MAPPINGS, "as_printed": LIST_OF_MAPPINGS, "not_kept": LIST_OF_MAPPINGS},
    required=("errata",),
    closed=True,
)
# by file name in corpus/ (errata/<doc-id>.yml is ERRATA)
SHAPES = {
    "sources.yml": Shape({"documents": LIST_OF_MAPPINGS}, required=("documents",), closed=True),
    "glossary.yml": Shape({"terms": LIST_OF_MAPPINGS}),
    "variants.yml": Shape({"variants": MAPPING_OF_LISTS}),
    "vocabulary.yml": Shape({"sources": MAPPING, "entries": LIST_OF_MAPPINGS}, then=check_spoken_languages),
    "concordance.yml": Shape({"in_force": MAPPING_OF_MAPPINGS, "moves": LIST_OF_MAPPINGS}),
}


def check_shape(source: str, node, shape: Shape | None) -> None:
    """ParseError (file and line) unless the document ``node`` has ``shape``."""
    if shape is None:
        return
    if not isinstance(node, yaml.MappingNode):
        line = node.start_mark.line + 1 if node is not None else None
        expected = ", ".join(f"'{key}:'" for key in shape.required or shape.keys)
        raise ParseError(source, line, f"expected a mapping with {expected} at the top")
    present = {}
    for key, value in node.value:
        name = key.value if isinstance(key, yaml.ScalarNode) else None
        if name not in shape.keys:
            if shape.closed:
                raise ParseError(
                    source, key.start_mark.line + 1, f"unknown key {name!r}; this file has {', '.join(shape.keys)}"
                )
            continue
        present[name] = value
        check_value(source, name, value, shape.keys[name])
    if shape.then:
        shape.then(source, present)
    for name in shape.required:
        if name not in present:
            raise ParseError(
                source,
                None,
                f"no '{name}:' {shape.keys[name].replace('a ', '', 1)}; "
                f"expected a mapping with '{name}:' at the top (`{name}: []` if empty)",
            )


def check_value(source: str, name: str, value, kind: str) -> None:
    if is_null(value):
        return
    outer = yaml.SequenceNode if kind == LIST_OF_MAPPINGS else yaml.MappingNode
    inner = {
        LIST_OF_MAPPINGS: yaml.MappingNode,
        MAPPING_OF_MAPPINGS: yaml.MappingNode,
        MAPPING_OF_LISTS: yaml.SequenceNode,
    }.get(kind)
    if not isinstance(value, outer):
        raise ParseError(source, value.start_mark.line + 1, f"'{name}' must be {kind}")
    if inner is None:
        return
    items = value.value if outer is yaml.SequenceNode else [item for _, item in value.value]
    for item in items:
        if not isinstance(item, inner) and not (inner is yaml.SequenceNode and is_null(item)):
            raise ParseError(source, item.start_mark.line + 1, f"'{name}' must be {kind}: this item is not")


def is_null(node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null"
