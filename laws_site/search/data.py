"""What search needs from the database besides the FTS index, loaded once per database file.

Everything comes from tables the build wrote (ingest/search/tables.py, the glossary, the 索引
entries, the document registry): serving never opens corpus/. `search_data(conn)` also installs
the database's katakana variants in the tokenizer, so a query folds exactly as the index did.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from ingest.search import glossary
from ingest.search.english_lexicon import RIGHT_TO_ACT, RIGHT_TO_ACT_RE
from ingest.search.tables import INDEX_TERMS, index_entry_words
from ingest.search.vocabulary import Vocabulary
from ingest.sources.registry import Registry
from ingest.text import tokenize
from ingest.text.spelling import document_names
from laws_site.read import queries
from laws_site.read.units import permalink
from laws_site.search import chinese, suits_said, translation
from laws_site.search.chinese import ChineseWords
from laws_site.search.expansions import ExpansionData
from laws_site.search.shown import ShownUnits
from laws_site.search.weights import INDEX_CREDIT, NOTE_CREDIT
from laws_site.search.words import Lexicon

MAX_CACHED = 10_000  # per database: query words looked up in the glossary and vocabulary
# per database: answers of up to ~30 KB each (a query's 索引 boosts: up to 65 units and their entries),
# so that distinct queries cannot hold more than ~15 MB
MAX_LARGE_CACHED = 500
# per database: snippets (a unit's window of text around the words a branch marks, ~1 KB each), ~5 MB at most
MAX_SNIPPETS = 5_000

# Navigation rows repeat titles found elsewhere; they point to units rather than answer a query.
NAVIGATION_KINDS = ("toc", "toc_entry", "index", "index_row", "index_entry")
# the parts of a law or an article: each reads under its parents' titles and lead-ins
PART_KINDS = ("section", "item", "subitem", "subsubitem", "paragraph", "closing")


@dataclass(frozen=True)
class IndexEntry:
    ref: str
    terms: frozenset[str]
    targets: tuple[str, ...]


@dataclass
class SearchData:
    registry: Registry
    variants: dict[str, str]
    glossary: glossary.Glossary
    vocabulary: Vocabulary
    index_entries: list[IndexEntry] = field(default_factory=list)
    # 索引 entries by each of their tokens, so a query looks at the entries sharing a word only
    index_by_term: dict[str, list[IndexEntry]] = field(default_factory=dict)
    # every token of the FTS index, per language: a query word not among them cannot match
    vocabulary_of: dict[str, frozenset[str]] = field(default_factory=dict)
    # each unit's (id, doc, ref, kind, title, lang, position) by rowid, so an FTS hit needs no join
    units: dict[int, tuple] = field(default_factory=dict)
    rowids: dict[str, int] = field(default_factory=dict)
    # per language, the rowids search may answer with (navigation rows - tables of contents, the
    # 索引's rows - point to units rather than answer a query)
    searchable: dict[str, frozenset[int]] = field(default_factory=dict)
    # each unit's title tokens, to tell a unit whose title carries the query from a passing mention
    title_words: dict[int, frozenset[str]] = field(default_factory=dict)
    # {rowid: the words a Japanese unit holds only bound inside another word} (ingest/text/bound_words.py)
    bound_words: dict[int, frozenset[str]] = field(default_factory=dict)
    # ... and those its title holds only so (カード of 「ペナルティカードの処置」): the title does not name them
    title_bound: dict[int, frozenset[str]] = field(default_factory=dict)
    # the same the other way: a title token -> the rowids whose title holds it (titles_holding)
    titled: dict[str, frozenset[int]] = field(default_factory=dict)
    # a commentary's reprints of law units (quote:61B): rowid -> the id of the unit it reprints
    reprinted: dict[int, str] = field(default_factory=dict)
    # the 索引's "see" entries (合意 -> see パートナー間の了解事項): their tokens -> (the see entry's
    # ref, the units the entry referred to cites itself: laws-2017-ja:40)
    see_also: dict[frozenset[str], tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    # readings, loanwords by sound, synonyms, Chinese variants (table search_expansions)
    expansions: ExpansionData = field(default_factory=ExpansionData)
    # rowid -> its place when results tie on score: (document rank, position) as one number, equal
    # for equal pairs, so a ranking compares one int instead of looking both up per candidate
    listing_rank: dict[int, int] = field(default_factory=dict)
    # each unit's snippet text, tokens, offsets and labels (laws_site/search/shown.py); set by _load
    shown: ShownUnits | None = None
    # the words a Japanese query is cut into (laws_site/search/words.py)
    lexicon: Lexicon = field(default_factory=lambda: Lexicon({}))
    # rowid -> the rowids of the parts below it in its law or article (they read under its title and text)
    context_below: dict[int, tuple[int, ...]] = field(default_factory=dict)
    # the rowids of the units with parts whose own text decides nothing: a title alone (30B 「パートナーまたはLHOの
    # コールの順番」 over 30B1 and 30B2) or a lead-in announcing the parts (85 「…以下のように裁定する」):
    # headings, which decide nothing a part does not (coverage.parts_first)
    headings: frozenset[int] = frozenset()
    # ... of them, those printing a title and no text (30B, 27A 「不十分なビッドの受け入れ」): a part of another heading
    # that may give its place on to a part of its own (coverage.parts_first)
    titles_only: frozenset[int] = frozenset()
    # rowid of a 索引 entry, commentary note or ruling -> (the rowids of the units it is about, the
    # credit a word of it gives them: laws_site/search/coverage.py)
    evidence: dict[int, tuple[tuple[int, ...], float]] = field(default_factory=dict)
    # per language, the rowids a sentence's coverage ranks: the searchable ones that are not evidence
    situation_units: dict[str, frozenset[int]] = field(default_factory=dict)
    # a Chinese or English term -> the current Laws' Japanese words for it (laws_site/search/translation.py)
    translations: dict[str, list[str]] = field(default_factory=dict)
    joined_words: frozenset[str] = frozenset()  # keys read from one typed word only (translation.joined_words)
    # the nouns the current Laws print before する権利 (コール, 質問): a chance to act said is that right (rights_to_act)
    rights_to_act: frozenset[str] = frozenset()
    irregular_forms: frozenset[str] = frozenset()  # a verb's forms spelt apart from it (translation.verb_forms: came)
    # a suit said held and the vocabulary's words it reads a discard beside it in (suits_said.suits_held)
    suits_held: suits_said.SuitsHeld = field(default_factory=suits_said.SuitsHeld)
    # how a Chinese sentence is cut into words (laws_site/search/chinese.py)
    chinese: ChineseWords = field(default_factory=ChineseWords)
    # a unit of the current Laws -> the earlier editions' units the provision concordance pairs it with
    # (table provision_pairs: 2017 16A1(a) -> 1997 zh 16), shown beside a result in the zh and en interfaces
    paired: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # the same pairs the other way: an earlier unit -> the current units it is paired with (ranking.lift_current)
    current_of: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self):
        self._lookups: dict = {}
        self._large_lookups: dict = {}
        self._snippets: dict = {}
        self._urls: dict[str, str] = {}
        # per unit, what presenting it as a result or a link always gives (laws_site/search/presentation.py):
        # at most one entry per unit of this database
        self.presented: dict[str, tuple] = {}
        self.links: dict[str, dict] = {}
        self.documents = {d.id: d for d in self.registry.documents}
        # the order results list documents in: the current Laws, earlier editions, the commentaries, the regulations
        order = [d.id for d in self.registry.laws] + [d.id for d in self.registry.commentaries]
        order += [self.registry.regulations.id] if self.registry.regulations else []
        self.ranks = {doc: rank for rank, doc in enumerate(order)}
        # names typed before a citation to reach a document other than the Laws (運営規則27条)
        self.document_names: dict[str, str] = {}
        for document in self.registry.documents:
            if document.role != "laws":
                for name in document_names(document.title, document.short_title):
                    self.document_names.setdefault(name, document.id)

    def role(self, doc: str) -> str | None:
        document = self.documents.get(doc)
        return document.role if document else None

    def language(self, doc: str) -> str | None:
        document = self.documents.get(doc)
        return document.language if document else None

    def in_filters(self, unit_doc: str, doc: str | None, lang: str | None) -> bool:
        """Whether a unit of `unit_doc` passes a search's document and language filters."""
        return (doc is None or unit_doc == doc) and (lang is None or self.language(unit_doc) == lang)

    def doc_rank(self, doc: str) -> int:
        return self.ranks.get(doc, len(self.ranks))

    def glossary_lookup(self, query: str) -> list:
        """The glossary's entries for the whole query (cached: the database never changes)."""
        return self.memo(("glossary", query), lambda: self.glossary.lookup(query))

    def ja_terms(self, text: str) -> list[str]:
        """The words of a Japanese text a query must match, cut as a query is."""
        return self.lexicon.query_terms(text) if self.lexicon.words else tokenize.query_terms(text, "ja")

    def vocabulary_matches(self, query: str) -> dict:
        return self.memo(("vocabulary", query), lambda: self.vocabulary.matches(query))

    def url(self, unit_id: str, doc: str, ref: str) -> str:
        found = self._urls.get(unit_id)
        if found is None:
            found = self._urls[unit_id] = permalink(doc, ref)
        return found

    def memo(self, key, compute):
        """`compute()` once per key for this database (which never changes while it is read); the
        memo is emptied when it grows past MAX_CACHED keys, so queries cannot grow it for ever."""
        return _bounded(self._lookups, MAX_CACHED, key, compute)

    def titles_holding(self, words: frozenset[str]) -> frozenset[int]:
        """The rowids whose title holds every one of `words` (at least one word)."""
        postings = sorted((self.titled.get(word, frozenset()) for word in words), key=len)
        return postings[0].intersection(*postings[1:]) if len(postings) > 1 else postings[0]

    def memo_large(self, key, compute):
        """`memo` for answers that may be large, emptied past MAX_LARGE_CACHED keys."""
        return _bounded(self._large_lookups, MAX_LARGE_CACHED, key, compute)

    def snippet_memo(self, key, compute):
        """`memo` for snippets (presentation.present: the same unit and marked words give the same snippet,
        a quarter of presenting a page), emptied past MAX_SNIPPETS keys; a snippet is only read."""
        return _bounded(self._snippets, MAX_SNIPPETS, key, compute)

    def index_entries_with(self, terms) -> list[IndexEntry]:
        found = {id(e): e for term in terms for e in self.index_by_term.get(term, [])}
        return list(found.values())


