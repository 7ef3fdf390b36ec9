"""A trilingual glossary (Japanese <-> English <-> Chinese) for cross-language search.

Two sources, each row saying which one it came from:
- `definition`: both definition chapters print the English term beside each definition
  (laws-2017-ja `ダミー (Dummy)`, laws-1997-zh `明手(DUMMY)`); terms pair up when their English
  terms are the same after `english_key` (case, spacing, plural, `-IMP` and `A / B` forms).
- `curated`: corpus/glossary.yml, for words one chapter does not define (リボーク is defined in
  Law 61A, not in the Japanese definitions; ディレクター has no Japanese definition at all).

`glossary_rows(units)` is what the build stores as table `glossary(id, ja, en, zh, source, ja_ref,
zh_ref)`; `load_glossary(conn)` reads that table back, or derives the same rows from `sections`
when a database was built before the table existed.
"""
from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable


from .corpus import read_yaml
from .records import Unit

CURATED_FILE = Path(__file__).resolve().parent.parent / "corpus" / "glossary.yml"
JA_DOC = "laws-2017-ja"
ZH_DOC = "laws-1997-zh"
GLOSSARY_COLUMNS = ("id", "ja", "en", "zh", "source", "ja_ref", "zh_ref")


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


def english_key(term: str) -> str:
    """Lower case, letters only, no plural s: `Trick Points` = `TRICK POINTS` = `trick point`,
    `UNDER TRICK` = `Undertrick`, `MATCH POINT` = `Matchpoint`."""
    letters = re.sub(r"[^a-z]", "", term.lower())
    if len(letters) > 3 and letters.endswith("s") and not letters.endswith("ss"):
        letters = letters[:-1]
    return letters


# ---------------------------------------------------------------- rows

@dataclass
class Definition:
    doc: str
    ref: str
    term: str
    english: str


def definitions(units: Iterable) -> list[Definition]:
    """Definitions with both a term and an English term, from Units or `sections` rows."""
    found = []
    for unit in units:
        kind, doc, ref, attrs = _fields(unit)
        if kind != "definition" or doc not in (JA_DOC, ZH_DOC):
            continue
        term, english = attrs.get("term"), attrs.get("term_en")
        if term and english:
            found.append(Definition(doc, ref, term, english))
    return found


def _fields(unit) -> tuple[str, str, str, dict]:
    if isinstance(unit, Unit):
        return unit.kind, unit.doc, unit.ref, unit.attrs or {}
    attrs = unit["attrs"]
    if isinstance(attrs, str):
        attrs = json.loads(attrs)
    return unit["kind"], unit["doc"], unit["ref"], attrs or {}


def glossary_rows(units: Iterable, curated_file: Path = CURATED_FILE) -> list[dict]:
    """Rows for table `glossary`: definition pairings first, then curated additions.

    One row per English concept from the definitions (with whichever of ja/zh define it), plus one
    row per curated entry. Ids are `def:<english key>` and `curated:<english key>`.
    """
    rows = definition_rows(definitions(units))
    rows += curated_rows(curated_file)
    return rows


def definition_rows(found: list[Definition]) -> list[dict]:
    by_key: dict[str, dict[str, Definition]] = {}
    aliases: dict[str, str] = {}
    order: list[str] = []
    for definition in found:
        language = "ja" if definition.doc == JA_DOC else "zh"
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
        by_key[key].setdefault(language, definition)  # the first of a term defined twice wins
    rows = []
    for key in order:
        ja, zh = by_key[key].get("ja"), by_key[key].get("zh")
        english = (ja or zh).english
        rows.append({
            "id": f"definition:{key}", "ja": ja.term if ja else None, "en": _plain_english(english),
            "zh": zh.term if zh else None, "source": "definition",
            "ja_ref": ja.ref if ja else None, "zh_ref": zh.ref if zh else None,
        })
    return rows


def _plain_english(printed: str) -> str:
    """The English as a reader would type it: before any colon, title-cased if printed in capitals."""
    head = " ".join(re.split(r"[:：]", printed)[0].replace("または", " / ").split())
    return head.title() if head.isupper() else head


