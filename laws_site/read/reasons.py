"""The concordance's and the history's reasons, as people read them: the few sentences the build
writes from a pattern ("no 1997 unit became this one", "the 1997 text in this corpus stops inside
52A ...") become a catalogue message with its variables, translated by the template into the
interface language; the editors' own notes (one per pairing, written in English in
corpus/concordance.yml beside their Japanese and Chinese versions, table editorial_notes) are shown in
the reader's language with its lang attribute, in English under /en/ (template _reason.html)."""

from __future__ import annotations

import re

from laws_site.i18n import catalog as i18n
from laws_site.i18n.catalog import N_

PATTERNS = [
    (re.compile(r"no (?P<edition>\d{4}) unit became this one"), N_("No %(edition)s unit became this one.")),
    (re.compile(r"read in both texts: the same provision"), N_("Read in both texts: the same provision.")),
    (
        re.compile(r"the (?P<edition>\d{4}) text in this corpus stops inside (?P<ref>\S+): no \d{4} text to compare"),
        N_("The %(edition)s text in this corpus stops inside %(ref)s: there is no %(edition)s text to compare."),
    ),
    (
        re.compile(r"The commentaries of (?P<year>\d{4}) do not reprint Law (?P<law>\d+)\."),
        N_("The commentaries of %(year)s do not reprint Law %(law)s."),
    ),
    (
        re.compile(
            r"No (?P<edition>\d{4}) text of Law (?P<law>\d+) is in the corpus: the \d{4} text stops inside "
            r"(?P<ref>.+)\."
        ),
        N_("No %(edition)s text of Law %(law)s is in the corpus: the %(edition)s text stops inside %(ref)s."),
    ),
    (
        re.compile(r"The (?P<edition>\d{4}) Laws have no Law (?P<law>\d+)\."),
        N_("The %(edition)s Laws have no Law %(law)s."),
    ),
    (
        re.compile(r"No unit of the (?P<edition>\d{4}) Laws came from Law (?P<law>\d+)\."),
        N_("No unit of the %(edition)s Laws came from Law %(law)s."),
    ),
    # ingest/editions/align.py and ingest/editions/diff.py: a diff row without a counterpart (the document id is not for reading)
    (re.compile(r"not in (?P<doc>[\w-]+)"), N_("Not in the other text.")),
    (
        re.compile(r"beyond the end of (?P<doc>[\w-]+), which is cut off in Law (?P<law>\d+): not comparable"),
        N_("Beyond the end of the other text, which is cut off in Law %(law)s: not comparable."),
    ),
    (
        re.compile(r"the commentary reprints only this heading, not the text: nothing to compare"),
        N_("The commentary reprints only this heading, not the text: nothing to compare."),
    ),
    (
        re.compile(
            r"The (?P<edition>\d{4}) text in this corpus stops inside (?P<ref>.+): what follows has no \d{4} "
            r"text to compare\."
        ),
        N_(
            "The %(edition)s text in this corpus stops inside %(ref)s: what follows has no %(edition)s text to compare."
        ),
    ),
]


# the forms the build composes around an editor's note (ingest/editions/concordance.py)
MOVE_PREFIX = re.compile(r"(?P<id>[a-z][a-z0-9-]+): (?P<note>.+)")
CONCORDANCE_SUFFIX = re.compile(r"(?P<note>.+?) \(concordance: [\w-]+\)")
COMPOSED = [
    (re.compile(r"part of (?P<edition>\d{4}) (?P<ref>\S+): (?P<note>.+)"), N_("Part of %(edition)s %(ref)s: %(note)s")),
    (
        re.compile(r"part of (?P<edition>\d{4}) (?P<ref>\S+), new: (?P<note>.+)"),
        N_("Part of %(edition)s %(ref)s, new: %(note)s"),
    ),
    (
        re.compile(
            r"(?P<old_edition>\d{4}) (?P<ref>\S+) is (?P<new_edition>\d{4}) (?P<where>.+?) \((?P<words>[^()]+)\): "
            r"(?P<note>.+)"
        ),
        N_("%(old_edition)s %(ref)s is %(new_edition)s %(where)s (%(words)s): %(note)s"),
    ),
]

