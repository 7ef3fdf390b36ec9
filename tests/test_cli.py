"""The CLI contract: scripts rely on these shapes and exit codes."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from laws_site.cli import cli


@pytest.fixture(scope="module")
def run(laws_db_path):
    def invoke(*args: str):
        return CliRunner().invoke(cli, [*args, "--db", str(laws_db_path)])
    return invoke


def test_show_json_has_the_contract_fields(run):
    result = run("show", "laws-2017-ja", "61B2", "--json")
    assert result.exit_code == 0
    unit = json.loads(result.output)
    assert {k: unit[k] for k in ("id", "doc", "ref", "kind", "title", "text", "parent", "children", "page", "url")} == {
        "id": "laws-2017-ja:61B2", "doc": "laws-2017-ja", "ref": "61B2", "kind": "item", "title": None, "text": "",
        "parent": "61B", "children": ["61B2(a)", "61B2(b)"], "page": 93, "url": "/laws-2017-ja/61B2",
    }


@pytest.mark.parametrize("doc, ref, kind", [
    ("revoke-notes-ja", "L61A", "note"),
    ("laws-1997-zh", "50D2(a)", "subitem"),
    ("jcbl-regs-ja", "24-8", "paragraph"),
    ("jcbl-regs-ja", "appendix-1", "appendix"),
    ("laws-2017-ja", "def:ダミー", "definition"),
])
def test_show_reaches_every_document(run, doc, ref, kind):
    result = run("show", doc, ref, "--json")
    assert result.exit_code == 0, result.output
    assert (json.loads(result.output)["id"], json.loads(result.output)["kind"]) == (f"{doc}:{ref}", kind)


def test_unknown_ref_exits_1_and_suggests(run):
    result = run("show", "laws-2017-ja", "61Z")
    assert result.exit_code == 1
    assert "Did you mean" in result.output and "61C" in result.output


def test_search_json_is_best_first_with_the_contract_fields(run):
    result = run("search", "順番外のリード", "--json", "--limit", "5")
    hits = json.loads(result.output)
    assert {"doc", "ref", "title", "snippet", "score"} <= set(hits[0])
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
    assert hits[0]["ref"] in {"53", "54", "55", "56"}


def test_refs_json_both_directions(run):
    result = json.loads(run("refs", "laws-2017-ja", "61B2(a)", "--json").output)
    assert {"surface": "第43条B項2(b)", "doc": "laws-2017-ja", "ref": "43B2(b)"}.items() <= result["outgoing"][0].items()
    incoming = json.loads(run("refs", "laws-2017-ja", "61B", "--json", "--deep").output)["incoming"]
    assert "revoke-notes-ja:L61B" in {row["id"] for row in incoming}


def test_check_meets_the_resolution_target(run):
    result = run("check", "--json")
    assert result.exit_code == 0
    report = json.loads(result.output)
    assert report["total"]["resolved"] / report["total"]["found"] >= 0.98


def test_diff_json_reports_the_reprint_difference(run):
    result = json.loads(run("diff", "63B", "--from", "revoke-notes-ja", "--to", "laws-2017-ja", "--json").output)
    row = next(r for r in result["rows"] if r["ref"] == "63B")
    assert row["status"] == "changed"
    assert [op["to"] for op in row["ops"] if op["op"] != "equal"] == ["の側"]