def _bounded(store: dict, limit: int, key, compute):
    found = store.get(key)
    if found is None:
        if len(store) > limit:
            store.clear()
        found = store[key] = compute()
    return found


_loaded: "OrderedDict[tuple, SearchData]" = OrderedDict()
_lock = threading.Lock()
# builds whose search data stays in memory (~17 MB each): a server that picks up rebuilds keeps the
# newest few, not every build it ever served; a process reading more databases reads them again
MAX_LOADED = 3


def search_data(conn: sqlite3.Connection) -> SearchData:
    """This database's search data (read once per file version), its variants in force."""
    identity = glossary.database_identity(conn)
    data = _loaded.get(identity)
    if data is None:
        with _lock:
            data = _loaded.get(identity) or _load(conn)
            _loaded[identity] = data
            while len(_loaded) > MAX_LOADED:
                _loaded.popitem(last=False)
    tokenize.use_variants(data.variants)
    return data


def _load(conn: sqlite3.Connection) -> SearchData:
    variants = {}
    if queries.table_exists(conn, "variants"):
        variants = dict(conn.execute("select variant, canonical from variants").fetchall())
    tokenize.use_variants(variants)  # the glossary and vocabulary keys below fold with them
    registry = Registry.from_rows(glossary.documents(conn))
    data = SearchData(
        registry,
        variants,
        glossary.load_glossary(conn),
        Vocabulary.from_conn(conn),
    )
    data.vocabulary_of = _index_vocabulary(conn)
    data.expansions = ExpansionData.from_conn(conn)
    data.lexicon = Lexicon.from_conn(conn)
    if data.lexicon.words:  # the glossary's terms and the 索引's words cut as a query is
        data.glossary = data.glossary.keyed_with(data.lexicon.key)
    searchable: dict[str, set[int]] = {}
    for *row, title_tokens in conn.execute(
        "select rowid, id, doc, ref, kind, title, lang, position, search_title from sections"
    ):
        data.units[row[0]] = tuple(row[1:])
        data.rowids[row[1]] = row[0]
        if title_tokens:
            data.title_words[row[0]] = frozenset(title_tokens.split())
        if row[4] not in NAVIGATION_KINDS:
            searchable.setdefault(row[6], set()).add(row[0])
    data.searchable = {lang: frozenset(rowids) for lang, rowids in searchable.items()}
    data.bound_words = _bound_words(conn, data)
    data.title_bound = _bound_words(conn, data, "title_bound")
    data.titled = _titled(data.title_words)
    data.listing_rank = _listing_ranks(data)
    data.shown = ShownUnits.load(conn)
    for rowid, (unit_id, doc, ref, kind, *_rest) in data.units.items():
        document = data.documents.get(doc)
        if kind == "quote" and ref.startswith("quote:") and document and document.comments_on:
            data.reprinted[rowid] = f"{document.comments_on}:{ref.removeprefix('quote:')}"
    data.context_below = _context_below(conn, data)
    data.headings, data.titles_only = _headings(conn, data)
    written_whole: set[str] = set()
    dictionary = translation.dictionary_pairs(conn)
    if registry.current_laws:
        data.rights_to_act = _rights_to_act(conn, registry.current_laws.id)
    data.translations = translation.translations(data, dictionary, written_whole)
    data.irregular_forms = translation.verb_forms(dictionary)
    data.joined_words = translation.joined_words(data.translations, written_whole)
    data.suits_held = suits_said.suits_held(data)
    data.chinese = chinese.load(conn, data, data.translations)  # also reads the dictionary's Chinese words
    if registry.current_laws:
        data.index_entries = list(_index_entries(conn, registry.current_laws.id, data))
        data.see_also = _see_also(conn, registry.current_laws.id, data.index_entries, data)
        for entry in data.index_entries:
            for term in entry.terms:
                data.index_by_term.setdefault(term, []).append(entry)
        data.evidence = _evidence(conn, data)
        data.paired = _paired(conn, registry.current_laws.id)
        data.current_of = current_of(data.paired)
    data.situation_units = {lang: rowids - data.evidence.keys() for lang, rowids in data.searchable.items()}
    return data


