"""Full-text search over `sections`: what a director means, best first, snippets from the original text.

One function, `search_page`, serves the CLI, the web page and its JSON, so all three answer the same.

1. Citations. A query written as one or more citations (`64A1`, `20F5(b)(ii)`, `第16条B項1`,
   `第25条B款`, `Law 73`, `L62C3`, `24-5-1`, full-width or not; ingest/text/spelling.py) answers
   with the cited units - the current Laws first, then every other document holding the same ref -
   followed by the units that cite them. A citation no document holds (`61Z`) says so and names
   the nearest units; the words of the query are then searched as text.
2. Text. Otherwise the query runs as *branches* (a language and its tokens):
   - the query itself, tokenized as Japanese and as Chinese (or only the language asked for);
   - its glossary translations (ingest/search/glossary.py): `revoke` also runs as リボーク and 藏牌;
   - the director vocabulary (ingest/search/vocabulary.py): `LOOT` also runs as 順番外のリード and 越序引牌,
     and the units the vocabulary names for it gain a boost (the first named the most).
   Each branch ranks its FTS hits by bm25 (title weighted above text), normalised so its best hit
   scores 1; a unit whose title carries every word of the branch gains `TITLE_BOOST`; a unit the
   printed 索引 points to from an entry matching the query, or a definition the glossary names,
   gains up to `INDEX_WEIGHT`, and so do, through a 索引 "see" entry with exactly the branch's words
   (合意 -> see パートナー間の了解事項), the units the referred entry cites and those inside them whose
   title carries the words; a law, article, definition or section whose title is exactly what the
   branch searches for gains `NAMED_BOOST`. Translated branches count `GLOSSARY_WEIGHT` of the query's own.
   If no unit holds every token, the branch retries with any token (`match: "any"`).
3. A commentary's reprint of a law unit (`quote:61B`) found together with that unit is folded into
   the law's result (`reprints`); found alone it ranks at `REPRINT_WEIGHT`.
4. `total` counts every result; a page is `results[offset:offset + limit]`. Snippets are data,
   `[{text, mark}]` spans placed from the token offsets the build stored (table search_offsets):
   no result is tokenized again.
"""

from __future__ import annotations

import heapq
import json
import re
import sqlite3
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from ingest.search import glossary
from ingest.text import tokenize
from ingest.text.refs import law_ancestors, law_number, parse_law_ref
from ingest.text.spelling import (
    candidate_refs,
    citation_candidates,
    law_spelling,
    named_document,
    note_spelling,
    regulation_spelling,
    split_citations,
    squeeze,
)
from laws_site.i18n.message import Message
from laws_site.i18n.message import message as message_by_id
from laws_site.read import queries
from laws_site.read.units import nearest_refs, permalink
from laws_site.search import alternatives as citation_alternatives
from laws_site.search.data import NAVIGATION_KINDS, SearchData, search_data
from laws_site.search.expansions import FEW, Alternative, alternatives, corrections
from laws_site.search.shown import ShownText

TITLE_WEIGHT = 5.0
TEXT_WEIGHT = 1.0
SNIPPET_CHARS = 120
MAX_QUERY_CHARS = 500
MAX_TERMS = 32
MAX_LIMIT = 500
MAX_OFFSET = 100_000
INDEX_WEIGHT = 2.0  # a unit the 索引 cites from an entry with exactly the query's words: above any text or title hit
TRANSLATED_INDEX_WEIGHT = 1.0  # the same for a translation of the query (which counts GLOSSARY_WEIGHT anyway)
DEFINITION_WEIGHT = 1.0  # the definition the glossary names for the query's term
GLOSSARY_WEIGHT = 0.45  # a translation ranks below what the query itself finds (藏牌: Chinese first)
RELAXED_WEIGHT = 0.5  # hits holding only some of the tokens rank below full matches
TITLE_BOOST = 0.6  # the title carries every word: the unit is about it, not a passing mention
HEADING_BOOST = 0.3  # ... and it is a law, an article or a definition, not one of their parts
HEADING_KINDS = ("law", "article", "definition")
NAMED_BOOST = 0.3  # the title is exactly what the branch searches for (19A 加倍 for 加倍): the unit it names
# ... for a law, an article, a definition or a section: not a heading over several laws (第6部 罚张)
# nor an item or sub-item (25B2(c) 引牌判罚 is a detail of Law 26's 引牌判罚)
NAMED_KINDS = HEADING_KINDS + ("section",)
VOCABULARY_BOOST = 1.2  # the first unit the vocabulary names for the query; later ones a little less
VOCABULARY_STEP = 0.05
REPRINT_WEIGHT = 0.5
CITED_SCORE = 3.0
CITING_SCORE = 0.5
FTS_OPERATORS = {"AND", "OR", "NOT", "NEAR"}
WORD_RE = re.compile(r"[^\W_]")
NON_WORD_RE = re.compile(r"[\W_]+")
FOOTNOTE_MARK_RE = re.compile(r"\*\d*$")

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


# The page's sentence for each refusal above: a catalogue id (laws_site/locale), filled with the same
# values under the names the id uses; the JSON `error` stays the English of MESSAGES.
PAGE_MESSAGES = {
    "empty": (EMPTY_QUERY, {}),
    "too_long": ("The query is %(size)s characters long; search takes up to %(limit)s.", {"size": "length"}),
    "unknown_language": ("Unknown language “%(lang)s”: use ja or zh.", {}),
    "unknown_document": ("Unknown document “%(doc)s”: choose one in the list.", {}),
    "limit": ("%(name)s must be a whole number from %(low)s to %(high)s.", {"high": "highest"}),
    "offset": ("%(name)s must be a whole number from %(low)s to %(high)s.", {"high": "highest"}),
    "only_operators": (
        "「%(query)s」 has only search operators, and there are none here: every word you type is searched for as "
        "written. Type a word to search for (リボーク, 藏牌, revoke) or a citation (64A1, 第16条B項1, Law 73).",
        {"query": "shown"},
    ),
    "nothing": (
        "「%(query)s」 has no word, number or character to search for. Type a word to search for (リボーク, 藏牌, "
        "revoke) or a citation (64A1, 第16条B項1, Law 73).",
        {"query": "shown"},
    ),
}
FIXED_VALUES = {"limit": {"name": "limit", "low": "1"}, "offset": {"name": "offset", "low": "0"}}


