"""Full-text search over `sections`: what a director means, best first, snippets from the original text.

One function serves the CLI, the web page and its JSON, so all three answer the same.

A query runs as one or more *branches* (a language and its tokens):
- the query itself, tokenized as Japanese and as Chinese (or only the language asked for);
- its glossary translations (ingest/glossary.py): `revoke` also runs as リボーク and 藏牌, `藏牌`
  also as リボーク.
Each branch ranks its FTS hits by bm25 (title weighted above text) and adds a boost to every unit
the printed 索引 (laws-2017-ja index entries, through their xrefs) points to from an entry that
matches the query. Scores are normalised per branch so that branches in different languages mix.
If no unit holds every token, the branch retries with any token (`match: "any"`).
"""
from __future__ import annotations

import html
import re
import sqlite3
from dataclasses import dataclass, field

from ingest import glossary, tokenize
from .units import permalink

TITLE_WEIGHT = 5.0
TEXT_WEIGHT = 1.0
SNIPPET_CHARS = 120
MAX_QUERY_CHARS = 500
MAX_TERMS = 32
# Candidates fetched per branch before merging; the final list is cut to `limit`.
CANDIDATES = 200
# A unit the index points to from an entry the query names exactly gains as much as the best text hit.
INDEX_WEIGHT = 1.0
GLOSSARY_WEIGHT = 0.45  # a translation ranks below what the query itself finds (藏牌: Chinese first)
RELAXED_WEIGHT = 0.5   # hits holding only some of the tokens rank below full matches
INDEX_DOC = "laws-2017-ja"
# Navigation rows repeat titles found elsewhere; they point to units rather than answer a query.
NAVIGATION_KINDS = ("toc", "toc_entry", "index", "index_row", "index_entry")
LAW_NUMBER_RE = re.compile(r"^(?:quote:|L)?(\d+)(?=[A-Z(]|$|-)")


class QueryError(ValueError):
    """A query we cannot run, with a message meant for the person who typed it."""


@dataclass
class Branch:
    lang: str
    terms: list[str]
    clauses: list[tuple[str, ...]] = field(default_factory=list)
    via: str | None = None  # the glossary term this branch translates to, None for the query itself
    weight: float = 1.0
    # units defining the glossary term the query names (def:ダミー for dummy): boosted like 索引 targets
    defining_units: set[str] = field(default_factory=set)

    def highlight_terms(self) -> list[str]:
        return self.terms + [alt for clause in self.clauses for alt in clause if " " not in alt]


def make_branch(text: str, lang: str, via: str | None = None, weight: float = 1.0) -> Branch:
    terms = tokenize.query_terms(text, lang)[:MAX_TERMS]
    clauses = tokenize.query_clauses(text, lang)[:MAX_TERMS] if terms else []
    return Branch(lang, terms, clauses, via, weight)


@dataclass
class Hit:
    id: str
    doc: str
    ref: str
    kind: str
    title: str | None
    text: str
    lang: str
    score: float = 0.0
    branch: Branch | None = None
    match: str = "all"
    index_entries: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- the public function

def search(conn: sqlite3.Connection, query: str, doc: str | None = None, lang: str | None = None,
           limit: int = 20, index_boost: bool = True) -> list[dict]:
    """Best-first results: [{"doc","ref","id","kind","title","snippet","score","law","lang","url",
    "via","match","index"}]."""
    query = tokenize.clean_query(query)[:MAX_QUERY_CHARS]
    if not query:
        raise QueryError("Type a word to search for, e.g. リボーク, 藏牌 or revoke.")
    if lang not in (None, "ja", "zh"):
        raise QueryError(f"Unknown language {lang!r}: use ja or zh.")
    limit = max(1, min(int(limit), 500))
    merged: dict[str, Hit] = {}
    for branch in plan(conn, query, lang):
        for hit in run_branch(conn, branch, doc, index_boost):
            if hit.id not in merged or hit.score > merged[hit.id].score:
                merged[hit.id] = hit
    ranked = sorted(merged.values(), key=lambda hit: (-hit.score, hit.id))[:limit]
    kinds = document_kinds(conn)
    return [as_dict(hit, kinds.get(hit.doc)) for hit in ranked]


