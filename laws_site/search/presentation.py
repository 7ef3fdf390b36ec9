"""A page of results as data: each hit's labels in three languages, its snippet, the law it belongs
to, the reprints folded into it. Nothing here is markup (templates and the CLI render it)."""

from __future__ import annotations

import re

from ingest.text import tokenize
from ingest.text.refs import law_number
from laws_site.read.units import permalink
from laws_site.search.data import SearchData
from laws_site.search.hits import Hit
from laws_site.search.shown import ShownText
from laws_site.search.snippets import merge_spans, padded_spans, snippet
from laws_site.search.why import held_clauses, held_in_text, names_held, why


def present(conn, data: SearchData, page: list[Hit], query: str = "") -> list[dict]:
    texts = data.shown.texts  # read once per build (laws_site/search/shown.py)
    labels = unit_labels(conn, [hit.id for hit in page], data)
    linked = link_labels(conn, [u for hit in page for u in linked_units(data, hit)], data)
    title_words, rowids, lexicon = data.title_words, data.rowids, data.lexicon
    results = []
    for hit in page:
        shown = texts.get(hit.id, NOTHING_SHOWN)
        held = (
            held_clauses(hit.branch, shown, title_words.get(rowids.get(hit.id)), lexicon.light)
            if names_held(hit)
            else None
        )
        wanted = frozenset()
        if hit.marks is not None:
            spans = merge_spans(sorted(hit.marks))
        else:  # only what its why names, when it names the clauses held
            wanted = (
                held_in_text(held, shown, lexicon.unnamed)
                if held is not None
                else marked_words(hit.branch, lexicon.light)
            )
            spans = _shown_spans(shown, wanted) if held is not None else None
        lead = data.shown.leads.get(hit.id)  # a heading: its sub-units' text, not its title twice
        if lead is not None:  # the words a why names are its title's: its sub-units' text marks none of them
            result = as_dict(data, hit, lead_snippet(texts, lead, wanted if held is None else frozenset()))
        elif spans is None:  # the branch's words: the same for every search that marks them (data.snippet_memo)
            result = as_dict(data, hit, branch_snippet(data, hit.id, shown, wanted))
        else:
            result = as_dict(data, hit, snippet(shown.text, spans))
        result["why"] = why(query, hit, shown, held, lexicon, title_words.get(rowids.get(hit.id)))
        result.update(labels.get(hit.id, ()))
        for link in result["reprints"] + result["paired"] + ([result["reprint_of"]] if result["reprint_of"] else []):
            link["labels"] = linked.get(link["id"], {})
        results.append(result)
    return results


def lead_snippet(texts: dict[str, ShownText], lead, wanted: frozenset[str]) -> list[dict]:
    """The snippet of a unit without text of its own (shown.sub_unit_leads): its sub-units' numbers, titles and
    texts one after the other, the wanted words marked in the texts, cut as any text is."""
    text, spans = "", []
    for head, unit in lead:
        shown = texts[unit] if unit else None
        for piece, offsets in ((head, None), (shown.text if shown else "", shown)):
            if not piece:
                continue
            text += " " if text else ""
            if offsets is not None:
                spans += [(begin + len(text), end + len(text)) for begin, end in _shown_spans(offsets, wanted)]
            text += piece
    return snippet(text, spans)


def linked_units(data: SearchData, hit: Hit) -> list[str]:
    """The other units a result links to: its reprints, what it reprints, its earlier editions' units."""
    return hit.reprints + ([hit.reprint_of] if hit.reprint_of else []) + list(data.paired.get(hit.id, ()))


def marked_words(branch, light: frozenset[str]) -> frozenset[str]:
    """The words a result marks in its text: its branch's, less the light words (する, よう carry no
    situation, and its why does not name them), unless the query has no other."""
    if branch is None:
        return frozenset()
    return frozenset(word for word in branch.highlighted if word not in light) or branch.highlighted


def branch_snippet(data: SearchData, unit: str, shown: ShownText, wanted: frozenset[str]) -> list[dict]:
    """A unit's snippet marking the words of its branch, made once per unit and words (data.snippet_memo)."""
    return data.snippet_memo((unit, wanted), lambda: snippet(shown.text, _shown_spans(shown, wanted)))


def _shown_spans(shown: ShownText, wanted: frozenset[str]) -> list[tuple[int, int]]:
    # no offsets stored for the unit's tokens (none at all): nothing to mark, as match_spans says
    return padded_spans(shown.padded, shown.offsets, wanted) if shown.offsets else []


def link_labels(conn, ids: list[str], data: SearchData) -> dict[str, dict[str, str]]:
    """id -> {lang: document-qualified label} (リボーク注釈: 第63条の引用), for links to other units;
    read once per build (laws_site/search/shown.py)."""
    stored = data.shown.full_labels
    return {unit: dict(stored[unit]) for unit in ids if unit in stored}


def unit_labels(conn, ids: list[str], data: SearchData) -> dict[str, dict]:
    """id -> {"label" (the Japanese interface's, sections.label), "labels" {ja, zh, en}, "context"
    (the title of the nearest enclosing unit that has one, for a sub-item without a title of its
    own: 27B1(b) -> 不十分なビッド)}: made at build (ingest/search/labels.py), read once per build."""
    stored = data.shown.labels
    return {
        unit: {"label": found.label, "labels": dict(found.labels), "context": found.context}
        for unit in ids
        if (found := stored.get(unit)) is not None
    }


