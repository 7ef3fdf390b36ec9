"""Which parser reads which document (by manifest id)."""
from __future__ import annotations

import importlib

from .records import ParsedDocument

# doc id -> module with ``parse(text, doc, source) -> ParsedDocument``
PARSERS = {
    "laws-2017-ja": "ingest.laws_ja",
    "revoke-notes-ja": "ingest.commentary",
    "out-of-turn-notes-ja": "ingest.commentary",
    "laws-1997-zh": "ingest.laws_zh",
    "jcbl-regs-ja": "ingest.regulations",
}


def parse_document(doc: str, text: str, source: str) -> ParsedDocument:
    module = importlib.import_module(PARSERS[doc])
    return module.parse(text, doc=doc, source=source)
