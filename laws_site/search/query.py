"""What a query may be: its limits, the checks it must pass, and what search says to the person who
typed it (by name, in MESSAGES; the interface languages translate the text, the offline search says
the same: laws_site/offline/search_rules.py)."""

from __future__ import annotations

import re
from string import Formatter

from ingest.text import tokenize
from laws_site.http.request_bounds import REPEATED_JSON, REPEATED_PAGE
from laws_site.i18n.message import Message
from laws_site.i18n.message import message as message_by_id
from laws_site.search.data import SearchData

MAX_QUERY_CHARS = 500
MAX_LIMIT = 500
MAX_OFFSET = 100_000
FTS_OPERATORS = {"AND", "OR", "NOT", "NEAR"}
SHOWN_CHARS = 40  # of a query a refusal quotes
COUNT_RE = re.compile(r"[0-9]{1,7}")  # a limit or offset typed into a URL, whole: ASCII digits only
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
    "only_operators": "“{shown}” has only search operators, and there are none here: every word you type is "
    "searched for as written. " + EMPTY_QUERY,
    "nothing": "“{shown}” has no word, number or character to search for. " + EMPTY_QUERY,
    "no_such_unit": "No such unit: {query}.",
    "no_such_unit_in_filters": "No such unit in the document or language chosen: {query}.",
    "elsewhere": "No such unit in {title}: {query}. The same number exists elsewhere:",
    # a parameter the page reads once given twice (q=x&q=y): the server's refusal (http/request_bounds.py),
    # which offline the search page makes itself ({parameter}: the refusal's %(name)s)
    "repeated": REPEATED_JSON.replace("%(name)s", "{parameter}").replace("%(", "{").replace(")s", "}"),
}


def message(name: str, **values) -> str:
    return MESSAGES[name].format(**values)


# The page's sentence for each message above (a refusal, a citation's note): a catalogue id
# (laws_site/locale), filled with the same values under the names the id uses; JSON stays the English
# of MESSAGES. The offline page holds every one (page_sentences): a message missing here is English there.
PAGE_MESSAGES = {
    "empty": (EMPTY_QUERY, {}),
    "too_long": ("The query is %(size)s characters long; search takes up to %(limit)s.", {"size": "length"}),
    "unknown_language": ("Unknown language “%(lang)s”: use ja or zh.", {}),
    "unknown_document": ("Unknown document “%(doc)s”: choose one in the list.", {}),
    "limit": ("%(name)s must be a whole number from %(low)s to %(high)s.", {"high": "highest"}),
    "offset": ("%(name)s must be a whole number from %(low)s to %(high)s.", {"high": "highest"}),
    "only_operators": (
        "“%(query)s” has only search operators, and there are none here: every word you type is searched for as "
        "written. Type a word to search for (リボーク, 藏牌, revoke) or a citation (64A1, 第16条B項1, Law 73).",
        {"query": "shown"},
    ),
    "nothing": (
        "“%(query)s” has no word, number or character to search for. Type a word to search for (リボーク, 藏牌, "
        "revoke) or a citation (64A1, 第16条B項1, Law 73).",
        {"query": "shown"},
    ),
    "no_such_unit": ("No such unit: %(query)s.", {}),
    "no_such_unit_in_filters": ("No such unit in the document or language chosen: %(query)s.", {}),
    "elsewhere": ("No such unit in %(title)s: %(query)s. The same number exists elsewhere:", {"title": "doc"}),
    "repeated": (REPEATED_PAGE, {"name": "parameter"}),
}
FIXED_VALUES = {"limit": {"name": "limit", "low": "1"}, "offset": {"name": "offset", "low": "0"}}


def refusal(name: str, **values) -> Message:
    """A refusal (or any message of PAGE_MESSAGES) by name: its catalogue id for the page, MESSAGES'
    English for JSON."""
    msgid, renamed = PAGE_MESSAGES[name]
    page_values = {**values, **FIXED_VALUES.get(name, {}), **{new: values[old] for new, old in renamed.items()}}
    return Message(msgid, message(name, **values).replace("%", "%%"), page_values)


class Said(str):
    """What search says to a citation, in English (JSON, the command line), knowing its page sentence:
    `said.page`, the Message by its catalogue id."""

    page: Message


def said(name: str, **values) -> Said:
    text = Said(message(name, **values))
    text.page = refusal(name, **values)
    return text


def page_sentences() -> dict[str, str]:
    """Every message of PAGE_MESSAGES as a page shows it in the interface language, its values left as
    {slots} named as in MESSAGES: what the offline page fills in (static/offline-search.js)."""
    slots = {
        name: {field for _, field, _, _ in Formatter().parse(MESSAGES[name]) if field} | set(renamed.values())
        for name, (_msgid, renamed) in PAGE_MESSAGES.items()
    }
    return {name: refusal(name, **{slot: "{" + slot + "}" for slot in slots[name]}).shown() for name in PAGE_MESSAGES}


class QueryError(ValueError):
    """A query we cannot run, with a message meant for the person who typed it."""


def check_query(query: str | None) -> str:
    cleaned = tokenize.clean_query(query)
    if not cleaned:
        raise QueryError(refusal("empty"))
    if len(cleaned) > MAX_QUERY_CHARS:
        raise QueryError(refusal("too_long", length=f"{len(cleaned):,}", limit=MAX_QUERY_CHARS))
    return cleaned


def check_filters(data: SearchData, doc: str | None, lang: str | None, limit: int, offset: int) -> None:
    if lang not in (None, "ja", "zh"):
        raise QueryError(refusal("unknown_language", lang=lang))
    if doc is not None and data.registry.get(doc) is None:
        raise QueryError(refusal("unknown_document", doc=doc, documents=", ".join(data.registry.ids)))
    if not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise QueryError(refusal("limit", highest=MAX_LIMIT))
    if not isinstance(offset, int) or not 0 <= offset <= MAX_OFFSET:
        raise QueryError(refusal("offset", highest=f"{MAX_OFFSET:,}"))


def nothing_to_search(query: str) -> Message:
    shown = query if len(query) <= SHOWN_CHARS else query[:SHOWN_CHARS] + "…"
    if all(word in FTS_OPERATORS for word in query.split()):
        return refusal("only_operators", shown=shown)
    return refusal("nothing", shown=shown)


def parse_count(value: str | None, name: str, default: int, lowest: int, highest: int) -> int:
    """A `limit` or `offset` typed into a URL: ASCII digits only (not ², not a 5,000-digit number)."""
    if value is None or value == "":
        return default
    if not COUNT_RE.fullmatch(value) or not lowest <= int(value) <= highest:
        raise QueryError(count_message(name, lowest, highest, value))
    return int(value)


def count_message(name: str, lowest: int, highest: int, got: str | None = None) -> Message:
    """`limit`/`offset` out of range; the JSON quotes what was typed."""
    typed = "" if got is None else f"; got {got[:20]!r}" + ("…" if len(got) > 20 else "")
    return message_by_id(
        "%(name)s must be a whole number from %(low)s to %(high)s.",
        "%(name)s must be a whole number from %(low)s to %(high)s%(typed)s.",
        name=name,
        low=f"{lowest:,}",
        high=f"{highest:,}",
        typed=typed,
    )