def _rights_to_act(conn: sqlite3.Connection, doc: str) -> frozenset[str]:
    """The nouns a document prints before する権利 (17D3 コールする権利, 20C1 質問する権利)."""
    rows = conn.execute("select text from sections where doc = ? and text like ?", (doc, f"%{RIGHT_TO_ACT}%"))
    return frozenset(noun for (text,) in rows for noun in RIGHT_TO_ACT_RE.findall(text or ""))


def _bound_words(conn: sqlite3.Connection, data: SearchData, column: str = "bound") -> dict[int, frozenset[str]]:
    """{rowid: the words it holds only bound inside another word}, from search_offsets.bound (`column` title_bound:
    those its title holds only so); a database built before it has none: every word counts whole."""
    columns = {row[1] for row in conn.execute("pragma table_info(search_offsets)")}
    if column not in columns:
        return {}
    rows = conn.execute(f"select id, {column} from search_offsets where {column} is not null and {column} != ''")
    return {data.rowids[unit]: frozenset(bound.split()) for unit, bound in rows if unit in data.rowids}


def _titled(title_words: dict[int, frozenset[str]]) -> dict[str, frozenset[int]]:
    titled: dict[str, set[int]] = {}
    for rowid, words in title_words.items():
        for word in words:
            titled.setdefault(word, set()).add(rowid)
    return {word: frozenset(rowids) for word, rowids in titled.items()}