def refusal(name: str, **values) -> Message:
    """A refusal by name: its catalogue id for the page, MESSAGES' English for JSON."""
    msgid, renamed = PAGE_MESSAGES[name]
    page_values = {**values, **FIXED_VALUES.get(name, {}), **{new: values[old] for new, old in renamed.items()}}
    return Message(msgid, message(name, **values).replace("%", "%%"), page_values)


class QueryError(ValueError):
    """A query we cannot run, with a message meant for the person who typed it."""


@dataclass
class Branch:
    lang: str
    terms: list[str]
    clauses: list[tuple[str, ...]] = field(default_factory=list)
    via: str | None = None  # the word this branch searches for instead of the query, None for the query itself
    weight: float = 1.0
    # units the glossary names for the query (def:ダミー for dummy): boosted like 索引 targets
    pointed: set[str] = field(default_factory=set)
    expansion: str | None = None  # the kind of alternative it searches for (laws_site/search/expansions.py), if any
    text: str = (
        ""  # what it searches for, as typed (its title_key: a unit whose title is exactly this gains NAMED_BOOST)
    )

    def __post_init__(self):
        # when every clause is one word, a title carries them all if it holds this set (fast path)
        simple = all(len(clause) == 1 and " " not in clause[0] for clause in self.clauses)
        self.title_needs = frozenset(clause[0] for clause in self.clauses) if simple else None
        self.highlighted = frozenset(self.terms) | {alt for clause in self.clauses for alt in clause if " " not in alt}
        self.named = title_key(self.text, self.lang) if self.text else ""

    def title_carried_by(self, title_words: frozenset[str] | None) -> bool:
        if not title_words:
            return False
        if self.title_needs is not None:
            return self.title_needs <= title_words
        return title_carries(title_words, self.clauses)

    def highlight_terms(self) -> frozenset[str]:
        return self.highlighted


def make_branch(data: SearchData, text: str, lang: str, via: str | None = None, weight: float = 1.0) -> Branch:
    terms, clauses = query_tokens(data, text, lang)
    return Branch(lang, list(terms), list(clauses), via, weight, text=text)


def query_tokens(data: SearchData, text: str, lang: str) -> tuple[tuple, tuple]:
    """(terms, clauses) of a query in a language (Japanese cut with the build's lexicon:
    laws_site/search/words.py), cached per database. A token with no letter, digit or character
    (^, ＊) can never match: FTS drops it from the index."""
    return data._cached(("tokens", text, lang), lambda: _query_tokens(data, text, lang))


def _query_tokens(data: SearchData, text: str, lang: str) -> tuple[tuple, tuple]:
    if lang == "ja" and data.lexicon.words:
        found_terms, found_clauses = data.lexicon.query_terms(text), data.lexicon.query_clauses(text)
    else:
        found_terms, found_clauses = tokenize.query_terms(text, lang), tokenize.query_clauses(text, lang)
    terms = [term for term in found_terms if WORD_RE.search(term)][:MAX_TERMS]
    clauses = [clause for clause in found_clauses if WORD_RE.search(" ".join(clause))]
    return tuple(terms), tuple(clauses[:MAX_TERMS] if terms else [])


@dataclass
class Plan:
    branches: list[Branch]
    targets: dict[str, float]  # unit id -> boost, from the director vocabulary
    also_searched: list[str]
    relaxed: bool = True  # retry with any token when no unit holds them all
    query: str = ""
    # what else the query may mean (laws_site/search/expansions.py), each planned like a query: ranked
    # below everything the query itself finds
    alternatives: list[tuple[Alternative, "Plan"]] = field(default_factory=list)


@dataclass(slots=True)
class Hit:
    id: str
    doc: str
    ref: str
    kind: str
    title: str | None
    lang: str
    position: int
    score: float = 0.0
    branch: Branch | None = None
    match: str = "all"
    index_entries: list[str] = field(default_factory=list)
    reprints: list[str] = field(default_factory=list)
    reprint_of: str | None = None
    marks: list[tuple[int, int]] | None = None  # spans to mark instead of the branch's terms (citations)


HIT_COLUMNS = "s.id, s.doc, s.ref, s.kind, s.title, s.lang, s.position"


# ---------------------------------------------------------------- the public functions


def search(
    conn: sqlite3.Connection,
    query: str,
    doc: str | None = None,
    lang: str | None = None,
    limit: int = 20,
    index_boost: bool = True,
    expand: bool = True,
) -> list[dict]:
    """Best-first results of the first page (see `search_page`)."""
    return search_page(conn, query, doc=doc, lang=lang, limit=limit, index_boost=index_boost, expand=expand)["results"]


def search_page(
    conn: sqlite3.Connection,
    query: str,
    doc: str | None = None,
    lang: str | None = None,
    limit: int = 20,
    offset: int = 0,
    index_boost: bool = True,
    expand: bool = True,
) -> dict:
    """{"query", "total", "offset", "limit", "results", "also_searched", "did_you_mean",
    "expansions", "exact", "citation"}; results are [{"doc","ref","id","kind","title","snippet",
    "score","law","lang","url","via","match","index","reprints","expansion"}]. `expand=False`
    searches exactly what was typed (no readings, romaji, sound, synonyms, variants or
    corrections). Raises QueryError with a message for the person who typed it."""
    data = search_data(conn)
    query = check_query(query)
    check_filters(data, doc, lang, limit, offset)
    if all(word in FTS_OPERATORS for word in query.split()):
        raise QueryError(nothing_to_search(query))
    citation = cited_units(conn, data, query, doc, lang)
    if citation is not None:  # 27条 opens Law 27; the regulations' article 27 is offered beside it
        citation["alternatives"] = citation_alternatives.offered(conn, data, citation)
    also_searched: list[str] = []
    expansions: list[dict] = []
    if citation and citation["found"]:
        hits = citation_hits(conn, data, citation["units"], doc, lang)
    else:
        plan = make_plan(data, query, lang)
        if expand and not citation:
            plan.alternatives = [
                (alt, _alternative_plan(data, alt, lang))
                for alt in alternatives(data.expansions, query, lang, data.ja_terms)
            ]
        if (
            not plan.branches
            and not citation
            and not any(p.branches for _, p in plan.alternatives)
            and not (expand and corrections(data.expansions, query, lang))
        ):
            raise QueryError(nothing_to_search(query))
        # a citation nobody holds (61Z) is searched as text too, but only where all of it occurs
        plan.relaxed = citation is None
        ranking = ranked_hits(conn, data, plan, doc, lang, index_boost, corrected=expand and not citation)
        also_searched = plan.also_searched
        expansions = [
            {"kind": alt.kind, "text": alt.text, "found": ranking.found_by.get(alt.text, 0)}
            for alt, _ in plan.alternatives
        ]
    if citation and citation["found"]:
        total, page = len(hits), hits[offset : offset + limit]
    else:
        total, page = len(ranking), ranking.hits(offset, limit)
    also = [e["text"] for e in expansions if e["kind"] != "typo" and e["found"]]
    return {
        "query": query,
        "total": total,
        "offset": offset,
        "limit": limit,
        "results": present(conn, data, page),
        "also_searched": list(dict.fromkeys(also_searched + also)),
        "did_you_mean": [e["text"] for e in expansions if e["kind"] == "typo" and e["found"]],
        "expansions": [e for e in expansions if e["found"]],
        "exact": not expand,
        "citation": citation,
    }


