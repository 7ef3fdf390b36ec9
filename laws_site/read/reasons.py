"""The concordance's and the history's reasons, as people read them: the few sentences the build
writes from a pattern ("no 1997 unit became this one", "the 1997 text in this corpus stops inside
52A ...") become a catalogue message with its variables, translated by the template into the
interface language; the editors' own notes (one per pairing, written in English in
corpus/concordance.yml beside their Japanese and Chinese versions, table editorial_notes) are shown in
the reader's language with its lang attribute, in English under /en/ (template _reason.html)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

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


@dataclass(frozen=True)
class Notes:
    """What a reason is read with: the editors' notes in Japanese and Chinese by their English text
    (table editorial_notes), and each concordance move's id with the provisions it pairs, by which
    the English notes name one another (table concordance)."""

    translated: dict[str, dict[str, str]] = field(default_factory=dict)
    moves: dict[str, str] = field(default_factory=dict)


_cache: dict = {}


def notes_for(conn) -> Notes:
    """The editors' notes and the concordance's moves, read once per build."""
    build = conn.execute("select value from build_info where key = 'build_id'").fetchone()
    key = build[0] if build else None
    if key is not None and key in _cache:
        return _cache[key]
    notes = Notes(
        {en: {"ja": ja, "zh": zh} for en, ja, zh in conn.execute("select en, ja, zh from editorial_notes")},
        move_names(conn),
    )
    if key is not None:
        _cache.clear()
        _cache[key] = notes
    return notes


def move_names(conn) -> dict[str, str]:
    """Each concordance move as its provisions read: damaging-enforced-pass -> "1997 Law 23 → 2017 Law 72C"."""
    editions = dict(conn.execute("select id, edition from documents"))
    named = {}
    for move_id, from_doc, from_ref, to_doc, to_ref in conn.execute(
        "select id, from_doc, from_ref, to_doc, to_ref from concordance"
    ):
        ends = [f"{editions.get(d, '')} Law {r}".strip() for d, r in ((from_doc, from_ref), (to_doc, to_ref)) if r]
        named[move_id] = " → ".join(ends)
    return named


# how the English notes and the sentences composed around them name a move by its id
MOVE_SEEN = re.compile(r"\(see (?P<id>[a-z][a-z0-9-]+)\)")
MOVE_RECORDED = re.compile(r"(?:\.\s*|\s+)Concordance move (?P<id>[a-z][a-z0-9-]+)\.")


def in_english_words(text: str, moves: dict[str, str]) -> str:
    """An English note as a reader is shown it: no concordance id (the build's "(concordance: id)",
    align.py's "<id>: ", an editor's "(see id)" or "Concordance move id.")."""
    for pattern in (CONCORDANCE_SUFFIX, MOVE_PREFIX):
        found = pattern.fullmatch(text)
        if found and (pattern is CONCORDANCE_SUFFIX or found.group("id") in moves):
            text = found.group("note")
    text = MOVE_SEEN.sub(lambda m: f"(see {moves[m['id']]})" if m["id"] in moves else m[0], text)
    return MOVE_RECORDED.sub(lambda m: " (recorded in the concordance as a move)." if m["id"] in moves else m[0], text)


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


def reason(
    text: str | None, notes: Notes | None = None, lang: str | None = None, own: dict[str, str] | None = None
) -> dict | None:
    """``{"msgid", "vars"}`` for a sentence the build wrote from a pattern; an editor's note in the
    interface language ``{"text", "lang"}`` when ``notes`` has it, else in English, without the ids the
    concordance names its moves by, ``lang`` "en".
    ``lang``: the interface language, given by code running in a read thread (the context variable
    i18n.current is not carried into Datasette's threads). ``own``: the reason's Japanese and Chinese
    where the build wrote them with it (provision_pairs.reason_ja, reason_zh)."""
    if not text:
        return None
    for pattern, msgid in PATTERNS:
        found = pattern.fullmatch(text.strip())
        if found:
            return {"msgid": msgid, "vars": found.groupdict(), "text": text}
    lang = lang or i18n.lang()
    notes = notes or Notes()
    if lang != "en" and (own or {}).get(lang):  # the build wrote it in the reader's language beside the English
        return {"msgid": None, "vars": {}, "text": own[lang], "lang": i18n.TAGS[lang], "en": text}
    if lang != "en" and notes.translated:
        translated = translated_note(text, notes.translated, lang)
        if translated:
            return {"msgid": None, "vars": {}, "text": translated, "lang": i18n.TAGS[lang], "en": text}
    return {"msgid": None, "vars": {}, "text": in_english_words(" ".join(text.split()), notes.moves), "lang": "en"}
