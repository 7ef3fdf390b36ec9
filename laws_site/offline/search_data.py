"""What the offline search (static/offline-search.js) needs, exported from the built database.

Offline search is the server's search (laws_site/search/engine.py and the modules it calls) re-run in the browser on the same data,
so that the two agree: the FTS index as it is (term instances read through `fts5vocab`, so bm25 is
computed from exactly the counts SQLite uses), the units, their title tokens, snippet offsets, the
references that cite each unit, the 索引 entries, the glossary, the director vocabulary, the katakana
variants and the ranking weights of search.py. Every table is exported under its own key, so a table
added to search later is one more key here and one more reader in the JavaScript.

What the browser cannot do is run SudachiPy or OpenCC. It gets instead:
- `lexicon`: the corpus's own words as Sudachi split them (mode C, as queries are split), each
  surface with its normalised form, whether a query drops it (particles) and how often it occurs;
  the browser segments a query with these (fewest words, then the most frequent);
  the corpus's words with kanji also under their hiragana spelling where SudachiPy reads that
  spelling back as the same word (じゅんばん -> 順番), so a query typed in kana is cut and
  normalised as the server cuts it (`kana_spellings`);
- `see_also`: the 索引's "see" entries (合意 -> see パートナー間の了解事項 -> Law 40) that
  search.see_also_boosts ranks with;
- `t2s`: the traditional -> simplified characters whose simplified form occurs in the corpus or in the
  Chinese lexicon (the words a Chinese sentence is cut into).
The server cuts Japanese queries with the same lexicon (laws_site/search/words.py), and every rule
and table comes with the pack (`rules`, laws_site/offline/search_rules.py): both cut alike.
"""

from __future__ import annotations

import sqlite3
import unicodedata
from collections import Counter

from ingest.search import glossary as glossary_module
from ingest.text import spelling, tokenize
from laws_site.offline import expansions as offline_expansions
from laws_site.offline import search_rules
from laws_site.read import guides
from laws_site.search import citations, coverage, plan, query, ranking, snippets, weights
from laws_site.search.data import NAVIGATION_KINDS, search_data

FORMAT = 7  # bump when the shape changes (the service worker keys its caches on build and format)


def ranking_weights() -> dict:
    """Every weight of laws_site/search/weights.py by name, with the limits and the text the offline
    ranking reads beside them."""
    found = {name: value for name, value in vars(weights).items() if name.isupper()}
    found.update(
        SNIPPET_CHARS=snippets.SNIPPET_CHARS,
        MAX_QUERY_CHARS=query.MAX_QUERY_CHARS,
        MAX_TERMS=plan.MAX_TERMS,
        EMPTY_QUERY=query.EMPTY_QUERY,
    )
    return found