def prepare(conn: sqlite3.Connection) -> None:
    """What every search reads besides its query's rows, read now if not yet: the build's search
    data (once per database file, ~0.12 s) and the dictionaries. Bounded by the data, not by the
    query, so the server runs it outside the query's time limit (responses.read_here): on a busy
    machine the first search after a rebuild was cut short by it."""
    search_data(conn)
    tokenize.warm()


def _alternative_plan(data: SearchData, alternative: Alternative, lang: str | None) -> "Plan":
    """An alternative planned like a query of its own (its glossary and vocabulary included); its
    branches say which alternative they search for."""
    plan = make_plan(data, alternative.text, lang or alternative.lang)
    for branch in plan.branches:
        branch.via = branch.via or alternative.text
        branch.expansion = alternative.kind
    return plan


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


def nothing_to_search(query: str) -> Message:
    shown = query if len(query) <= 40 else query[:40] + "…"
    if all(word in FTS_OPERATORS for word in query.split()):
        return refusal("only_operators", shown=shown)
    return refusal("nothing", shown=shown)


# ---------------------------------------------------------------- 1. citations


def cited_units(conn, data: SearchData, query: str, doc: str | None, lang: str | None) -> dict | None:
    """None if the query is not written as citations; else {"query", "found", "units" (ids, most
    wanted first), "opens" (the first unit is what the citation names: a page may open it),
    "message", "nearest"}.

    A law ref (`27条`, `27条B項1(b)`, `16条B`) names the current Laws' unit; a regulation article
    with the same number is offered after it, never instead of it: `27条` that only the regulations
    held would say so and not open them. The regulations (or a commentary) are named by their own
    title before the citation (`競技会運営規則第27条`, `運営規則27条`) or with the document filter."""
    named = named_document(query, data.document_names)
    if named:
        typed, scoped = [named[1]], named[0]
    else:
        typed, scoped = split_citations(query), None
    if not typed:
        return None
    wanted, primary = [], []
    for citation in typed:
        if scoped:
            pairs = [(scoped, ref) for ref in candidate_refs(data.role(scoped), citation) + [squeeze(citation)]]
        else:
            pairs = citation_candidates(citation) or []
        for rank, (scope, ref) in enumerate(pairs):
            docs = [scope] if data.registry.get(scope) else _docs_of_role(data, scope)
            wanted += [f"{d}:{ref}" for d in docs]
            if rank == 0:
                primary += [f"{d}:{ref}" for d in docs]
    wanted = [unit for unit in dict.fromkeys(wanted) if _in_filters(data, unit.split(":", 1)[0], doc, lang)]
    found = _existing(conn, wanted)
    units = [unit for unit in wanted if unit in found]
    # with a document or language filter, whatever the filter leaves is what was asked for
    opens = bool(units) and (doc is not None or lang is not None or units[0] in primary)
    result = {
        "query": query,
        "found": bool(units),
        "units": units,
        "opens": opens,
        "message": None,
        "nearest": [],
        "citations": len(typed),
    }
    if not units:
        result["message"] = message("no_such_unit", where=message("in_filters") if doc or lang else "", query=query)
        result["nearest"] = nearest_units(conn, data, typed[0], doc if doc else scoped)
    elif not opens:
        wanted_doc = primary[0].split(":", 1)[0] if primary else None
        title = data.documents[wanted_doc].title if wanted_doc in data.documents else wanted_doc
        result["message"] = message("elsewhere", title=title, query=query)
    return result


def _docs_of_role(data: SearchData, role: str) -> list[str]:
    if role == "laws":
        return [d.id for d in data.registry.laws]
    if role == "commentary":
        return [d.id for d in data.registry.commentaries]
    if role == "regulations":
        return [data.registry.regulations.id] if data.registry.regulations else []
    return []


def _in_filters(data: SearchData, unit_doc: str, doc: str | None, lang: str | None) -> bool:
    return (doc is None or unit_doc == doc) and (lang is None or data.language(unit_doc) == lang)


def _existing(conn, ids: list[str]) -> set[str]:
    if not ids:
        return set()
    marks = ",".join("?" * len(ids))
    return {row[0] for row in conn.execute(f"select id from sections where id in ({marks})", ids)}


def nearest_units(conn, data: SearchData, typed: str, doc: str | None) -> list[dict]:
    """For a citation nobody holds: its enclosing units that exist, then the closest spellings."""
    registry = data.registry
    law, note, regulation = law_spelling(typed), note_spelling(typed), regulation_spelling(typed)
    if note and registry.commentaries:
        place, ref = doc or registry.commentaries[0].id, note
    elif law and registry.current_laws:
        place, ref = doc or registry.current_laws.id, law
    elif regulation and registry.regulations:
        place, ref = doc or registry.regulations.id, regulation
    else:
        return []
    refs = []
    if parse_law_ref(ref.removeprefix("L")):
        prefix = "L" if ref.startswith("L") else ""
        refs += [prefix + ancestor for ancestor in law_ancestors(ref.removeprefix("L"))]
    refs += nearest_refs(conn, place, ref)
    found = _existing(conn, [f"{place}:{r}" for r in refs])
    units = [r for r in dict.fromkeys(refs) if f"{place}:{r}" in found][:6]
    labels = link_labels(conn, [f"{place}:{r}" for r in units], data)
    return [
        {
            "id": f"{place}:{r}",
            "doc": place,
            "ref": r,
            "url": permalink(place, r),
            "labels": labels.get(f"{place}:{r}", {}),
        }
        for r in units
    ]


