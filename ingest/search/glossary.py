"""A trilingual glossary (Japanese <-> English <-> Chinese) for cross-language search.

Two sources, each row saying which one it came from:
- `definition`: both definition chapters print the English term beside each definition
  (2017 Japanese `ダミー (Dummy)`, 1997 Chinese `明手(DUMMY)`); terms pair up when their English
  terms are the same after `english_key` (case, spacing, plural, `-IMP` and `A / B` forms).
- `curated`: corpus/glossary.yml, for words one chapter does not define (リボーク is defined in
  Law 61A, not in the Japanese definitions; ディレクター has no Japanese definition at all). A curated
  term whose English a definition already prints completes that row (one row per English term);
  the others become rows of their own.

Each row names the unit its Japanese and Chinese terms come from (`ja_ref`, `zh_ref`, in the Laws
of that language, as the registry says): the definition, else the curated ref, else the director
vocabulary's first target for that English term, else the Law whose title is or carries the term.

`glossary_rows(units, registry)` is what the build stores as table `glossary(id, ja, en, zh,
source, ja_ref, zh_ref)`; `load_glossary(conn)` reads that table back.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from ingest.parsers.records import Unit
from ingest.sources.corpus import read_yaml
from ingest.sources.registry import Registry

# read by the build only; serving reads table `glossary`
CURATED_FILE = Path(__file__).resolve().parents[2] / "corpus" / "glossary.yml"
GLOSSARY_COLUMNS = ("id", "ja", "en", "zh", "source", "ja_ref", "zh_ref")
LANGUAGES = ("ja", "zh")
GLOSSARY_KEYS = "glossary-ja"  # kind of the term_tokens rows holding ja_keys()
# units whose title may name where a curated term comes from
TITLE_KINDS = ("law", "section", "item", "subitem")
LATIN_LETTER_RE = re.compile(r"[A-Za-z]")  # a query with one, and no Chinese or Japanese, is an English term


# ---------------------------------------------------------------- English keys


def english_keys(printed: str | None) -> list[str]:
    """Every comparable form of a printed English term.

    `Cancelled / Retracted / Withdrawn` -> three keys; `Event またはTournament` -> two;
    `INTERNATIONAL MATCH POINT-IMP` -> the phrase and `imp`; `Psychic Call: 一般に…` -> the part
    before the colon.
    """
    if not printed:
        return []
    head = re.split(r"[:：]", printed)[0]
    parts = re.split(r"/|または|\bor\b|(?<=[A-Za-z])-(?=IMP\b)", head)
    keys = [english_key(part) for part in parts]
    return list(dict.fromkeys(k for k in keys if k))


# the English key's steps, in order, on the lower-cased term (the offline search applies the same):
# letters only; a plural s off a word of four letters or more (not ss: class, pass)
ENGLISH_KEY_STEPS = ((re.compile(r"[^a-z]"), ""), (re.compile(r"^([a-z]{2,}[^s])s$"), r"\1"))


def english_key(term: str) -> str:
    """Lower case, letters only, no plural s: `Trick Points` = `TRICK POINTS` = `trick point`,
    `UNDER TRICK` = `Undertrick`, `MATCH POINT` = `Matchpoint`."""
    key = term.lower()
    for pattern, replacement in ENGLISH_KEY_STEPS:
        key = pattern.sub(replacement, key)
    return key


# ---------------------------------------------------------------- rows


@dataclass
class Definition:
    lang: str
    ref: str
    term: str
    english: str


def definitions(units: Iterable, registry: Registry) -> list[Definition]:
    """Definitions with both a term and an English term in each language's Laws, from Units or
    `sections` rows."""
    laws_docs = {doc.id: lang for lang in LANGUAGES if (doc := registry.laws_in(lang))}
    found = []
    for unit in units:
        kind, doc, ref, attrs = _fields(unit)
        if kind != "definition" or doc not in laws_docs:
            continue
        term, english = attrs.get("term"), attrs.get("term_en")
        if term and english:
            found.append(Definition(laws_docs[doc], ref, term, english))
    return found


def _fields(unit) -> tuple[str, str, str, dict]:
    if isinstance(unit, Unit):
        return unit.kind, unit.doc, unit.ref, unit.attrs or {}
    attrs = unit["attrs"]
    if isinstance(attrs, str):
        attrs = json.loads(attrs)
    return unit["kind"], unit["doc"], unit["ref"], attrs or {}


def glossary_rows(
    units: Iterable, registry: Registry, curated_file: Path | None = CURATED_FILE, vocabulary: list[dict] | None = None
) -> list[dict]:
    """Rows for table `glossary`: definition pairings (completed by curated terms with the same
    English), then the other curated terms; every ja/zh term with the unit it comes from.

    Ids are `definition:<english key>` and `curated:<english key>`.
    """
    units = list(units)
    rows = definition_rows(definitions(units, registry))
    by_key = {key: row for row in rows for key in english_keys(row["en"])}
    for row in curated_rows(curated_file):
        same = next((by_key[k] for k in english_keys(row["en"]) if k in by_key), None)
        if same is None:
            rows.append(row)
            continue
        for column in ("ja", "zh", "ja_ref", "zh_ref"):
            if not same[column] and row[column]:
                same[column] = row[column]
    _fill_refs(rows, units, registry, vocabulary or [])
    return rows


def definition_rows(found: list[Definition]) -> list[dict]:
    by_key: dict[str, dict[str, Definition]] = {}
    aliases: dict[str, str] = {}
    order: list[str] = []
    for definition in found:
        keys = english_keys(definition.english)
        if re.fullmatch(r"[A-Za-z]+", definition.term):
            keys.append(english_key(definition.term))  # LHO (Left-hand Opponent) = LHO
        if not keys:
            continue
        # a term printed with several English words files under the first; the others alias it
        key = next((aliases[k] for k in keys if k in aliases), keys[0])
        if key not in by_key:
            by_key[key] = {}
            order.append(key)
        for alias in keys:
            aliases.setdefault(alias, key)
        by_key[key].setdefault(definition.lang, definition)  # the first of a term defined twice wins
    rows = []
    for key in order:
        ja, zh = by_key[key].get("ja"), by_key[key].get("zh")
        english = (ja or zh).english
        rows.append(
            {
                "id": f"definition:{key}",
                "ja": ja.term if ja else None,
                "en": _plain_english(english),
                "zh": zh.term if zh else None,
                "source": "definition",
                "ja_ref": ja.ref if ja else None,
                "zh_ref": zh.ref if zh else None,
            }
        )
    return rows


def _plain_english(printed: str) -> str:
    """The English as a reader would type it: before any colon, title-cased if printed in capitals."""
    head = " ".join(re.split(r"[:：]", printed)[0].replace("または", " / ").split())
    return head.title() if head.isupper() else head


def curated_rows(path: Path | None = CURATED_FILE) -> list[dict]:
    if path is None or not Path(path).exists():
        return []
    data = read_yaml(path) or {}
    rows = []
    for entry in data.get("terms") or []:
        en = entry.get("en")
        rows.append(
            {
                "id": f"curated:{english_key(en or '') or entry.get('ja') or entry.get('zh')}",
                "ja": entry.get("ja"),
                "en": en,
                "zh": entry.get("zh"),
                "source": "curated",
                "ja_ref": entry.get("ja_ref"),
                "zh_ref": entry.get("zh_ref"),
            }
        )
    return rows


def _fill_refs(rows: list[dict], units: list, registry: Registry, vocabulary: list[dict]) -> None:
    """Give each term without a ref the unit it comes from (see the module docstring)."""
    targets = {}
    for entry in vocabulary:
        laws = entry.get("laws") or []
        if isinstance(laws, str):
            laws = json.loads(laws)
        for key in english_keys(entry.get("en")):
            targets.setdefault(key, laws[0] if laws else None)
    titled = _titles(units, registry)
    for row in rows:
        for lang in LANGUAGES:
            column = f"{lang}_ref"
            if row[column] or not row[lang]:
                continue
            if lang == "ja":
                row[column] = next((targets[k] for k in english_keys(row["en"]) if targets.get(k)), None)
            if not row[column]:
                row[column] = _titled_unit(term_forms(row[lang])[0], titled.get(lang, []))


def _titles(units: list, registry: Registry) -> dict[str, list[tuple[str, str, str]]]:
    """Per language: (kind, ref, title) of the Laws' units with a title, in reading order."""
    laws_docs = {doc.id: lang for lang in LANGUAGES if (doc := registry.laws_in(lang))}
    titled: dict[str, list] = {}
    for unit in units:
        kind, doc, ref, _ = _fields(unit)
        title = unit.title if isinstance(unit, Unit) else unit.get("title")
        if doc in laws_docs and title and kind in TITLE_KINDS:
            titled.setdefault(laws_docs[doc], []).append((kind, ref, title))
    return titled


