"""Which parser reads which document: the registry's `parser` field names an ingest module."""

from __future__ import annotations

import importlib
from functools import lru_cache

from ingest.parsers.records import ParsedDocument, ParseError

PARSER_MODULES = ("laws_ja", "laws_zh", "commentary", "regulations")


def parse_document(doc: str, text: str, source: str, parser: str | None = None) -> ParsedDocument:
    """``ingest.<parser>.parse(text, doc, source)``; without ``parser``, the one the corpus's
    sources.yml names for ``doc``. A parser the project does not have is an error."""
    parser = parser or default_parsers().get(doc)
    if parser not in PARSER_MODULES:
        raise ParseError(source, None, f"unknown parser {parser!r} for {doc}; one of {', '.join(PARSER_MODULES)}")
    module = importlib.import_module(f"ingest.parsers.{parser}")
    return module.parse(text, doc=doc, source=source)


@lru_cache(maxsize=1)
def default_parsers() -> dict[str, str]:
    from ingest.sources.corpus import DEFAULT_CORPUS, load_manifest

    return {entry["id"]: entry["parser"] for entry in load_manifest(DEFAULT_CORPUS)}
