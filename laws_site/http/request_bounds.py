"""What a request may ask for, checked once on the raw query string before any view parses it.

Datasette's `Request.args` parses the whole query string again on every access, and its views
(and ours) loop over every parameter: 4,000 parameters took 20 s and froze the event loop. A
repeated `_facet` runs one facet query per repetition (600 x `_facet=kind`: 124 MB, 22-84 s);
`_search` on the table view tokenizes its text on the event loop. So, for every request:

- at most MAX_PARAMETERS parameters and MAX_QUERY_BYTES of query string (400 otherwise);
- `_facet`, `_facet_array` and `_facet_date` de-duplicated (the query string is rewritten) and at
  most MAX_FACETS distinct ones;
- `_search` and `_search_<column>` at most as long as /-/search takes (search.MAX_QUERY_CHARS),
  other text a page shows back bounded too (LENGTHS);
- a known parameter with a value its page cannot use is a 400 (PARAMETERS: one row per route and
  parameter, so a new parameter is one more row);
- a parameter a page reads once (READ_ONCE) given twice with different values is a 400 naming it: the
  page would answer the first and drop the second unseen (`q=x&q=y`); the same value twice is one.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Callable
from urllib.parse import parse_qsl, unquote

from laws_site.i18n.message import Message, message

MAX_PARAMETERS = 64
MAX_QUERY_BYTES = 48 * 1024
MAX_FACETS = 5
FACET_KEYS = ("_facet", "_facet_array", "_facet_date")
MAX_SEARCH_CHARS = 500  # search.MAX_QUERY_CHARS (tests check they agree; importing search here costs start-up)


@dataclass(frozen=True)
class Refusal:
    status: int
    message: Message


# ---------------------------------------------------------------- known parameters, their values

LAW_NUMBER = re.compile(r"[0-9]{1,3}")


def one_of(*choices: str) -> Callable[[str], Message | None]:
    def check(value: str) -> Message | None:
        return None if value in choices else message("one of %(choices)s", choices=", ".join(choices))

    return check


def law_number(value: str) -> Message | None:
    if LAW_NUMBER.fullmatch(value.strip()):
        return None
    return message("a law number (digits, e.g. 61)", "a law number (ASCII digits, e.g. 61)")


def flag(value: str) -> Message | None:
    """What pages/diff.py reads as on (1, true, on, yes) or off."""
    ok = value.lower() in ("", "0", "1", "on", "off", "true", "false", "yes", "no")
    return None if ok else message("1 (on) or 0 (off)")


def ascii_token(value: str) -> Message | None:
    """Datasette's /-/auth-token compares the token with secrets.compare_digest, which raises on
    non-ASCII text (a 500): such a token can never be right."""
    return None if value.isascii() else message("a token of ASCII characters")


def json_object(value: str) -> Message | None:
    """Datasette's /-/allow-debug reads actor and allow as JSON and raises on anything but an object of
    plain values or lists of them (a 500): the debug page is Datasette's, the refusal the public site's."""
    try:
        data = json.loads(value)
    except ValueError:
        return None  # not JSON at all: Datasette's page says so itself
    plain = (str, int, float, bool, type(None))
    if isinstance(data, dict) and all(
        isinstance(v, plain) or (isinstance(v, list) and all(isinstance(i, plain) for i in v)) for v in data.values()
    ):
        return None
    return message("a JSON object of strings, numbers or lists of them")


# (path pattern, parameter, check): the check returns None for a good value, else what is expected (a Message).
# An empty value means "not given" (a form's empty field) and is always accepted. Parameters a page
# checks itself, with a message on its own page (search's lang, limit, offset; glossary's limit and
# offset), are not repeated here: these are the ones a page would otherwise silently ignore.
PARAMETERS: list[tuple[str, str, Callable[[str], Message | None]]] = [
    (r"/-/citations(\.json)?", "from", law_number),
    (r"/-/citations(\.json)?", "to", law_number),
    (r"/-/citations(\.json)?", "law", law_number),
    (r"/-/glossary(\.json)?", "lang", one_of("ja", "en", "zh")),
    (r"/-/diff(\.json)?", "whitespace", flag),
    # search (and its offline twin) reads any value as on: only the one its own links send is taken
    (r"/-/search(\.json)?", "exact", one_of("1")),
    (r"/-/search(\.json)?", "list", one_of("1")),
    (r"/-/auth-token", "token", ascii_token),
    (r"/-/allow-debug", "actor", json_object),
    (r"/-/allow-debug", "allow", json_object),
]
_PARAMETERS = [(re.compile(pattern), name, check) for pattern, name, check in PARAMETERS]

# (path pattern, the parameters its page reads one value of): the project's pages and their JSON.
READ_ONCE = [
    (r"/-/search(\.json)?", ("q", "doc", "lang", "exact", "list", "limit", "offset")),
    (r"/-/glossary(\.json)?", ("q", "lang", "limit", "offset")),
    (r"/-/diff(\.json)?", ("ref", "from", "to", "whitespace")),
    (r"/-/citations(\.json)?", ("from", "to", "law", "from_part", "to_part")),
]
_READ_ONCE = [(re.compile(pattern), frozenset(names)) for pattern, names in READ_ONCE]


# (path pattern, parameter pattern, most characters, "refuse" or "drop"): text a page tokenizes on
# the event loop or shows back to the reader. Search answers a query up to 10,000 characters with its
# own page and message (the page keeps the query in its box); the glossary one up to 1,000 (it
# quotes the filter); longer ones are refused here. A unit page opened from a search
# shows the query: one no search accepts is dropped, never shown.
LENGTHS = [
    (r".*", r"_search(_.+)?", MAX_SEARCH_CHARS, "refuse"),
    (r"/-/search(\.json)?", r"q", 20 * MAX_SEARCH_CHARS, "refuse"),
    (r"/-/glossary(\.json)?", r"q", 2 * MAX_SEARCH_CHARS, "refuse"),
    (r"/[a-z0-9]+(-[a-z0-9]+)+/.+", r"from_search", MAX_SEARCH_CHARS, "drop"),
]
_LENGTHS = [(re.compile(path), re.compile(name), limit, action) for path, name, limit, action in LENGTHS]


# Datasette's own parameters of its table and query views. The plugin's routes page with `limit` and
# `offset` (search, glossary) and take none of these: given one, the answer says so (400) rather than
# ignore it, so a client written for Datasette's tables learns the site's convention.
DATASETTE_CONVENTIONS = frozenset(
    {"_shape", "_size", "_next", "_sort", "_sort_desc", "_facet", "_search", "_where", "_col", "_nocol", "_labels"}
)


def foreign_convention(names: list[str]) -> Refusal | None:
    """A refusal for one of Datasette's table parameters on a plugin route, else None."""
    for name in names:
        if name in DATASETTE_CONVENTIONS:
            return Refusal(
                400,
                message(
                    "%(name)s is a parameter of Datasette's table views; this address takes none: "
                    "page with limit and offset (docs/api.md)",
                    name=name,
                ),
            )
    return None