def _titled_unit(term: str, titled: list[tuple[str, str, str]]) -> str | None:
    """The Law whose title begins with the term (罚张 -> 50 罚张的处理), else the unit titled the
    term, else the one with the shortest title that carries it."""
    ranked = []
    for position, (kind, ref, title) in enumerate(titled):
        if term not in title:
            continue
        rank = 0 if kind == "law" and title.startswith(term) else 1 if title == term else 2
        ranked.append((rank, len(title), position, ref))
    return min(ranked)[3] if ranked else None


# ---------------------------------------------------------------- lookup for search


@dataclass(frozen=True)
class Entry:
    ja: str | None
    en: str | None
    zh: str | None
    source: str
    ja_ref: str | None = None
    zh_ref: str | None = None

    id: str = ""

    def ref(self, lang: str) -> str | None:
        return self.ja_ref if lang == "ja" else self.zh_ref

    def term(self, lang: str) -> str | None:
        return self.ja if lang == "ja" else self.zh


class Glossary:
    """Look a query up in any of the three languages; returns the matching entries."""

    def __init__(self, rows: list[dict], registry: Registry | None = None, ja_keys: dict[str, str] | None = None):
        """`ja_keys`: each Japanese term form's key as the build stored it (table term_tokens);
        a form missing there is tokenized now."""
        from ingest.text import tokenize

        ja_keys = ja_keys or {}
        self.registry = registry
        self.ja_key = _ja_key
        self.entries = [
            Entry(
                r.get("ja"),
                r.get("en"),
                r.get("zh"),
                r.get("source"),
                r.get("ja_ref"),
                r.get("zh_ref"),
                r.get("id") or "",
            )
            for r in rows
        ]
        self._by_en: dict[str, list[Entry]] = {}
        self._by_ja: dict[str, list[Entry]] = {}
        self._by_zh: dict[str, list[Entry]] = {}
        for entry in self.entries:
            for key in english_keys(entry.en):
                self._by_en.setdefault(key, []).append(entry)
            for form in term_forms(entry.ja):
                key = ja_keys[form] if form in ja_keys else _ja_key(form)
                self._by_ja.setdefault(key, []).append(entry)
            for form in term_forms(entry.zh):
                self._by_zh.setdefault(tokenize.to_simplified(form), []).append(entry)

    def keyed_with(self, ja_key: Callable[[str], str]) -> "Glossary":
        """This glossary with its Japanese terms, and the queries looked up, keyed by `ja_key` (serving:
        the words a query is cut into, laws_site/search/words.py), not by SudachiPy."""
        keyed = object.__new__(Glossary)
        keyed.__dict__.update(self.__dict__, ja_key=ja_key, _by_ja={})
        for entry in self.entries:
            for form in term_forms(entry.ja):
                keyed._by_ja.setdefault(ja_key(form), []).append(entry)
        return keyed

    def lookup(self, query: str) -> list[Entry]:
        """Entries whose term in some language is the whole query (spelling variants folded)."""
        from ingest.text import tokenize

        query = tokenize.clean_query(query)
        if not query:
            return []
        found = []
        # an English term has no Chinese or Japanese characters: 「四家都pass了 要重新发牌吗」 is a sentence,
        # not the term "pass" (english_key keeps the Latin letters only)
        english = (
            LATIN_LETTER_RE.search(query) and not tokenize.HAN_RE.search(query) and not tokenize.KANA_RE.search(query)
        )
        found += self._by_en.get(english_key(query), []) if english else []
        found += self._by_ja.get(self.ja_key(query), [])
        found += self._by_zh.get(tokenize.to_simplified(query), [])
        return list(dict.fromkeys(found))

    def unit_id(self, entry: Entry, lang: str) -> str | None:
        """The unit the entry's term in `lang` comes from, in that language's Laws."""
        doc = self.registry.laws_in(lang) if self.registry else None
        ref = entry.ref(lang)
        return f"{doc.id}:{ref}" if doc and ref else None


