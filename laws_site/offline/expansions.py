"""Issue 24's expansions for the offline search (static/offline-search.js, issue 26).

`export(conn)` gives the rows of table `search_expansions` grouped as laws_site/search/expansions.py reads
them (readings: key -> [[term, count]] best first; sounds, synonyms: key -> [terms]; zh: key ->
term), and the romaji tables of jaconv that ingest/text/forgiving.py relies on, read from the installed
jaconv (its str.replace steps, in order, and its one-letter tables), so that the browser converts
romaji <-> kana exactly as the server does, with no JavaScript dependency.
"""

from __future__ import annotations

import ast
import inspect
import sqlite3

import jaconv
from jaconv import conv_table

from laws_site.read import queries


def export(conn: sqlite3.Connection) -> dict:
    found = {"readings": {}, "sounds": {}, "synonyms": {}, "zh": {}}
    if queries.table_exists(conn, "search_expansions"):
        for kind, key, term, weight in conn.execute(
            "select kind, key, term, weight from search_expansions order by kind, key, weight desc, term"
        ):
            if kind == "reading":
                found["readings"].setdefault(key, []).append([term, weight])
            elif kind == "sound":
                found["sounds"].setdefault(key, []).append(term)
            elif kind == "synonym":
                found["synonyms"].setdefault(key, []).append(term)
            elif kind == "zh":
                found["zh"][key] = term
    found["romaji"] = romaji_tables()
    return found


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