def export(conn: sqlite3.Connection, build_id: str) -> dict:
    data = search_data(conn)
    registry = data.registry
    units = [[rowid, *unit] for rowid, unit in sorted(data.units.items())]
    fts = fts_index(conn)
    return {
        "format": FORMAT,
        "build": build_id,
        "weights": ranking_weights(),
        "navigation_kinds": list(NAVIGATION_KINDS),
        "documents": [
            {
                "id": d.id,
                "role": d.role,
                "language": d.language,
                "title": d.title,
                "comments_on": d.comments_on,
                "rank": data.doc_rank(d.id),
            }
            for d in registry.documents
        ],
        "registry": {
            "laws": [d.id for d in registry.laws],
            "current_laws": registry.current_laws.id if registry.current_laws else None,
            "commentaries": [d.id for d in registry.commentaries],
            "regulations": registry.regulations.id if registry.regulations else None,
            "laws_in": {lang: (registry.laws_in(lang).id if registry.laws_in(lang) else None) for lang in ("ja", "zh")},
            # the documents a citation's role reaches (search.citations.docs_of_role)
            "of_role": {role: citations.docs_of_role(data, role) for role in spelling.ROLES},
        },
        # rowid, id, doc, ref, kind, title, lang, position
        "units": units,
        # names typed before a citation to reach a document other than the Laws (運営規則27条)
        "document_names": getattr(data, "document_names", {}),
        # per language, the rowids search ranks (navigation rows left out)
        "searchable": {lang: sorted(rowids) for lang, rowids in sorted(data.searchable.items())},
        # every token of the search columns, per language (a query word not among them cannot match)
        "title_words": {rowid: " ".join(sorted(words)) for rowid, words in data.title_words.items()},
        # the words a Japanese unit holds only bound inside another word (coverage counts them less)
        "bound_words": {rowid: " ".join(sorted(words)) for rowid, words in data.bound_words.items()},
        # ... and those its title holds only so: the title does not name them (coverage.clause_credits)
        "title_bound": {rowid: " ".join(sorted(words)) for rowid, words in data.title_bound.items()},
        "reprinted": data.reprinted,
        # a current unit -> the earlier units the concordance pairs it with (laws_site/search/data.py)
        "paired": {unit: list(earlier) for unit, earlier in data.paired.items()},
        # the ruling guides a search offers (laws_site/read/guides.py offered_guides)
        "guides": guide_offers(conn),
        "fts": fts,
        "indexed_words": indexed_words(data, fts),
        "snippets": (shown := snippet_rows(conn)),
        # a unit without text of its own -> the start of its sub-units' text, its snippet (search/shown.py)
        "leads": {unit: lead for unit, lead in data.shown.leads.items() if unit in shown},
        "cited_by": cited_by(conn),
        "index_entries": [[e.ref, sorted(e.terms), list(e.targets)] for e in data.index_entries],
        # a word -> the index_entries holding it, in their order (SearchData.index_by_term)
        "index_by_term": index_by_term(data),
        # the 索引's "see" entries (search.see_also_boosts): [their tokens, the see entry's ref, the units
        # the entry it refers to cites] (合意 -> see パートナー間の了解事項 -> laws-2017-ja:40)
        "see_also": [[sorted(terms), ref, list(targets)] for terms, (ref, targets) in data.see_also.items()],
        "glossary": glossary_export(data),
        "vocabulary": vocabulary_export(data),
        "variants": data.variants,
        # the pattern of a variant at the head of a katakana compound (tokenize.variant_prefix)
        "variant_prefix": search_rules.js_pattern(prefix)
        if (prefix := tokenize.variant_prefix(data.variants))
        else None,
        "lexicon": lexicon(data),
        "lexicon_longest": data.lexicon.longest,
        # a word the corpus never prints -> the words it prints for it, in a sentence and in a query of
        # that word alone (laws_site/search/words.py)
        "neighbours": {
            "sentence": {word: list(found) for word, found in data.lexicon.neighbours.items()},
            "word": {word: list(found) for word, found in data.lexicon.word_neighbours.items()},
        },
        # a Chinese or English term -> the current Laws' Japanese words (laws_site/search/translation.py)
        "translations": data.translations,
        # the keys of one written word a run of typed words also spells joined (beforehand): read from one word only
        "joined_words": sorted(data.joined_words),
        # a verb's forms the dictionary spells apart from it (came, told): verbs before a particle (came back: no 来る)
        "irregular_forms": sorted(data.irregular_forms),
        # the keys of a suit said held (有这门花色): the sentence reads no inability to follow (suits_said.able_to_follow),
        # and the vocabulary's words a discard beside it reads (suits_said.SuitsHeld)
        "suits_held": {
            "keys": sorted(data.suits_held.keys),
            "inability": sorted(data.suits_held.inability),
            "discard": data.suits_held.discard,
            "revoke": data.suits_held.revoke,
        },
        # a Chinese word -> what cutting a sentence at it costs (laws_site/search/chinese.py)
        "chinese": data.chinese.costs,
        # a sentence's coverage (laws_site/search/coverage.py): the light words, the parts below each
        # unit in its law, what 索引 entries and commentary notes are about
        "situations": {
            "light": sorted(data.lexicon.light),
            "below": {rowid: list(below) for rowid, below in data.context_below.items() if below},
            # a title and no text, or a lead-in: its parts decide; a title alone may give its place on (coverage.parts_first)
            "headings": sorted(data.headings),
            "titles_only": sorted(data.titles_only),
            "evidence": {rowid: [list(targets), credit] for rowid, (targets, credit) in data.evidence.items()},
            # the laws the director vocabulary names for a word (printed elsewhere or not), and for its phrases
            # (coverage.vocabulary_named, vocabulary_phrases)
            "named": {word: list(rowids) for word, rowids in coverage.vocabulary_named(data).items()},
            "phrases": coverage.vocabulary_phrases(data),
            # unit id -> the units whose rule its own sentences apply (ranking.cited_rule_first)
            "applied_rules": {unit: list(rules) for unit, rules in ranking.applied_rules(conn, data).items()},
            # ... and of them, those it follows as they provide (ranking.provided_rules: 「第53条に定めるとおり」)
            "provided_rules": {unit: list(rules) for unit, rules in ranking.provided_rules(conn, data).items()},
        },
        "rules": search_rules.rules(),
        "t2s": traditional_to_simplified(conn),
        # issue 24's expansions (laws_site/offline/expansions.py)
        "expansions": offline_expansions.export(conn),
    }


