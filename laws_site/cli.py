"""`bridge-laws`: build the database (ingest), then serve it, look units up, search, compare.

Every subcommand takes `--db PATH` (default ./laws.db); those that print results take `--json`.
Exit status: 0 done; 1 not found (a unit, a ref neither document of a diff has) or `check` below
its target; 2 bad input (a bad option or argument, an unknown document, a --db that is not a
bridge-laws database, a corpus error in `build`). Errors are one line on stderr; with `--json`, an
error is also one JSON object on stdout in the API's error shape (docs/api.md, schema `error`):
`{"ok": false, "error", "status": 404 or 400, "title"}`, plus `suggestions` for a unit not found.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import sys
from pathlib import Path

import click

from ingest.build.cli import CliError, build_failures, check, check_database, check_db_name, terminate_cleanly
from ingest.build.db_target import DEFAULT_DB
from ingest.build.read_only import connect_readonly
from ingest.sources.corpus import DEFAULT_CORPUS
from laws_site.http.serve import MAX_WORKERS, bound

db_option = click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=DEFAULT_DB,
    show_default=True,
    help="SQLite database file",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON")


PATH_OPTIONS = ("--db", "--corpus")  # file names may be any bytes; every other argument is text


def undecodable_argument(args: list[str]) -> str | None:
    """The first text argument that is not valid UTF-8 (Python keeps such bytes as surrogates)."""
    after_path_option = False
    for arg in args:
        is_path = after_path_option or arg.startswith(tuple(f"{o}=" for o in PATH_OPTIONS))
        after_path_option = arg in PATH_OPTIONS
        if is_path:
            continue
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            return arg.encode("utf-8", "surrogateescape").decode("ascii", "backslashreplace")
    return None


class NotFound(CliError):
    """What was asked for does not exist: exit status 1 (CliError's 2 is for bad input)."""

    exit_code = 1

    def __init__(self, message: str, suggestions: list[str] | None = None):
        super().__init__(message)
        self.suggestions = suggestions or []


# exit status -> the API's status and title for the same kind of error (--json)
JSON_STATUS = {1: (404, "Not Found"), 2: (400, "Bad Request")}


def fail(message: str, status: int = 2, as_json: bool = False, suggestions: list[str] | None = None):
    """One line on stderr and exit `status`; with --json also the error as JSON on stdout."""
    message = " ".join(message.split())
    if as_json:
        code, title = JSON_STATUS.get(status, (400, "Bad Request"))
        error = {"ok": False, "error": message, "status": code, "title": title}
        if suggestions:
            error["suggestions"] = suggestions
        click.echo(json.dumps(error, ensure_ascii=False))
    click.echo(f"Error: {message}", err=True)
    sys.exit(status)


class CleanErrors(click.Group):
    """Usage errors and CliErrors as one line on stderr (not click's usage block), exit status 2
    (NotFound: 1); with --json also as JSON on stdout."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        args = list(sys.argv[1:] if args is None else args)
        as_json = "--json" in args
        bad = undecodable_argument(args)
        if bad is not None:
            fail(f"argument {bad} is not valid UTF-8 text", 2, as_json)
        try:
            result = super().main(
                args=args, prog_name=prog_name, complete_var=complete_var, standalone_mode=False, **extra
            )
        except click.exceptions.Abort:
            fail("aborted", 1)
        except click.ClickException as error:
            status = 1 if isinstance(error, NotFound) else 2
            fail(error.format_message(), status, as_json, getattr(error, "suggestions", None))
        except KeyboardInterrupt:
            fail("interrupted", 130)
        if isinstance(result, int) and not isinstance(result, bool) and standalone_mode:
            sys.exit(result)  # click.exceptions.Exit (e.g. --help) returns its code here
        return result


@click.group(cls=CleanErrors)
@click.version_option(package_name="bridge-laws")
def cli():
    """The Laws of Duplicate Bridge (Japanese 2017, Chinese 1997), commentaries and JCBL regulations."""


cli.add_command(check)

corpus_option = click.option(
    "--corpus",
    "corpus_dir",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=DEFAULT_CORPUS,
    show_default=True,
    help="Directory holding sources.yml and the texts",
)
jobs_option = click.option(
    "--jobs",
    type=click.IntRange(1, 4),
    default=None,
    help="Offline packs made at once, one process each (default: all 4)",
)


@cli.command()
@db_option
@corpus_option
@click.option(
    "--offline/--no-offline",
    default=True,
    show_default=True,
    help="Also make the offline packs (the pocket app: every page in each interface language, the search data)",
)
@jobs_option
def build(db_path: Path, corpus_dir: Path, offline: bool, jobs: int | None):
    """Parse the corpus and write everything the site serves: the database and its offline packs
    (<db>.offline/<build id>/), switched into place together. The same corpus and code give the
    same bytes; a failed or stopped build leaves the previous outputs as they were."""
    signal.signal(signal.SIGTERM, terminate_cleanly)
    counts = run_build(db_path, corpus_dir, offline, jobs)
    if counts["packs"]:
        click.echo(f"offline packs of build {counts['build_id'][:8]} in {counts['seconds']:.1f} s", err=True)
    click.echo(
        f"{counts['documents']} documents, {counts['units']} units, {counts['xrefs']} cross-references -> {db_path}"
    )


def run_build(db_path: Path, corpus_dir: Path, offline: bool = True, jobs: int | None = None) -> dict:
    """`laws_site.offline.make.build_outputs` with progress on stderr; a failure is a CliError (one line)."""
    from laws_site.offline.make import PackError, build_outputs

    with build_failures(db_path):
        try:
            return build_outputs(db_path, corpus_dir, offline, jobs, log=lambda message: click.echo(message, err=True))
        except PackError as error:
            raise CliError(f"build failed, {db_path} left unchanged: {error}") from error


@cli.command()
@db_option
@jobs_option
def pack(db_path: Path, jobs: int | None):
    """Make the offline packs of a database built without them (`build --no-offline`) into
    <db>.offline/<build id>/; packs already there are kept. `build` makes them itself."""
    from laws_site.offline.make import PackError, add_packs

    check_database(db_path)
    signal.signal(signal.SIGTERM, terminate_cleanly)
    try:
        with build_failures(db_path):
            result = add_packs(db_path, jobs, log=click.echo)
    except PackError as error:
        raise CliError(str(error)) from error
    made = ", ".join(figures["name"] for figures in result["packs"]) or "nothing (all made already)"
    click.echo(f"offline packs of build {result['build'][:8]}: made {made}")


class DatasetteSetting(click.types.CompositeParamType):
    """`--setting NAME VALUE`: one of Datasette's settings, typed as Datasette types it."""

    name = "setting"

    @property
    def arity(self) -> int:
        return 2  # NAME VALUE

    def convert(self, value, param, ctx):
        from laws_site.http.serve import setting_value

        name, text = value
        try:
            setting_value(name, text)
        except ValueError as error:
            self.fail(str(error), param, ctx)
        return name, text


@cli.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@db_option
@click.option(
    "--base-url",
    default="/",
    show_default=True,
    help="The path the site will live under on its host, e.g. /bridge/ for https://example.github.io/bridge/",
)
@click.option(
    "--server",
    default=None,
    metavar="URL",
    help="A bridge-laws server for JSON, SQL and Datasette's table pages (without one, their links say they need it)",
)
def export(directory: Path, db_path: Path, base_url: str, server: str | None):
    """Write the whole site as static files into DIRECTORY, for any HTTPS static host or CDN: every
    page in ja/zh/en, the service worker, the offline packs and offline search (from the build's
    outputs: `build` first)."""
    from laws_site.offline.export import ExportError
    from laws_site.offline.export import export as export_site

    check_database(db_path)
    if server is not None and not server.startswith(("https://", "http://")):
        raise CliError(f"--server {server!r} is not an http(s) URL")
    check_site(db_path, {"base_url": base_url})  # the site the export renders refuses what serve refuses
    try:
        figures = export_site(db_path, directory, base_url, server, log=click.echo)
    except ExportError as error:
        raise CliError(str(error)) from error
    except OSError as error:
        where = f" ({error.filename})" if error.filename else ""
        raise CliError(f"export failed, {directory} left as it was: {error.strerror or error}{where}") from error
    click.echo(
        f"{directory}: {figures['files']:,} files, {figures['bytes']:,} bytes (build {figures['build'][:8]}); "
        f"serve it over HTTPS at {'/' + base_url.strip('/') + '/' if base_url.strip('/') else '/'}"
    )


@cli.command()
@db_option
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8001, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, MAX_WORKERS),
    help="Server processes on the one port (one answers on one core; a host of N cores: N)",
)
@click.option(
    "--setting",
    "settings",
    type=DatasetteSetting(),
    multiple=True,
    help="A Datasette setting over the site's own (e.g. --setting sql_time_limit_ms 3000)",
)
@click.option("--access-log", is_flag=True, help="Log every request (off: the proxy in front logs them)")
def serve(db_path: Path, host: str, port: int, workers: int, settings: tuple, access_log: bool):
    """Serve the database with Datasette (builds it first if it is missing).

    uvicorn runs `workers` processes on the one port and replaces one that dies; SIGTERM stops them
    within 10 s, slow clients or not. A rebuilt database is served after a restart."""
    check_db_name(db_path)
    if not os.path.lexists(db_path):
        click.echo(f"{db_path} not found: building it first", err=True)
        run_build(db_path, DEFAULT_CORPUS)
    check_database(db_path)
    check_site(db_path, dict(settings))
    check_listen(host, port)
    from laws_site.http.serve import run

    run(db_path, host, port, workers, dict(settings), access_log)


