"""The ranking of a text query: each branch's FTS hits by bm25, boosted where the title carries the
words, where the 索引 or the glossary points, where the vocabulary names the unit; alternatives
(readings, corrections...) below what the query itself finds; reprints folded under their law."""

from __future__ import annotations

import heapq
import re
from dataclasses import replace

from ingest.text import tokenize
from ingest.text.refs import law_ancestors
from laws_site.search.coverage import branch_coverage, content_clauses, covers_all, sentence_hits, situation_weights
from laws_site.search.data import NAVIGATION_KINDS, SearchData
from laws_site.search.expansions import FEW, Alternative, corrections
from laws_site.search.fts import OneSearch, fts_rows
from laws_site.search.hits import Hit
from laws_site.search.plan import Branch, Plan, alternative_plan, title_carries, title_key, words_of
from laws_site.search.weights import (
    CITED_RULE_DEPTH,
    DEFINITION_WEIGHT,
    FIRST_SCREEN,
    HEADING_BOOST,
    HEADING_KINDS,
    INDEX_WEIGHT,
    NAMED_BOOST,
    NAMED_KINDS,
    RELAXED_WEIGHT,
    REPRINT_WEIGHT,
    SENTENCE_WORDS,
    TITLE_BOOST,
    TRANSLATED_INDEX_WEIGHT,
)


class Ranking:
    """The ranked results of a text search: every matching unit's rowid, best first, with what
    made its score - [score, branch, match, 索引 entries, tier] - and the reprints folded into it.
    Tier 0: units the query itself finds; 1: units only an alternative finds (a reading, a
    correction...); 2: units holding only some of the words. Hits (the full result objects) are
    made for the page shown only. `shown_below`: the headings a part ranked above them already shows, kept off
    the first screen (headings_shown_by_parts)."""

    def __init__(
        self, data: SearchData, candidates: dict[int, list], reprints: dict[int, list[str]], reprint_of: dict[int, str]
    ):
        self.data, self.candidates, self.reprints, self.reprint_of = data, candidates, reprints, reprint_of
        self.found_by: dict[str, int] = {}  # alternative's text -> units it added
        self.shown_below: frozenset[int] = frozenset()

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
        wanted = count + len(self.shown_below)  # as many as may leave the first screen
        chosen = heapq.nsmallest(wanted, keys) if wanted < len(keys) // 2 else sorted(keys)[:wanted]
        return first_screen([key[4] for key in chosen], self.shown_below)[:count]

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


def ranked_hits(
    conn,
    data: SearchData,
    plan: Plan,
    doc: str | None,
    lang: str | None,
    index_boost: bool,
    corrected: bool = False,
    current_first: bool = False,
) -> Ranking:
    """The query's own branches (tier 0), then its alternatives (tier 1, only units tier 0 lacks);
    corrections join the alternatives when tier 0 finds fewer than FEW units. Only if no unit holds
    every word of the query, units holding any of them: tier 2 when an alternative found units,
    else tier 0 (the ranking before alternatives existed). `current_first`: the current units paired
    with a found earlier unit take its place (lift_current)."""
    fts = OneSearch(conn)
    strict = _strict_hits(fts, data, plan.branches, doc, index_boost, False)
    relaxed = {}
    sentence = plan.relaxed and is_sentence(data, plan)
    if plan.relaxed and (sentence or not found_whole(data, strict)):
        # a reviewed Chinese variant is the query's own word (罚牌 is 罚张): its words count in the sentence too
        own = [
            b
            for alternative, alt_plan in plan.alternatives
            if alternative_tier(alternative) == 0
            for b in alt_plan.branches
        ]
        relaxed = _strict_hits(fts, data, plan.branches + own, doc, index_boost, True)
    merged: dict[int, list] = {}
    _merge(merged, strict, 0)
    _add_targets(merged, data, plan.targets, doc, lang, 0)
    if corrected and len(merged) < FEW:
        known = {alt.text for alt, _ in plan.alternatives}
        plan.alternatives += [
            (alt, alternative_plan(data, alt, lang))
            for alt in corrections(data.expansions, plan.query, lang)
            if alt.text not in known
        ]
    found_by: dict[str, int] = {}
    tiers: dict[str, int] = {}
    for alternative, alt_plan in plan.alternatives:
        before = len(merged)
        tier = alternative_tier(alternative)
        tiers[alternative.text] = tier
        _merge(merged, _strict_hits(fts, data, alt_plan.branches, doc, index_boost, False), tier)
        _add_targets(merged, data, alt_plan.targets, doc, lang, tier)
        found_by[alternative.text] = len(merged) - before
    by_coverage = bool(relaxed) and (sentence or not any(found_by.values()))
    if relaxed and not by_coverage:
        _merge(merged, relaxed, 2)
    elif by_coverage:  # as before alternatives: the relaxed hits, then the vocabulary's boosts
        # a situation is ranked by its coverage: an alternative re-spelling one of its words (間違う -> 間違える,
        # the sentence's search forms joined) is no reading of it to rank above it, nor to say was searched
        found_by = {text: count if tiers[text] == 0 else 0 for text, count in found_by.items()}
        merged = {}
        # a sentence's units weigh as its coverage weighs them (a note holding every word below a law)
        weight = situation_weights(data)
        _merge(
            merged,
            {r: [weight[r] * c[0], *c[1:]] for r, c in strict.items() if c[2] != "index"},
            0,
        )
        _merge(merged, relaxed, 0)
        cited_rule_first(conn, fts, data, merged, doc)
        _add_targets(merged, data, follow_parts(data, merged, plan.targets), doc, lang, 0)
    if current_first:
        lift_current(data, merged, doc, lang)
    ranking = fold_reprints(data, merged)
    ranking.found_by = found_by
    if by_coverage:
        ranking.shown_below = headings_shown_by_parts(data, merged)
    return ranking