def curated_rows(path: Path = CURATED_FILE) -> list[dict]:
    if not Path(path).exists():
        return []
    data = read_yaml(path) or {}
    rows = []
    for entry in data.get("terms") or []:
        en = entry.get("en")
        rows.append({
            "id": f"curated:{english_key(en or '') or entry.get('ja') or entry.get('zh')}",
            "ja": entry.get("ja"), "en": en, "zh": entry.get("zh"), "source": "curated",
            "ja_ref": entry.get("ja_ref"), "zh_ref": entry.get("zh_ref"),
        })
    return rows


# ---------------------------------------------------------------- lookup for search

@dataclass(frozen=True)
class Entry:
    ja: str | None
    en: str | None
    zh: str | None
    source: str
    ja_ref: str | None = None
    zh_ref: str | None = None

    def unit_id(self, lang: str) -> str | None:
        """The unit that defines the term in `lang`, if the row names one."""
        ref = self.ja_ref if lang == "ja" else self.zh_ref
        return f"{JA_DOC if lang == 'ja' else ZH_DOC}:{ref}" if ref else None


class Glossary:
    """Look a query up in any of the three languages; returns the matching entries."""

    def __init__(self, rows: list[dict]):
        from . import tokenize

        self.entries = [Entry(r.get("ja"), r.get("en"), r.get("zh"), r.get("source"), r.get("ja_ref"),
                              r.get("zh_ref")) for r in rows]
        self._by_en: dict[str, list[Entry]] = {}
        self._by_ja: dict[str, list[Entry]] = {}
        self._by_zh: dict[str, list[Entry]] = {}
        for entry in self.entries:
            for key in english_keys(entry.en):
                self._by_en.setdefault(key, []).append(entry)
            for form in term_forms(entry.ja):
                self._by_ja.setdefault(_ja_key(form), []).append(entry)
            for form in term_forms(entry.zh):
                self._by_zh.setdefault(tokenize.to_simplified(form), []).append(entry)

    def lookup(self, query: str) -> list[Entry]:
        """Entries whose term in some language is the whole query (spelling variants folded)."""
        from . import tokenize

        query = tokenize.clean_query(query)
        if not query:
            return []
        found = []
        found += self._by_en.get(english_key(query), []) if re.search(r"[A-Za-z]", query) else []
        found += self._by_ja.get(_ja_key(query), [])
        found += self._by_zh.get(tokenize.to_simplified(query), [])
        return list(dict.fromkeys(found))


def term_forms(term: str | None) -> list[str]:
    """`発牌或牌局` style terms and curated `A / B` lists name several words."""
    if not term:
        return []
    return [part.strip() for part in re.split(r"[/／、,]|(?<=\w)或(?=\w)", term) if part.strip()]


def _ja_key(term: str) -> str:
    """Japanese terms compare on their folded search tokens: ディクレアララー = ディクレアラー."""
    from . import tokenize

    return " ".join(t.norm for t in tokenize.japanese_tokens(term))


_loaded: dict[tuple, Glossary] = {}


def load_glossary(conn: sqlite3.Connection) -> Glossary:
    """The glossary of this database (its `glossary` table, else derived from `sections`),
    read once per database file version."""
    identity = database_identity(conn)
    if identity not in _loaded:
        _loaded[identity] = Glossary(read_rows(conn))
    return _loaded[identity]


def database_identity(conn: sqlite3.Connection) -> tuple:
    row = conn.execute("pragma database_list").fetchone()
    path = row[2] if row else ""
    stamp = Path(path).stat().st_mtime_ns if path and Path(path).exists() else id(conn)
    return path, stamp


def read_rows(conn: sqlite3.Connection) -> list[dict]:
    has_table = conn.execute(
        "select 1 from sqlite_master where type = 'table' and name = 'glossary'").fetchone()
    if has_table:
        cursor = conn.execute(f"select {', '.join(GLOSSARY_COLUMNS)} from glossary")
        return [dict(zip(GLOSSARY_COLUMNS, row)) for row in cursor]
    cursor = conn.execute("select kind, doc, ref, attrs from sections where kind = 'definition'")
    units = [dict(zip(("kind", "doc", "ref", "attrs"), row)) for row in cursor]
    return glossary_rows(units)
