"""/-/history/<law>: one law through every version in the corpus (1997 Chinese, the 2017 Laws as
the 2018 commentaries reprint them, the 2017 web PDF), aligned unit by unit with what happened at
each step; /-/history lists the laws. JSON at the same URLs with .json. Made at build
(ingest/editions/history.py, table law_history); a request reads one row."""

from __future__ import annotations

from urllib.parse import unquote

from ingest.text.refs import law_number
from ingest.text.spelling import typed_law_ref
from laws_site.http.locations import redirect
from laws_site.http.responses import error_response, html_page, json_response, read
from laws_site.i18n import catalog as i18n
from laws_site.i18n.catalog import N_
from laws_site.read import editions, queries, reasons
from laws_site.read.diffs import side_pieces_of


async def view(datasette, request):
    law = law_typed(request.url_vars["law"])
    as_json = bool(request.url_vars.get("as_json"))
    within = section_typed(law)
    if within and await read(datasette, lambda conn: is_law_unit(conn, within[1])):
        # 61A, 第61条B項2: that law's history, at the section's row (it said: not a law number)
        number, ref = within
        return redirect(f"/-/history/{number}" + (".json" if as_json else f"#h-{ref}"))
    try:
        history = await read(datasette, lambda conn: editions.law_history(conn, law))
    except editions.HistoryError as error:
        return await error_response(
            datasette,
            request,
            404,
            error.args[0],
            as_json=as_json,
            title="No such law",
        )
    if as_json:
        return json_response(history)
    notes = await read(datasette, reasons.notes_for)  # the editors' notes in the reader's language
    for version in history["versions"]:
        version["why"] = reasons.reason(version.get("note"), notes)
    lang = i18n.lang()  # read before the thread
    sides = editions.history_sides(history)
    history["law_changes"] = await read(
        datasette, lambda conn: editions.law_changes_of(conn, history["law"], sides, lang)
    )
    previous = None
    for row in history["rows"]:
        for step in row["steps"].values():
            if isinstance(step, dict):
                own = editions.translations(step.get("reason_ja"), step.get("reason_zh"))
                step["why"] = reasons.reason(step.get("reason"), notes, lang, own)
        step = row["steps"].get("old_to_new") or {}
        step["why_shown"] = step.get("reason") != previous  # a split's one reason, printed once
        previous = step.get("reason")
        for reprint in row["reprints"]:
            reprint["pieces"], reprint["new_pieces"] = side_pieces_of(
                reprint.get("ops"), reprint.get("text"), (row["new"] or {}).get("text")
            )
    return await html_page(
        datasette,
        request,
        "history.html",
        {"history": history, "relation_names": editions.RELATION_NAMES, "basis_names": editions.BASIS_NAMES},
    )


def law_typed(typed: str) -> str:
    """The law number of a law typed in any spelling the search box takes (第61条, Law 61, ６１ -> 61);
    anything else (16x names a section) as typed, for the error to name. The path comes percent-encoded."""
    typed = unquote(typed)  # the error names what was typed (😀), not its encoding (%F0%9F%98%80)
    ref = typed_law_ref(typed)
    return ref if ref and ref.isdigit() else typed


def section_typed(typed: str) -> tuple[int, str] | None:
    """(law number, ref) of a part of a law typed in any spelling the search box takes (61A, 第61条A項)."""
    ref = None if typed.isdigit() else typed_law_ref(typed)
    number = law_number(ref) if ref else None
    return (number, ref) if number else None


def is_law_unit(conn, ref: str) -> bool:
    """A unit of some edition of the Laws (16X is none: still the error that names it)."""
    laws = [document.id for document in queries.registry(conn).laws]
    return any(conn.execute("select 1 from sections where doc = ? and ref = ?", (doc, ref)).fetchone() for doc in laws)


MESSAGES = [N_("No such law")]  # the error page's title


async def index(datasette, request):
    laws = await read(datasette, editions.history_index)
    if request.url_vars.get("as_json"):
        return json_response(laws)
    return await html_page(datasette, request, "history.html", {"history": None, "index": laws})
