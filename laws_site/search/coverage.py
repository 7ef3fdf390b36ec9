"""A sentence that no unit holds whole (a situation, told as a director tells it): units ranked by how
much of it they cover, each word weighted by how telling it is.

A query of several words ("ダミーがディクレアラーの間違ったハンドからのリードを止めようとした") rarely
has a unit holding every word. Its content words (not particles, auxiliaries or light words: する,
しまう, その; ingest/search/lexicon.py) each count by their idf over the units of the language, and a
unit covers a word:
- itself, in its title (TITLE_CREDIT: the unit is about it) or its text (TEXT_CREDIT: it mentions it);
- through the law part it belongs to: a sub-unit reads under its parents' titles and lead-ins
  (42B2 「違反行為を防ぐよう努めること」 under 42 ダミーの権利), CONTEXT_TITLE_CREDIT or CONTEXT_TEXT_CREDIT;
- through what the corpus says about it: a 索引 entry citing it (the book's editors filed the
  situation under those words), INDEX_CREDIT; a commentary note or worked ruling on it, NOTE_CREDIT;
- through the director vocabulary (corpus/vocabulary.yml): a word directors say for a term of the Laws
  (クレーム for 取りの宣言, コンシード for 取られの宣言) covers the laws the vocabulary names for it,
  VOCABULARY_CREDIT, whether or not the text prints the word elsewhere (a note printing a word as
  something else must not take the credit from the law the vocabulary names).
A word the unit holds only bound inside another word (出す of 取り出す, 目 of 12トリック目: ingest/text/bound_words.py)
earns BOUND_SHARE of its credit: 15A 「取り出したカード」 plays no card, 62D2 「12トリック目」 is no eye.
A unit's score is the share of the query's idf it covers (0 to 1): a definition of one common word
covers little of a sentence; the provision that governs covers most of it. A part covering a word better
than the unit it belongs to takes that unit's place (parts_first): a title names the subject, the part
holding the sentence's words decides it.
A Chinese sentence counts its words as the dictionary cuts it (Branch.coverage_clauses), not the bigrams
across two of them; a word of it the Chinese text never prints counts uncovered (COVERAGE_UNPRINTED_CHARS).
"""

from __future__ import annotations

import math

from ingest.text import tokenize
from ingest.text.refs import law_ancestors
from laws_site.search.data import SearchData
from laws_site.search.fts import OneSearch, fts_rows
from laws_site.search.weights import (
    BOUND_SHARE,
    CONTEXT_TEXT_CREDIT,
    CONTEXT_TITLE_CREDIT,
    COVERAGE_BM25,
    COVERAGE_MIN_IDF,
    COVERAGE_UNPRINTED_CHARS,
    COVERAGE_WEIGHT,
    INDEX_CREDIT,
    SITUATION_DEFINITION_WEIGHT,
    SITUATION_ROLE_WEIGHT,
    TEXT_CREDIT,
    TITLE_CREDIT,
    VOCABULARY_CREDIT,
)


def content_clauses(data: SearchData, clauses) -> list[tuple[str, ...]]:
    """The clauses that carry the situation: a clause whose words are all light (する, しまう) does not."""
    light = data.lexicon.light
    return [clause for clause in clauses if not all(word in light for word in clause[0].split())]


def idf(matching: int, total: int) -> float:
    """How telling a word is that `matching` of `total` units hold (bm25's idf, floored)."""
    return max(math.log((total - matching + 0.5) / (matching + 0.5)), COVERAGE_MIN_IDF)


def coverage(fts: OneSearch, data: SearchData, clauses, lang: str, doc: str | None) -> dict[int, float]:
    """{rowid: the share of the clauses' idf the unit covers}, for the units of the language (and
    document) covering any content word; {} when fewer than two content words remain."""
    return covered_words(fts, data, clauses, lang, doc).shares()