def check_site(db_path: Path, settings: dict) -> None:
    """CliError (one line) for settings the site refuses as it starts (a base_url that names a
    database): each worker would otherwise end on a traceback."""
    from laws_site.http.serve import datasette_for, site_app

    try:
        site_app(datasette_for(db_path, settings))
    except ValueError as error:
        raise CliError(str(error)) from None


def check_listen(host: str, port: int) -> None:
    """CliError (one line) if the server could not listen on host:port: an unknown host or a port
    in use would otherwise end the server after its start-up log, exit status 3."""
    bound_or_fail(host, port).close()


def bound_or_fail(host: str, port: int) -> socket.socket:
    """A socket bound to host:port as the server binds it, else CliError naming why, in one line."""
    try:
        return bound(host, port)
    except (socket.gaierror, UnicodeError) as error:
        raise CliError(f"cannot serve on {host}:{port}: unknown host ({getattr(error, 'strerror', None) or error})")
    except OSError as error:
        raise CliError(f"cannot serve on {host}:{port}: {error.strerror or error}") from error


def connect(db_path: Path) -> sqlite3.Connection:
    """The database read-only, after checking it is one `bridge-laws build` wrote (else CliError)."""
    check_database(db_path)
    return connect_readonly(db_path)


def known_document(conn: sqlite3.Connection, doc: str | None) -> None:
    if doc is None:
        return
    ids = [row[0] for row in conn.execute("select id from documents order by rowid")]
    if doc not in ids:
        raise CliError(f"unknown document {doc!r}; choose one of: {', '.join(ids)}")


