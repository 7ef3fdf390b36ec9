"""The CLI contract: scripts rely on these shapes and exit codes."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode

import pytest
from click.testing import CliRunner

from laws_site.cli import cli

ROOT = Path(__file__).resolve().parent.parent


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
        "id": "laws-2017-ja:61B2",
        "doc": "laws-2017-ja",
        "ref": "61B2",
        "kind": "item",
        "title": None,
        "text": "",
        "parent": "61B",
        "children": ["61B2(a)", "61B2(b)"],
        "page": 93,
        "url": "/laws-2017-ja/61B2",
    }


@pytest.mark.parametrize(
    "doc, ref, kind",
    [
        ("revoke-notes-ja", "L61A", "note"),
        ("laws-1997-zh", "50D2(a)", "subitem"),
        ("jcbl-regs-ja", "24-8", "paragraph"),
        ("jcbl-regs-ja", "appendix-1", "appendix"),
        ("laws-2017-ja", "def:ダミー", "definition"),
    ],
)
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
    hits = json.loads(result.output)["results"]
    assert {"doc", "ref", "title", "snippet", "score"} <= set(hits[0])
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
    assert hits[0]["ref"] in {"53", "54", "55", "56"}


# ---------------------------------------------------------------- search: the JSON API's object, its lines in plain text


async def test_search_json_is_the_json_apis_object(run, datasette):
    """`bridge-laws search --json` prints what /-/search.json answers for the same query, but for
    what only a URL has (docs/api.md)."""
    for query, options in [
        ("りぼーく", ["--limit", "3"]),
        ("revoek", ["--limit", "2", "--offset", "1"]),
        ("27条", ["--limit", "4"]),
        ("61Z", ["--limit", "20"]),
        ("リボーク", ["--doc", "laws-2017-ja", "--limit", "1"]),
        ("リボック", ["--exact"]),
    ]:
        printed = json.loads(run("search", query, "--json", *options).output)
        params = {"q": query, **{o.removeprefix("--"): v for o, v in zip(options[::2], options[1::2])}}
        if "--exact" in options:
            params = {"q": query, "exact": "1", "limit": "10"}  # the CLI shows 10 by default, the API 20
        answer = (await datasette.client.get("/-/search.json?" + urlencode(params))).json()
        for url_only in ("ok", "next_url", "previous_url"):
            del answer[url_only]
        assert printed == answer, query


def test_search_json_says_what_else_was_searched(run):
    page = json.loads(run("search", "りぼーく", "--json", "--limit", "1").output)
    assert (page["query"], page["total"], page["count"], page["next"]) == ("りぼーく", 81, 1, "1")
    assert page["also_searched"] == ["リボーク", "revoke"] and page["did_you_mean"] == []
    assert page["expansions"] == [
        {"kind": "reading", "text": "リボーク", "found": 122},
        {"kind": "sound", "text": "revoke", "found": 5},
    ]
    assert page["citation"] is None and page["exact"] is False
    assert page["results"][0]["id"] == "laws-2017-ja:61"
    typo = json.loads(run("search", "revoek", "--json", "--limit", "1").output)
    assert (typo["also_searched"], typo["did_you_mean"]) == ([], ["revoke"])
    assert typo["expansions"] == [{"kind": "typo", "text": "revoke", "found": 127}]
    exact = json.loads(run("search", "revoek", "--json", "--exact").output)
    assert (exact["exact"], exact["did_you_mean"], exact["total"], exact["results"]) == (True, [], 0, [])


def test_search_json_carries_the_citation_and_its_other_meaning(run):
    page = json.loads(run("search", "27条", "--json", "--limit", "3").output)
    citation = page["citation"]
    assert (citation["found"], citation["opens"], citation["units"]) == (
        True,
        True,
        ["laws-2017-ja:27", "laws-1997-zh:27", "jcbl-regs-ja:27"],
    )
    assert [(a["id"], a["labels"]["ja"]) for a in citation["alternatives"]] == [
        ("jcbl-regs-ja:27", "競技会運営規則: 第27条")
    ]
    assert (page["total"], page["next"]) == (7, "3")
    assert json.loads(run("search", "64条", "--json").output)["citation"]["alternatives"] == []


@pytest.mark.parametrize(
    "query, first_lines",
    [
        (
            "りぼーく",
            [
                "also searched: リボーク, revoke (--exact searches only what you typed)",
                "laws-2017-ja 61  スートにフォローしないこと ー リボークに関する質問  (5.16)",
            ],
        ),
        (
            "リボック",
            [
                "also searched: リボーク, revoke (--exact searches only what you typed)",
                "laws-2017-ja 61  スートにフォローしないこと ー リボークに関する質問  (5.16)",
            ],
        ),
        (
            "revoek",
            [
                "did you mean: revoke (--exact searches only what you typed)",
                "laws-2017-ja 61  スートにフォローしないこと ー リボークに関する質問  (2.44)",
            ],
        ),
        (
            "27条",
            [
                "also a citation of: jcbl-regs-ja 27 (競技会運営規則: 第27条; bridge-laws show jcbl-regs-ja 27)",
                "laws-2017-ja 27  不十分なビッド  (3.00)",
            ],
        ),
        ("64条", ["laws-2017-ja 64  リボーク成立後の手順  (3.00)"]),  # no regulation 64: nothing else offered
    ],
)
def test_search_prints_what_else_it_searched(run, query, first_lines):
    result = run("search", query, "--limit", "1")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[: len(first_lines)] == first_lines


def test_refs_json_both_directions(run):
    result = json.loads(run("refs", "laws-2017-ja", "61B2(a)", "--json").output)
    assert {"surface": "第43条B項2(b)", "doc": "laws-2017-ja", "ref": "43B2(b)"}.items() <= result["outgoing"][
        0
    ].items()
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


# ---------------------------------------------------------------- bad input: one line on stderr, exit 2


def one_line_error(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


@pytest.mark.parametrize("limit", ["-1", "0", "x", "²"])
def test_search_limit_must_be_positive(run, limit):
    assert "--limit" in one_line_error(run("search", "リボーク", "--limit", limit))


def test_search_unknown_document_exits_2(run):
    line = one_line_error(run("search", "リボーク", "--doc", "nope"))
    assert "nope" in line and "laws-2017-ja" in line


def test_diff_unknown_document_exits_2(run):
    assert "nope" in one_line_error(run("diff", "61", "--from", "nope", "--to", "laws-2017-ja"))


def bad_databases(tmp_path: Path, laws_db_path: Path) -> dict[str, Path]:
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    truncated = tmp_path / "truncated.db"
    truncated.write_bytes(laws_db_path.read_bytes()[:50_000])
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("create table t (x)").connection.commit()
    fifo = tmp_path / "fifo.db"  # a special file: opened for reading, it would wait for a writer for ever
    os.mkfifo(fifo)
    loop = tmp_path / "loop.db"
    loop.symlink_to(tmp_path / "loop2.db")
    (tmp_path / "loop2.db").symlink_to(loop)
    return {
        "missing": tmp_path / "missing.db",
        "empty": empty,
        "text": text,
        "truncated": truncated,
        "other sqlite": other,
        "directory": tmp_path,
        "fifo": fifo,
        "symlink loop": loop,
    }


@pytest.mark.parametrize(
    "command",
    [
        ["show", "laws-2017-ja", "61"],
        ["search", "リボーク"],
        ["refs", "laws-2017-ja", "61"],
        ["diff", "61", "--from", "revoke-notes-ja", "--to", "laws-2017-ja"],
        ["check"],
    ],
)
def test_a_bad_db_is_one_line(tmp_path, laws_db_path, command):
    for name, db in bad_databases(tmp_path, laws_db_path).items():
        result = CliRunner().invoke(cli, [*command, "--db", str(db)])
        line = one_line_error(result)
        assert str(db) in line, (name, line)


def test_undecodable_argument_is_one_line(laws_db_path):
    undecodable = b"\xff\xfe".decode("utf-8", "surrogateescape")  # what Python makes of such argv bytes
    for args in (["search", undecodable], ["show", "laws-2017-ja", undecodable], ["show", undecodable, "61"]):
        line = one_line_error(CliRunner().invoke(cli, [*args, "--db", str(laws_db_path)]))
        assert "UTF-8" in line


def test_undecodable_argument_from_a_real_shell(laws_db_path):
    result = subprocess.run(
        [sys.executable, "-m", "laws_site.cli", "search", os.fsdecode(b"\xff\xfe"), "--db", str(laws_db_path)],
        capture_output=True,
        cwd=ROOT,
    )
    assert result.returncode == 2 and b"Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_usage_errors_are_one_line(run):
    for args in (["search"], ["bogus"], ["show", "laws-2017-ja"]):
        one_line_error(CliRunner().invoke(cli, args))


def test_help_and_version_still_work():
    assert CliRunner().invoke(cli, ["--help"]).exit_code == 0
    assert CliRunner().invoke(cli, ["--version"]).exit_code == 0
    assert "Usage" in CliRunner().invoke(cli, ["search", "--help"]).output


# ---------------------------------------------------------------- issue 21: the remaining tracebacks


def test_diff_with_a_5000_digit_ref_is_one_line(run):
    line = one_line_error(run("diff", "9" * 5000, "--from", "revoke-notes-ja", "--to", "laws-2017-ja"))
    assert line == ("Error: neither revoke-notes-ja nor laws-2017-ja has a law numbered 999999999999… (5,000 digits)")


@pytest.mark.parametrize("command", [["serve"], ["check"], ["show", "laws-2017-ja", "61"], ["build"]])
def test_a_symlink_loop_as_db_is_one_line(tmp_path, command):
    loop = tmp_path / "laws.db"
    loop.symlink_to(loop)
    line = one_line_error(CliRunner().invoke(cli, [*command, "--db", str(loop)]))
    assert f"{loop} is a loop of symbolic links, not a database file" in line
    assert loop.is_symlink()


def test_serve_on_a_busy_port_is_one_line(laws_db_path):
    from tests.live_server import free_port

    port = free_port()
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", port))
        busy.listen()
        result = CliRunner().invoke(cli, ["serve", "--db", str(laws_db_path), "--port", str(port)])
    assert one_line_error(result) == f"Error: cannot serve on 127.0.0.1:{port}: Address already in use"


def test_serve_on_an_unknown_host_or_port_is_one_line(laws_db_path):
    line = one_line_error(CliRunner().invoke(cli, ["serve", "--db", str(laws_db_path), "--host", "999.1.1.1"]))
    assert line.startswith("Error: cannot serve on 999.1.1.1:8001: unknown host")
    assert "--port" in one_line_error(CliRunner().invoke(cli, ["serve", "--db", str(laws_db_path), "--port", "99999"]))


def test_serve_refuses_a_fifo_as_db(tmp_path):
    fifo = tmp_path / "laws.db"
    os.mkfifo(fifo)
    assert (
        one_line_error(CliRunner().invoke(cli, ["serve", "--db", str(fifo)])) == f"Error: {fifo} is not a regular file"
    )
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("command", [["show", "laws-2017-ja", "61"], ["check"], ["build"], ["serve"]])
def test_a_db_name_too_long_is_one_line(tmp_path, command):
    too_long = tmp_path / ("a" * 300)
    line = one_line_error(CliRunner().invoke(cli, [*command, "--db", str(too_long)]))
    assert f"{too_long} cannot be a database file: File name too long" in line


# ---------------------------------------------------------------- exit statuses and --json errors (issue 34)


@pytest.mark.parametrize(
    "args, status",
    [
        (("show", "laws-2017-ja", "61Z"), 1),  # no such unit
        (("refs", "laws-2017-ja", "61Z"), 1),
        (("diff", "99", "--from", "laws-1997-zh", "--to", "laws-2017-ja"), 1),  # neither document has it
        (("show", "nope-doc", "61"), 2),  # an unknown document is bad input, as in search
        (("refs", "nope-doc", "61"), 2),
        (("search", "revoke", "--doc", "nope-doc"), 2),
        (("diff", "abc", "--from", "laws-1997-zh", "--to", "laws-2017-ja"), 2),  # not a law reference
        (("search", ""), 2),
    ],
)
def test_not_found_exits_1_and_bad_input_exits_2(run, args, status):
    result = run(*args)
    assert result.exit_code == status, (result.exit_code, result.output)
    assert result.stdout == "" and result.stderr.startswith("Error: ") and len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    "args, status, title",
    [
        (("show", "laws-2017-ja", "61Z", "--json"), 404, "Not Found"),
        (("diff", "99", "--from", "laws-1997-zh", "--to", "laws-2017-ja", "--json"), 404, "Not Found"),
        (("search", "revoke", "--doc", "nope-doc", "--json"), 400, "Bad Request"),
        (("search", "revoke", "--limit", "x", "--json"), 400, "Bad Request"),
    ],
)
def test_json_errors_are_json_in_the_apis_error_shape(run, args, status, title):
    result = run(*args)
    error = json.loads(result.stdout)
    assert error["ok"] is False and error["status"] == status and error["title"] == title and error["error"]
    assert result.exit_code == (1 if status == 404 else 2)
    assert result.stderr.startswith("Error: ")


def test_a_json_unit_not_found_lists_its_suggestions(run):
    error = json.loads(run("show", "laws-2017-ja", "61Z", "--json").stdout)
    assert "61C" in error["suggestions"]
