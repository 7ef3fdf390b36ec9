"""Issue 24's expansions for the offline search (static/offline-search.js, issue 26).

`export(conn)` gives table `search_expansions` as laws_site/search/expansions.py reads it (ExpansionData:
readings: key -> [[term, count]] best first; sounds, synonyms: key -> [terms]; zh: key -> term; the
typo candidates), and the romaji tables of jaconv that ingest/text/forgiving.py relies on, read from the installed
jaconv (its str.replace steps, in order, and its one-letter tables), so that the browser converts
romaji <-> kana exactly as the server does, with no JavaScript dependency.
"""

from __future__ import annotations

import ast
import inspect
import sqlite3

import jaconv
from jaconv import conv_table

from laws_site.search.expansions import ExpansionData


def export(conn: sqlite3.Connection) -> dict:
    """ExpansionData as laws_site/search/expansions.py reads it, the derived lists included (the typo
    candidates, the longest reading): the browser reads them, it does not derive them again."""
    data = ExpansionData.from_conn(conn)
    return {
        "readings": {key: [list(option) for option in options] for key, options in data.readings.items()},
        "sounds": data.sounds,
        "synonyms": data.synonyms,
        "zh": data.zh,
        "longest_reading": data.longest_reading,
        "kana_words": data.kana_words,
        "kana_word_of": data.kana_word_of,
        "english": data.english,
        "romaji": romaji_tables(),
    }


def _replace_steps(function) -> list[list[str]]:
    """The (old, new) of every `.replace(old, new)` call in the function's source, in order."""
    tree = ast.parse(inspect.getsource(function).lstrip())
    steps = []

    def visit(node):
        # a chain text.replace(a, b).replace(c, d) nests the first call innermost: visit it first
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            visit(node.func.value)
            if (
                node.func.attr == "replace"
                and len(node.args) == 2
                and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args)
            ):
                steps.append([node.args[0].value, node.args[1].value])
            for arg in node.args:
                visit(arg)
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return steps


def romaji_tables() -> dict:
    return {
        "to_kana": _replace_steps(jaconv.alphabet2kana),
        "to_romaji": _replace_steps(jaconv.kana2alphabet),
        "hep2kana": {chr(k): v for k, v in conv_table.HEP2KANA.items()},
        "kana2hep": {chr(k): v for k, v in conv_table.KANA2HEP.items()},
        "consonants": "".join(sorted(jaconv.jaconv.consonants)),
    }