def citation_hits(conn, data: SearchData, units: list[str], doc: str | None, lang: str | None) -> list[Hit]:
    """The cited units in the order asked, then the units citing them (the citing surface marked)."""
    hits = _load_hits(data, units)
    ordered = [hits[unit] for unit in units if unit in hits]
    for rank, hit in enumerate(ordered):
        hit.score, hit.match = CITED_SCORE - rank / 100, "citation"
    marks = ",".join("?" * len(units))
    navigation = ",".join("?" * len(NAVIGATION_KINDS))
    rows = conn.execute(
        f"""
        select {HIT_COLUMNS}, x.start, x."end" from xrefs x join sections s on s.id = x.source_id
        where x.target_id in ({marks}) and x.field = 'text' and s.kind not in ({navigation})
        order by s.position, x.start
    """,
        [*units, *NAVIGATION_KINDS],
    ).fetchall()
    citing: dict[str, Hit] = {}
    for row in rows:
        if row[0] in hits or not _in_filters(data, row[1], doc, lang):
            continue
        hit = citing.setdefault(row[0], Hit(*row[:7], score=CITING_SCORE, match="cites", marks=[]))
        hit.marks.append((row[7], row[8]))
    cited_by = sorted(citing.values(), key=lambda h: (data.doc_rank(h.doc), h.position))
    return ordered + cited_by


# ---------------------------------------------------------------- 2. text


def make_plan(data: SearchData, query: str, lang: str | None) -> Plan:
    """The query in each language, its glossary translations and its director vocabulary, without repeats."""
    languages = [lang] if lang else ["ja", "zh"]
    branches: list[Branch] = []
    # kana means Japanese: its kanji alone, read as Chinese, would match noise (取り消した -> 取, 消)
    direct = ["ja"] if not lang and tokenize.KANA_RE.search(query) else languages
    for language in direct:
        _add(branches, make_branch(data, query, language))
    for entry in data.glossary_lookup(query):
        for language in languages:
            for form in glossary.term_forms(entry.term(language)):
                branch = _add(branches, make_branch(data, form, language, via=form, weight=GLOSSARY_WEIGHT))
                unit = data.glossary.unit_id(entry, language)
                if branch and unit and entry.ref(language).startswith("def:"):
                    branch.pointed.add(unit)
    targets: dict[str, float] = {}
    for entry, fields in data.vocabulary_matches(query).items():
        for language, words in (("ja", entry.ja + entry.ja_regs), ("zh", entry.zh)):
            if language in languages:
                for word in words:
                    _add(branches, make_branch(data, word, language, via=word, weight=GLOSSARY_WEIGHT))
        if fields == {"zh"}:
            continue  # the units it names are Japanese: a Chinese query reaches them as a translation
        named = [(data.registry.current_laws, entry.laws), (data.registry.regulations, entry.regs)]
        rank = 0
        for document, refs in named:
            for ref in refs if document else []:
                boost = max(VOCABULARY_BOOST - VOCABULARY_STEP * rank, VOCABULARY_BOOST / 2)
                unit = f"{document.id}:{ref}"
                targets[unit] = max(targets.get(unit, 0.0), boost)
                rank += 1
    query_terms = {(b.lang, tuple(b.terms)) for b in branches if b.via is None}
    also = [b.via for b in branches if b.via and (b.lang, tuple(b.terms)) not in query_terms]
    return Plan(branches, targets, list(dict.fromkeys(also)), query=query)


def _add(branches: list[Branch], branch: Branch) -> Branch | None:
    """Append the branch unless one with the same language and tokens exists; return the one kept."""
    if not branch.terms:
        return None
    for existing in branches:
        if existing.lang == branch.lang and existing.terms == branch.terms:
            return existing
    branches.append(branch)
    return branch


class Ranking:
    """The ranked results of a text search: every matching unit's rowid, best first, with what
    made its score - [score, branch, match, 索引 entries, tier] - and the reprints folded into it.
    Tier 0: units the query itself finds; 1: units only an alternative finds (a reading, a
    correction...); 2: units holding only some of the words. Hits (the full result objects) are
    made for the page shown only."""

    def __init__(
        self, data: SearchData, candidates: dict[int, list], reprints: dict[int, list[str]], reprint_of: dict[int, str]
    ):
        self.data, self.candidates, self.reprints, self.reprint_of = data, candidates, reprints, reprint_of
        self.found_by: dict[str, int] = {}  # alternative's text -> units it added

    def __len__(self) -> int:
        return len(self.candidates)

    def best(self, count: int) -> list[int]:
        """The first `count` rowids, best first: by tier, score, document, position in it. The
        candidate's own place breaks what ties remain, as the stable sort of every candidate did;
        the key is then a total order, so sorting only the page's share answers the same."""
        listing = self.data.listing_rank
        keys = [
            (candidate[4], -candidate[0], listing[rowid], place, rowid)
            for place, (rowid, candidate) in enumerate(self.candidates.items())
        ]
        chosen = heapq.nsmallest(count, keys) if count < len(keys) // 2 else sorted(keys)[:count]
        return [key[4] for key in chosen]

    def hits(self, offset: int = 0, limit: int | None = None) -> list[Hit]:
        found = []
        order = self.best(len(self.candidates) if limit is None else offset + limit)
        for rowid in order[offset:]:
            score, branch, match, entries, _tier = self.candidates[rowid]
            hit = Hit(*self.data.units[rowid], score=score, branch=branch, match=match)
            hit.index_entries = entries or []
            hit.reprints = self.reprints.get(rowid, [])
            hit.reprint_of = self.reprint_of.get(rowid)
            found.append(hit)
        return found


STRICT = ("all", "most", "index", "vocabulary")