def index_by_term(data) -> dict[str, list[int]]:
    position = {id(entry): i for i, entry in enumerate(data.index_entries)}
    return {term: [position[id(entry)] for entry in entries] for term, entries in sorted(data.index_by_term.items())}


def indexed_words(data, fts: dict) -> dict:
    """search_data.vocabulary_of (every token of the search columns, per language), told as what
    differs from the FTS index's own terms per language, which the pack already holds: the tokens
    the FTS tokenizer splits (`0.5` -> 0, 5) are `more`, the terms it made of them `less` (~20 KB
    of the pack on the wire saved: the phone asks `fts.postings` word by word)."""
    derived: dict[str, set[str]] = {}
    for term, postings in fts["postings"].items():
        for rowid in dict.fromkeys(postings[0::3]):
            derived.setdefault(data.units[rowid][5], set()).add(term)
    languages = set(derived) | set(data.vocabulary_of)
    return {
        lang: {
            "more": sorted(data.vocabulary_of.get(lang, frozenset()) - derived.get(lang, set())),
            "less": sorted(derived.get(lang, set()) - data.vocabulary_of.get(lang, frozenset())),
        }
        for lang in sorted(languages)
    }


def fts_index(conn: sqlite3.Connection) -> dict:
    """Every term instance of sections_fts (fts5vocab 'instance': term, rowid, column, offset) as
    postings {term: [rowid, column, offset, ...]}, each row's size in tokens, the row count."""
    conn.execute(
        "create virtual table if not exists temp.offline_fts_instances using fts5vocab(main, sections_fts, instance)"
    )
    columns = {"search_title": 0, "search_text": 1}
    postings: dict[str, list[int]] = {}
    sizes: Counter = Counter()
    for term, rowid, column, offset in conn.execute(
        "select term, doc, col, offset from temp.offline_fts_instances order by term, doc, col, offset"
    ):
        postings.setdefault(term, []).extend((rowid, columns[column], offset))
        sizes[rowid] += 1
    rows = conn.execute("select count(*) from sections_fts").fetchone()[0]
    return {"rows": rows, "tokens": sum(sizes.values()), "sizes": dict(sizes), "postings": postings}


def snippet_rows(conn: sqlite3.Connection) -> dict:
    """Per unit: the text a snippet shows (the text, or the title when there is none), its search
    tokens and their offsets in it, deltas (begin - previous begin, end - begin) to keep it small."""
    rows = {}
    for unit, title, text, title_tokens, text_tokens, title_offsets, text_offsets in conn.execute(
        "select s.id, s.title, s.text, s.search_title, s.search_text, o.title, o.text "
        "from sections s left join search_offsets o on o.id = s.id where s.kind not in (%s)"
        % ",".join("?" * len(NAVIGATION_KINDS)),
        NAVIGATION_KINDS,
    ):
        shown, tokens, blob = (text, text_tokens, text_offsets) if text else (title or "", title_tokens, title_offsets)
        pairs = tokenize.unpack_offsets(blob)
        packed, previous = [], 0
        for begin, end in pairs:
            packed += [begin - previous, end - begin]
            previous = begin
        rows[unit] = [shown, tokens or "", packed]
    return rows