class Covered:
    """What each unit covers of a sentence: {rowid: {clause's place: credit}} and each clause's idf."""

    def __init__(self):
        self.credits: dict[int, dict[int, float]] = {}
        self.weights: list[float] = []
        # {rowid: the clauses' places its own title or text prints}: a part printing the sentence's words itself
        # tells more than one reading them under its law's title (parts_first)
        self.printed: dict[int, list[int]] = {}
        # {rowid: the places it covers only as a part of a heading named for them (vocabulary, 索引)}: they raise the
        # part, but do not make it cover all its heading covers (47 カードを引っ込める stays before 47B)
        self.named_below: dict[int, set[int]] = {}

    def shares(self) -> dict[int, float]:
        total = sum(self.weights)
        if not total:
            return {}
        weights = self.weights
        return {
            rowid: sum(weights[place] * credit for place, credit in credits.items()) / total
            for rowid, credits in self.credits.items()
        }


def covered_words(
    fts: OneSearch, data: SearchData, clauses, lang: str, doc: str | None, shares: dict[str, float] | None = None
) -> Covered:
    """The credits each unit of the language (and document) earns for each content word (clause_credits)."""
    covered = Covered()
    wanted = content_clauses(data, clauses)
    if len(wanted) < 2:
        return covered
    searchable = data.searchable.get(lang, frozenset())
    # a note or ruling speaks for the units it is about: only the others are ranked
    ranked = data.situation_units.get(lang, frozenset())
    units = data.units
    named_for = vocabulary_named(data) if lang == "ja" else {}
    evidence = data.evidence
    in_phrases = phrase_units(data, wanted) if lang == "ja" else {}
    for clause in wanted:
        rows = fts.rowids(tokenize.fts_match([clause], "AND"))
        own = [rowid for rowid in rows if rowid in searchable]
        # the laws the vocabulary names for a word cover it, whether or not some other unit prints it (ロー,
        # "low", is printed only as "Law" in a note: 46B1(c) says 「低い」); and so do the laws a phrase of the
        # vocabulary names, for each of its words the sentence holds
        named = tuple(dict.fromkeys(named_for.get(clause[0], ()) + in_phrases.get(clause[0], ())))
        if not own and not named:
            if lang == "zh" and len(clause[0]) >= COVERAGE_UNPRINTED_CHARS:
                covered.weights.append(idf(0, len(searchable)))
            continue
        place = len(covered.weights)
        covered.weights.append(idf(len(own) or len(named), len(searchable)) * (shares or {}).get(clause[0], 1.0))
        credits = clause_credits(data, rows, own, clause)
        for rowid in own:
            covered.printed.setdefault(rowid, []).append(place)
        for rowid in named:
            credits[rowid] = max(credits.get(rowid, 0.0), VOCABULARY_CREDIT)
        # a heading the vocabulary or a 索引 entry names for the word passes it to its parts, as its text would (66C
        # 終了したトリック under 66 トリックの検査, named for 前のトリックを見る): they decide what it names
        indexed = [
            target
            for row in rows
            if (found := evidence.get(row)) and found[1] >= INDEX_CREDIT and speaks_of(data, row, found, clause)
            for target in found[0]
        ]
        for rowid in dict.fromkeys(rowid for rowid in (*named, *indexed) if rowid in data.headings):
            for below in data.context_below.get(rowid, ()):
                if credits.get(below, 0.0) < CONTEXT_TEXT_CREDIT:
                    credits[below] = CONTEXT_TEXT_CREDIT
                    covered.named_below.setdefault(below, set()).add(place)
        for rowid, credit in credits.items():
            if rowid in ranked and (doc is None or units[rowid][1] == doc):
                covered.credits.setdefault(rowid, {})[place] = credit
    return covered


