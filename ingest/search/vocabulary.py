"""The director vocabulary (corpus/vocabulary.yml): what directors say, mapped to the Laws' terms
and to the units that govern them.

The build stores it as table `vocabulary` (`vocabulary_rows`, lists as JSON arrays); the read side
loads that table once per database (`Vocabulary.from_conn`) and expands a query through it
(laws_site/search/engine.py). A query names an entry when it is, after `search_key` folding, one of the
entry's words: its English term, a Japanese or Chinese term printed in the Laws, a term printed in
the regulations, or a spoken form (LOOT, リードアウトオブターン, BIT, ペナカ).
"""

from __future__ import annotations

import json
import re
import sqlite3
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from ingest.build.sql import json_text
from ingest.parsers.records import ParseError
from ingest.sources.corpus import read_yaml

# read by the build only; serving reads table `vocabulary`
VOCABULARY_FILE = Path(__file__).resolve().parents[2] / "corpus" / "vocabulary.yml"
TERM_FIELDS = ("ja", "zh", "ja_regs", "spoken")
TARGET_FIELDS = ("laws", "regs")
COLUMNS = {
    "id": int,
    "en": str,
    "ja": str,
    "zh": str,
    "ja_regs": str,
    "spoken": str,
    "laws": str,
    "regs": str,
    "source": str,
    "spoken_langs": str,  # {spoken form: ja, zh or en}, as the file lists them (ingest/sources/shapes.py checks)
}
INNER_HYPHEN_RE = re.compile(r"(?<=\w)[-‐](?=\w)")


def search_key(term: str) -> str:
    """What a search box treats as the same word: width, case, spacing, inner hyphens and the
    katakana spelling variants of ingest/text/tokenize.py (the variants in force)."""
    from ingest.text.tokenize import fold_katakana

    folded = fold_katakana(unicodedata.normalize("NFKC", term).casefold())
    return re.sub(r"\s+", "", INNER_HYPHEN_RE.sub("", folded))


def vocabulary_rows(path: Path | str = VOCABULARY_FILE) -> list[dict]:
    """Table `vocabulary`: one row per entry, in file order."""
    path = Path(path)
    if not path.exists():
        return []
    data = read_yaml(path) or {}
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ParseError(str(path), None, "expected an 'entries:' list")
    rows = []
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or not entry.get("en") or not entry.get("laws"):
            raise ParseError(str(path), None, f"entry {number} needs at least en and laws")
        row = {"id": number, "en": entry["en"], "source": entry.get("source")}
        spoken = entry.get("spoken") or {}  # {language: [forms]}: one list, each form's language beside it
        for field in TERM_FIELDS + TARGET_FIELDS:
            listed = [form for forms in spoken.values() for form in forms] if field == "spoken" else entry.get(field)
            row[field] = json_text(list(listed or []))
        row["spoken_langs"] = json_text({form: lang for lang, forms in spoken.items() for form in forms})
        rows.append(row)
    return rows


@dataclass(frozen=True)
class Entry:
    id: int
    en: str
    ja: tuple[str, ...]
    zh: tuple[str, ...]
    ja_regs: tuple[str, ...]
    spoken: tuple[str, ...]
    laws: tuple[str, ...]
    regs: tuple[str, ...]
    spoken_langs: tuple[tuple[str, str], ...] = ()  # (spoken form, the language it is in)

    @classmethod
    def from_row(cls, row: dict) -> "Entry":
        def items(field):
            value = row.get(field) or "[]"
            return tuple(json.loads(value) if isinstance(value, str) else value)

        langs = row.get("spoken_langs") or "{}"
        langs = json.loads(langs) if isinstance(langs, str) else langs
        terms = (items(f) for f in TERM_FIELDS + TARGET_FIELDS)
        return cls(int(row["id"]), row["en"], *terms, spoken_langs=tuple(langs.items()))

    def words(self) -> list[tuple[str, str]]:
        """(field, word) for every word that names the entry."""
        return [
            ("en", self.en),
            *(("ja", w) for w in self.ja),
            *(("zh", w) for w in self.zh),
            *(("ja_regs", w) for w in self.ja_regs),
            *(("spoken", w) for w in self.spoken),
        ]


class Vocabulary:
    def __init__(self, rows: list[dict]):
        self.entries = [Entry.from_row(row) for row in rows]
        self._by_key: dict[str, dict[Entry, set[str]]] = {}
        for entry in self.entries:
            for field, word in entry.words():
                self._by_key.setdefault(search_key(word), {}).setdefault(entry, set()).add(field)

    @classmethod
    def from_conn(cls, conn: sqlite3.Connection) -> "Vocabulary":
        if not conn.execute("select 1 from sqlite_master where type = 'table' and name = 'vocabulary'").fetchone():
            return cls([])
        # a database built before a column was added (spoken_langs) reads without it
        present = {row[1] for row in conn.execute("pragma table_info(vocabulary)")}
        columns = [column for column in COLUMNS if column in present]
        cursor = conn.execute(f"select {', '.join(columns)} from vocabulary order by id")
        return cls([dict(zip(columns, row)) for row in cursor])

    def spoken_language(self, word: str) -> str | None:
        """The language the vocabulary lists `word` in as a spoken form (search_key folding), else None."""
        return self.spoken_languages().get(search_key(word))

    def spoken_languages(self) -> dict[str, str]:
        """{search_key of a spoken form: the language the file lists it in}."""
        if not hasattr(self, "_spoken_languages"):
            self._spoken_languages = {
                search_key(form): lang for entry in self.entries for form, lang in entry.spoken_langs
            }
        return self._spoken_languages

    def lookup(self, query: str) -> list[Entry]:
        """The entries one of whose words the whole query is."""
        return list(self.matches(query))

    def matches(self, query: str) -> dict[Entry, set[str]]:
        """The entries one of whose words the whole query is, each with the fields it matched in
        (en, ja, zh, ja_regs, spoken)."""
        key = search_key(query)
        return dict(self._by_key.get(key, {})) if key else {}