def cited_by(conn: sqlite3.Connection) -> dict:
    """target unit -> [source unit, start, end, ...] of the text references citing it (navigation
    rows left out), in page order as search.citation_hits reads them."""
    found: dict[str, list] = {}
    marks = ",".join("?" * len(NAVIGATION_KINDS))
    for target, source, start, end in conn.execute(
        f"""
            select x.target_id, s.id, x.start, x."end" from xrefs x join sections s on s.id = x.source_id
            where x.target_id is not null and x.field = 'text' and s.kind not in ({marks})
            order by s.position, x.start""",
        NAVIGATION_KINDS,
    ):
        found.setdefault(target, []).extend((source, start, end))
    return found


def glossary_export(data) -> dict:
    gloss = data.glossary
    entries = gloss.entries
    index = {id(entry): i for i, entry in enumerate(entries)}

    def keyed(table):
        return {key: [index[id(e)] for e in found] for key, found in table.items()}

    return {
        "entries": [
            {
                "ja": e.ja,
                "en": e.en,
                "zh": e.zh,
                "ja_ref": e.ja_ref,
                "zh_ref": e.zh_ref,
                "units": {lang: gloss.unit_id(e, lang) for lang in ("ja", "zh")},
                "forms": {lang: glossary_module.term_forms(e.term(lang)) for lang in ("ja", "zh")},
            }
            for e in entries
        ],
        "by_en": keyed(gloss._by_en),
        "by_ja": keyed(gloss._by_ja),
        "by_zh": keyed(gloss._by_zh),
    }


def vocabulary_export(data) -> dict:
    vocabulary = data.vocabulary
    index = {entry: i for i, entry in enumerate(vocabulary.entries)}
    return {
        "entries": [
            {"ja": list(e.ja), "zh": list(e.zh), "ja_regs": list(e.ja_regs), "laws": list(e.laws), "regs": list(e.regs)}
            for e in vocabulary.entries
        ],
        "by_key": {
            key: [[index[entry], sorted(fields)] for entry, fields in found.items()]
            for key, found in vocabulary._by_key.items()
        },
        # {search key of a spoken form: its language} (presentation.word_languages)
        "spoken_langs": vocabulary.spoken_languages(),
    }


def lexicon(data) -> dict:
    """surface -> [normalised form, 1 if a query drops it, what the word costs in a cut]: the build's
    lexicon (ingest/search/lexicon.py) as laws_site/search/words.py cuts queries with it."""
    return {surface: [norm, int(dropped), cost] for surface, (norm, dropped, cost) in data.lexicon.words.items()}


def traditional_to_simplified(conn: sqlite3.Connection) -> dict:
    """Traditional characters whose simplified form occurs in the Chinese texts or in the words a Chinese
    sentence is cut into (others match and read nothing: 騙 typed offline must be the 骗 of 欺骗)."""
    present = set()
    for (text,) in conn.execute("select coalesce(title, '') || text from sections where lang = 'zh'"):
        present.update(text)
    for (word,) in conn.execute("select chinese from search_chinese") if _has(conn, "search_chinese") else []:
        present.update(word)
    for (form,) in conn.execute("select zh from glossary where zh is not null") if _has(conn, "glossary") else []:
        present.update(form)
    # the simplified keys of issue 24's Chinese variants (梦家 -> 明手): 夢家 typed offline must reach them
    for (key,) in (
        conn.execute("select key from search_expansions where kind = 'zh'") if _has(conn, "search_expansions") else []
    ):
        present.update(key)
    table = {}
    for code in list(range(0x3400, 0x4DC0)) + list(range(0x4E00, 0xA000)) + list(range(0xF900, 0xFB00)):
        char = chr(code)
        simplified = tokenize.to_simplified(char)
        if simplified != char and simplified in present:
            table[char] = simplified
    return table


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def _has(conn, table: str) -> bool:
    return conn.execute("select 1 from sqlite_master where name = ?", (table,)).fetchone() is not None


def guide_offers(conn: sqlite3.Connection) -> dict:
    """What the offline page needs to offer the guides a search offers online: the rule's two numbers,
    each guide's page and title per interface language, and the guides covering each unit."""
    return {
        "from_results": guides.GUIDES_FROM_RESULTS,
        "offered": guides.GUIDES_OFFERED,
        "guides": {guide.id: {"url": guide.url(), "title": guide.title} for guide in guides.all_guides(conn)},
        "units": guides.covering_by_unit(conn),
    }