def plan(conn: sqlite3.Connection, query: str, lang: str | None) -> list[Branch]:
    """The query in each language, then its glossary translations, without repeats."""
    languages = [lang] if lang else ["ja", "zh"]
    branches: list[Branch] = []
    # kana means Japanese: its kanji alone, read as Chinese, would match noise (取り消した -> 取, 消)
    direct = ["ja"] if not lang and tokenize.KANA_RE.search(query) else languages
    for language in direct:
        _add(branches, make_branch(query, language))
    for entry in glossary.load_glossary(conn).lookup(query):
        for language, term in (("ja", entry.ja), ("zh", entry.zh)):
            if language not in languages:
                continue
            for form in glossary.term_forms(term):
                branch = _add(branches, make_branch(form, language, via=form, weight=GLOSSARY_WEIGHT))
                if branch and entry.unit_id(language):
                    branch.defining_units.add(entry.unit_id(language))
    return branches


def _add(branches: list[Branch], branch: Branch) -> Branch | None:
    """Append the branch unless one with the same language and tokens exists; return the one kept."""
    if not branch.terms:
        return None
    for existing in branches:
        if existing.lang == branch.lang and existing.terms == branch.terms:
            return existing
    branches.append(branch)
    return branch


# ---------------------------------------------------------------- one branch

def run_branch(conn, branch: Branch, doc: str | None, index_boost: bool) -> list[Hit]:
    """Text hits, plus boosts for the units the 索引 and the glossary point to."""
    hits = {hit.id: hit for hit in text_hits(conn, branch, doc)}
    for target, (boost, entries) in pointed_units(conn, branch, index_boost).items():
        if doc and not target.startswith(doc + ":"):
            continue
        hit = hits.get(target) or _load_hit(conn, target, branch)
        if hit is None:
            continue
        hit.score += INDEX_WEIGHT * boost
        hit.index_entries = entries
        hits[target] = hit
    for hit in hits.values():
        hit.score *= branch.weight
    return list(hits.values())


def pointed_units(conn, branch: Branch, index_boost: bool) -> dict[str, tuple[float, list[str]]]:
    """{unit id: (boost, index refs)}: 索引 targets (Japanese only) and the glossary's defining units."""
    boosts = index_boosts(conn, branch.terms) if index_boost and branch.lang == "ja" else {}
    for unit in branch.defining_units:
        boosts[unit] = (1.0, boosts.get(unit, (0.0, []))[1])
    return boosts


def text_hits(conn, branch: Branch, doc: str | None) -> list[Hit]:
    """bm25 hits holding every token, else any token; scores scaled so the best is 1."""
    for operator, match_kind, weight in (("AND", "all", 1.0), ("OR", "any", RELAXED_WEIGHT)):
        rows = _fts(conn, tokenize.fts_match(branch.clauses, operator), branch.lang, doc)
        if rows:
            best = max(row[-1] for row in rows) or 1.0
            return [Hit(*row[:-1], score=weight * row[-1] / best, branch=branch, match=match_kind)
                    for row in rows]
        if len(branch.clauses) < 2:
            break
    return []


def _fts(conn, match: str | None, lang: str, doc: str | None) -> list[tuple]:
    if not match:
        return []
    navigation = ", ".join("'" + kind + "'" for kind in NAVIGATION_KINDS)
    sql = f"""
        select s.id, s.doc, s.ref, s.kind, s.title, s.text, s.lang,
               -bm25(sections_fts, {TITLE_WEIGHT}, {TEXT_WEIGHT}) as score
        from sections_fts join sections s on s.rowid = sections_fts.rowid
        where sections_fts match :match and s.lang = :lang
          and (:doc is null or s.doc = :doc)
          and s.kind not in ({navigation})
        order by score desc limit {CANDIDATES}
    """
    try:
        return conn.execute(sql, {"match": match, "lang": lang, "doc": doc}).fetchall()
    except sqlite3.OperationalError as error:
        # quoting makes this unreachable for any input we know of; a message beats a 500
        raise QueryError(f"This query could not be searched ({error}); try fewer symbols.") from error


def _load_hit(conn, unit_id: str, branch: Branch) -> Hit | None:
    row = conn.execute("select id, doc, ref, kind, title, text, lang from sections where id = ?",
                       (unit_id,)).fetchone()
    return Hit(*row, score=0.0, branch=branch, match="index") if row else None


# ---------------------------------------------------------------- the printed index (索引)

@dataclass
class IndexEntry:
    ref: str
    terms: frozenset[str]
    targets: tuple[str, ...]


_index_cache: dict[tuple, list[IndexEntry]] = {}


