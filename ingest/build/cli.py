"""The build side of `bridge-laws`: `check` (what the build found), and what `build` (laws_site/cli.py,
which also makes the offline packs) shares with it: how a failure is reported, what a database is.

`laws_site.cli` puts these beside the read-side commands (show, search, refs, diff, serve).
Errors a user can fix (a bad corpus file, a --db that is no database, a bad option) are one line
on stderr and exit status 2 (CliError); "not found" and a failed check are exit status 1.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from ingest.build.db_target import DEFAULT_DB, TargetError, check_target
from ingest.build.read_only import connect_readonly
from ingest.parsers.records import ParseError
from ingest.sources.corpus import DEFAULT_CORPUS


class CliError(click.ClickException):
    """One line on stderr, exit status 2."""

    exit_code = 2

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))


REQUIRED_TABLES = ("documents", "sections", "xrefs")


def check_db_name(db_path: Path) -> None:
    """CliError if db_path cannot name a file (too long, under a file) or is a broken symlink; a
    directory, FIFO or device is left for the caller to name as "not a database"."""
    try:
        check_target(db_path)
    except TargetError as error:
        if not error.special_file:
            raise CliError(str(error)) from error


def check_database(db_path: Path) -> None:
    """CliError unless db_path is a readable, undamaged database written by `bridge-laws build`."""
    rebuild = f"run `bridge-laws build --db {db_path}`"
    check_db_name(db_path)
    if not db_path.exists():
        raise CliError(f"{db_path} does not exist: {rebuild} first")
    if db_path.is_dir():
        raise CliError(f"{db_path} is a directory, not a database file")
    if not db_path.is_file():
        raise CliError(f"{db_path} is not a regular file")
    try:
        conn = connect_readonly(db_path)
        try:
            tables = {row[0] for row in conn.execute("select name from sqlite_master where type = 'table'")}
            missing = [t for t in REQUIRED_TABLES if t not in tables]
            if missing:
                raise CliError(f"{db_path} is not a bridge-laws database (no table {missing[0]!r}): {rebuild}")
            verdict = conn.execute("pragma quick_check").fetchone()[0]
            if verdict != "ok":
                raise CliError(f"{db_path} is damaged ({verdict}): {rebuild}")
        finally:
            conn.close()
    except sqlite3.Error as error:
        raise CliError(f"{db_path} is not a readable SQLite database ({error}): {rebuild}") from error
    except OSError as error:
        raise CliError(f"cannot read {db_path}: {error.strerror or error}") from error


def terminate_cleanly(signum, frame):  # noqa: ARG001
    """SIGTERM unwinds like Ctrl-C, so a stopped build still removes its staging directory."""
    raise SystemExit(128 + signum)


@contextmanager
def build_failures(db_path: Path) -> Iterator[None]:
    """Whatever stops a build, as a CliError (one line, exit status 2) saying the outputs were left as they were."""
    try:
        yield
    except TargetError as error:
        raise CliError(f"build refused: {error}") from error
    except ParseError as error:
        raise CliError(f"build failed, {db_path} left unchanged: {error}") from error
    except OSError as error:
        where = f" ({error.filename})" if error.filename else ""
        raise CliError(f"build failed, {db_path} left unchanged: {error.strerror or error}{where}") from error
    except sqlite3.Error as error:
        raise CliError(f"build failed, {db_path} left unchanged: SQLite: {error}") from error


db_option = click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=DEFAULT_DB,
    show_default=True,
    help="SQLite database file",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON")


@click.command()
@db_option
@json_option
@click.option(
    "--text",
    "text_check",
    is_flag=True,
    help="Check the corpus texts for conversion errors instead (no database needed)",
)
@click.option("--all", "show_all", is_flag=True, help="With --text: list every candidate and its review")
@click.option(
    "--corpus",
    "corpus_dir",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=DEFAULT_CORPUS,
    show_default=True,
    help="With --text: the corpus to check",
)
def check(db_path: Path, as_json: bool, text_check: bool, show_all: bool, corpus_dir: Path):
    """Cross-references per document: found / resolved / unresolved, with every unresolved one listed.

    With --text: spans the PDF conversion may have garbled (ingest/checks/textcheck.py), how the errata
    review settled each, the source lines each parser keeps (ingest/checks/coverage.py), and every place a
    commentary prints the Laws' words against the Laws, each disagreement decided (ingest/checks/witness_check.py),
    and the slips the Chinese text prints, each judged (ingest/checks/slips.py).
    """
    if text_check:
        from ingest.checks.coverage import corpus_coverage, format_coverage, unexplained
        from ingest.checks.slips import check_slips, format_slips, slip_report
        from ingest.checks.text_review import check_corpus, format_report
        from ingest.checks.text_review import report as text_report
        from ingest.checks.witness_check import check_witnesses, format_witnesses, witness_report

        try:
            results = check_corpus(corpus_dir)
            kept = corpus_coverage(corpus_dir)
            witnesses = check_witnesses(corpus_dir)
            slips = check_slips(corpus_dir)
        except ParseError as error:
            raise CliError(f"cannot check the corpus: {error}") from error
        except OSError as error:
            where = f" ({error.filename})" if error.filename else ""
            raise CliError(f"cannot check the corpus: {error.strerror or error}{where}") from error
        data = text_report(results)
        data["coverage"] = {c.doc: {"lines": c.counted, "kept": c.kept, "rate": c.rate, "lost": c.lost} for c in kept}
        data["witnesses"] = witness_report(witnesses)
        data["source_slips"] = slip_report(slips)
        data["ok"] = (
            data["ok"] and not any(unexplained(c) for c in kept) and witnesses.ok and data["source_slips"]["ok"]
        )
        click.echo(
            json.dumps(data, ensure_ascii=False, indent=2)
            if as_json
            else "\n".join(
                (
                    format_report(results, show_all),
                    format_coverage(kept),
                    format_witnesses(witnesses, show_all),
                    format_slips(slips, show_all),
                )
            )
        )
        if not data["ok"]:
            sys.exit(1)
        return
    from ingest.checks.report import check_report, format_check_report

    check_database(db_path)
    report = check_report(db_path)
    click.echo(json.dumps(report, ensure_ascii=False, indent=2) if as_json else format_check_report(report))
    if not report.get("ok", True):
        sys.exit(1)
