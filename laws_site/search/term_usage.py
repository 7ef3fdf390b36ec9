"""A term in context: every unit where a glossary term (in any of its spellings, or its
translation) occurs, with the sentence around it - the key-word-in-context view of a legal
dictionary, across the Japanese and Chinese documents.

The term's words per language come from the glossary row that names it (ダミー / Dummy / 明手), else
from a definition printed with that term, else from the director vocabulary. FTS finds the units
that may hold a word; the token offsets stored at build (table search_offsets) place it exactly,
so a katakana variant (ディクレアララー for ディクレアラー) is found and marked as printed, and no text
is tokenized again. Chinese words are found in the simplified text (traditional input folded).
"""

from __future__ import annotations

import sqlite3

from ingest.search import glossary
from ingest.text import tokenize
from laws_site.read.units import permalink
from laws_site.search.data import NAVIGATION_KINDS, SearchData, search_data

MAX_TERM_CHARS = 100
CONTEXT_CHARS = 60  # at most this much of the sentence on each side of the term
SENTENCE_ENDS = "。！？!?\n"
MAX_GAP = 1  # characters allowed between the tokens of one word (a stray space of the conversion)


def term_usage(conn: sqlite3.Connection, term: str) -> dict | None:
    """{"term", "entry", "forms", "total", "groups": [{doc, lang, document, count, usages}]}, or
    None when nothing names the term."""
    data = search_data(conn)
    entry, forms = term_forms(conn, data, term)
    if not forms:
        return None
    groups = []
    for document in ordered_documents(data):
        words = forms.get(document.language, [])
        usages = find_usages(conn, data, document.id, document.language, words)
        if usages:
            groups.append(
                {
                    "doc": document.id,
                    "lang": document.language,
                    "usages": usages,
                    "document": document.title,
                    "count": len(usages),
                }
            )
    return {
        "term": term,
        "entry": entry,
        "forms": forms,
        "groups": groups,
        "total": sum(group["count"] for group in groups),
    }


def ordered_documents(data: SearchData):
    return sorted(data.registry.documents, key=lambda d: data.doc_rank(d.id))


def term_forms(conn, data: SearchData, term: str) -> tuple[dict | None, dict[str, list[str]]]:
    """The glossary row naming the term (as {id, ja, en, zh}) and its words per language."""
    row = glossary_row(data, term)
    if row:
        return row
    simplified = tokenize.to_simplified(term)
    defined = conn.execute(
        "select s.lang, s.title from sections s where s.kind = 'definition' and (s.title = ? or s.title = ?)",
        (term, simplified),
    ).fetchone()
    if defined:
        return None, {defined[0]: [defined[1]]}
    for entry in data.vocabulary.lookup(term):
        row = glossary_row(data, entry.en)  # LOOT: the glossary's Lead out of Turn
        if row:
            return row
        forms = {"ja": list(entry.ja), "zh": list(entry.zh)}
        return (
            {
                "id": f"vocabulary:{entry.id}",
                "ja": " / ".join(entry.ja),
                "en": entry.en,
                "zh": " / ".join(entry.zh) or None,
            },
            {k: v for k, v in forms.items() if v},
        )
    return None, {}


def glossary_row(data: SearchData, term: str) -> tuple[dict, dict[str, list[str]]] | None:
    for found in data.glossary.lookup(term):
        forms = {lang: glossary.term_forms(found.term(lang)) for lang in ("ja", "zh") if found.term(lang)}
        if forms:
            return {"id": found.id, "ja": found.ja, "en": found.en, "zh": found.zh}, forms
    return None


def find_usages(conn, data: SearchData, doc: str, lang: str, words: list[str]) -> list[dict]:
    """One usage per unit of `doc` holding any of the words, in reading order."""
    found: dict[str, dict] = {}
    for word in words:
        for row in candidates(conn, doc, lang, word):
            unit_id = row[0]
            if unit_id in found:
                continue
            usage = locate(row, lang, word)
            if usage:
                found[unit_id] = usage
    return sorted(found.values(), key=lambda usage: usage["position"])