def unknown_unit(conn: sqlite3.Connection, doc: str, ref: str) -> None:
    """NotFound (exit 1), suggesting the nearest refs."""
    from laws_site.read.units import nearest_refs

    suggestions = nearest_refs(conn, doc, ref)
    hint = f" Did you mean: {', '.join(suggestions)}?" if suggestions else ""
    raise NotFound(f"No unit {ref!r} in {doc!r}.{hint}", suggestions)


@cli.command()
@click.argument("doc")
@click.argument("ref")
@db_option
@json_option
def show(doc: str, ref: str, db_path: Path, as_json: bool):
    """Show one unit, e.g. `show laws-2017-ja 61B2(a)`."""
    from laws_site.read.units import load_unit

    conn = connect(db_path)
    known_document(conn, doc)
    unit = load_unit(conn, doc, ref)
    if unit is None:
        unknown_unit(conn, doc, ref)
    if as_json:
        click.echo(json.dumps(unit, ensure_ascii=False, indent=2))
        return
    heading = " ".join(part for part in [unit["doc"], unit["ref"], unit["title"] or ""] if part)
    click.echo(click.style(heading, bold=True))
    if unit["page"]:
        click.echo(f"(p. {unit['page']})")
    if unit["text"]:
        click.echo(unit["text"])
    if unit["children"]:
        click.echo(f"children: {', '.join(unit['children'])}")
    click.echo(f"url: {unit['url']}")


