"""One grammar for citations (issue 33, item 3): what the search box takes, the diff and history pages
and `bridge-laws diff` take too (ingest/text/spelling.py reading the marks and levels of
ingest/text/refs.py). Before, `第61条B項` opened 61B from the search box and was a 400 "not a law
reference" on the diff."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from click.testing import CliRunner

from ingest.text.spelling import typed_law_ref
from laws_site.cli import cli


@pytest.mark.parametrize(
    "typed, ref",
    [
        ("第61条B項", "61B"),
        ("61 b 2", "61B2"),
        ("61-B-2-a", "61B2(a)"),
        ("６１Ｂ２ａ", "61B2(a)"),
        ("Law 61", "61"),
        ("第25条B款", "25B"),  # the Chinese Laws' 款
        ("25B2(b)(1)", "25B2(b)(1)"),  # the 1997 page numbers its sub-sub-items (1), not (i)
        ("9-A-2-b-2", "9A2(b)(2)"),
        ("quote:61B", "61B"),  # a commentary's reprint of it
        ("L61B", "61B"),  # a commentary's note on it
        ("第16条B項1", "16B1"),
        ("24-5-1", None),  # the regulations' item, not a law
        ("リボーク", None),
    ],
)
def test_a_typed_law_ref_in_any_spelling(typed, ref):
    assert typed_law_ref(typed) == ref


async def test_the_diff_of_a_1997_sub_sub_item_answers(datasette):
    """The pages link the 1997 page's (1)-numbered sub-sub-items to their comparison: it must answer."""
    response = await datasette.client.get("/-/diff.json?ref=25B2%28b%29%281%29&from=laws-1997-zh&to=laws-2017-ja")
    assert response.status_code == 200, response.text
    assert "laws-1997-zh:25B2(b)(1)" in {row.get("from_id") for row in response.json()["rows"]}


async def test_the_diff_takes_a_citation_as_the_search_box_does(datasette):
    url = "/-/diff.json?ref={}&from=revoke-notes-ja&to=laws-2017-ja"
    typed = (await datasette.client.get(url.format(quote("第61条B項")))).json()
    wbf = (await datasette.client.get(url.format("61B"))).json()
    assert [row["ref"] for row in typed["rows"]] == [row["ref"] for row in wbf["rows"]]
    assert [row["ref"] for row in typed["rows"]][:2] == ["61B", "61B1"]
    refused = await datasette.client.get(url.format(quote("24-5-1")))
    assert refused.status_code == 400 and "not a law reference" in refused.json()["error"]


async def test_the_history_takes_a_citation_as_the_search_box_does(datasette):
    typed = await datasette.client.get("/-/history/" + quote("第61条") + ".json")
    assert typed.status_code == 200
    assert typed.json() == (await datasette.client.get("/-/history/61.json")).json()


def test_bridge_laws_diff_takes_a_citation_as_the_search_box_does(laws_db_path):
    typed = CliRunner().invoke(
        cli, ["diff", "第61条B項", "--from", "revoke-notes-ja", "--to", "laws-2017-ja", "--db", str(laws_db_path)]
    )
    assert typed.exit_code == 0, typed.output
    assert typed.output.splitlines()[0] == "61B  same"
