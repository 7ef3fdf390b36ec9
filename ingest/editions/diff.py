"""Compare a law across editions and translations: what changed, unit by unit.

* Same language (a commentary's reprint vs laws-2017-ja): a character diff (difflib) on text
  folded so that line wrapping, spaces, full-/half-width forms and footnote markers do not count
  (``show_whitespace=True`` compares the printed characters instead). Each change is classed
  ``spelling`` (katakana-only, the same word once folded as search folds it, ingest.text.tokenize:
  プレイヤ/プレイヤー, スーツ/スート),
  ``wording`` (anything else) or ``format`` (only spacing/width, visible with show_whitespace).
* Across languages (laws-1997-zh vs laws-2017-ja): no character diff; the language-independent
  signals instead: law references and numbers added/removed, and title terms via the glossary.
* Alignment (which unit answers which) is ``ingest.editions.align``'s; moves between editions come from
  ``corpus/concordance.yml``, which also drives table `edition_flags` (edition_flags.py).

Build-time only: ``diff_tables`` compares every pair the site offers once, and the build stores
the rows (tables ``diff_rows``, ``diff_laws``); the site's diff pages read them (laws_site/read/diffs.py).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import chain, starmap

from ingest.build.sql import json_text
from ingest.editions.align import Concordance, Move, law_ref_of, load_concordance
from ingest.parsers.records import Unit
from ingest.search.glossary import term_forms
from ingest.text.refs import Context, extract_ja_law_refs, extract_zh_law_refs, law_ancestors, law_number, parse_law_ref
from ingest.text.tokenize import fold_katakana
from ingest.text.words import as_whole_word, is_katakana

STATUSES = ("same", "changed", "only_from", "only_to")


# --- folding text for comparison ---------------------------------------------------------------

FOOTNOTE_MARKER = re.compile(r"\*[0-9０-９]+")
# A dash printed as the long-vowel mark (こと ー リボーク) or a full-width hyphen (こと－リボーク):
# after NFKC only the first remains ー, and only where it follows no katakana is it a dash.
DASHES = {"－": "-", "‐": "-", "—": "-", "―": "-", "–": "-"}


@dataclass(frozen=True)
class Folded:
    """Text folded for comparison, with where each folded character came from in the original."""

    text: str
    origin: tuple[int, ...]  # origin[i] = index in the original of folded character i


# what folding drops: footnote markers and whitespace (\s is str.isspace: the same characters)
SKIPPED = re.compile(r"\*[0-9０-９]+|\s+")
# a run of ー after no katakana is a dash: each ー of it follows a dash once the first is one
DASH_RUN = re.compile(r"(?<![\u30a1-\u30ff])ー+")
OTHER_DASHES = re.compile(f"[{''.join(DASHES)}]")
DASH_TABLE = str.maketrans(DASHES)


@lru_cache(maxsize=4096)
def fold(text: str, literal: bool = False) -> Folded:
    """NFKC, no whitespace, no footnote markers, one dash; ``literal`` keeps every character.

    Each character is normalised on its own (the folded text keeps where each came from). Whole
    strings, not character by character: most texts are NFKC already, and a text NFKC leaves
    unchanged has no character it would change on its own."""
    if literal:
        return Folded(text, tuple(range(len(text))))
    kept, origin = without_skipped(text)
    if not unicodedata.is_normalized("NFKC", kept):
        kept, origin = normalized_by_character(kept, origin)
    if "ー" in kept:
        kept = DASH_RUN.sub(lambda run: "-" * len(run.group()), kept)
    if OTHER_DASHES.search(kept):
        kept = kept.translate(DASH_TABLE)
    return Folded(kept, origin)


def without_skipped(text: str) -> tuple[str, tuple[int, ...]]:
    """The text without its whitespace and footnote markers, and where each character it keeps is."""
    if not SKIPPED.search(text):
        return text, tuple(range(len(text)))
    spans, start = [], 0
    for skipped in SKIPPED.finditer(text):
        if skipped.start() > start:
            spans.append((start, skipped.start()))
        start = skipped.end()
    if start < len(text):
        spans.append((start, len(text)))
    return "".join([text[begin:end] for begin, end in spans]), tuple(chain.from_iterable(starmap(range, spans)))


def normalized_by_character(text: str, origin: tuple[int, ...]) -> tuple[str, tuple[int, ...]]:
    """NFKC of each character on its own (ｶﾞ is カ and a combining mark, not ガ), and the origin of
    each character of the result (㈱ gives three)."""
    table = {ord(char): unicodedata.normalize("NFKC", char) for char in set(text)}
    if any(len(folded) != 1 for folded in table.values()):
        origin = tuple(i for i, char in zip(origin, text) for _ in table[ord(char)])
    return text.translate(table), origin


# --- spelling variants: one katakana fold for search and diff (ingest.text.tokenize) -----------------------


def katakana_word(text: str, start: int, end: int) -> str:
    """The katakana run that contains text[start:end] (widened to whole words on both sides)."""
    while start > 0 and is_katakana(text[start - 1]):
        start -= 1
    while end < len(text) and is_katakana(text[end]):
        end += 1
    return text[start:end]


def classify(a: str, b: str, i1: int, i2: int, j1: int, j2: int) -> str:
    """`spelling` when the change is inside katakana words that fold to the same form, else `wording`."""
    changed = a[i1:i2] + b[j1:j2]
    if not changed or not all(is_katakana(c) for c in changed):
        return "wording"
    word_a, word_b = katakana_word(a, i1, i2), katakana_word(b, j1, j2)
    if word_a and word_b and fold_katakana(word_a) == fold_katakana(word_b):
        return "spelling"
    return "wording"


# --- character diff --------------------------------------------------------------------------------


def text_ops(from_text: str, to_text: str, show_whitespace: bool = False) -> list[dict]:
    """The two texts as consecutive segments ``{op, from, to[, class]}`` (op: equal/insert/delete/replace).

    Joining every ``from`` gives back ``from_text`` and every ``to`` gives ``to_text`` (as
    printed), so a page can render both sides from the ops alone.
    """
    a, b = fold(from_text or "", show_whitespace), fold(to_text or "", show_whitespace)
    if a.text == b.text:  # most reprints: what SequenceMatcher would say, without running it
        return [{"op": "equal", "from": from_text, "to": to_text}] if a.text else []
    matcher = difflib.SequenceMatcher(None, a.text, b.text, autojunk=False)
    ops = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        op = {"op": tag, "from": _slice(from_text or "", a, i1, i2), "to": _slice(to_text or "", b, j1, j2)}
        if tag != "equal":
            op["class"] = change_class(
                op, a.text[i1:i2], b.text[j1:j2], a.text, b.text, (i1, i2, j1, j2), show_whitespace
            )
        ops.append(op)
    return ops


def change_class(op: dict, changed_from: str, changed_to: str, a: str, b: str, span: tuple, literal: bool) -> str:
    if literal and fold(op["from"]).text == fold(op["to"]).text:
        return "format"
    return classify(a, b, *span)


def _slice(original: str, folded: Folded, start: int, end: int) -> str:
    """The original text behind folded[start:end]; skipped characters go with the segment before them."""

    def boundary(k: int) -> int:
        if k == 0:
            return 0
        return folded.origin[k] if k < len(folded.origin) else len(original)

    return original[boundary(start) : boundary(end)]


def has_changes(ops: list[dict]) -> bool:
    return any(op["op"] != "equal" for op in ops)


# --- language-independent signals -------------------------------------------------------------------

NUMBER = re.compile(r"\d+(?:\.\d+)?%?")
CJK_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
# A CJK numeral counts as a number only before a counter (两张 = 2枚), not in words like 一方/同一;
# 一 only before 张/墩 (one card, one trick): 一个/一副/一人 are the Chinese article "a".
CJK_COUNTED = re.compile(r"(?<![同统唯第单])(?:([二两三四五六七八九十])(?=[张枚墩次人个位副轮回組组])|(一)(?=[张墩]))")


@lru_cache(maxsize=8192)
def references_in(text: str, lang: str, law_ref: str | None) -> tuple:
    """The references a unit's text makes, relative ones read against its own law (each text is
    compared in several pairs: extracted once)."""
    parsed = parse_law_ref(law_ref or "")
    ctx = Context(doc="", law=parsed.law if parsed else None, section=parsed.section if parsed else None)
    extract = extract_zh_law_refs if lang == "zh" else extract_ja_law_refs
    return tuple(extract(text or "", ctx))


def law_refs(text: str, lang: str, law_ref: str | None) -> list[str]:
    """The law refs a text cites (WBF style), relative ones resolved against its own law."""
    return list(_law_refs(text or "", lang, law_ref))


# a unit of the 2017 Laws is compared with three texts and weighed for the concordance: read once
@lru_cache(maxsize=8192)
def _law_refs(text: str, lang: str, law_ref: str | None) -> tuple[str, ...]:
    found = references_in(text, lang, law_ref)
    # A unit naming itself or its own Law (本条规则) says nothing about what changed.
    own = {law_ref, *law_ancestors(law_ref or "")}
    cited = (r.ref for r in found if r.ref and r.kind in ("cites", "cites-in-range") and r.ref not in own)
    return tuple(dict.fromkeys(cited))


def numbers_in(text: str, lang: str, law_ref: str | None) -> list[str]:
    """Numbers a text states (13, 40%), not the ones inside its law references or footnote markers."""
    return list(_numbers_in(text or "", lang, law_ref))


@lru_cache(maxsize=8192)
def _numbers_in(text: str, lang: str, law_ref: str | None) -> tuple[str, ...]:
    blanked = list(text)
    for ref in references_in(text, lang, law_ref):
        blanked[ref.start : ref.end] = " " * (ref.end - ref.start)
    plain = FOOTNOTE_MARKER.sub(" ", unicodedata.normalize("NFKC", "".join(blanked)))
    plain = CJK_COUNTED.sub(lambda m: str(CJK_DIGITS[m.group(1) or m.group(2)]), plain)
    return tuple(NUMBER.findall(plain))


def added_removed(before: list[str], after: list[str]) -> tuple[list[str], list[str]]:
    return [x for x in dict.fromkeys(after) if x not in before], [x for x in dict.fromkeys(before) if x not in after]


def explained_moves(refs_removed: list[str], refs_added: list[str], moves: list[Move]) -> list[dict]:
    """Reference changes the concordance explains (第23条 -> 第72条C項: the same rule, moved)."""
    explained = []
    for move in moves:
        if move.kind == "moved" and move.from_ref in refs_removed and move.to_ref in refs_added:
            explained.append({"from": move.from_ref, "to": move.to_ref, "concordance": move.id})
    return explained


# --- glossary terms in titles -------------------------------------------------------------------------------


class GlossaryTerms:
    """The glossary rows that know both the Japanese and the Chinese term, each side with every
    spelling (`发牌或牌局` is 发牌 and 牌局); a one-character term (牌 for Pack) is part of too many
    words (洗牌, 发牌) to say anything about a title. Which terms a title names is worked out once
    per title (titles repeat across the comparisons)."""

    def __init__(self, glossary: list[dict]):
        self.rows = []
        for row in glossary:
            ja = tuple(f for f in term_forms(row.get("ja")) if len(f) > 1)
            zh = tuple(f for f in term_forms(row.get("zh")) if len(f) > 1)
            if ja and zh:
                self.rows.append({"ja": ja, "zh": zh, "name": row.get("en") or ja[0]})
        self._named: dict[tuple[str, str], set[str]] = {}
        # one pass over a text finds the candidate forms (longest first); a form nested in a longer
        # one (リード in オープニングリード) is a candidate wherever the longer one is. A candidate is in
        # the text: it is named there unless it is katakana and not a whole katakana word there
        self._scan: dict[str, tuple[re.Pattern, dict[str, set[str]], dict[str, list[str]], set[str]]] = {}
        for lang in ("ja", "zh"):
            names: dict[str, list[str]] = {}
            for row in self.rows:
                for form in row[lang]:
                    names.setdefault(form, []).append(row["name"])
            ordered = sorted(names, key=len, reverse=True)
            nested = {form: {other for other in ordered if other != form and other in form} for form in ordered}
            scan = re.compile("|".join(map(re.escape, ordered))) if ordered else re.compile(r"(?!)")
            whole_words = {form for form in ordered if is_katakana_word(form)}
            self._scan[lang] = (scan, nested, names, whole_words)

    def __bool__(self) -> bool:
        return bool(self.rows)

    def named(self, title: str, lang: str) -> set[str]:
        key = (title, lang)
        if key not in self._named:
            scan, nested, names, whole_words = self._scan[lang]
            found = set(scan.findall(title or ""))  # a form found many times in a text is one candidate
            candidates = found.union(*(nested[form] for form in found))
            self._named[key] = {
                name
                for form in candidates
                if form not in whole_words or as_whole_word(form, title)
                for name in names[form]
            }
        return self._named[key]


def is_katakana_word(term: str) -> bool:
    return all(is_katakana(c) for c in term)


def title_terms(
    from_title: str | None, to_title: str | None, from_lang: str, to_lang: str, glossary: GlossaryTerms
) -> dict | None:
    """Glossary terms (by their English name) found in one title whose counterpart is absent from
    the other, e.g. 1997 庄家的权利 (declarer) against 2017 ダミーの権利 (dummy)."""
    if not glossary or not from_title or not to_title or from_lang == to_lang:
        return None
    if {from_lang, to_lang} - {"ja", "zh"}:
        return None
    in_from, in_to = glossary.named(from_title, from_lang), glossary.named(to_title, to_lang)
    if not in_from or not in_to or in_from == in_to:
        return None
    return {"removed": sorted(in_from - in_to), "added": sorted(in_to - in_from)}


# --- one aligned pair -> one row ------------------------------------------------------------------------------


@dataclass
class Comparison:
    """What is compared: two documents ({"doc", "lang"}), the concordance and the glossary."""

    from_info: dict
    to_info: dict
    concordance: Concordance
    glossary: GlossaryTerms
    show_whitespace: bool = False

    @property
    def same_language(self) -> bool:
        return self.from_info["lang"] == self.to_info["lang"]

    @cached_property
    def moves(self) -> list[Move]:
        return self.concordance.between(self.from_info["doc"], self.to_info["doc"])


def compare_pair(
    pair: dict, source: Unit | None, target: Unit | None, cmp: Comparison, found: dict | None = None
) -> dict:
    """One aligned pair (or lone unit) -> a diff row with status, ops and signals (``found``: the pair's
    `signals`, when made already). The row leaves out the units' texts: each is in table sections
    already (laws_site/read/diffs.py adds it)."""
    row = {
        "ref": pair["to_ref"] or pair["from_ref"],
        "from_ref": pair["from_ref"],
        "to_ref": pair["to_ref"],
        "from_id": pair["from_id"],
        "to_id": pair["to_id"],
        "method": pair["method"],
        "note": pair["note"],
        # the provision concordance's word on the pair (ingest.editions.concordance), where the pair comes from it
        "relation": pair.get("relation"),
        "basis": pair.get("basis"),
        "from_title": source.title if source else None,
        "to_title": target.title if target else None,
    }
    row.update(signals(source, target, cmp) if found is None else found)
    abridged = source is not None and target is not None and heading_only_reprint(source, target)
    row["heading_only"] = abridged  # nothing was compared: the status "same" says only that nothing differs
    if abridged:
        row["note"] = "the commentary reprints only this heading, not the text: nothing to compare"
    elif source and target and text_moved(source, target):
        row["note"] = (
            row["note"]
            or "one side prints text for this unit, the other none of its own (its sub-units or a heading only)"
        )
    if source and target and cmp.same_language:
        row["ops"] = [] if abridged else text_ops(source.text, target.text, cmp.show_whitespace)
        row["title_ops"] = text_ops(source.title or "", target.title or "", cmp.show_whitespace)
    else:
        row["ops"], row["title_ops"] = [], []
    row["title_terms"] = (
        None
        if cmp.same_language or not (source and target)
        else title_terms(source.title, target.title, cmp.from_info["lang"], cmp.to_info["lang"], cmp.glossary)
    )
    row["status"] = status_of(row, source, target, cmp)
    return row


def signals(source: Unit | None, target: Unit | None, cmp: Comparison) -> dict:
    if not (source and target) or text_moved(source, target):
        # a lone unit, or one whose text the other edition prints in its sub-units: nothing to
        # compare within the pair (the sub-unit rows carry the text)
        refs_added = refs_removed = numbers_added = numbers_removed = []
    else:
        from_lang, to_lang = cmp.from_info["lang"], cmp.to_info["lang"]
        refs_added, refs_removed = added_removed(
            law_refs(source.text, from_lang, law_ref_of(source)), law_refs(target.text, to_lang, law_ref_of(target))
        )
        numbers_added, numbers_removed = added_removed(
            numbers_in(source.text, from_lang, law_ref_of(source)), numbers_in(target.text, to_lang, law_ref_of(target))
        )
    return {
        "refs_added": refs_added,
        "refs_removed": refs_removed,
        "refs_moved": explained_moves(refs_removed, refs_added, cmp.moves),
        "numbers_added": numbers_added,
        "numbers_removed": numbers_removed,
    }


def text_moved(source: Unit, target: Unit) -> bool:
    """One side has text of its own, the other none (1997 8B's text is 2017 8B1 and 8B2)."""
    return bool((source.text or "").strip()) != bool((target.text or "").strip())


def heading_only_reprint(source: Unit, target: Unit) -> bool:
    """A commentary that lists a section by its heading alone (第45条A-G) abridges; it does not delete."""
    return source.kind == "quote" and not (source.text or "").strip() and bool((target.text or "").strip())


def status_of(row: dict, source: Unit | None, target: Unit | None, cmp: Comparison) -> str:
    if source is None:
        return "only_to"
    if target is None:
        return "only_from"
    if row.get("relation"):  # reviewed or proposed from content: same only when confirmed the same
        return "same" if row["relation"] == "same" else "changed"
    if text_moved(source, target) and not heading_only_reprint(source, target):
        return "changed"
    if cmp.same_language:
        return "changed" if has_changes(row["ops"]) or has_changes(row["title_ops"]) else "same"
    # title_terms is shown beside the row but decides nothing: translators name the same thing with
    # different words (叫牌 is both call and bid), so only references and numbers are evidence
    signalled = row["refs_added"] or row["refs_removed"] or row["numbers_added"] or row["numbers_removed"]
    return "changed" if signalled else "same"


# --- the tables the site reads: every offered pair, compared once at build -----------------------------------


def count_statuses(rows: list[dict]) -> dict[str, int]:
    return {status: sum(1 for r in rows if r["status"] == status) for status in STATUSES}


def law_summary(number: int, rows: list[dict]) -> dict:
    head = next((r for r in rows if r["ref"] == str(number)), None)
    return {
        "law": str(number),
        "from_title": head["from_title"] if head else None,
        "to_title": head["to_title"] if head else None,
        "units": len(rows),
        **count_statuses(rows),
        "relations": {relation: n for relation, n in count_relations(rows).items() if n},
        "notes": sorted(
            {
                r["note"]
                for r in rows
                if r["note"] and (r["method"] == "concordance" or r.get("relation") in NOTED_RELATIONS)
            }
        ),
    }


# relations whose reason the overview lists (a pair the number alone would have got wrong)
NOTED_RELATIONS = ("moved", "split", "merged", "partial", "removed")


def count_relations(rows: list[dict]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for row in rows:
        if row.get("relation"):
            counts[row["relation"]] = counts.get(row["relation"], 0) + 1
    return counts


def diff_tables(
    units: list[Unit],
    aligned: dict[tuple[str, str], list[dict]],
    languages: dict[str, str],
    glossary: list[dict],
    concordance: Concordance | None = None,
) -> tuple[list[dict], list[dict]]:
    """Rows of tables ``diff_rows`` (one per aligned unit pair, per comparison, per whitespace
    mode, the row as JSON) and ``diff_laws`` (per law: counts of same/changed/only_from/only_to).

    ``aligned`` holds the comparisons the site offers (``ingest.editions.align.align_pairs``); ``languages``
    maps each document to its language.
    """
    concordance = concordance or load_concordance()
    terms = GlossaryTerms(glossary)
    by_id = {u.id: u for u in units}
    diff_rows, law_rows = [], []
    for (from_doc, to_doc), pairs in aligned.items():
        same_language = languages[from_doc] == languages[to_doc]
        from_info, to_info = {"doc": from_doc, "lang": languages[from_doc]}, {"doc": to_doc, "lang": languages[to_doc]}
        sides = [(by_id.get(pair["from_id"]), by_id.get(pair["to_id"])) for pair in pairs]
        laws = [pair_laws(pair) for pair in pairs]
        cmp = Comparison(from_info, to_info, concordance, terms)
        # the references and numbers a pair adds or drops: the same however whitespace is shown
        found = [signals(source, target, cmp) for source, target in sides]
        rows = [compare_pair(pair, *sides[n], cmp, found[n]) for n, pair in enumerate(pairs)]
        texts = [json_text(row) for row in rows]
        diff_rows += [table_row(from_doc, to_doc, False, n, row, laws[n], texts[n]) for n, row in enumerate(rows)]
        law_rows += overview_rows(from_doc, to_doc, rows, laws)
        if same_language:
            literal = Comparison(from_info, to_info, concordance, terms, show_whitespace=True)
            for n, pair in enumerate(pairs):
                # a lone unit has no ops: its row is the same however whitespace is shown
                shown = rows[n] if None in sides[n] else compare_pair(pair, *sides[n], literal, found[n])
                # most pairs print the same characters (or one side only): the row, and so its JSON
                # (built in the same key order), is the one without whitespace shown
                text = texts[n] if shown == rows[n] else json_text(shown)
                diff_rows.append(table_row(from_doc, to_doc, True, n, shown, laws[n], text))
    return diff_rows, law_rows


def pair_laws(pair: dict) -> tuple[int | None, int | None]:
    """The Law of each side of a pair (None for a side it lacks)."""
    return (
        law_number(pair["from_ref"]) if pair["from_ref"] else None,
        law_number(pair["to_ref"]) if pair["to_ref"] else None,
    )


def table_row(
    from_doc: str,
    to_doc: str,
    literal: bool,
    position: int,
    row: dict,
    laws: tuple[int | None, int | None],
    stored: str,
) -> dict:
    """A diff_rows row: ``row`` (a `compare_pair`) and ``stored``, its JSON."""
    return {
        "from_doc": from_doc,
        "to_doc": to_doc,
        "whitespace": int(literal),
        "position": position,
        "ref": row["ref"],
        "from_id": row["from_id"],
        "to_id": row["to_id"],
        "from_law": laws[0],
        "to_law": laws[1],
        "row": stored,
    }


def overview_rows(
    from_doc: str, to_doc: str, rows: list[dict], laws: list[tuple[int | None, int | None]]
) -> list[dict]:
    """``laws``: each row's `pair_laws`; a row counts under its newer side's Law, else its older side's."""
    by_law: dict[int, list[dict]] = {}
    for row, (from_law, to_law) in zip(rows, laws):
        by_law.setdefault(to_law if row["to_ref"] else from_law, []).append(row)
    return [
        {"from_doc": from_doc, "to_doc": to_doc, "law": number, "summary": json_text(law_summary(number, law_rows))}
        for number, law_rows in sorted(by_law.items())
    ]
