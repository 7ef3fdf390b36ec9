"""/-/diff, /-/diff.json and /-/diff/overview through Datasette's test client."""

from __future__ import annotations

import re

import pytest

DIFF_61 = "/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja"


@pytest.fixture(autouse=True)
def documents(require_documents):
    require_documents("revoke-notes-ja", "laws-2017-ja", "laws-1997-zh")


async def test_side_by_side_page_marks_the_change(datasette):
    response = await datasette.client.get(DIFF_61.replace("ref=61", "ref=61A"))
    assert response.status_code == 200
    rows = response.text[response.text.index('<section class="diff-row') :]
    marked = re.findall(r'<(del|ins) class="op (\w+)"[^>]*>([^<]*)</\1>', rows)
    assert marked == [("del", "wording", "か、")]
    assert re.search(
        r'要求されている<del class="op wording"[^>]*>か、</del>カード', rows
    )  # the commentary's text, left
    assert "要求されているカード" in rows  # the Laws' text, right


async def test_page_extends_the_site_layout(datasette):
    response = await datasette.client.get(DIFF_61)
    assert response.status_code == 200
    assert "<h1>第61条の比較</h1>" in response.text  # Japanese, the unprefixed interface language
    assert "<footer" in response.text or "</nav>" in response.text or "<header" in response.text


@pytest.mark.parametrize(
    "prefix, heading",
    [("", "第61条B項2(a)の比較"), ("/zh", "比较第61条B款2(a)"), ("/en", "Compare Law 61B2(a)")],
    ids=["ja", "zh", "en"],
)
async def test_a_provision_s_comparison_names_it_as_its_language_cites_it(datasette, prefix, heading):
    """「第61B2(a)条の比較」 put the whole ref inside 第…条: a provision is 第61条B項2(a)."""
    response = await datasette.client.get(prefix + DIFF_61.replace("ref=61", "ref=61B2(a)"))
    assert response.status_code == 200
    assert f"<h1>{heading}</h1>" in response.text and f"<title>{heading}: " in response.text


async def test_json_has_the_same_rows(datasette):
    response = await datasette.client.get(DIFF_61.replace("/-/diff?", "/-/diff.json?"))
    assert response.status_code == 200
    data = response.json()
    assert data["from"]["doc"] == "revoke-notes-ja" and data["to"]["doc"] == "laws-2017-ja"
    statuses = {r["ref"]: r["status"] for r in data["rows"]}
    assert statuses["61A"] == "changed" and statuses["61C"] == "same"
    assert set(data["rows"][0]) >= {
        "ref",
        "status",
        "from_text",
        "to_text",
        "ops",
        "refs_added",
        "refs_removed",
        "numbers_added",
        "numbers_removed",
    }


async def test_cross_language_json_reports_reference_changes(datasette):
    response = await datasette.client.get("/-/diff.json?ref=6D3&from=laws-1997-zh&to=laws-2017-ja")
    row = response.json()["rows"][0]
    assert (row["refs_removed"], row["refs_added"]) == (["22A", "86C"], ["22B", "86A"])


async def test_whitespace_option(datasette):
    plain = (await datasette.client.get(DIFF_61.replace("/-/diff?", "/-/diff.json?"))).json()
    literal = (await datasette.client.get(DIFF_61.replace("/-/diff?", "/-/diff.json?") + "&whitespace=1")).json()
    assert plain["rows"][0]["status"] == "same" and literal["rows"][0]["status"] == "changed"


async def test_text_is_escaped_before_markup(datasette):
    # the Laws print no angle brackets, so check escaping through the ref the page echoes back
    response = await datasette.client.get("/-/diff?ref=<b>x</b>&from=laws-1997-zh&to=laws-2017-ja")
    assert response.status_code == 400
    assert "<b>x</b>" not in response.text and "&lt;b&gt;x&lt;/b&gt;" in response.text


@pytest.mark.parametrize(
    "url, message",
    [
        ("/-/diff.json?ref=61&from=nope&to=laws-2017-ja", "cannot be compared"),
        ("/-/diff.json?ref=zz&from=laws-1997-zh&to=laws-2017-ja", "not a law reference"),
        ("/-/diff.json?ref=99&from=laws-1997-zh&to=laws-2017-ja", "has a unit"),
        ("/-/diff.json?from=laws-1997-zh&to=laws-2017-ja", "missing 'ref'"),
        ("/-/diff.json?ref=61&to=laws-2017-ja", "missing 'from'"),
        ("/-/diff/overview.json?from=laws-1997-zh", "missing 'to'"),
    ],
)
async def test_bad_parameters_are_400_with_a_message(datasette, url, message):
    response = await datasette.client.get(url)
    assert response.status_code == 400
    assert message in response.json()["error"]


async def test_bad_parameters_on_the_html_page(datasette):
    response = await datasette.client.get("/-/diff?ref=61&from=laws-2017&to=laws-2017-ja")
    assert response.status_code == 400
    assert (
        "「laws-2017」は比較できません（規則 2017 のことですか？）。" in response.text
    )  # a Message by id (laws_site/i18n/message.py)


async def test_overview_lists_every_law(datasette):
    response = await datasette.client.get("/-/diff/overview?from=laws-1997-zh&to=laws-2017-ja")
    assert response.status_code == 200
    links = re.findall(r'href="/-/diff\?ref=(\d+)&amp;from=laws-1997-zh&amp;to=laws-2017-ja"', response.text)
    assert len(links) == 93 and links[0] == "1" and links[-1] == "93"


async def test_overview_json_counts(datasette):
    data = (await datasette.client.get("/-/diff/overview.json?from=laws-1997-zh&to=laws-2017-ja")).json()
    law_40 = next(law for law in data["laws"] if law["law"] == "40")
    # read in both texts (issue 37): 40's heading the same; 40A split into 40A3, 40C, 40C1; 40C into 40B3(a),
    # 40B5(b); 40E1 into 40B2(a)(ii), 40A4; 40E2 into 40B2(b), (c), (c)(iii), (d) and 20G3; 40B, 40D, 40E
    # in part 40B, 40A1(b), 40B1(b), 40B2, 40B2(a); 18 new; 40B5 and 40B5(a) from 1997 75C (not in the corpus)
    assert law_40["only_from"] == 0 and law_40["relations"] == {
        "same": 1,
        "new": 18,
        "partial": 5,
        "split": 11,
        "not_in_source": 2,
    }


async def test_a_pair_the_site_does_not_offer_is_a_400_naming_those_it_does(datasette):
    response = await datasette.client.get("/-/diff.json?ref=61&from=revoke-notes-ja&to=out-of-turn-notes-ja")
    assert response.status_code == 400
    error = response.json()["error"]
    assert "not a comparison this site offers" in error
    for pair in (
        "from=revoke-notes-ja&to=laws-2017-ja",
        "from=out-of-turn-notes-ja&to=laws-2017-ja",
        "from=laws-1997-zh&to=laws-2017-ja",
    ):
        assert pair in error


def test_the_diff_pages_read_rows_made_at_build():
    """laws_site.read.diffs only reads tables: it imports none of the build's diff or alignment code."""
    import ast
    from pathlib import Path

    import laws_site.read.diffs

    tree = ast.parse(Path(laws_site.read.diffs.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert not imported & {
        "ingest.editions.diff",
        "ingest.editions.align",
        "ingest.sources.corpus",
        "ingest.references.xrefs",
    }