def sentence_hits(fts: OneSearch, data: SearchData, branch, doc: str | None) -> dict[int, list]:
    """{rowid: [score, branch, "any", None]}: the share of the sentence each unit covers, and a little of
    its bm25 over the words (scaled so the best is 1), which tells apart units covering alike; weighed by
    the unit's kind and its document's role (situation_weights); a part that covers more than the unit it
    belongs to takes its place (parts_first)."""
    covered = branch_coverage(fts, data, branch, doc)
    shares = covered.shares()
    if not shares:
        return {}
    clauses = branch.coverage_clauses or branch.clauses
    rows = fts_rows(fts, data, tokenize.fts_match(bm25_clauses(clauses), "OR"), branch.lang, doc)
    best = max((score for _, score in rows), default=0.0) or 1.0
    bm25 = {rowid: score / best for rowid, score in rows}
    weight = situation_weights(data)
    scores = {
        rowid: weight[rowid] * (COVERAGE_WEIGHT * share + COVERAGE_BM25 * bm25.get(rowid, 0.0))
        for rowid, share in shares.items()
    }
    parts_first(data, scores, covered)
    return {rowid: [score, branch, "any", None] for rowid, score in scores.items()}


def bm25_clauses(clauses) -> list[tuple[str, ...]]:
    """The clauses as a sentence's bm25 counts them: a compound once, as the phrase of its pieces (「オープニング リード」,
    which every printing of the word matches), not again as the whole word (オープニングリード): FTS5 adds both phrases'
    scores, and a unit printing the word often outweighed one covering more of the sentence."""
    return [
        tuple(alt for alt in clause if alt != clause[0] or not any(a.replace(" ", "") == alt for a in clause[1:]))
        for clause in clauses
    ]


def branch_coverage(fts: OneSearch, data: SearchData, branch, doc: str | None) -> Covered:
    """covered_words of a sentence branch, worked out once per search (OneSearch.covered: sentence_hits ranks by
    it, ranking.cited_rule_first compares two units by it). Keyed by the branch itself, kept alive beside it."""
    key = (id(branch), doc)
    found = fts.covered.get(key)
    if found is None:
        clauses = branch.coverage_clauses or branch.clauses
        found = fts.covered[key] = (branch, covered_words(fts, data, clauses, branch.lang, doc, branch.term_shares))
    return found[1]


def parts_first(data: SearchData, scores: dict[int, float], covered: Covered) -> None:
    """A unit whose part covers some word of the sentence better than the unit does (its own text prints
    it, where the unit has it only under a title or not at all: 21B 「対戦相手の間違った情報に基づくコール」
    and 21B1(a), which says what the player may do) gives that part its place, and takes the part's: the
    part is read under the unit's title, so it covers all the unit covers and more. Of several such parts,
    the one covering most (each word counted at the better of its credit and the unit's). A heading (a title
    and no text: 30B 「パートナーまたはLHOのコールの順番」, or a lead-in announcing its parts: 50D, 85 「…以下のように裁定
    する」; data.headings) decides nothing its parts do not: a part
    covering every word it covers may take its place (30B1, the offender passing in partner's turn), but not one
    covering less (47B under 47 for 「出したカードを引っ込めたい」, which 47 names whole). Only places are
    exchanged: what ranked between them keeps its place."""
    below, credits, weights = data.context_below, covered.credits, covered.weights
    moved: set[int] = set()
    for rowid in sorted(scores, key=lambda r: -scores[r]):
        parts = below.get(rowid)
        if not parts or rowid in moved:
            continue
        own = credits.get(rowid, {})
        heading = rowid in data.headings
        chosen, chosen_key, alike = None, None, []
        for part in parts:
            if part in moved or part not in scores or scores[part] >= scores[rowid]:
                continue
            mine = credits.get(part, {})
            # a word the part prints (or the 索引 files under it), not one a commentary note mentions; under a
            # heading (a title, no text), a part covering every word the heading covers: it decides nothing they do not
            if not any(TEXT_CREDIT <= credit > own.get(place, 0.0) for place, credit in mine.items()) and not (
                heading and covers_all(mine, own, covered.named_below.get(part, ()))
            ):
                continue
            places = sorted(own.keys() | mine.keys())
            cover = 0.0
            for place in places:  # added in order, as the offline engine adds them
                cover += weights[place] * max(mine.get(place, 0.0), own.get(place, 0.0))
            printed = 0.0
            for place in covered.printed.get(part, ()):
                printed += weights[place]
            key = (cover, printed, scores[part])
            alike.append((part, (round(cover, 9), round(printed, 9))))
            if chosen_key is None or key > chosen_key:
                chosen, chosen_key = part, key
        if chosen is not None:
            chosen = rule_first(data, chosen, (round(chosen_key[0], 9), round(chosen_key[1], 9)), alike)
            scores[rowid], scores[chosen] = scores[chosen], scores[rowid]
            # a heading's part that is a title alone (27A under 27) may still give its place to its own part (27A1)
            moved.update((rowid,) if chosen in data.titles_only else (rowid, chosen))