def index_entries(conn) -> list[IndexEntry]:
    """laws-2017-ja index entries with the tokens of heading + sub-term and the units they cite;
    read once per database file version."""
    identity = glossary.database_identity(conn)
    if identity not in _index_cache:
        _index_cache[identity] = list(_read_index_entries(conn))
    return _index_cache[identity]


def _read_index_entries(conn):
    rows = conn.execute("""
        select s.ref, group_concat(x.target_id, char(31))
        from sections s join xrefs x on x.source_id = s.id
        where s.kind = 'index_entry' and x.target_id is not null and x.field = 'text'
        group by s.id
    """).fetchall()
    for ref, targets in rows:
        words = ref.removeprefix("index:").replace("/", " ")
        terms = frozenset(tokenize.query_terms(words, "ja"))
        if terms:
            yield IndexEntry(ref, terms, tuple(dict.fromkeys(targets.split("\x1f"))))


def index_boosts(conn, terms: list[str]) -> dict[str, tuple[float, list[str]]]:
    """{unit id: (boost, index refs)} for units cited by entries that contain the query or that the
    query contains; the boost is the share of tokens the two have in common (1 = same words)."""
    query = frozenset(terms)
    boosts: dict[str, tuple[float, list[str]]] = {}
    for entry in index_entries(conn):
        common = len(query & entry.terms)
        if not common or not (query <= entry.terms or entry.terms <= query):
            continue
        boost = common / max(len(query), len(entry.terms))
        for target in entry.targets:
            best, refs = boosts.get(target, (0.0, []))
            boosts[target] = (max(best, boost), refs + [entry.ref])
    return boosts


# ---------------------------------------------------------------- presenting a hit

def as_dict(hit: Hit, doc_kind: str | None) -> dict:
    terms = hit.branch.highlight_terms() if hit.branch else []
    return {
        "doc": hit.doc,
        "ref": hit.ref,
        "id": hit.id,
        "kind": hit.kind,
        "title": hit.title,
        "snippet": snippet(hit.text or hit.title or "", terms, hit.lang),
        "score": round(hit.score, 4),
        "law": law_of(hit.ref, doc_kind),
        "lang": hit.lang,
        "url": permalink(hit.doc, hit.ref),
        "via": hit.branch.via if hit.branch else None,
        "match": hit.match,
        "index": hit.index_entries[:5],
    }


def law_of(ref: str, doc_kind: str | None) -> str | None:
    """The law a unit belongs to or comments on (`61B2(a)` -> `61`, `L61A` and `quote:61B` -> `61`);
    None for definitions, front matter and the regulations (whose articles are not laws)."""
    if doc_kind not in ("laws", "commentary"):
        return None
    match = LAW_NUMBER_RE.match(ref)
    return match.group(1) if match else None


_kinds_cache: dict[tuple, dict[str, str]] = {}


def document_kinds(conn) -> dict[str, str]:
    identity = glossary.database_identity(conn)
    if identity not in _kinds_cache:
        try:
            _kinds_cache[identity] = dict(conn.execute("select id, kind from documents").fetchall())
        except sqlite3.OperationalError:
            _kinds_cache[identity] = {}
    return _kinds_cache[identity]


def snippet(text: str, terms: list[str], lang: str) -> str:
    """HTML: a window of the original text around the first match, matches in <mark>, all escaped."""
    spans = match_spans(text, terms, lang)
    if spans:
        first = spans[0][0]
        start = max(0, first - SNIPPET_CHARS // 3)
    else:
        start = 0
    end = min(len(text), start + SNIPPET_CHARS)
    out, cursor = [], start
    for begin, finish in spans:
        if begin < cursor or finish > end:
            continue
        out.append(html.escape(text[cursor:begin]))
        out.append(f"<mark>{html.escape(text[begin:finish])}</mark>")
        cursor = finish
    out.append(html.escape(text[cursor:end]))
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(text) else ""
    return prefix + "".join(out).replace("\n", " ") + suffix


def match_spans(text: str, terms: list[str], lang: str) -> list[tuple[int, int]]:
    """Where the query's tokens occur in the original text (after the same folding as the index)."""
    wanted = set(terms)
    if not wanted or not text:
        return []
    if lang == "zh":
        tokens = tokenize.chinese_tokens(text)
    else:
        tokens = tokenize.japanese_tokens(text)
    spans = sorted({(t.begin, t.end) for t in tokens if t.norm in wanted})
    merged: list[tuple[int, int]] = []
    for begin, end in spans:
        if merged and begin <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((begin, end))
    return merged