def candidates(conn, doc: str, lang: str, word: str) -> list[tuple]:
    """Units of `doc` whose tokens hold every word of `word`, with their stored token offsets."""
    match = tokenize.fts_match(tokenize.query_clauses(word, lang))
    if not match:
        return []
    navigation = ", ".join("'" + kind + "'" for kind in NAVIGATION_KINDS)
    return conn.execute(
        f"""
        select s.id, s.doc, s.ref, s.lang, s.title, s.text, s.position, s.search_title, s.search_text,
               o.title, o.text
        from sections_fts join sections s on s.rowid = sections_fts.rowid left join search_offsets o on o.id = s.id
        where sections_fts match ? and s.doc = ? and s.kind not in ({navigation})
        order by s.position
    """,
        (match, doc),
    ).fetchall()


def locate(row: tuple, lang: str, word: str) -> dict | None:
    """Where the word occurs in the unit's text (else its title), with its sentence."""
    unit_id, doc, ref, _, title, text, position, title_tokens, text_tokens, title_offsets, text_offsets = row[:11]
    for shown, tokens, offsets in ((text, text_tokens, text_offsets), (title, title_tokens, title_offsets)):
        if not shown:
            continue
        spans = word_spans(shown, tokens or "", tokenize.unpack_offsets(offsets), lang, word)
        if spans:
            context, spans_in_context = sentence_around(shown, spans[0])
            return {
                "id": unit_id,
                "doc": doc,
                "ref": ref,
                "lang": lang,
                "title": title,
                "url": permalink(doc, ref),
                "word": word,
                "occurrences": len(spans),
                "context": context,
                "spans": spans_in_context,
                "position": position,
            }
    return None


def word_spans(text: str, tokens: str, offsets: list[tuple[int, int]], lang: str, word: str) -> list[tuple[int, int]]:
    """Every (begin, end) of the word in the text."""
    if lang == "zh":
        target, simplified = tokenize.to_simplified(word), tokenize.to_simplified(text)
        spans, start = [], simplified.find(target)
        while target and start >= 0:
            spans.append((start, start + len(target)))
            start = simplified.find(target, start + len(target))
        return spans
    sequences = [[t.norm for t in tokenize.japanese_tokens(word)]]
    joined = tokenize.fold_katakana("".join(sequences[0]))
    if len(sequences[0]) > 1 and tokenize.KATAKANA_RE.search(joined):
        sequences.append([joined])  # a katakana compound indexed whole in one text, in pieces in another
    listed = tokens.split()
    if len(listed) != len(offsets):
        return []
    spans = set()
    for sequence in sequences:
        size = len(sequence)
        for i in range(len(listed) - size + 1):
            if listed[i : i + size] == sequence and _adjacent(offsets[i : i + size]):
                spans.add((offsets[i][0], offsets[i + size - 1][1]))
    return sorted(spans)


def _adjacent(spans: list[tuple[int, int]]) -> bool:
    return all(0 <= b[0] - a[1] <= MAX_GAP for a, b in zip(spans, spans[1:]))


def sentence_around(text: str, span: tuple[int, int]) -> tuple[str, list[dict]]:
    """The sentence holding the span (at most CONTEXT_CHARS each side), as plain text and as
    [{text, mark}] spans with the word marked."""
    begin, end = span
    start = max([text.rfind(c, 0, begin) for c in SENTENCE_ENDS] + [-1]) + 1
    stops = [i for i in (text.find(c, end) for c in SENTENCE_ENDS) if i >= 0]
    stop = min(stops) + 1 if stops else len(text)
    start, stop = max(start, begin - CONTEXT_CHARS), min(stop, end + CONTEXT_CHARS)
    before, after = text[start:begin].strip(), text[end:stop].rstrip("\n").strip()
    before = ("…" if start > 0 and text[start - 1] not in SENTENCE_ENDS else "") + before
    after += "…" if stop < len(text) and text[stop - 1] not in SENTENCE_ENDS else ""
    spans = [
        {"text": part, "mark": mark}
        for part, mark in ((before, False), (text[begin:end], True), (after, False))
        if part
    ]
    return "".join(part["text"] for part in spans).replace("\n", " "), spans
