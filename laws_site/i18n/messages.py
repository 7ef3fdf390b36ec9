"""Error and refusal messages on HTML pages, in the interface language.

The code that refuses a request writes its message once, in English, for the JSON answer
(docs/api.md: the `error` of a JSON error is plain English text, the same under every prefix). An
HTML page shows the same message translated: each sentence the site or Datasette writes from a
pattern is matched here and becomes a catalogue message with its variables. Document ids inside a
message become the documents' names in the interface language (an id is not for reading), a
parameter's expected value is translated too. A message no pattern knows (SQLite's own "no such
column: x") is shown as written.
"""

from __future__ import annotations

import re

from laws_site.i18n import catalog as i18n
from laws_site.i18n.catalog import N_

SIDES = {"from": N_("older"), "to": N_("newer")}

# what a parameter takes (request_bounds.py's checks), as the sentence ends
EXPECTED = [
    (re.compile(r"a law number \(ASCII digits, e\.g\. 61\)"), N_("a law number (digits, e.g. 61)")),
    (re.compile(r"1 \(on\) or 0 \(off\)"), N_("1 (on) or 0 (off)")),
    (re.compile(r"one of (?P<choices>.+)"), N_("one of %(choices)s")),
]

PATTERNS = [
    # laws_site/read/diffs.py, laws_site/pages/diff.py
    (
        re.compile(r"missing 'ref': a law reference like 61, 61B or 40B2\(a\)\(v\)"),
        N_("Type a law reference such as 61, 61B or 40B2(a)(v)."),
    ),
    (re.compile(r"missing '(?P<side>from|to)': one of (?P<docs>.+)"), N_("Choose the %(side)s document: %(docs)s.")),
    (
        re.compile(
            r"'(?P<side>from|to)' document '(?P<doc>.*)' cannot be compared \(did you mean (?P<a>\S+)\?\); "
            r"choose one of (?P<docs>.+)"
        ),
        N_("“%(doc)s” cannot be compared (did you mean %(a)s?); choose the %(side)s document from %(docs)s."),
    ),
    (
        re.compile(
            r"'(?P<side>from|to)' document '(?P<doc>.*)' cannot be compared; "
            r"choose one of (?P<docs>.+)"
        ),
        N_("“%(doc)s” cannot be compared; choose the %(side)s document from %(docs)s."),
    ),
    (re.compile(r"'from' and 'to' are the same document"), N_("The older and the newer document are the same.")),
    (
        re.compile(r"(?P<a>\S+) -> (?P<b>\S+) is not a comparison this site offers; choose one of: .+"),
        N_("%(a)s → %(b)s is not a comparison this site offers: choose one of the comparisons below."),
    ),
    (
        re.compile(r"ref '(?P<ref>.*)' is not a law reference like 61, 61B, 61B2\(a\) or 40B2\(a\)\(v\)"),
        N_("“%(ref)s” is not a law reference such as 61, 61B, 61B2(a) or 40B2(a)(v)."),
    ),
    (
        re.compile(r"neither (?P<a>\S+) nor (?P<b>\S+) has a law numbered (?P<law>\S+?)…? .*"),
        N_("Neither %(a)s nor %(b)s has a Law %(law)s."),
    ),
    (
        re.compile(r"neither (?P<a>\S+) nor (?P<b>\S+) has a unit '(?P<ref>.*)'"),
        N_("Neither %(a)s nor %(b)s has %(ref)s."),
    ),
    # laws_site/http/request_bounds.py
    (
        re.compile(r"(?P<name>\w+)=(?P<value>'.*') is not valid here: (?P=name) must be (?P<expected>.+)"),
        N_("%(name)s=%(value)s is not valid here: %(name)s must be %(expected)s."),
    ),
    (
        re.compile(r"the query string is (?P<size>[\d,]+) bytes; the limit is (?P<limit>[\d,]+)"),
        N_("The address is too long (%(size)s bytes of parameters; the limit is %(limit)s)."),
    ),
    (
        re.compile(r"the URL has (?P<count>[\d,]+) query parameters; the limit is (?P<limit>[\d,]+)"),
        N_("The address has %(count)s parameters; the limit is %(limit)s."),
    ),
    (
        re.compile(
            r"(?P<name>\w+) is (?P<size>[\d,]+) characters long; the limit is (?P<limit>[\d,]+)\. "
            r"Shorten it to the words that matter\."
        ),
        N_("%(name)s is %(size)s characters long; the limit is %(limit)s. Shorten it to the words that matter."),
    ),
    (
        re.compile(r"(?P<count>\d+) different facets asked for; the limit is (?P<limit>\d+)"),
        N_("%(count)s different facets asked for; the limit is %(limit)s."),
    ),
    # laws_site/search/engine.py, laws_site/pages/glossary.py
    (
        re.compile(
            r"(?P<name>limit|offset) must be a whole number from (?P<low>[\d,]+) to (?P<high>[\d,]+)"
            r"(?:; got (?P<value>'.*'…?))?\."
        ),
        N_("%(name)s must be a whole number from %(low)s to %(high)s."),
    ),
    (
        re.compile(r"The query is (?P<size>[\d,]+) characters long; search takes up to (?P<limit>[\d,]+)\..*"),
        N_("The query is %(size)s characters long; search takes up to %(limit)s."),
    ),
    (
        re.compile(r"The filter is (?P<size>[\d,]+) characters long; a term has at most (?P<limit>[\d,]+)\."),
        N_("The filter is %(size)s characters long; a term has at most %(limit)s."),
    ),
    (re.compile(r"Unknown language '(?P<lang>.*)': use ja or zh\."), N_("Unknown language “%(lang)s”: use ja or zh.")),
    (
        re.compile(r"Unknown document '(?P<doc>.*)'; choose one of: .+"),
        N_("Unknown document “%(doc)s”: choose one in the list."),
    ),
    (
        re.compile(
            r"Type a word to search for \(リボーク, 藏牌, revoke\) or a citation \(64A1, 第16条B項1, Law 73\)\."
        ),
        N_("Type a word to search for (リボーク, 藏牌, revoke) or a citation (64A1, 第16条B項1, Law 73)."),
    ),
    (
        re.compile(
            r"「(?P<query>.*)」 has only search operators, and there are none here: every word you type is "
            r"searched for as written\. .*"
        ),
        N_(
            "「%(query)s」 has only search operators, and there are none here: every word you type is searched for as "
            "written. Type a word to search for (リボーク, 藏牌, revoke) or a citation (64A1, 第16条B項1, Law 73)."
        ),
    ),
    (
        re.compile(r"「(?P<query>.*)」 has no word, number or character to search for\. .*"),
        N_(
            "「%(query)s」 has no word, number or character to search for. Type a word to search for (リボーク, 藏牌, "
            "revoke) or a citation (64A1, 第16条B項1, Law 73)."
        ),
    ),
    (
        re.compile(r"This query could not be searched \((?P<error>.*)\); try fewer symbols\."),
        N_("This query could not be searched (%(error)s); try fewer symbols."),
    ),
    # Datasette's own views (datasette/views/*.py) and errors.py
    (re.compile(r"Table not found(?:: (?P<name>.+))?"), N_("There is no such table.")),
    (re.compile(r"Record not found(?:: (?P<name>.+))?"), N_("There is no such row.")),
    (re.compile(r"Database not found(?:: (?P<name>.+))?"), N_("There is no such database.")),
    (re.compile(r"Cannot sort table by (?P<column>.+)"), N_("The table cannot be sorted by %(column)s.")),
    (
        re.compile(r"SQL query took too long: the time limit is there to keep the site responsive"),
        N_("The SQL query took too long: the time limit is there to keep the site responsive."),
    ),
    (
        re.compile(r"the query needs more memory than this server allows"),
        N_("The query needs more memory than this server allows."),
    ),
    (
        re.compile(r"Datasette could not answer this request \((?P<kind>\w+)\): check the parameters"),
        N_("Datasette could not answer this request (%(kind)s): check the parameters."),
    ),
    (
        re.compile(r"Internal error: the server failed to answer this request \(the log has the details\)"),
        N_("Internal error: the server failed to answer this request (the log has the details)."),
    ),
]


def translate(message, names: dict[str, str] | None = None):
    """The message in the interface language; document ids in it named as ``names`` has them (id ->
    short title in the interface language). Markup (an HTML message) and unknown text come back as
    they are."""
    if not message or not isinstance(message, str) or hasattr(message, "__html__"):
        return message
    text = message.strip()
    for pattern, msgid in PATTERNS:
        found = pattern.fullmatch(text)
        if found:
            return i18n.gettext(
                msgid, **{key: shown(key, value, names or {}) for key, value in found.groupdict().items()}
            )
    return message


def shown(key: str, value: str | None, names: dict[str, str]) -> str:
    if value is None:
        return ""
    if key == "side":
        return i18n.gettext(SIDES[value])
    if key in ("a", "b", "doc"):
        return names.get(value, value)
    if key == "docs":
        return i18n.gettext(", ").join(names.get(d.strip(), d.strip()) for d in value.split(","))
    if key == "expected":
        for pattern, msgid in EXPECTED:
            found = pattern.fullmatch(value)
            if found:
                return i18n.gettext(msgid, **found.groupdict())
    return value