TERM_FORM_SEPARATORS = re.compile(r"[/／、,]|(?<=\w)或(?=\w)")


def term_forms(term: str | None) -> list[str]:
    """`発牌或牌局` style terms and curated `A / B` lists name several words."""
    if not term:
        return []
    return [part.strip() for part in TERM_FORM_SEPARATORS.split(term) if part.strip()]


def ja_keys(rows: Iterable[dict]) -> dict[str, str]:
    """Every Japanese term form of the glossary rows -> its lookup key (stored at build)."""
    return {form: _ja_key(form) for row in rows for form in term_forms(row.get("ja"))}


def _ja_key(term: str) -> str:
    """Japanese terms compare on their folded search tokens: ディクレアララー = ディクレアラー."""
    from ingest.text import tokenize

    return " ".join(t.norm for t in tokenize.japanese_tokens(term))


_loaded: dict[tuple, Glossary] = {}


def load_glossary(conn: sqlite3.Connection) -> Glossary:
    """The glossary of this database (its `glossary` table), read once per database file version."""
    identity = database_identity(conn)
    if identity not in _loaded:
        registry = Registry.from_rows(documents(conn))
        _loaded[identity] = Glossary(read_rows(conn), registry, stored_term_tokens(conn, GLOSSARY_KEYS))
    return _loaded[identity]