def ranked_hits(
    conn, data: SearchData, plan: Plan, doc: str | None, lang: str | None, index_boost: bool, corrected: bool = False
) -> Ranking:
    """The query's own branches (tier 0), then its alternatives (tier 1, only units tier 0 lacks);
    corrections join the alternatives when tier 0 finds fewer than FEW units. Only if no unit holds
    every word of the query, units holding any of them: tier 2 when an alternative found units,
    else tier 0 (the ranking before alternatives existed)."""
    fts = OneSearch(conn)
    strict = _strict_hits(fts, data, plan.branches, doc, index_boost, False)
    relaxed = {}
    if plan.relaxed and not any(c[2] in ("all", "most") for c in strict.values()):
        relaxed = _strict_hits(fts, data, plan.branches, doc, index_boost, True)
    merged: dict[int, list] = {}
    _merge(merged, strict, 0)
    _add_targets(merged, data, plan.targets, doc, lang, 0)
    if corrected and len(merged) < FEW:
        known = {alt.text for alt, _ in plan.alternatives}
        plan.alternatives += [
            (alt, _alternative_plan(data, alt, lang))
            for alt in corrections(data.expansions, plan.query, lang)
            if alt.text not in known
        ]
    found_by: dict[str, int] = {}
    for alternative, alt_plan in plan.alternatives:
        before = len(merged)
        tier = alternative_tier(alternative)
        _merge(merged, _strict_hits(fts, data, alt_plan.branches, doc, index_boost, False), tier)
        _add_targets(merged, data, alt_plan.targets, doc, lang, tier)
        found_by[alternative.text] = len(merged) - before
    if relaxed and any(found_by.values()):
        _merge(merged, relaxed, 2)
    elif relaxed:  # as before alternatives: the relaxed hits, then the vocabulary's boosts
        merged = {}
        _merge(merged, strict, 0)
        _merge(merged, relaxed, 0)
        _add_targets(merged, data, plan.targets, doc, lang, 0)
    ranking = fold_reprints(data, merged)
    ranking.found_by = found_by
    return ranking


def alternative_tier(alternative: Alternative) -> int:
    """A reviewed Chinese variant (corpus/zh_variants.yml: 首攻 for the 1997 text's 首引) is another
    spelling of the same term, like traditional and simplified: its units rank with the query's
    own (tier 0). Every other alternative is a guess and ranks below them (tier 1)."""
    return 0 if alternative.kind == "zh" else 1


def _strict_hits(
    fts: "OneSearch", data: SearchData, branches: list[Branch], doc: str | None, index_boost: bool, relaxed: bool
) -> dict:
    found: dict[int, list] = {}
    for branch in branches:
        hits = run_branch(fts, data, branch, doc, index_boost, relaxed)
        if not found:  # the first branch with hits: all of them, in their order (a new dict each call)
            found = hits
            continue
        for rowid, candidate in hits.items():
            kept = found.get(rowid)
            if kept is None or candidate[0] > kept[0]:
                found[rowid] = candidate
    return found


def _merge(merged: dict[int, list], found: dict[int, list], tier: int) -> None:
    """Add candidates at a tier: a unit already found at a better tier keeps its place (and, at
    the same tier, the better score)."""
    if not merged:  # nothing to compare with: each candidate, copied with its tier
        merged.update({rowid: candidate[:4] + [tier] for rowid, candidate in found.items()})
        return
    for rowid, candidate in found.items():
        kept = merged.get(rowid)
        if kept is None:
            merged[rowid] = candidate[:4] + [tier]
        elif kept[4] == tier and candidate[0] > kept[0]:
            merged[rowid] = candidate[:4] + [tier]


def _add_targets(merged: dict[int, list], data: SearchData, targets: dict[str, float], doc, lang, tier: int) -> None:
    for unit, boost in targets.items():
        rowid = data.rowids.get(unit)
        if rowid is None or not _in_filters(data, data.units[rowid][1], doc, lang):
            continue
        candidate = merged.get(rowid)
        if candidate is None:
            candidate = merged[rowid] = [0.0, None, "vocabulary", None, tier]
        if candidate[4] == tier:
            candidate[0] += boost


def run_branch(
    fts: "OneSearch", data: SearchData, branch: Branch, doc: str | None, index_boost: bool, relaxed: bool = False
) -> dict[int, list]:
    """Text hits (with every token, or with any when `relaxed`), plus boosts for the units the 索引
    and the glossary point to: {rowid: [score, branch, match, 索引 entries]}."""
    indexed = data.vocabulary_of.get(branch.lang)
    if indexed is not None and not relaxed and not all(_indexed(clause, indexed) for clause in branch.clauses):
        hits = {}  # a word no unit holds: the query cannot match all of them (and need not ask FTS)
    else:
        hits = text_hits(fts, data, branch, doc, relaxed)
    index_weight = INDEX_WEIGHT if branch.via is None else TRANSLATED_INDEX_WEIGHT
    pointed = {
        unit: (index_weight * boost, entries)
        for unit, (boost, entries) in (
            fts.index_boosts(data, branch.terms) if index_boost and branch.lang == "ja" else {}
        ).items()
    }
    if index_boost and branch.lang == "ja":
        for unit, entry in see_also_boosts(data, branch, hits).items():
            boost, entries = pointed.get(unit, (0.0, []))
            pointed[unit] = (max(boost, index_weight), entries + [entry])
    for unit in branch.pointed:
        boost, entries = pointed.get(unit, (0.0, []))
        pointed[unit] = (max(boost, DEFINITION_WEIGHT), entries)
    for unit, (boost, entries) in pointed.items():
        rowid = data.rowids.get(unit)
        if rowid is None:
            continue
        info = data.units[rowid]
        if (doc is not None and info[1] != doc) or info[5] != branch.lang:
            continue
        candidate = hits.setdefault(rowid, [0.0, branch, "index", None])
        candidate[0] += boost
        candidate[3] = entries
    weight = branch.weight
    if weight != 1.0:
        for candidate in hits.values():
            candidate[0] *= weight
    return hits


def see_also_boosts(data: SearchData, branch: Branch, hits: dict[int, list]) -> dict[str, str]:
    """{unit id: the 索引's "see" entry} when the 索引 has a "see" entry with exactly the branch's
    words (合意 -> see パートナー間の了解事項): the units the entry referred to cites (Law 40), and
    the units inside them whose title carries the words (40A プレイヤのシステム上の合意事項). The
    索引 sends a reader of the word there; a passing mention elsewhere in Law 40 is not boosted."""
    found = data.see_also.get(frozenset(branch.terms))
    if not found:
        return {}
    entry, targets = found
    boosted = {target: entry for target in targets}
    wanted = {tuple(target.split(":", 1)) for target in targets}
    units, titles = data.units, data.title_words
    for rowid in hits:
        unit_id, doc, ref = units[rowid][:3]
        # the title first: a set test, where the ancestors parse the ref (most hits fail the title)
        if (
            unit_id not in boosted
            and branch.title_carried_by(titles.get(rowid))
            and any((doc, above) in wanted for above in law_ancestors(ref))
        ):
            boosted[unit_id] = entry
    return boosted


