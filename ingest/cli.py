"""The build side of `bridge-laws`: `build` (corpus -> laws.db) and `check` (what the build found).

`laws_site.cli` puts these beside the read-side commands (show, search, refs, diff, serve).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .build import DEFAULT_DB, build as build_database
from .corpus import DEFAULT_CORPUS
from .records import ParseError

db_option = click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_DB,
                         show_default=True, help="SQLite database file")
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON")


@click.command()
@db_option
@click.option("--corpus", "corpus_dir", type=click.Path(file_okay=False, exists=True, path_type=Path),
              default=DEFAULT_CORPUS, show_default=True, help="Directory holding sources.yml and the texts")
def build(db_path: Path, corpus_dir: Path):
    """Parse the corpus and (re)build the database atomically."""
    try:
        counts = build_database(db_path, corpus_dir, progress=lambda message: click.echo(message, err=True))
    except ParseError as error:
        raise click.ClickException(f"build failed, {db_path} left unchanged: {error}") from error
    click.echo(f"{counts['documents']} documents, {counts['units']} units, {counts['xrefs']} cross-references "
               f"-> {db_path}")


@click.command()
@db_option
@json_option
def check(db_path: Path, as_json: bool):
    """Cross-references per document: found / resolved / unresolved, with every unresolved one listed."""
    from .report import check_report, format_check_report

    if not db_path.exists():
        raise click.ClickException(f"{db_path} does not exist: run `bridge-laws build --db {db_path}` first")
    report = check_report(db_path)
    click.echo(json.dumps(report, ensure_ascii=False, indent=2) if as_json else format_check_report(report))
    if not report.get("ok", True):
        sys.exit(1)