def database_identity(conn: sqlite3.Connection) -> tuple:
    """Which build this connection reads (table build_info's build_id): caches keyed on it never mix
    a rebuilt file with its predecessor, even for a connection still open on the old file. A
    database without the table falls back to (file, modification time)."""
    try:
        row = conn.execute("select value from build_info where key = 'build_id'").fetchone()
    except sqlite3.OperationalError:
        row = None
    if row:
        return ("build", row[0])
    path = (conn.execute("pragma database_list").fetchone() or ("", "", ""))[2]
    try:
        return path, os.stat(path).st_mtime_ns if path else id(conn)
    except OSError:
        return path, id(conn)


def documents(conn: sqlite3.Connection) -> list[dict]:
    """Table `documents` as dicts, whatever the connection's row factory."""
    if not _has_table(conn, "documents"):
        return []
    cursor = conn.execute("select * from documents order by rowid")
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor]


def stored_term_tokens(conn: sqlite3.Connection, kind: str) -> dict[str, str]:
    """Table term_tokens (ingest/search/tables.py) for one kind: text -> its tokens, space-joined."""
    if not _has_table(conn, "term_tokens"):
        return {}
    return dict(conn.execute("select text, tokens from term_tokens where kind = ?", (kind,)).fetchall())


def _has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("select 1 from sqlite_master where type = 'table' and name = ?", (name,)).fetchone() is not None


def read_rows(conn: sqlite3.Connection) -> list[dict]:
    cursor = conn.execute(f"select {', '.join(GLOSSARY_COLUMNS)} from glossary order by rowid")
    return [dict(zip(GLOSSARY_COLUMNS, row)) for row in cursor]