@cli.command()
@click.argument("query")
@click.option("--doc", default=None, help="Only this document")
@click.option("--lang", type=click.Choice(["ja", "zh"]), default=None, help="Only this language")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(min=1), help="At most this many results")
@click.option(
    "--offset", default=0, show_default=True, type=click.IntRange(min=0), help="Skip this many results (the next page)"
)
@click.option(
    "--exact",
    is_flag=True,
    help="Search only what was typed: no readings, romaji, loanwords by sound, "
    "synonyms, Chinese variants or corrections",
)
@db_option
@json_option
def search(
    query: str, doc: str | None, lang: str | None, limit: int, offset: int, exact: bool, db_path: Path, as_json: bool
):
    """Full-text search, best first; a citation (64A1, 第16条B項1, Law 73) lists that unit first."""
    from laws_site.search.engine import QueryError, search_page
    from laws_site.search.snippets import snippet_text

    conn = connect(db_path)
    known_document(conn, doc)
    try:
        page = search_page(conn, query, doc=doc, lang=lang, limit=limit, offset=offset, expand=not exact)
    except QueryError as error:
        raise CliError(str(error)) from error
    results = page["results"]
    if as_json:
        click.echo(json.dumps(search_json(page, doc, lang), ensure_ascii=False, indent=2))
        return
    citation = page["citation"]
    if citation and citation["message"]:
        nearest = ", ".join(f"{unit['doc']} {unit['ref']}" for unit in citation["nearest"])
        click.echo(citation["message"] + (f" Nearest: {nearest}" if nearest else ""))
    for other in (citation or {}).get("alternatives", []):
        named = other["labels"].get("ja") or other["ref"]
        click.echo(
            f"also a citation of: {other['doc']} {other['ref']} ({named}; bridge-laws show {other['doc']} {other['ref']})"
        )
    if page.get("did_you_mean"):
        click.echo(f"did you mean: {', '.join(page['did_you_mean'])} (--exact searches only what you typed)")
    if page["also_searched"]:
        click.echo(
            f"also searched: {', '.join(page['also_searched'])}"
            + (" (--exact searches only what you typed)" if page.get("expansions") else "")
        )
    if not results:
        click.echo("No results.")
    for result in results:
        click.echo(f"{result['doc']} {result['ref']}  {result['title'] or ''}  ({result['score']:.2f})")
        click.echo(f"    {snippet_text(result['snippet'], '【', '】')}")
    if results and (offset or offset + len(results) < page["total"]):
        more = f"; next: --offset {offset + limit}" if offset + limit < page["total"] else ""
        click.echo(f"({offset + 1}-{offset + len(results)} of {page['total']}{more})")