def rule_first(data: SearchData, chosen: int, key: tuple, alike: list[tuple[int, tuple]]) -> int:
    """Of sibling paragraphs covering the sentence alike (the same words, the same printed by each), the one
    printed first: a law states its rule first and the exceptions and special cases after it (79C1 the
    correction period, 79C2 a correction after it; 62C1 the non-offending side's cards, 62C3 a revoke by both
    sides); bm25 prefers whichever is shorter. `alike`: the parts in the law's order, with their keys."""
    for part, part_key in alike:
        if part == chosen:
            return chosen
        if part_key == key and siblings(data, part, chosen):
            return part
    return chosen


def siblings(data: SearchData, one: int, other: int) -> bool:
    """Whether two law units are paragraphs of the same law part (61B1 and 61B3, not 76A1 and 76B4)."""
    above = law_ancestors(data.units[one][2])[:1]
    return (
        bool(above) and data.units[one][1] == data.units[other][1] and above == law_ancestors(data.units[other][2])[:1]
    )


def covers_all(part: dict[int, float], unit: dict[int, float], named=()) -> bool:
    """Whether a part covers, at least under its unit's lead-in, every word its unit covers (not by a note alone,
    nor `named`: the places it covers only as a part of a heading the vocabulary names for them)."""
    return all(
        part.get(place, 0.0) >= CONTEXT_TEXT_CREDIT and place not in named
        for place, credit in unit.items()
        if credit >= CONTEXT_TEXT_CREDIT
    )


def speaks_of(data: SearchData, rowid: int, found: tuple, clause: tuple[str, ...]) -> bool:
    """Whether evidence row `rowid` (`found`: its (targets, credit)) says the words about the units it is about: a
    note or ruling by its text; a 索引 entry by its heading only, for its text is its locators (紛失したカード 「14」,
    カード/発見できない 「14A2」: 14, a, 2) and 定義, no words of a situation (「14 cards」 is no Law 14)."""
    if found[1] < INDEX_CREDIT:
        return True
    title = data.title_words.get(rowid, frozenset())
    return any(frozenset(alternative.split()) <= title for alternative in clause)


def vocabulary_named(data: SearchData) -> dict[str, tuple[int, ...]]:
    """{a Japanese word of the director vocabulary that is one content word, as a query is cut into it:
    the rowids of the current laws the vocabulary names for it}; exported to the offline pack."""
    return data.memo(("vocabulary_units",), lambda: _vocabulary_units(data))[0]


def vocabulary_phrases(data: SearchData) -> list[tuple[list[str], list[int]]]:
    """[(the content words of a phrase of the director vocabulary, the rowids of the current laws it names)]
    for its phrases of several content words (カードを落とした: カード, 落とす); exported to the offline pack."""
    return data.memo(("vocabulary_units",), lambda: _vocabulary_units(data))[1]


