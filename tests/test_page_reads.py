"""What every unit and diff page reads of the documents (registry, short titles, the comparisons
offered) is read once per served immutable database, not on every page: the pack crawl renders
~4,500 pages per language (issue 35). The pages stay the same (tests/test_offline.py compares them
with the server's answers byte for byte)."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from laws_site.pages import diff as diff_page
from laws_site.pages import unit as unit_page

LAWS = "laws-2017-ja"


@pytest.fixture
def conn(laws_db_path):
    connection = sqlite3.connect(laws_db_path)
    connection.row_factory = sqlite3.Row  # as Datasette's rows read
    yield connection
    connection.close()


def test_a_unit_page_names_documents_from_the_documents_it_is_given(conn):
    read = unit_page.read_documents(conn, "en")
    given = unit_page.Documents(read.registry, {doc: f"<{doc}>" for doc in read.titles})
    context = unit_page.unit_context(conn, LAWS, "61", "en", given)
    assert context["document_title"] == f"<{LAWS}>"
    assert [r["doc_title"] for r in context["commentary"]["reprints"]] == ["<revoke-notes-ja>"]
    assert {n["doc_title"] for n in context["commentary"]["notes"]} == {"<revoke-notes-ja>"}


@pytest.mark.parametrize("ref", ["61", "61B", "16", "40B2(a)"])
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_given_documents_make_the_page_the_documents_read_here_make(conn, ref, lang):
    read_here = unit_page.unit_context(conn, LAWS, ref, lang)
    given = unit_page.unit_context(conn, LAWS, ref, lang, unit_page.read_documents(conn, lang))
    assert read_here is not None and read_here == given


def test_siblings_are_listed_with_what_their_list_shows(conn):
    context = unit_page.unit_context(conn, LAWS, "61B", "en")
    assert [s["label"] for s in context["siblings"]] == ["A.", "B.", "C."]
    assert [s["current"] for s in context["siblings"]] == [False, True, False]
    assert context["siblings"][0]["url"] == f"/{LAWS}/61A"


def test_the_comparisons_offered_are_read_once_per_database(datasette):
    first = asyncio.run(diff_page.choices(datasette))
    assert first["pairs"] and asyncio.run(diff_page.choices(datasette)) is first