def first_screen(order: list[int], shown_below: frozenset[int]) -> list[int]:
    """`order` with the first FIRST_SCREEN places given to units not in `shown_below` (headings_shown_by_parts): those
    met on the way follow the first screen, in their order; the rest keeps its order."""
    if not shown_below:
        return order
    screen: list[int] = []
    moved: list[int] = []
    for place, rowid in enumerate(order):
        if len(screen) == FIRST_SCREEN:
            return screen + moved + order[place:]
        (moved if rowid in shown_below else screen).append(rowid)
    return screen + moved


def headings_shown_by_parts(data: SearchData, merged: dict[int, list]) -> frozenset[int]:
    """The headings (data.headings: a title, or a lead-in announcing the parts) that rank below one of their own
    parts in a sentence's ranking: the part shows it (its number names the law, its context the heading's title), and
    the heading decides nothing the part does not (coverage.parts_first). On the first screen it took the place of
    another law: 31B1, 31C, then Law 31 itself before 20F1 for "my opponent kept asking what our bids meant when it
    was not his turn to call". They follow the first screen (first_screen), still on the first page."""
    listing, below = data.listing_rank, data.context_below
    places: dict[int, int] = {}  # the order found breaks what ties remain (Ranking.best): made only for a tie

    def ahead(part: int, heading: int) -> bool:
        one, other = merged[part], merged[heading]
        key, against = (one[4], -one[0], listing[part]), (other[4], -other[0], listing[heading])
        if key != against:
            return key < against
        if not places:
            places.update((rowid, place) for place, rowid in enumerate(merged))
        return places[part] < places[heading]

    return frozenset(
        heading
        for heading in data.headings.intersection(merged)
        if any(part in merged and ahead(part, heading) for part in below.get(heading, ()))
    )


def found_whole(data: SearchData, strict: dict[int, list]) -> bool:
    """Whether a unit holds every word of the query (or all but one): a commentary note or 索引 entry
    holding them does not count - it speaks for the laws it is about, which only the sentence's coverage
    ranks (a long note on 53A holds 「ダミー…オープニングリード…出す」; Law 24 and 54E govern)."""
    evidence = data.evidence
    return any(c[2] in ("all", "most") and rowid not in evidence for rowid, c in strict.items())


def is_sentence(data: SearchData, plan: Plan) -> bool:
    """Whether the query tells a situation in Japanese: SENTENCE_WORDS content words or more, not all
    filed together by a 索引 entry (意思の伝達、テンポとディセプション テンポ is the book's own heading,
    which its boost answers). A unit that happens to hold a situation's words (the definition of パス holds
    順番, ダブル, 言う) does not answer it by that alone: its units rank by how much of it they cover."""
    if not tokenize.KANA_RE.search(plan.query):
        return False  # not Japanese: a Chinese or English sentence is read by its translation (plan.py)
    own = next((branch for branch in plan.branches if branch.via is None and branch.lang == "ja"), None)
    if own is None or len(content_clauses(data, own.clauses)) < SENTENCE_WORDS:
        return False
    words = frozenset(own.terms)
    return not any(words <= entry.terms for entry in data.index_entries_with(words))


