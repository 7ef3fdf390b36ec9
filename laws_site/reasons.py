"""The concordance's and the history's reasons, as people read them: the few sentences the build
writes from a pattern ("no 1997 unit became this one", "the 1997 text in this corpus stops inside
52A ...") become a catalogue message with its variables, translated by the template into the
interface language; the editors' own notes (one per pairing, written in English) stay as written
and are marked lang="en" (template _reason.html)."""
from __future__ import annotations

import re

from .i18n import N_

PATTERNS = [
    (re.compile(r"no (?P<edition>\d{4}) unit became this one"), N_("No %(edition)s unit became this one.")),
    (re.compile(r"read in both texts: the same provision"), N_("Read in both texts: the same provision.")),
    (re.compile(r"the (?P<edition>\d{4}) text in this corpus stops inside (?P<ref>\S+): no \d{4} text to compare"),
     N_("The %(edition)s text in this corpus stops inside %(ref)s: there is no %(edition)s text to compare.")),
    (re.compile(r"The commentaries of (?P<year>\d{4}) do not reprint Law (?P<law>\d+)\."),
     N_("The commentaries of %(year)s do not reprint Law %(law)s.")),
    (re.compile(r"No (?P<edition>\d{4}) text of Law (?P<law>\d+) is in the corpus: the \d{4} text stops inside "
                r"(?P<ref>.+)\."),
     N_("No %(edition)s text of Law %(law)s is in the corpus: the %(edition)s text stops inside %(ref)s.")),
    (re.compile(r"The (?P<edition>\d{4}) Laws have no Law (?P<law>\d+)\."), N_("The %(edition)s Laws have no Law %(law)s.")),
    (re.compile(r"No unit of the (?P<edition>\d{4}) Laws came from Law (?P<law>\d+)\."),
     N_("No unit of the %(edition)s Laws came from Law %(law)s.")),
    (re.compile(r"The (?P<edition>\d{4}) text in this corpus stops inside (?P<ref>.+): what follows has no \d{4} "
                r"text to compare\."),
     N_("The %(edition)s text in this corpus stops inside %(ref)s: what follows has no %(edition)s text to compare.")),
]


def reason(text: str | None) -> dict | None:
    """``{"msgid", "vars"}`` for a sentence the build wrote from a pattern, else ``{"text", "lang": "en"}``."""
    if not text:
        return None
    for pattern, msgid in PATTERNS:
        found = pattern.fullmatch(text.strip())
        if found:
            return {"msgid": msgid, "vars": found.groupdict(), "text": text}
    return {"msgid": None, "vars": {}, "text": text, "lang": "en"}