def _vocabulary_units(data: SearchData) -> tuple[dict[str, tuple[int, ...]], list[tuple[list[str], list[int]]]]:
    laws = data.registry.current_laws
    words: dict[str, tuple[int, ...]] = {}
    phrases: dict[tuple[str, ...], tuple[int, ...]] = {}
    for entry in data.vocabulary.entries if laws and data.lexicon.words else ():
        units = tuple(data.rowids[f"{laws.id}:{ref}"] for ref in entry.laws if f"{laws.id}:{ref}" in data.rowids)
        for word in entry.ja + entry.spoken if units else ():
            content = tuple(dict.fromkeys(c[0] for c in content_clauses(data, data.lexicon.query_clauses(word))))
            found = words if len(content) == 1 else phrases
            key = content[0] if len(content) == 1 else content
            if content:
                found[key] = tuple(dict.fromkeys(found.get(key, ()) + units))
    return words, [(list(key), list(units)) for key, units in phrases.items()]


def phrase_units(data: SearchData, wanted) -> dict[str, tuple[int, ...]]:
    """{a content word of the sentence: the laws named by the vocabulary's phrases whose every content word
    the sentence holds} (「カードを落とした」 inside 「ディフェンダーがカードを落として表になった」)."""
    held = {clause[0] for clause in wanted}
    found: dict[str, tuple[int, ...]] = {}
    for words, units in vocabulary_phrases(data):
        if all(word in held for word in words):
            for word in words:
                found[word] = found.get(word, ()) + tuple(units)
    return found


def situation_weights(data: SearchData) -> dict[int, float]:
    """{rowid: how far the unit speaks for a situation}: a law more than a regulation or a commentary's
    page, a provision more than the definition of one of the situation's words. Made once per database:
    a sentence weighs every unit covering any of its words."""

    def compute() -> dict[int, float]:
        by_doc = {doc: SITUATION_ROLE_WEIGHT[data.role(doc)] for doc in data.documents}
        return {
            rowid: by_doc[unit[1]] * (SITUATION_DEFINITION_WEIGHT if unit[3] == "definition" else 1.0)
            for rowid, unit in data.units.items()
        }

    return data.memo(("situation_weights",), compute)


def clause_credits(data: SearchData, rows: list[int], own: list[int], clause: tuple[str, ...]) -> dict[int, float]:
    """{rowid: the best way the unit covers the clause's words (its first reading; a 索引 entry any reading)}: in its title or text (`own`: the
    units of the language holding them), under its law part's, or through a 索引 entry or note
    (any of `rows`). Comparisons written out: this runs for every unit holding a word of a sentence."""
    words = frozenset(clause[0].split())
    credits: dict[int, float] = {}
    best = credits.get
    titles, below_of, evidence, empty = data.title_words, data.context_below, data.evidence, frozenset()
    bound_in, title_bound = data.bound_words, data.title_bound
    for rowid in own:
        # a title holding the word only inside another (リード of 「…順番外のオープニングリード」) does not name it
        in_title = words <= titles.get(rowid, empty) and not words <= title_bound.get(rowid, empty)
        # a word held only inside another word (出す of 取り出す) says less than one printed whole
        share = BOUND_SHARE if words <= bound_in.get(rowid, empty) else 1.0
        credit = (TITLE_CREDIT if in_title else TEXT_CREDIT) * share
        if credit > best(rowid, 0.0):
            credits[rowid] = credit
        inherited = (CONTEXT_TITLE_CREDIT if in_title else CONTEXT_TEXT_CREDIT) * share
        for below in below_of.get(rowid, ()):
            if inherited > best(below, 0.0):
                credits[below] = inherited
    for rowid in rows:
        found = evidence.get(rowid)
        if found and speaks_of(data, rowid, found, clause):
            credit = found[1] * (BOUND_SHARE if words <= bound_in.get(rowid, empty) else 1.0)
            for target in found[0]:
                if credit > best(target, 0.0):
                    credits[target] = credit
    return credits