def lift_current(data: SearchData, merged: dict[int, list], doc: str | None, lang: str | None) -> None:
    """A unit of an earlier edition that was found (the 1997 Chinese text, which a Chinese query matches
    word for word) gives its place to the current units the concordance pairs it with: they rank at its
    tier and score (or their own, if better), and it is shown beside them (the result's `paired`), not as a
    result of its own. A director reading the Chinese or English interface wants the law in force, which
    only the Japanese text prints (CURRENT_FIRST_INTERFACES)."""
    units = data.units
    for rowid, candidate in list(merged.items()):
        lifted = False
        for current in data.current_of.get(units[rowid][0], ()):
            current_rowid = data.rowids.get(current)
            if current_rowid is None or not data.in_filters(units[current_rowid][1], doc, lang):
                continue
            lifted = True
            kept = merged.get(current_rowid)
            if kept is None:
                merged[current_rowid] = candidate[:5]
            elif (candidate[4], -candidate[0]) < (kept[4], -kept[0]):
                kept[0], kept[4] = candidate[0], candidate[4]
        if lifted:
            del merged[rowid]


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


def cited_rule_first(conn, fts: OneSearch, data: SearchData, merged: dict[int, list], doc: str | None) -> None:
    """Of two units among a sentence's first CITED_RULE_DEPTH, read by the same branch, neither boosted by the 索引, the
    one whose rule the other applies (applied_rules) takes the place of the one applying it where they cover the
    sentence exactly alike (the same share of its words): 27B4 「…本条A項1が認めるとおり受け入れなければ」 for LHO calling
    over an insufficient bid, which 27A1 rules; 20F2 「説明は本条F項1と同様の原則で」 for asking what an alerted bid means.
    A rule the other says it follows as that rule provides (provided_rules: 56A 「第53条に定めるとおり、この違法なリード
    を受け入れることができる」, 54B, 55A likewise) takes its place where it covers every word of the sentence the other
    covers, at any credit: the rule states what accepting a lead out of turn is, the others apply it to one case (54B an
    opening lead), and bm25 put them first for printing the words again. Only places are exchanged."""
    listing = data.listing_rank
    keys = ((c[4], -c[0], listing[rowid], place, rowid) for place, (rowid, c) in enumerate(merged.items()))
    first = [key[4] for key in heapq.nsmallest(CITED_RULE_DEPTH, keys)]
    rules, provided = applied_rules(conn, data), provided_rules(conn, data)
    done: set[int] = set()
    for place, applying in enumerate(first):
        applied = rules.get(data.units[applying][0])
        if not applied or applying in done:
            continue
        for rule in first[place + 1 :]:
            one, other = merged[applying], merged[rule]
            if rule in done or data.units[rule][0] not in applied or one[4] != other[4] or one[1] is not other[1]:
                continue
            branch = one[1]
            # ranked by coverage alone: a unit the 索引 or the glossary points to keeps its place (and its boost)
            if branch is None or one[2:4] != ["any", None] or other[2:4] != ["any", None]:
                continue
            # the coverage sentence_hits ranked the branch by (worked out once per search)
            covered = branch_coverage(fts, data, branch, doc)
            if rule_in_place(covered, applying, rule, data.units[rule][0] in provided.get(data.units[applying][0], ())):
                one[0], other[0] = other[0], one[0]
                done.update((applying, rule))
                break


def rule_in_place(covered, applying: int, rule: int, as_provided: bool) -> bool:
    """Whether `rule` takes the place of `applying` (cited_rule_first): they cover the sentence exactly alike, or the
    applying unit follows the rule as it provides and the rule covers every word the applying unit covers."""
    found = covered.shares()
    share = round(found.get(applying, 0.0), 9)
    if share == round(found.get(rule, 0.0), 9) > 0.0:
        return True
    words = covered.credits.get(applying, {})
    return as_provided and share > 0.0 and covers_all(covered.credits.get(rule, {}), words)


def applied_rules(conn, data: SearchData) -> dict[str, tuple[str, ...]]:
    """{unit id: the units whose rule its text applies}: the references in its own sentences (本条A項1が認めるとおり,
    本条F項1と同様の原則で), not those in parentheses, which point to a provision to read beside it (10A 「（または
    免除する：第81条C項5参照）」, 40A3 「(本条C項1参照)」) without saying its rule is the one applied. Made once per
    database; exported to the offline pack."""
    return data.memo(("applied_rules",), lambda: _applied_rules(conn))[0]