def _context_below(conn: sqlite3.Connection, data: SearchData) -> dict[int, tuple[int, ...]]:
    """rowid -> the parts of a law or article below it (PART_KINDS, down every level)."""
    children: dict[int, list[int]] = {}
    for rowid, parent in conn.execute("select rowid, parent_id from sections where parent_id is not null"):
        parent_rowid = data.rowids.get(parent)
        if parent_rowid is not None and data.units[rowid][3] in PART_KINDS:
            children.setdefault(parent_rowid, []).append(rowid)
    below: dict[int, tuple[int, ...]] = {}

    def walk(rowid: int) -> tuple[int, ...]:
        if rowid not in below:
            found: list[int] = []
            for child in children.get(rowid, ()):
                found += [child, *walk(child)]
            below[rowid] = tuple(found)
        return below[rowid]

    for rowid in children:
        walk(rowid)
    return below


# how a lead-in announces its parts: it ends on a colon or a comma (22 「次のときオークションは終了する*：」), or
# says that they follow (以下, 次の, 次から) or that each applies in turn (50D 「…それぞれ制限を受ける」); 下列, 如下
# in the Chinese text
LEAD_IN = re.compile(r"(?:[：:、，,]\s*$)|以下|次の|次から|それぞれ|下列|如下")


def _headings(conn: sqlite3.Connection, data: SearchData) -> tuple[frozenset[int], frozenset[int]]:
    """The units with parts below them (context_below) and a title but no text of their own, or a text that
    only leads in to the parts (LEAD_IN); and those of them with no text."""
    headings: set[int] = set()
    titles_only: set[int] = set()
    for rowid, title, text in conn.execute("select rowid, title, text from sections"):
        text = (text or "").strip()
        if not data.context_below.get(rowid):
            continue
        if (title or "").strip() and not text:
            titles_only.add(rowid)
            headings.add(rowid)
        elif LEAD_IN.search(text):
            headings.add(rowid)
    return frozenset(headings), frozenset(titles_only)