def length_limit(path: str, key: str) -> tuple[int, str] | None:
    for path_pattern, name_pattern, limit, action in _LENGTHS:
        if name_pattern.fullmatch(key) and path_pattern.fullmatch(path):
            return limit, action
    return None


def bad_value(path: str, pairs: list[tuple[str, str]]) -> Refusal | None:
    for pattern, name, check in _PARAMETERS:
        if not pattern.fullmatch(path):
            continue
        for key, value in pairs:
            if key == name and value != "":
                expected = check(value)
                if expected:
                    return Refusal(
                        400,
                        message(
                            "%(name)s=%(value)s is not valid here: %(name)s must be %(expected)s.",
                            "%(name)s=%(value)s is not valid here: %(name)s must be %(expected)s",
                            name=name,
                            value=shown(value),
                            expected=expected,
                        ),
                    )
    return None


# what a refusal of a parameter given twice says: the page's sentence (its catalogue id) and the JSON's
# English; the offline search page says the same (laws_site/search/query.py "repeated")
REPEATED_PAGE = "%(name)s is given %(count)s times (%(values)s): this page reads one. Give %(name)s once."
REPEATED_JSON = (
    "%(name)s is given %(count)s times with different values (%(values)s); this address reads one: give %(name)s once"
)


def read_once(path: str) -> frozenset[str]:
    """The parameters the page at `path` reads one value of (READ_ONCE)."""
    return next((names for pattern, names in _READ_ONCE if pattern.fullmatch(path)), frozenset())