def _indexed(clause: tuple[str, ...], indexed: frozenset[str]) -> bool:
    return any(_words(alternative) <= indexed for alternative in clause)


def text_hits(
    fts: "OneSearch", data: SearchData, branch: Branch, doc: str | None, relaxed: bool = False
) -> dict[int, list]:
    """bm25 hits holding every token (or, `relaxed`, any token, at RELAXED_WEIGHT); scores scaled
    so the best is 1, plus TITLE_BOOST where the title carries every token. A Chinese phrase of
    three bigrams or more also finds, at RELAXED_WEIGHT, units missing one of its bigrams
    (越序叫牌 -> 越序实质叫牌). {rowid: [score, branch, match, None]}."""
    if relaxed and len(branch.clauses) < 2:
        return {}  # one word: "any" is "all", already tried
    operator, match_kind, weight = ("OR", "any", RELAXED_WEIGHT) if relaxed else ("AND", "all", 1.0)
    rows = _fts(fts, data, tokenize.fts_match(branch.clauses, operator), branch.lang, doc)
    if not rows:
        return {}
    scale = weight / (max(score for _, score in rows) or 1.0)
    titles, units = data.title_words, data.units
    hits = {}
    for rowid, score in rows:
        score *= scale
        if not relaxed and branch.title_carried_by(titles.get(rowid)):
            score += title_boost(units[rowid][3])
            if (
                branch.named
                and units[rowid][3] in NAMED_KINDS
                and title_key(units[rowid][4], branch.lang) == branch.named
            ):
                score += NAMED_BOOST
        hits[rowid] = [score, branch, match_kind, None]
    if not relaxed and branch.lang == "zh" and len(branch.clauses) >= 3:
        hits.update(_all_but_one(fts, data, branch, doc, hits))
    return hits


def _all_but_one(fts: "OneSearch", data: SearchData, branch: Branch, doc: str | None, found: dict) -> dict[int, list]:
    """The units missing one clause (not already found), scaled among themselves."""
    clauses = branch.clauses
    combinations = [tokenize.fts_match(clauses[:i] + clauses[i + 1 :], "AND") for i in range(len(clauses))]
    rows = [
        row
        for row in _fts(fts, data, " OR ".join(f"({c})" for c in combinations if c), branch.lang, doc)
        if row[0] not in found
    ]
    scale = RELAXED_WEIGHT / (max((score for _, score in rows), default=0.0) or 1.0)
    hits = {}
    for rowid, score in rows:
        score *= scale
        title = data.title_words.get(rowid)
        if any(title_carries(title, clauses[:i] + clauses[i + 1 :]) for i in range(len(clauses))):
            score += RELAXED_WEIGHT * title_boost(data.units[rowid][3])
        hits[rowid] = [score, branch, "most", None]
    return hits


@lru_cache(maxsize=16384)
def title_key(text: str | None, lang: str) -> str:
    """A title or a query compared as written: NFKC, lower case, simplified if Chinese, without a
    footnote mark (間違った説明* , ...場合*4) or any space or punctuation."""
    if not text:
        return ""
    text = unicodedata.normalize("NFKC", text).lower()
    if lang == "zh":
        text = tokenize.to_simplified(text)
    return NON_WORD_RE.sub("", FOOTNOTE_MARK_RE.sub("", text))


def title_boost(kind: str) -> float:
    return TITLE_BOOST + (HEADING_BOOST if kind in HEADING_KINDS else 0.0)


def title_carries(title_words: frozenset[str] | None, clauses) -> bool:
    """Every clause has an alternative (a word, or a phrase's words) among the title's tokens."""
    return bool(title_words) and all(any(_words(alt) <= title_words for alt in clause) for clause in clauses)


@lru_cache(maxsize=16384)
def _words(tokens: str) -> frozenset[str]:
    return frozenset(tokens.split())


FTS_SQL = (
    f"select rowid, -bm25(sections_fts, {TITLE_WEIGHT}, {TEXT_WEIGHT}) from sections_fts where sections_fts match ?"
)


class OneSearch:
    """What one search would otherwise work out more than once, each worked out once: the rows of
    an FTS MATCH (a query and its reading both fold to リボク, two branches share a translation
    (藏牌), a relaxed retry repeats a one-word branch: a fifth of a search's FTS rows were read
    twice or more) and the 索引 boosts of a branch's words (the same words, up to six branches).
    Made per search and dropped with it: nothing is kept from one request to the next."""

    def __init__(self, conn):
        self.conn = conn
        self.read: dict[str, list[tuple]] = {}
        self.index_boosted: dict[tuple[str, ...], dict] = {}

    def rows(self, match: str) -> list[tuple]:
        found = self.read.get(match)
        if found is None:
            found = self.read[match] = _run_fts(self.conn, FTS_SQL, match)
        return found

    def index_boosts(self, data: SearchData, terms: list[str]) -> dict[str, tuple[float, list[str]]]:
        """index_boosts(data, terms); its answer is only read (run_branch copies what it keeps)."""
        key = tuple(terms)
        found = self.index_boosted.get(key)
        if found is None:
            found = self.index_boosted[key] = index_boosts(data, terms)
        return found


def _fts(fts: OneSearch, data: SearchData, match: str | None, lang: str, doc: str | None) -> list[tuple[int, float]]:
    """(rowid, bm25 score) of the units of this language (and document) matching, navigation
    rows left out; read straight from the FTS table, the units' fields come from memory."""
    if not match:
        return []
    rows = fts.rows(match)
    searchable = data.searchable.get(lang, frozenset())
    if doc is None:
        return [row for row in rows if row[0] in searchable]
    units = data.units
    return [row for row in rows if row[0] in searchable and units[row[0]][1] == doc]


def _run_fts(conn, sql: str, match: str) -> list[tuple]:
    """(rowid, score) rows as plain tuples: numbers only, which the connection's result budget
    (limits.budgeted_row counts text and blob lengths) would count as 0 after making a sqlite3.Row
    of each - a third of a search's time on a few hundred rows. The time limit stays the connection's."""
    cursor = conn.cursor()
    cursor.row_factory = None
    try:
        return cursor.execute(sql, (match,)).fetchall()
    except sqlite3.OperationalError as error:
        # quoting makes this unreachable for any input we know of; a message beats a 500
        raise QueryError(
            message_by_id("This query could not be searched (%(error)s); try fewer symbols.", error=str(error))
        ) from error


