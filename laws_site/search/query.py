"""What a query may be: its limits, the checks it must pass, and what search says to the person who
typed it (by name, in MESSAGES; the interface languages translate the text, the offline search says
the same: laws_site/offline/search_rules.py)."""

from __future__ import annotations

import re

from ingest.text import tokenize
from laws_site.search.data import SearchData

MAX_QUERY_CHARS = 500
MAX_LIMIT = 500
MAX_OFFSET = 100_000
FTS_OPERATORS = {"AND", "OR", "NOT", "NEAR"}
EMPTY_QUERY = "Type a word to search for (リボーク, 藏牌, revoke) or a citation (64A1, 第16条B項1, Law 73)."
# what search says to the person who typed the query, by name; the offline search says the same
# (laws_site/offline/search_rules.py). {name} is filled in; the interface languages translate the text
MESSAGES = {
    "empty": EMPTY_QUERY,
    "too_long": "The query is {length} characters long; search takes up to {limit}. "
    "Type the words or the citation you are looking for.",
    "unknown_language": "Unknown language '{lang}': use ja or zh.",
    "unknown_document": "Unknown document '{doc}'; choose one of: {documents}.",
    "limit": "limit must be a whole number from 1 to {highest}.",
    "offset": "offset must be a whole number from 0 to {highest}.",
    "only_operators": "「{shown}」 has only search operators, and there are none here: every word you type is "
    "searched for as written. " + EMPTY_QUERY,
    "nothing": "「{shown}」 has no word, number or character to search for. " + EMPTY_QUERY,
    "no_such_unit": "No such unit{where}: {query}.",
    "in_filters": " in the document or language chosen",
    "elsewhere": "No such unit in {title}: {query}. The same number exists elsewhere:",
}


def message(name: str, **values) -> str:
    return MESSAGES[name].format(**values)


class QueryError(ValueError):
    """A query we cannot run, with a message meant for the person who typed it."""


def check_query(query: str | None) -> str:
    cleaned = tokenize.clean_query(query)
    if not cleaned:
        raise QueryError(message("empty"))
    if len(cleaned) > MAX_QUERY_CHARS:
        raise QueryError(message("too_long", length=f"{len(cleaned):,}", limit=MAX_QUERY_CHARS))
    return cleaned


def check_filters(data: SearchData, doc: str | None, lang: str | None, limit: int, offset: int) -> None:
    if lang not in (None, "ja", "zh"):
        raise QueryError(message("unknown_language", lang=lang))
    if doc is not None and data.registry.get(doc) is None:
        raise QueryError(message("unknown_document", doc=doc, documents=", ".join(data.registry.ids)))
    if not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise QueryError(message("limit", highest=MAX_LIMIT))
    if not isinstance(offset, int) or not 0 <= offset <= MAX_OFFSET:
        raise QueryError(message("offset", highest=f"{MAX_OFFSET:,}"))


def nothing_to_search(query: str) -> str:
    shown = query if len(query) <= 40 else query[:40] + "…"
    if all(word in FTS_OPERATORS for word in query.split()):
        return message("only_operators", shown=shown)
    return message("nothing", shown=shown)


def parse_count(value: str | None, name: str, default: int, lowest: int, highest: int) -> int:
    """A `limit` or `offset` typed into a URL: ASCII digits only (not ², not a 5,000-digit number)."""
    if value is None or value == "":
        return default
    if not re.fullmatch(r"[0-9]{1,7}", value) or not lowest <= int(value) <= highest:
        raise QueryError(
            f"{name} must be a whole number from {lowest} to {highest:,}; got {value[:20]!r}"
            + ("…" if len(value) > 20 else "")
            + "."
        )
    return int(value)
