"""The diff pages: a law across editions and reprints (rows made at build, read by laws_site/read/diffs.py).

/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja   the two texts side by side, changes marked
/-/diff.json?...                                      the same as JSON (laws_site.read.diffs.diff_units)
/-/diff/overview?from=laws-1997-zh&to=laws-2017-ja    every law with counts of changed/added/removed
/-/diff/overview.json?...

A bad parameter is a 400 with a message (ingest.editions.diff.DiffError), never a 500.
"""

from __future__ import annotations

from datasette.utils.asgi import Response

from ingest.references.labels import law_citation
from laws_site.http.locations import redirect
from laws_site.http.responses import html_page, json_error, json_response, read, read_fixed
from laws_site.i18n import catalog as i18n
from laws_site.i18n import chrome
from laws_site.i18n.catalog import gettext
from laws_site.i18n.message import message
from laws_site.i18n.message import of as message_of
from laws_site.read import diffs as diffing
from laws_site.read import editions, queries, reasons

TRUE_VALUES = {"1", "true", "on", "yes"}


async def diff_view(datasette, request):
    args = request.args
    ref, from_doc, to_doc = args.get("ref", ""), args.get("from", ""), args.get("to", "")
    show_whitespace = args.get("whitespace", "").lower() in TRUE_VALUES
    as_json = bool(request.url_vars.get("as_json"))
    if not as_json and not any(args.get(k) for k in ("ref", "from", "to")):
        # /-/diff as linked from the home page: the form and the offered comparisons, not an error
        return await html_page(
            datasette,
            request,
            "diff.html",
            {
                "diff": None,
                "choices": await choices(datasette),
                "request_args": {"ref": "", "from": "", "to": "", "whitespace": False},
            },
        )
    try:
        if not ref:
            raise diffing.DiffError(
                message(
                    "Type a law reference such as 61, 61B or 40B2(a)(v).",
                    "missing 'ref': a law reference like 61, 61B or 40B2(a)(v)",
                )
            )
        result = await read(
            datasette, lambda conn: diffing.diff_units(conn, ref, from_doc, to_doc, show_whitespace=show_whitespace)
        )
    except diffing.DiffError as error:
        return await bad_request(datasette, request, message_of(error), as_json)
    if as_json:
        return json_response(result)
    if result.get("comparison") == "signals" and str(result["ref"]).isdigit():  # a law across editions
        lang, law = i18n.lang(), int(result["ref"])
        sides = [(result["to"]["doc"], result["to"]["edition"]), (result["from"]["doc"], result["from"]["edition"])]
        result["law_changes"] = await read(datasette, lambda conn: editions.law_changes_of(conn, law, sides, lang))
    notes = await read(datasette, reasons.notes_for) if any(r.get("note") for r in result["rows"]) else None
    for row in result["rows"]:
        row["why"] = reasons.reason(row.get("note"), notes)  # an editor's note in the reader's language
        row["from_pieces"], row["to_pieces"] = side_pieces(row, "from_text", "to_text", "ops")
        row["from_title_pieces"], row["to_title_pieces"] = side_pieces(row, "from_title", "to_title", "title_ops")
    # html_page: the pack crawl renders its ~720 diff pages per language from the synchronous templates
    return await html_page(
        datasette,
        request,
        "diff.html",
        {
            "diff": result,
            # 「第16条B項1」 / 第16条B款1 / Law 16B1: the unit as the reader's language cites it ("第16B1条" read wrong)
            "compared": law_citation(str(result["ref"]), i18n.lang()) or result["ref"],
            "choices": await choices(datasette),
            "request_args": {"ref": ref, "from": from_doc, "to": to_doc, "whitespace": show_whitespace},
        },
    )


async def overview_view(datasette, request):
    from_doc, to_doc = request.args.get("from", ""), request.args.get("to", "")
    as_json = bool(request.url_vars.get("as_json"))
    if not as_json and not from_doc and not to_doc:  # nothing chosen yet: the comparisons offered
        return redirect(datasette.urls.path("/-/diff"))
    try:
        result = await read(datasette, lambda conn: diffing.overview(conn, from_doc, to_doc))
    except diffing.DiffError as error:
        return await bad_request(datasette, request, message_of(error), as_json)
    if as_json:
        return json_response(result)
    # what the notes cell lists: the relations other than same / reworded, in the reader's language,
    # one string per law (a template expression per relation made this page slower than the target)
    names = {relation: gettext(msgid) for relation, msgid in editions.RELATION_NAMES.items()}
    for law in result["laws"]:
        law["relations_text"] = " · ".join(
            f"{names[r]} {n}" for r, n in sorted((law.get("relations") or {}).items()) if r not in ("same", "reworded")
        )
    return await html_page(
        datasette,
        request,
        "diff_overview.html",
        {
            "overview": result,
            "choices": await choices(datasette),
            "relation_names": editions.RELATION_NAMES,
            "request_args": {"from": from_doc, "to": to_doc},
        },
    )


async def bad_request(datasette, request, error, as_json: bool):
    """A 400: the error (a Message) as English text in JSON, in the interface language on the page."""
    if as_json:
        return json_error(400, str(error))
    page = await datasette.render_template(
        "diff.html",
        {
            "error": error,
            "diff": None,
            "choices": await choices(datasette),
            "request_args": {k: request.args.get(k, "") for k in ("ref", "from", "to", "whitespace")},
        },
        request=request,
    )
    return Response.html(page, status=400)


async def choices(datasette) -> dict:
    """The comparisons the site offers, for the form's lists: each side's documents, and the pairs.
    Read once per served immutable database and language (read_fixed): the same on every diff page.
    The templates only read it."""
    lang = i18n.lang()  # read before the thread

    def offered(conn):
        registry = queries.registry(conn)
        titles = chrome.short_titles(conn, lang)  # each document named in the interface language

        def label(doc_id):
            document = registry.get(doc_id)
            return {
                "id": doc_id,
                "label": titles.get(doc_id) or ((document.short_title or document.title) if document else doc_id),
                "edition": document.edition if document else "",
            }

        pairs = registry.diff_pairs()
        return {
            "from": [label(d) for d in dict.fromkeys(a for a, _ in pairs)],
            "to": [label(d) for d in dict.fromkeys(b for _, b in pairs)],
            "pairs": [{"from": label(a), "to": label(b)} for a, b in pairs],
        }

    return await read_fixed(datasette, ("diff_choices", lang), offered)


def side_pieces(row: dict, from_key: str, to_key: str, ops_key: str) -> tuple[list[dict], list[dict]]:
    """Both sides of a stored diff row as pieces for the template (laws_site/read/diffs.py makes them)."""
    return diffing.side_pieces_of(row.get(ops_key), row.get(from_key), row.get(to_key))