def _evidence(conn: sqlite3.Connection, data: SearchData) -> dict[int, tuple[tuple[int, ...], float]]:
    """What the corpus says about units: each 索引 entry about the units it cites, each commentary
    note or ruling about the units it comments on directly (table unit_commentary)."""
    found: dict[int, tuple[tuple[int, ...], float]] = {}
    doc = data.registry.current_laws.id
    for entry in data.index_entries:
        rowid = data.rowids.get(f"{doc}:{entry.ref}")
        targets = tuple(data.rowids[t] for t in entry.targets if t in data.rowids)
        if rowid is not None and targets:
            found[rowid] = (targets, INDEX_CREDIT)
    if not queries.table_exists(conn, "unit_commentary"):
        return found
    about: dict[int, list[int]] = {}
    for unit, source in conn.execute(
        "select unit_id, source_id from unit_commentary where direct = 1 and source_kind in ('note', 'ruling')"
    ):
        if unit in data.rowids and source in data.rowids:
            about.setdefault(data.rowids[source], []).append(data.rowids[unit])
    found.update({rowid: (tuple(dict.fromkeys(units)), NOTE_CREDIT) for rowid, units in about.items()})
    return found


def current_of(paired: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """{earlier unit id: the current units paired with it}, in the current Laws' order of `paired`."""
    found: dict[str, tuple[str, ...]] = {}
    for current, earlier_units in paired.items():
        for earlier in earlier_units:
            found[earlier] = found.get(earlier, ()) + (current,)
    return found


def _paired(conn: sqlite3.Connection, current: str) -> dict[str, tuple[str, ...]]:
    """{current unit id: the earlier units paired with it}, in the concordance's order (a provision
    the concordance calls new or removed has no partner)."""
    paired: dict[str, tuple[str, ...]] = {}
    for old, new in conn.execute(
        "select from_id, to_id from provision_pairs where to_doc = ? and from_id is not null and to_id is not null"
        " order by position",
        (current,),
    ):
        if old not in paired.get(new, ()):
            paired[new] = paired.get(new, ()) + (old,)
    return paired


def _listing_ranks(data: SearchData) -> dict[int, int]:
    """rowid -> the rank of its (document rank, position) among all units'; units sharing a pair share a rank."""
    keys = {rowid: (data.doc_rank(unit[1]), unit[6]) for rowid, unit in data.units.items()}
    distinct = {key: rank for rank, key in enumerate(sorted(set(keys.values())))}
    return {rowid: distinct[key] for rowid, key in keys.items()}


def _index_vocabulary(conn: sqlite3.Connection) -> dict[str, frozenset[str]]:
    """The distinct tokens of the search columns, per language (tens of thousands: read once)."""
    words: dict[str, set[str]] = {}
    for lang, title, text in conn.execute("select lang, search_title, search_text from sections"):
        found = words.setdefault(lang, set())
        found.update((title or "").split())
        found.update((text or "").split())
    return {lang: frozenset(found) for lang, found in words.items()}


def _entry_terms(data: SearchData, stored: dict[str, str], words: str) -> frozenset[str]:
    """A 索引 entry's words, cut as a query is (the build's lexicon), else as the build stored them."""
    if data.lexicon.words:
        return frozenset(data.lexicon.query_terms(words))
    return frozenset(stored[words].split() if words in stored else tokenize.query_terms(words, "ja"))


def _see_also(conn: sqlite3.Connection, doc: str, entries: list[IndexEntry], data: SearchData) -> dict:
    """{tokens of a 索引 "see" entry: (its ref, the units the entry it refers to cites)}; a "see"
    entry cites no unit itself (合意 -> see パートナー間の了解事項, which cites Law 40)."""
    cited = {entry.ref: entry.targets for entry in entries}
    stored = glossary.stored_term_tokens(conn, INDEX_TERMS)
    found: dict[frozenset[str], tuple[str, tuple[str, ...]]] = {}
    for ref, target in conn.execute(
        """
            select s.ref, x.target_id from sections s join xrefs x on x.source_id = s.id
            where s.doc = ? and s.kind = 'index_entry' and x.kind = 'see' and x.target_id is not null
            order by s.position""",
        (doc,),
    ):
        if ref in cited:
            continue  # "see also" beside units of its own (取り消した -> 47, see also 取り消した行動): those rank it
        units = cited.get(target.split(":", 1)[-1], ())
        terms = _entry_terms(data, stored, index_entry_words(ref))
        if terms and units:
            known = found.get(terms, (ref, ()))
            found[terms] = (known[0], tuple(dict.fromkeys(known[1] + units)))
    return found


def _index_entries(conn: sqlite3.Connection, doc: str, data: SearchData):
    """The current Laws' 索引 entries: the tokens of heading + sub-term (as the build stored them),
    and the units they cite."""
    stored = glossary.stored_term_tokens(conn, INDEX_TERMS)
    rows = conn.execute(
        """
        select s.ref, group_concat(x.target_id, char(31))
        from sections s join xrefs x on x.source_id = s.id
        where s.doc = ? and s.kind = 'index_entry' and x.target_id is not null and x.field = 'text'
        group by s.id order by s.position
    """,
        (doc,),
    ).fetchall()
    for ref, targets in rows:
        terms = _entry_terms(data, stored, index_entry_words(ref))
        if terms:
            yield IndexEntry(ref, terms, tuple(dict.fromkeys(targets.split("\x1f"))))