def _load_hits(data: SearchData, unit_ids: list[str]) -> dict[str, Hit]:
    found = {}
    for unit in unit_ids:
        rowid = data.rowids.get(unit)
        if rowid is not None:
            found[unit] = Hit(*data.units[rowid], score=0.0, match="index")
    return found


def index_boosts(data: SearchData, terms: list[str]) -> dict[str, tuple[float, list[str]]]:
    """{unit id: (boost, index refs)} for units cited by 索引 entries that contain the query or that
    the query contains; the boost is the share of tokens the two have in common (1 = same words)."""
    query = frozenset(terms)
    boosts: dict[str, tuple[float, list[str]]] = {}
    for entry in data.index_entries_with(query):
        # one holds the other, so the words in common are the smaller set's (no intersection made)
        if query <= entry.terms:
            common = len(query)
        elif entry.terms <= query:
            common = len(entry.terms)
        else:
            continue
        if not common:
            continue
        boost = common / max(len(query), len(entry.terms))
        for target in entry.targets:
            best, refs = boosts.get(target, (0.0, []))
            boosts[target] = (max(best, boost), refs + [entry.ref])
    return boosts


# ---------------------------------------------------------------- 3. reprints under their law


def fold_reprints(data: SearchData, merged: dict[int, list]) -> Ranking:
    """A commentary's reprint of a law unit joins that unit's result when both were found; alone,
    it ranks at REPRINT_WEIGHT and says which unit it reprints."""
    reprints: dict[int, list[str]] = {}
    reprint_of: dict[int, str] = {}
    for rowid in [r for r in merged if r in data.reprinted]:
        law_unit = data.reprinted[rowid]
        law_rowid = data.rowids.get(law_unit)
        if law_rowid in merged:
            reprints.setdefault(law_rowid, []).append(data.units[rowid][0])
            del merged[rowid]
        else:
            merged[rowid][0] *= REPRINT_WEIGHT
            reprint_of[rowid] = law_unit
    return Ranking(data, merged, reprints, reprint_of)


# ---------------------------------------------------------------- 4. presenting a page


def present(conn, data: SearchData, page: list[Hit]) -> list[dict]:
    texts = _texts(conn, data, [hit.id for hit in page])
    labels = unit_labels(conn, [hit.id for hit in page], data)
    linked = link_labels(
        conn, [u for hit in page for u in hit.reprints + ([hit.reprint_of] if hit.reprint_of else [])], data
    )
    results = []
    for hit in page:
        shown = texts.get(hit.id, NOTHING_SHOWN)
        if hit.marks is not None:
            spans = merge_spans(sorted(hit.marks))
        else:
            spans = _shown_spans(shown, hit.branch.highlighted if hit.branch else frozenset(), hit.lang)
        result = as_dict(data, hit, snippet(shown.text, spans))
        result.update(labels.get(hit.id, ()))
        for link in result["reprints"] + ([result["reprint_of"]] if result["reprint_of"] else []):
            link["labels"] = linked.get(link["id"], {})
        results.append(result)
    return results


def _shown_spans(shown: ShownText, wanted: frozenset[str], lang: str) -> list[tuple[int, int]]:
    if shown.offsets is None:
        return match_spans_by_tokenizing(shown.text, wanted, lang)
    # no offsets stored for the unit's tokens (none at all): nothing to mark, as match_spans says
    return _padded_spans(shown.padded, shown.offsets, wanted) if shown.offsets else []


def link_labels(conn, ids: list[str], data: SearchData | None = None) -> dict[str, dict[str, str]]:
    """id -> {lang: document-qualified label} (リボーク注釈: 第63条の引用), for links to other units."""
    if not ids or not _labels_in(conn, data):
        return {}
    if data is not None and data.shown is not None and data.shown.full_labels is not None:
        stored = data.shown.full_labels  # read once per build (laws_site/search/shown.py)
        return {unit: dict(stored[unit]) for unit in ids if unit in stored}
    marks = ",".join("?" * len(ids))
    found: dict[str, dict[str, str]] = {}
    for unit, lang, label in conn.execute(
        f"select unit_id, lang, full_label from unit_labels where unit_id in ({marks})", ids
    ):
        found.setdefault(unit, {})[lang] = label
    return found


def unit_labels(conn, ids: list[str], data: SearchData | None = None) -> dict[str, dict]:
    """id -> {"label" (the Japanese interface's, sections.label), "labels" {ja, zh, en}, "context"
    (the title of the nearest enclosing unit that has one, for a sub-item without a title of its
    own: 27B1(b) -> 不十分なビッド)}; {} for a database built before labels existed."""
    if not ids or not _labels_in(conn, data):
        return {}
    if data is not None and data.shown is not None and data.shown.labels is not None:
        # made at build (ingest/search/labels.py), read once per build (laws_site/search/shown.py)
        stored = data.shown.labels
        return {
            unit: {"label": found.label, "labels": dict(found.labels), "context": found.context}
            for unit in ids
            if (found := stored.get(unit)) is not None
        }
    marks = ",".join("?" * len(ids))
    if data is not None and data._cached(("search labels",), lambda: queries.table_exists(conn, "search_labels")):
        # made at build (ingest/search/labels.py): one statement, not three (one a recursive walk up)
        cursor = conn.cursor()
        cursor.row_factory = None
        return {
            unit: {"label": label, "labels": json.loads(labels), "context": context}
            for unit, label, labels, context in cursor.execute(
                f"select id, label, labels, context from search_labels where id in ({marks})", ids
            )
        }
    found = {
        unit: {"label": label, "labels": {}, "context": None}
        for unit, label in conn.execute(f"select id, label from sections where id in ({marks})", ids)
    }
    for unit, lang, label in conn.execute(
        f"select unit_id, lang, label from unit_labels where unit_id in ({marks})", ids
    ):
        if unit in found:
            found[unit]["labels"][lang] = label
    rows = conn.execute(
        f"""
        with recursive up(start, id, title, depth) as (
            select s.id, s.parent_id, null, 0 from sections s where s.id in ({marks}) and coalesce(s.title, '') = ''
            union all
            select up.start, p.parent_id, p.title, up.depth + 1 from up join sections p on p.id = up.id
            where up.title is null or up.title = ''
        )
        select start, title from up where title is not null and title != '' order by depth
    """,
        ids,
    ).fetchall()
    for unit, title in rows:
        if unit in found and found[unit]["context"] is None:
            found[unit]["context"] = title
    return found