def repeated(path: str, pairs: list[tuple[str, str]]) -> Refusal | None:
    """A refusal for a parameter its page reads once, given with two different values."""
    for pattern, names in _READ_ONCE:
        if not pattern.fullmatch(path):
            continue
        values: dict[str, list[str]] = {}
        for key, value in pairs:
            if key in names and value not in values.setdefault(key, []):
                values[key].append(value)
        for name, given in values.items():
            if len(given) > 1:
                return Refusal(
                    400,
                    message(
                        REPEATED_PAGE,
                        REPEATED_JSON,
                        name=name,
                        count=len(given),
                        values=", ".join(shown(value) for value in given[:3]),
                    ),
                )
    return None


SHOWN_VALUE_CHARS = 40  # of a value a refusal quotes (offline-search.js quotes the same)


def shown(value: str, limit: int = SHOWN_VALUE_CHARS) -> str:
    return repr(value if len(value) <= limit else value[:limit] + "…")


def echoed(typed: str) -> str:
    """What a page shows back of a typed text (title, search box): at most as much as a search takes,
    so a refused 10,000-character query is not sent back whole in every place that shows it."""
    return typed if len(typed) <= MAX_SEARCH_CHARS else typed[:MAX_SEARCH_CHARS] + "…"


def linkable(query_string: str) -> bool:
    """Whether links to the same page (the language switcher) may carry this query string: not when a
    value is longer than any page takes (such a page is a refusal; linking it again only repeats it)."""
    return all(len(value) <= MAX_SEARCH_CHARS for _, value in parse_qsl(query_string, keep_blank_values=True))


def linkable_path(path: str) -> bool:
    """Whether links to the same page in another language may carry this path: no page's path is longer
    than a search (a 3,000-character one is a 404 that would link itself five times, 140 KB)."""
    return len(unquote(path)) <= MAX_SEARCH_CHARS


# ---------------------------------------------------------------- the raw query string


def check_query(path: str, query_string: bytes) -> tuple[Refusal | None, bytes]:
    """(a refusal or None, the query string to pass on: duplicate facets removed)."""
    if not query_string:
        return None, query_string
    if len(query_string) > MAX_QUERY_BYTES:
        return Refusal(
            400,
            message(
                "The address is too long (%(size)s bytes of parameters; the limit is %(limit)s).",
                "the query string is %(size)s bytes; the limit is %(limit)s",
                size=f"{len(query_string):,}",
                limit=f"{MAX_QUERY_BYTES:,}",
            ),
        ), b""
    count = query_string.count(b"&") + 1
    if count > MAX_PARAMETERS:
        return Refusal(
            400,
            message(
                "The address has %(count)s parameters; the limit is %(limit)s.",
                "the URL has %(count)s query parameters; the limit is %(limit)s",
                count=f"{count:,}",
                limit=MAX_PARAMETERS,
            ),
        ), b""
    text = query_string.decode("latin-1")
    pieces = text.split("&")
    pairs = [pair for piece in pieces for pair in (parse_qsl(piece, keep_blank_values=True) or [("", "")])]
    facets: set[tuple[str, str]] = set()
    kept_pieces = []
    for piece, (key, value) in zip(pieces, pairs):
        if key in FACET_KEYS:
            if (key, value) in facets:
                continue
            facets.add((key, value))
        limit = length_limit(path, key)
        if limit and len(value) > limit[0]:
            if limit[1] == "drop":
                continue
            return Refusal(
                400,
                message(
                    "%(name)s is %(size)s characters long; the limit is %(limit)s. Shorten it to the words that matter.",
                    name=key,
                    size=f"{len(value):,}",
                    limit=f"{limit[0]:,}",
                ),
            ), b""
        kept_pieces.append(piece)
    if len(facets) > MAX_FACETS:
        return Refusal(
            400,
            message(
                "%(count)s different facets asked for; the limit is %(limit)s.",
                "%(count)s different facets asked for; the limit is %(limit)s",
                count=len(facets),
                limit=MAX_FACETS,
            ),
        ), b""
    refused = repeated(path, pairs) or bad_value(path, pairs)
    if refused:
        return refused, b""
    if len(kept_pieces) == len(pieces):
        return None, query_string
    return None, "&".join(kept_pieces).encode("latin-1")


def parameter_names(query_string: bytes) -> list[str]:
    """The parameter names, decoded (the query string is already bounded by check_query)."""
    return [key for key, _ in parse_qsl(query_string.decode("latin-1"), keep_blank_values=True)]