def search_json(page: dict, doc: str | None, lang: str | None) -> dict:
    """The answer of /-/search.json for the same query (docs/api.md), without what only a URL has
    (`ok`, `next_url`, `previous_url`): `next` is the offset of the next page, None on the last."""
    total, offset, limit = page["total"], page["offset"], page["limit"]
    following = offset + limit if offset + limit < total else None
    return {
        "query": page["query"],
        "doc": doc,
        "lang": lang,
        "total": total,
        "count": len(page["results"]),
        "offset": offset,
        "limit": limit,
        "next": str(following) if following is not None else None,
        "also_searched": page["also_searched"],
        "did_you_mean": page["did_you_mean"],
        "word_langs": page["word_langs"],
        "expansions": page["expansions"],
        "exact": page["exact"],
        "citation": page["citation"],
        "results": page["results"],
    }


@cli.command()
@click.argument("doc")
@click.argument("ref")
@click.option("--deep", is_flag=True, help="Incoming references include those to sub-units")
@db_option
@json_option
def refs(doc: str, ref: str, deep: bool, db_path: Path, as_json: bool):
    """References from and to one unit, e.g. `refs laws-2017-ja 61B --deep`."""
    from laws_site.read.units import refs_for

    conn = connect(db_path)
    known_document(conn, doc)
    try:
        result = refs_for(db_path, doc, ref, deep=deep)
    except KeyError:
        unknown_unit(conn, doc, ref)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
        return
    click.echo(
        click.style(f"{doc} {ref}: {len(result['outgoing'])} outgoing, {len(result['incoming'])} incoming", bold=True)
    )
    for row in result["outgoing"]:
        mark = "" if row["resolved"] else "  (unresolved)"
        click.echo(f"  -> {row['surface']}  {row['doc']}:{row['ref']} [{row['kind']}]{mark}")
    for row in result["incoming"]:
        click.echo(f"  <- {row['id']}  {row['surface']} [{row['kind']}]")


@cli.command()
@click.argument("ref")
@click.option("--from", "from_doc", required=True, help="e.g. laws-1997-zh or revoke-notes-ja")
@click.option("--to", "to_doc", required=True, help="e.g. laws-2017-ja")
@click.option("--whitespace", is_flag=True, help="Also report spacing and full-/half-width differences")
@db_option
@json_option
def diff(ref: str, from_doc: str, to_doc: str, whitespace: bool, db_path: Path, as_json: bool):
    """Compare a unit and its sub-units across two documents, e.g. `diff 61 --from revoke-notes-ja --to laws-2017-ja`."""
    from laws_site.read.diffs import DiffError, DiffNotFound, diff_units

    try:
        result = diff_units(connect(db_path), ref, from_doc, to_doc, show_whitespace=whitespace)
    except DiffNotFound as error:
        raise NotFound(str(error)) from error
    except DiffError as error:
        raise CliError(str(error)) from error
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
        return
    for row in result["rows"]:
        click.echo(click.style(f"{row['ref']}  {row['status']}", bold=True))
        if row.get("note"):
            click.echo(f"    note: {row['note']}")
        if row["status"] == "changed" and row.get("ops") and from_doc_lang_same(result):
            click.echo("    " + render_ops(row["ops"]))
        else:
            for side in ("from", "to"):
                if row.get(f"{side}_text"):
                    click.echo(f"    {side}: {row[f'{side}_text']}")
        for field in ("refs_added", "refs_removed", "numbers_added", "numbers_removed"):
            if row.get(field):
                click.echo(f"    {field.replace('_', ' ')}: {', '.join(map(str, row[field]))}")


def from_doc_lang_same(result: dict) -> bool:
    return result["from"].get("lang") == result["to"].get("lang")


def render_ops(ops: list[dict]) -> str:
    """`[-deleted-]{+inserted+}` around changes, unchanged text as is."""
    parts = []
    for op in ops:
        if op["op"] == "equal":
            parts.append(op["from"])
        else:
            parts.append((f"[-{op['from']}-]" if op["from"] else "") + (f"{{+{op['to']}+}}" if op["to"] else ""))
    return "".join(parts)


def main() -> None:
    """The console script."""
    cli()


if __name__ == "__main__":
    main()
