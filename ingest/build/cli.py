"""The build side of `bridge-laws`: `build` (corpus -> laws.db) and `check` (what the build found).

`laws_site.cli` puts these beside the read-side commands (show, search, refs, diff, serve).
Errors a user can fix (a bad corpus file, a --db that is no database, a bad option) are one line
on stderr and exit status 2 (CliError); "not found" and a failed check are exit status 1.
"""

from __future__ import annotations

import gc
import json
import signal
import sqlite3
import sys
from pathlib import Path

import click

from ingest.build import yaml_prefetch
from ingest.build.db_target import DEFAULT_DB, TargetError, check_target
from ingest.checks.report import connect_readonly
from ingest.parsers.records import ParseError
from ingest.sources.corpus import DEFAULT_CORPUS


class CliError(click.ClickException):
    """One line on stderr, exit status 2."""

    exit_code = 2

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))


REQUIRED_TABLES = ("documents", "sections", "xrefs")

# What the last `build` command made: the console script leaves with os._exit right after it
# (laws_site.cli.main), which drops it all at once; freed as the build returned, its ~10^6 objects
# would cost ~7 ms of CPU one by one. The next `build` in the same process replaces it.
LEFT_FOR_EXIT: list = []


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
    """SIGTERM unwinds like Ctrl-C, so a killed build still removes its temporary file."""
    raise SystemExit(128 + signum)


def run_build(db_path: Path, corpus_dir: Path, keep: list | None = None) -> dict:
    """`ingest.build.database.build` with progress on stderr; whatever stops it is a CliError (one line).
    ``keep``: see `ingest.build.database.build`."""
    from ingest.build.database import build as build_database  # imported here: `build` starts the YAML prefetch first

    try:
        return build_database(db_path, corpus_dir, progress=lambda message: click.echo(message, err=True), keep=keep)
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
@click.option(
    "--corpus",
    "corpus_dir",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=DEFAULT_CORPUS,
    show_default=True,
    help="Directory holding sources.yml and the texts",
)
def build(db_path: Path, corpus_dir: Path):
    """Parse the corpus and (re)build the database atomically.

    A running `bridge-laws serve` picks the new file up on its next request."""
    signal.signal(signal.SIGTERM, terminate_cleanly)
    collecting = gc.isenabled()
    gc.disable()  # a build makes few cycles: collecting would only cost time (0.02-0.03 s)
    # the corpus's YAML parsed by a child while this process imports the build (ingest/build/yaml_prefetch.py)
    prefetch = yaml_prefetch.start(corpus_dir)
    LEFT_FOR_EXIT.clear()
    try:
        counts = run_build(db_path, corpus_dir, keep=LEFT_FOR_EXIT)
    finally:
        yaml_prefetch.stop(prefetch)
        if collecting:
            # everything the build allocated is in the youngest generation: the first collection
            # would walk it all (~10 ms) just before the exit; frozen, no collection looks at it
            gc.freeze()
            gc.enable()
    click.echo(
        f"{counts['documents']} documents, {counts['units']} units, {counts['xrefs']} cross-references -> {db_path}"
    )


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
        from ingest.checks.textcheck import check_corpus, format_report
        from ingest.checks.textcheck import report as text_report
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