def _labels_in(conn, data: SearchData | None) -> bool:
    """Whether this build has labels: asked once per build (the search data's memo), not with two
    statements per call (four per search)."""
    return data._cached(("has labels",), lambda: _has_labels(conn)) if data is not None else _has_labels(conn)


def _has_labels(conn) -> bool:
    return bool(conn.execute("select 1 from pragma_table_info('sections') where name = 'label'").fetchone()) and bool(
        conn.execute("select 1 from sqlite_master where name = 'unit_labels'").fetchone()
    )


def _texts(conn, data: SearchData, ids: list[str]) -> dict[str, ShownText]:
    """id -> the text shown in the snippet (the text, or the title when the unit has no text of its
    own), its search tokens, their offsets (None if the build stored none): from memory when the
    build has them (laws_site/search/shown.py), else read."""
    if data.shown is not None:
        return data.shown.texts
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    sql = f"select id, title, text, search_title, search_text from sections where id in ({marks})"
    found = {}
    for unit, title, text, title_tokens, text_tokens in conn.execute(sql, ids):
        if text:
            found[unit] = ShownText(text, " " + (text_tokens or "") + " ", None)
        else:
            found[unit] = ShownText(title or "", " " + (title_tokens or "") + " ", None)
    return found


NOTHING_SHOWN = ShownText("", "  ", None)


def as_dict(data: SearchData, hit: Hit, spans: list[dict]) -> dict:
    return {
        "doc": hit.doc,
        "ref": hit.ref,
        "id": hit.id,
        "kind": hit.kind,
        "title": hit.title,
        "snippet": spans,
        "score": round(hit.score, 4),
        "law": law_of(hit.ref, data.role(hit.doc)),
        "lang": hit.lang,
        "url": data.url(hit.id, hit.doc, hit.ref),
        "via": hit.branch.via if hit.branch else None,
        "expansion": hit.branch.expansion if hit.branch else None,
        "match": hit.match,
        "index": hit.index_entries[:5],
        "reprints": [_unit_link(unit) for unit in hit.reprints],
        "reprint_of": _unit_link(hit.reprint_of) if hit.reprint_of else None,
    }


def _unit_link(unit_id: str) -> dict:
    doc, ref = unit_id.split(":", 1)
    return {"id": unit_id, "doc": doc, "ref": ref, "url": permalink(doc, ref)}


def law_of(ref: str, role: str | None) -> str | None:
    """The law a unit belongs to or comments on (`61B2(a)` -> `61`, `L61A` and `quote:61B` -> `61`);
    None for definitions, front matter and the regulations (whose articles are not laws)."""
    if role not in ("laws", "commentary"):
        return None
    number = law_number(ref)
    return None if number is None else str(number)


def snippet(text: str, spans: list[tuple[int, int]]) -> list[dict]:
    """A window of the original text around the first match as [{"text", "mark"}] spans: the
    marked ones are the matches. Templates and the CLI render them; nothing here is markup."""
    start = max(0, spans[0][0] - SNIPPET_CHARS // 3) if spans else 0
    end = min(len(text), start + SNIPPET_CHARS)
    parts: list[dict] = []
    plain, cursor = ("…" if start > 0 else ""), start
    for begin, finish in spans:
        if begin < cursor or finish > end:
            continue
        plain += text[cursor:begin]
        if plain:
            parts.append({"text": plain.replace("\n", " "), "mark": False})
        parts.append({"text": text[begin:finish].replace("\n", " "), "mark": True})
        plain, cursor = "", finish
    plain += text[cursor:end] + ("…" if end < len(text) else "")
    if plain:
        parts.append({"text": plain.replace("\n", " "), "mark": False})
    return parts


def snippet_text(spans: list[dict], before: str = "", after: str = "") -> str:
    """The snippet as plain text, the marked spans wrapped in `before`/`after` (the CLI's 【】)."""
    return "".join(before + s["text"] + after if s["mark"] else s["text"] for s in spans)


def match_spans(tokens: str, offsets, wanted: set[str]) -> list[tuple[int, int]]:
    """Where the wanted tokens lie, from the stored tokens and their offsets (a flat array as
    stored, or (begin, end) pairs), merged and in order."""
    if not wanted:
        return []
    if offsets and not isinstance(offsets[0], tuple):
        return _padded_spans(" " + tokens + " ", offsets, wanted)
    spans = {span for token, span in zip(tokens.split(), offsets) if token in wanted}
    return merge_spans(sorted(spans))


def _padded_spans(padded: str, offsets, wanted) -> list[tuple[int, int]]:
    """match_spans on tokens with a space before and after and their flat offsets array: find
    " word " in the token string and count the spaces before it (both in C), no list made."""
    if not wanted:
        return []
    spans = set()
    for word in wanted:
        needle = " " + word + " "
        at = padded.find(needle)
        i = counted = 0
        while at >= 0:
            i += padded.count(" ", counted, at)  # tokens before this one (counted on from the last)
            counted = at
            spans.add((offsets[2 * i], offsets[2 * i + 1]))
            at = padded.find(needle, at + 1)
    return merge_spans(sorted(spans))


def match_spans_by_tokenizing(text: str, wanted: set[str], lang: str) -> list[tuple[int, int]]:
    """The same for a database built before token offsets were stored."""
    if not wanted or not text:
        return []
    spans = tokenize.index_token_spans(text, lang)
    return merge_spans(sorted({(begin, end) for norm, begin, end in spans if norm in wanted}))


def merge_spans(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for begin, end in spans:
        if merged and begin <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((begin, end))
    return merged


def parse_count(value: str | None, name: str, default: int, lowest: int, highest: int) -> int:
    """A `limit` or `offset` typed into a URL: ASCII digits only (not ², not a 5,000-digit number)."""
    if value is None or value == "":
        return default
    if not re.fullmatch(r"[0-9]{1,7}", value) or not lowest <= int(value) <= highest:
        raise QueryError(count_message(name, lowest, highest, value))
    return int(value)