NOTHING_SHOWN = ShownText("", "  ", None)
INDEX_SHOWN = 5  # the 索引 entries a result names


def as_dict(data: SearchData, hit: Hit, spans: list[dict]) -> dict:
    law, url = fixed_fields(data, hit)
    branch = hit.branch
    return {
        "doc": hit.doc,
        "ref": hit.ref,
        "id": hit.id,
        "kind": hit.kind,
        "title": hit.title,
        "snippet": spans,
        "score": round(hit.score, 4),
        "law": law,
        "lang": hit.lang,
        "url": url,
        "via": branch.via if branch else None,
        "expansion": branch.expansion if branch else None,
        "match": hit.match,
        "index": hit.index_entries[:INDEX_SHOWN],
        "reprints": [unit_link(data, unit) for unit in hit.reprints],
        "reprint_of": unit_link(data, hit.reprint_of) if hit.reprint_of else None,
        # the 1997 Chinese units the concordance pairs a 2017 unit with (provision_pairs)
        "paired": [unit_link(data, unit) for unit in data.paired.get(hit.id, ())],
    }


def fixed_fields(data: SearchData, hit: Hit) -> tuple[str | None, str]:
    """(law, url) of a result's unit: the same for every search, so worked out once per unit and
    database (a dict of at most one entry per unit: keyed by what was found, not by what was typed)."""
    found = data.presented.get(hit.id)
    if found is None:
        found = data.presented[hit.id] = (law_of(hit.ref, data.role(hit.doc)), data.url(hit.id, hit.doc, hit.ref))
    return found


def unit_link(data: SearchData, unit_id: str) -> dict:
    """{id, doc, ref, url} of a unit a result links to: a new dict each time (present adds its labels)."""
    found = data.links.get(unit_id)
    if found is None:
        doc, ref = unit_id.split(":", 1)
        found = data.links[unit_id] = {"id": unit_id, "doc": doc, "ref": ref, "url": permalink(doc, ref)}
    return dict(found)


def law_of(ref: str, role: str | None) -> str | None:
    """The law a unit belongs to or comments on (`61B2(a)` -> `61`, `L61A` and `quote:61B` -> `61`);
    None for definitions, front matter and the regulations (whose articles are not laws)."""
    if role not in ("laws", "commentary"):
        return None
    number = law_number(ref)
    return None if number is None else str(number)


LATIN_WORD = re.compile(r"[\x00-\x7f]*[A-Za-z][\x00-\x7f]*")


def word_languages(
    data: SearchData, query: str, plan=None, words: list[str] = (), cited: bool = False
) -> dict[str, str | None]:
    """{the query, and each word the page shows beside the results (also searched, did you mean): the
    language it is written in}, so that a page marks it (lang=) in an interface of another language. Kana
    is Japanese and plain Latin letters English; kanji alone are read as search read them: a word searched
    instead of the query in the language of its branch, the query as Chinese when no Japanese word holds
    one of its kanji (words.Lexicon.reads_as_japanese). A spoken form of the director vocabulary is in the
    language the vocabulary lists it in (点差 ja, 有局 zh: data, not a guess). A query written as citations
    (`cited`: 64A1, L61A) is in no language (None): a screen reader reads it in the page's, not in English.
    offline-search-engine.js wordLanguages is the same."""
    read_as: dict[str, str] = {}
    for branch in plan.branches if plan else ():
        if branch.via:
            read_as.setdefault(branch.via, branch.lang)
    for alternative, alternative_plan in plan.alternatives if plan else ():
        if alternative_plan.branches:
            read_as.setdefault(alternative.text, alternative_plan.branches[0].lang)
    read_as[query] = "ja" if data.lexicon.reads_as_japanese(query) else "zh"
    languages = {
        word: spoken_language(data, word) or written_in(word, read_as.get(word))
        for word in dict.fromkeys([query, *words])
    }
    if cited:
        languages[query] = None
    return languages


def spoken_language(data: SearchData, word: str) -> str | None:
    """The language the vocabulary lists `word` in as a spoken form, once per word for this database (the
    bounded memo): folding the word (vocabulary.search_key) was most of what word_languages took."""
    return data.memo(("spoken language", word), lambda: (data.vocabulary.spoken_language(word),))[0]


def written_in(word: str, read_as: str | None) -> str | None:
    if tokenize.KANA_RE.search(word):
        return "ja"
    if LATIN_WORD.fullmatch(word):
        return "en"
    return read_as


# the quotation marks a reader may wrap a whole query in (「ダミーがカードを見せた」, “dummy”): the page's
# sentences quote the query themselves (「%(query)s」の検索結果), so the reader's own pair is left out there
QUOTE_PAIRS = ("「」", "『』", "“”", '""', "‘’", "''", "《》")


def quoted_inside(query: str) -> str:
    """The query as a sentence quotes it: without one pair of quotation marks that holds all of it."""
    inside = query[1:-1].strip()
    for opening, closing in QUOTE_PAIRS:
        wrapped = len(query) > 2 and query[0] == opening and query[-1] == closing
        if wrapped and inside and opening not in inside and closing not in inside:
            return inside
    return query