def provided_rules(conn, data: SearchData) -> dict[str, tuple[str, ...]]:
    """{unit id: the applied rules (applied_rules) it follows as they provide}: the reference is followed by とおり or
    同様 (AS_PROVIDED: 56A 「第53条に定めるとおり」, 54B 「第53条で定めたとおり」, 20F2 「本条F項1と同様の原則で」), not a
    referral (48B2 「第68条を適用する」: the consequence is the other law's) nor an exception (50D1(a) 「本条B項に定める
    場合を除き」, 25B1 「A項で認められない」). Made once per database; exported to the offline pack."""
    return data.memo(("applied_rules",), lambda: _applied_rules(conn))[1]


# what follows a reference to a rule a unit follows as that rule provides: 「…に定めるとおり」「…で定めたとおり」
# 「…が認めるとおり」「…のとおり」「…と同様の」, a few characters on at most (「で定められたとおりに」)
AS_PROVIDED = re.compile(r"^[^、。，（）()]{0,8}?(?:とおり|通り)|^と同様")


def _applied_rules(conn) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    found: dict[str, list[str]] = {}
    provided: dict[str, list[str]] = {}
    marks = ",".join("?" * len(NAVIGATION_KINDS))
    rows = conn.execute(
        f"""select s.id, s.text, x.target_id, x.start, x.end from xrefs x join sections s on s.id = x.source_id
            where x.target_id is not null and x.field = 'text' and s.kind not in ({marks})
            order by s.id, x.start""",
        NAVIGATION_KINDS,
    )
    for source, text, target, start, end in rows:
        before = (text or "")[: start or 0]
        depth = sum(before.count(mark) for mark in "（(") - sum(before.count(mark) for mark in "）)")
        if depth <= 0 and target != source and target not in found.get(source, ()):
            found.setdefault(source, []).append(target)
            if end is not None and AS_PROVIDED.match((text or "")[end:]):
                provided.setdefault(source, []).append(target)
    return (
        {source: tuple(targets) for source, targets in found.items()},
        {source: tuple(targets) for source, targets in provided.items()},
    )


def follow_parts(data: SearchData, merged: dict[int, list], targets: dict[str, float]) -> dict[str, float]:
    """A sentence's targets, each moved to where coverage put its law (part_in_place)."""
    moved: dict[str, float] = {}
    for unit, boost in targets.items():
        rowid = data.rowids.get(unit)
        if rowid is not None:
            unit = data.units[part_in_place(data, merged, rowid)][0]
        moved[unit] = moved.get(unit, 0.0) + boost
    return moved


def part_in_place(data: SearchData, hits: dict[int, list], rowid: int) -> int:
    """The part of a law unit that ranks above it among a sentence's hits (the part that took its place,
    coverage.parts_first), or the unit itself: a boost the 索引 or the vocabulary gives the law for the
    sentence's words goes to that part (57A 「パートナーがプレイする前に…プレイした」 for "defender played before
    his partner", which both file under 57 早まったプレイ): they name the law, the sentence's coverage says which
    of its parts the situation is."""
    kept = hits.get(rowid)
    if kept is None:
        return rowid
    parts = [part for part in data.context_below.get(rowid, ()) if part in hits and hits[part][0] > kept[0]]
    return max(parts, key=lambda part: hits[part][0], default=rowid)


