"""What a text query means: its branches (a language and its words: the query itself, its glossary
translations, the director vocabulary's words for it) and the units the vocabulary names, planned
once and then ranked (laws_site/search/ranking.py). Japanese is cut with the build's lexicon
(laws_site/search/words.py), Chinese into bigrams (ingest/text/tokenize.py)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache

from ingest.search import glossary
from ingest.search.english_lexicon import FUNCTION_WORDS
from ingest.text import tokenize
from laws_site.search import translation
from laws_site.search.data import SearchData
from laws_site.search.expansions import Alternative
from laws_site.search.weights import GLOSSARY_WEIGHT, TRANSLATION_WEIGHT, VOCABULARY_BOOST, VOCABULARY_STEP
from laws_site.search.words import with_bid_word, with_table_words

MAX_TERMS = 32
WORD_RE = re.compile(r"[^\W_]")
NON_WORD_RE = re.compile(r"[\W_]+")
FOOTNOTE_MARK_RE = re.compile(r"\*\d*$")


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
    # searched only as a sentence (by coverage, when no unit holds every word of the query itself): a
    # Chinese or English sentence read in Japanese words (laws_site/search/translation.py)
    sentence: bool = False
    # what its coverage counts, if not its clauses: a Chinese query's words (chinese.ChineseWords.clauses)
    coverage_clauses: list[tuple[str, ...]] = field(default_factory=list)
    # a Chinese or English query read in the Laws' words: its why names the words as the unit prints them
    translated: bool = False
    # of such a sentence: (a term as the query writes it, the words its Japanese words are searched by),
    # so that a result names the director's own words it holds (why.py)
    sources: tuple[tuple[str, frozenset[str]], ...] = ()
    # {a clause's first word: its share of the typed term it reads}: a term read as several words counts once
    term_shares: dict[str, float] = field(default_factory=dict)

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


def make_branch(data: SearchData, text: str, lang: str, via: str | None = None, weight: float = 1.0) -> Branch:
    terms, clauses = query_tokens(data, text, lang)
    branch = Branch(lang, list(terms), list(clauses), via, weight, text=text)
    if lang == "zh" and terms:
        # a Chinese sentence covers its words, not the bigrams across two of them (伴长 in 同伴長考)
        words = [clause for clause in data.chinese.clauses(text) if WORD_RE.search(" ".join(clause))]
        branch.coverage_clauses = words[:MAX_TERMS]
    return branch


def query_tokens(data: SearchData, text: str, lang: str) -> tuple[tuple, tuple]:
    """(terms, clauses) of a query in a language (Japanese cut with the build's lexicon:
    laws_site/search/words.py), cached per database. A token with no letter, digit or character
    (^, ＊) can never match: FTS drops it from the index."""
    return data.memo(("tokens", text, lang), lambda: _query_tokens(data, text, lang))


def _query_tokens(data: SearchData, text: str, lang: str) -> tuple[tuple, tuple]:
    if lang == "ja":
        text = with_bid_word(with_table_words(text))
    if lang == "ja" and data.lexicon.words:
        found_terms, found_clauses = data.lexicon.query_terms(text), data.lexicon.query_clauses(text)
    else:
        found_terms, found_clauses = tokenize.query_terms(text, lang), tokenize.query_clauses(text, lang)
    terms = [term for term in found_terms if WORD_RE.search(term)][:MAX_TERMS]
    clauses = [clause for clause in found_clauses if WORD_RE.search(" ".join(clause))]
    return tuple(terms), tuple(clauses[:MAX_TERMS] if terms else [])


def lookup_text(data: SearchData, query: str) -> str:
    """What the glossary and the vocabulary are asked for: the query, or, when neither knows it, its one
    content word if the rest are light or grammatical words (クレームした: クレーム, a word no unit prints
    with する)."""
    if data.glossary_lookup(query) or data.vocabulary_matches(query) or not tokenize.KANA_RE.search(query):
        return query
    return (data.lexicon.lone_word(query) if data.lexicon.words else None) or query


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

    def own_copy(self) -> "Plan":
        """A plan of its own over the same branches: a search adds its alternatives and corrections to its
        plan (engine.search_page, ranking.ranked_hits); nothing changes a branch once it is planned."""
        return replace(
            self,
            branches=list(self.branches),
            targets=dict(self.targets),
            also_searched=list(self.also_searched),
            alternatives=list(self.alternatives),
        )


def make_plan(data: SearchData, query: str, lang: str | None) -> Plan:
    """The query in each language, its glossary translations and its director vocabulary, without repeats:
    planned once per query and language for this database (the bounded memo, like the query's words and
    alternatives: a sixth of a search's CPU was planning the same query again), a copy for each search."""
    return data.memo(("plan", query, lang), lambda: _make_plan(data, query, lang)).own_copy()


def _make_plan(data: SearchData, query: str, lang: str | None) -> Plan:
    languages = [lang] if lang else ["ja", "zh"]
    branches: list[Branch] = []
    # kana means Japanese: its kanji alone, read as Chinese, would match noise (取り消した -> 取, 消)
    direct = ["ja"] if not lang and tokenize.KANA_RE.search(query) else languages
    if not lang and not data.lexicon.reads_as_japanese(query):
        direct = ["zh"]  # ... and a kanji no Japanese word holds means Chinese: not read as Japanese too
    for language in direct:
        if language == "ja" and data.lexicon.words and not data.lexicon.reads_kana_as_words(query):
            continue  # kana read as almost nothing it typed: not searched as those words (expansions still are)
        add_branch(branches, make_branch(data, query, language))
    looked_up = lookup_text(data, query)
    for entry in data.glossary_lookup(looked_up):
        for language in languages:
            for form in glossary.term_forms(entry.term(language)):
                branch = add_branch(branches, make_branch(data, form, language, via=form, weight=GLOSSARY_WEIGHT))
                unit = data.glossary.unit_id(entry, language)
                if branch and unit and entry.ref(language).startswith("def:"):
                    branch.pointed.add(unit)
    targets: dict[str, float] = {}
    for entry, fields in data.vocabulary_matches(looked_up).items():
        for language, words in (("ja", entry.ja + entry.ja_regs), ("zh", entry.zh)):
            if language in languages:
                for word in words:
                    add_branch(branches, make_branch(data, word, language, via=word, weight=GLOSSARY_WEIGHT))
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
    if "ja" in languages and not tokenize.KANA_RE.search(query) and not targets and not data.glossary_lookup(query):
        # a Chinese or English sentence: the Japanese words of the terms it names (translation.py)
        terms_read = translation.query_terms(data, query)
        read = list(dict.fromkeys(word for _, japanese in terms_read for word in japanese))
        words = " ".join(read)
        if words:
            terms, clauses = query_tokens(data, words, "ja")
            clauses = with_neighbours(data, compound_clauses(data, read, list(clauses)))
            # an English query of one word ("hesitate": 躊躇う) is searched as that word, not by a sentence's
            # coverage, and so is one of one word besides function words ("he hesitated"): coverage needs two
            typed = translation.ENGLISH_WORD_RE.findall(query.lower())
            sentence = len(read) > 1 or len([word for word in typed if word not in FUNCTION_WORDS]) != 1
            branch = Branch(
                "ja", list(terms), clauses, words, TRANSLATION_WEIGHT, text=words, sentence=sentence, translated=True
            )
            branch.sources = term_sources(data, terms_read)
            if not tokenize.HAN_RE.search(query):
                # English: a term read as several words counts once (a Chinese word's forms are chinese.py's to weigh)
                branch.term_shares = term_shares(branch.clauses, branch.sources)
                # an English sentence read in the Laws' words is not also searched as typed: its leftover
                # words (the, from, tried) read as katakana or sub-item letters and cover alone
                branches = [b for b in branches if b.via is not None]
            add_branch(branches, branch)
    query_terms = {(b.lang, tuple(b.terms)) for b in branches if b.via is None}
    also = [b.via for b in branches if b.via and (b.lang, tuple(b.terms)) not in query_terms]
    return Plan(branches, targets, list(dict.fromkeys(also)), query=query)


def term_sources(data: SearchData, terms_read: list[tuple[str, list[str]]]) -> tuple[tuple[str, frozenset[str]], ...]:
    """(a term as the query writes it, the search words of its Japanese words) of each term a sentence
    was read by (translation.read_terms)."""
    return tuple(
        (typed, frozenset(term for word in japanese for term in query_tokens(data, word, "ja")[0]))
        for typed, japanese in terms_read
    )


def term_shares(clauses: list[tuple[str, ...]], sources) -> dict[str, float]:
    """{a clause's first word: 1 / the number of clauses the typed term it reads was read as}: a term read
    as several words counts once in the situation, as one typed word does ("pointed out", read as
    違反行為の指摘 and 違反行為があったときの手順, counted six words and outweighed dummy, defender, revoke)."""
    counts = [sum(reads(clause, words) for clause in clauses) for _, words in sources]
    found = {}
    for clause in clauses:
        shares = [1.0 / n for (_, words), n in zip(sources, counts) if n and reads(clause, words)]
        if shares:
            found[clause[0]] = max(shares)
    return found


def reads(clause: tuple[str, ...], words: frozenset[str]) -> bool:
    return any(word in words for alternative in clause for word in alternative.split())


def compound_clauses(data: SearchData, terms: list[str], clauses: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """A translated term the lexicon cuts into several words printed together (対戦相手: 対戦 相手,
    順番外: 順番 外) is one word of the situation, matched as a phrase: its pieces, each counted, weighed
    it twice (an opponent's unit outranked the slow play's). A particle ends a phrase (ディクレアラーの
    順番外のリード: three words); a katakana compound is already one clause (query_clauses)."""
    phrases, pieces, alone = [], set(), set()
    for term in terms:
        run: list = []
        for word in [*data.lexicon.cut(term), None]:
            if word is not None and not word.dropped and (not run or run[-1].end == word.begin):
                run.append(word)
                continue
            if len(run) >= 2 and not all(tokenize.KATAKANA_WORD_RE.fullmatch(w.surface) for w in run):
                phrases.append((" ".join(w.norm for w in run),))
                pieces.update(w.norm for w in run)
            else:
                alone.update(w.norm for w in run)
            run = [word] if word is not None and not word.dropped else []
    pieces -= alone
    return list(dict.fromkeys(phrases + [c for c in clauses if not (len(c) == 1 and c[0] in pieces)]))


def with_neighbours(data: SearchData, clauses: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """A translated word the Laws never print matches the words they print for it (躊躇う, "hesitate": 躊躇),
    even alone: a Japanese query of that one word finds them as the whole query's synonym (expansions.py),
    which a translation never runs."""
    neighbours = data.lexicon.neighbours
    return [
        (clause[0], *neighbours[clause[0]]) if len(clause) == 1 and clause[0] in neighbours else clause
        for clause in clauses
    ]


def add_branch(branches: list[Branch], branch: Branch) -> Branch | None:
    """Append the branch unless one with the same language and tokens exists; return the one kept."""
    if not branch.terms:
        return None
    for existing in branches:
        if existing.lang == branch.lang and existing.terms == branch.terms:
            return existing
    branches.append(branch)
    return branch


def alternative_plan(data: SearchData, alternative: Alternative, lang: str | None) -> "Plan":
    """An alternative planned like a query of its own (its glossary and vocabulary included); its
    branches say which alternative they search for. Planned once per alternative and language (make_plan)."""
    key = ("alternative plan", alternative.kind, alternative.text, alternative.lang, lang)
    return data.memo(key, lambda: _alternative_plan(data, alternative, lang)).own_copy()


def _alternative_plan(data: SearchData, alternative: Alternative, lang: str | None) -> "Plan":
    # branches of their own (not make_plan's, which the query typed as this text shares): they are marked below
    plan = _make_plan(data, alternative.text, lang or alternative.lang)
    for branch in plan.branches:
        branch.via = branch.via or alternative.text
        branch.expansion = alternative.kind
    return plan


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


def title_carries(title_words: frozenset[str] | None, clauses) -> bool:
    """Every clause has an alternative (a word, or a phrase's words) among the title's tokens."""
    return bool(title_words) and all(any(words_of(alt) <= title_words for alt in clause) for clause in clauses)


@lru_cache(maxsize=16384)
def words_of(tokens: str) -> frozenset[str]:
    return frozenset(tokens.split())