# ingest/editions/diff.py's flag on a reference written before the Laws it cites were replaced
WRITTEN_BEFORE = re.compile(
    r"(?P<surface>.+?) was written before the (?P<edition>\d{4}) Laws took effect "
    r"\((?P<date>[\d-]+)\): it means (?P<meaning>.+), now (?P<now>\S+); (?P=edition) Law "
    r"(?P<new>\S+) is a different rule\."
)
WRITTEN_BEFORE_MSGID = N_(
    "%(surface)s was written before the %(edition)s Laws took effect (%(date)s): it means "
    "%(meaning)s, now %(now)s; %(edition)s Law %(new)s is a different rule."
)

_cache: dict = {}


def notes_for(conn) -> dict[str, dict[str, str]]:
    """The editors' notes in Japanese and Chinese, by their English text (table editorial_notes),
    read once per build; {} for a database built before the table."""
    import sqlite3

    try:
        build = conn.execute("select value from build_info where key = 'build_id'").fetchone()
        key = build[0] if build else None
        if key is None or key not in _cache:
            rows = conn.execute("select en, ja, zh from editorial_notes").fetchall()
            notes = {en: {"ja": ja, "zh": zh} for en, ja, zh in rows}
            if key is None:
                return notes
            _cache.clear()
            _cache[key] = notes
        return _cache[key]
    except sqlite3.OperationalError:
        return {}


def translated_note(text: str, notes: dict, lang: str) -> str | None:
    """An editor's note (or a sentence the build composed around one) in `lang`, or None."""
    text = " ".join(text.split())
    if text in notes:
        return notes[text].get(lang)
    suffixed = CONCORDANCE_SUFFIX.fullmatch(text)
    if suffixed and suffixed.group("note") in notes:
        return notes[suffixed.group("note")].get(lang)
    prefixed = MOVE_PREFIX.fullmatch(text)  # ingest/editions/align.py: "<move id>: <note>"
    if prefixed and prefixed.group("note") in notes:
        return notes[prefixed.group("note")].get(lang)
    written = WRITTEN_BEFORE.fullmatch(text)
    if written:
        meaning = translated_note(written.group("meaning"), notes, lang)
        if meaning is None:
            return None
        return i18n.translations(lang).gettext(WRITTEN_BEFORE_MSGID) % {
            **written.groupdict(),
            "meaning": meaning,
            "date": i18n.format_date(written.group("date"), lang),
        }
    for pattern, msgid in COMPOSED:
        found = pattern.fullmatch(text)
        if found:
            inner = translated_note(found.group("note"), notes, lang)
            if inner is None:
                return None
            parts = {**found.groupdict(), "note": inner}
            translate = i18n.translations(lang).gettext
            if "words" in parts:  # the relation's words (ingest/editions.relation_words), a catalogue msgid
                parts["words"] = translate(parts["words"])
            return translate(msgid) % parts
    return None


def reason(text: str | None, notes: dict | None = None, lang: str | None = None) -> dict | None:
    """``{"msgid", "vars"}`` for a sentence the build wrote from a pattern; an editor's note in the
    interface language ``{"text", "lang"}`` when ``notes`` has it, else as written, ``lang`` "en".
    ``lang``: the interface language, given by code running in a read thread (the context variable
    i18n.current is not carried into Datasette's threads)."""
    if not text:
        return None
    for pattern, msgid in PATTERNS:
        found = pattern.fullmatch(text.strip())
        if found:
            return {"msgid": msgid, "vars": found.groupdict(), "text": text}
    lang = lang or i18n.lang()
    if lang != "en" and notes:
        translated = translated_note(text, notes, lang)
        if translated:
            return {"msgid": None, "vars": {}, "text": translated, "lang": i18n.TAGS[lang], "en": text}
    return {"msgid": None, "vars": {}, "text": text, "lang": "en"}