def _add_targets(merged: dict[int, list], data: SearchData, targets: dict[str, float], doc, lang, tier: int) -> None:
    for unit, boost in targets.items():
        rowid = data.rowids.get(unit)
        if rowid is None or not data.in_filters(data.units[rowid][1], doc, lang):
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
    lone = lone_content_branch(data, branch) if relaxed else None
    if lone is not None:
        branch, relaxed = lone, False
    if branch.sentence and not relaxed:
        return {}
    indexed = data.vocabulary_of.get(branch.lang)
    if indexed is not None and not relaxed and not all(_indexed(clause, indexed) for clause in branch.clauses):
        hits = {}  # a word no unit holds: the query cannot match all of them (and need not ask FTS)
    else:
        hits = text_hits(fts, data, branch, doc, relaxed)
    index_weight = INDEX_WEIGHT if branch.via is None else TRANSLATED_INDEX_WEIGHT
    # a sentence (relaxed) is boosted by the 索引 entries holding all its words; an entry holding some
    # of them counts in its coverage as what the 索引 says about the units it cites (coverage.py)
    pointed = {
        unit: (index_weight * boost, entries)
        for unit, (boost, entries) in (
            fts.index_boosts(data, branch.terms, whole=relaxed) if index_boost and branch.lang == "ja" else {}
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
        if relaxed:  # a sentence: the boost goes where coverage put the law (follow_parts)
            rowid = part_in_place(data, hits, rowid)
        candidate = hits.setdefault(rowid, [0.0, branch, "index", None])
        candidate[0] += boost
        candidate[3] = entries
    weight = branch.weight
    if weight != 1.0:
        for candidate in hits.values():
            candidate[0] *= weight
    return hits


def lone_content_branch(data: SearchData, branch: Branch) -> Branch | None:
    """A Japanese query of one content word among light ones that no unit holds whole (アベレージプラスがもらえるの
    はどんな時: no unit prints どんな時 beside it) searched as that word, 索引 included; a sentence's coverage needs
    two content words, and found nothing. None for any other branch."""
    if branch.lang != "ja" or len(branch.clauses) < 2:
        return None
    wanted = content_clauses(data, branch.clauses)
    if len(wanted) != 1:
        return None
    words = {word for alternative in wanted[0] for word in alternative.split()}
    terms = [term for term in branch.terms if term in words]
    return replace(branch, terms=terms, clauses=wanted, sentence=False) if terms else None


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
    return any(words_of(alternative) <= indexed for alternative in clause)


def text_hits(
    fts: "OneSearch", data: SearchData, branch: Branch, doc: str | None, relaxed: bool = False
) -> dict[int, list]:
    """bm25 hits holding every token (`relaxed`: the units covering the sentence, coverage.sentence_hits);
    scores scaled so the best is 1, plus TITLE_BOOST where the title carries every token. A Chinese phrase of
    three bigrams or more also finds, at RELAXED_WEIGHT, units missing one of its bigrams
    (越序叫牌 -> 越序实质叫牌). {rowid: [score, branch, match, None]}."""
    if relaxed and len(branch.clauses) < 2:
        return {}  # one word: "any" is "all", already tried
    if relaxed:
        return sentence_hits(fts, data, branch, doc)
    rows = fts_rows(fts, data, tokenize.fts_match(branch.clauses, "AND"), branch.lang, doc)
    if not rows:
        return {}
    scale = 1.0 / (max(score for _, score in rows) or 1.0)
    hits = {rowid: [score * scale, branch, "all", None] for rowid, score in rows}
    units = data.units
    for rowid in _title_carriers(data, branch, hits):
        candidate = hits[rowid]
        candidate[0] += title_boost(units[rowid][3])
        if branch.named and units[rowid][3] in NAMED_KINDS and title_key(units[rowid][4], branch.lang) == branch.named:
            candidate[0] += NAMED_BOOST
    if branch.lang == "zh" and len(branch.clauses) >= 3:
        hits.update(_all_but_one(fts, data, branch, doc, hits))
    return hits


def _title_carriers(data: SearchData, branch: Branch, hits: dict[int, list]) -> list[int]:
    """The hits whose title carries every word of the branch (Branch.title_carried_by): for one-word
    clauses (the fast path) the titles holding them, looked up once (data.titles_holding), not per row."""
    if not branch.title_needs:
        titles = data.title_words
        return [rowid for rowid in hits if branch.title_carried_by(titles.get(rowid))]
    carried = data.titles_holding(branch.title_needs)
    return (
        [rowid for rowid in carried if rowid in hits] if len(carried) < len(hits) else [r for r in hits if r in carried]
    )


def _all_but_one(fts: "OneSearch", data: SearchData, branch: Branch, doc: str | None, found: dict) -> dict[int, list]:
    """The units missing one clause (not already found), scaled among themselves."""
    clauses = branch.clauses
    combinations = [tokenize.fts_match(clauses[:i] + clauses[i + 1 :], "AND") for i in range(len(clauses))]
    rows = [
        row
        for row in fts_rows(fts, data, " OR ".join(f"({c})" for c in combinations if c), branch.lang, doc)
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


def title_boost(kind: str) -> float:
    return TITLE_BOOST + (HEADING_BOOST if kind in HEADING_KINDS else 0.0)


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
