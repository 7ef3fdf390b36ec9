"""The ruling guides: /-/guides (the list) and /-/guides/<id>?path=... (one question, or a ruling).

A director at the table answers one question at a time: each answer is a link to the next page,
whose URL is the path of answers so far (laws_site/read/guides.py), so every step works without
JavaScript, is cached once per build (responses.made_once) and is packed for offline use (the
offline crawl follows the links). A page shows the answers given so far, each one tap from being
changed; a ruling shows what the Director does, the law's own words (the quote marked inside its
unit's text, linked to the unit, which a tap previews) and the options the law gives, each quoted.

JSON: /-/guides.json (every guide, with the laws it covers) and /-/guides/<id>.json (the whole
guide: steps, rules, quotes; ``?path=`` adds where that path leads). Errors in Datasette's shape:
an unknown guide is a 404, a path that is no path a 400, a path the guide does not have a 404.
"""

from __future__ import annotations

from laws_site.http.responses import error_response, html_page, json_response, read
from laws_site.i18n import catalog as i18n
from laws_site.i18n.catalog import N_
from laws_site.i18n.message import message
from laws_site.read import guides as reading
from laws_site.read.units import labels

NO_SUCH_GUIDE = N_("No such ruling guide")  # the error page's title (laws_error.html translates it)


# ---------------------------------------------------------------- the list


async def index(datasette, request):
    as_json = bool(request.url_vars.get("as_json"))
    lang = i18n.lang()
    listed = await read(datasette, lambda conn: guide_summaries(conn, None if as_json else lang))
    if as_json:
        return json_response({"ok": True, "guides": listed})
    return await html_page(datasette, request, "guides.html", {"guides": listed})


def guide_summaries(conn, lang: str | None) -> list[dict]:
    """Every guide with the laws it covers: for the page (``lang``: texts and labels in it) or the JSON
    (texts in every language)."""
    found = reading.all_guides(conn)
    names = labels(conn, [f"{g.doc}:{ref}" for g in found for ref in g.laws], lang) if lang else None
    return [
        {
            "id": guide.id,
            "title": guide.title[lang] if lang else guide.title,
            "scope": (guide.scope or {}).get(lang) if lang else guide.scope,
            "laws": [reading.unit_link(guide.doc, ref, names) for ref in guide.laws],
            "url": guide.url(),
            "json_url": f"/-/guides/{guide.id}.json",
            "steps": len(guide.steps),
            "rulings": len(guide.rules),
        }
        for guide in found
    ]


# ---------------------------------------------------------------- one guide


async def view(datasette, request):
    guide_id = request.url_vars["guide"]
    as_json = bool(request.url_vars.get("as_json"))
    path_text = request.args.get("path")
    lang = i18n.lang()  # read before the thread: a read thread does not see the request's context
    found = await read(datasette, lambda conn: reading.one_guide(conn, guide_id))
    if found is None:
        return await unknown_guide(datasette, request, guide_id, as_json, lang)
    try:
        walked = reading.walk(found, path_text)
    except reading.PathError as error:
        return await bad_path(datasette, request, found, error, as_json, lang)
    if as_json:
        data = await read(datasette, lambda conn: guide_json(conn, found))
        if path_text is not None:
            data["at"] = walk_json(walked)
        return json_response(data)
    context = await read(datasette, lambda conn: page_context(conn, walked, lang))
    return await html_page(datasette, request, "guide.html", context)


async def unknown_guide(datasette, request, guide_id: str, as_json: bool, lang: str):
    listed = await read(datasette, lambda conn: guide_summaries(conn, "en" if as_json else lang))
    unknown = message(
        "There is no ruling guide “%(guide)s”: choose one of the guides below.",
        "no ruling guide '%(guide)s'; the guides are at /-/guides.json",
        guide=guide_id[:60],
    )
    return await error_response(
        datasette,
        request,
        404,
        unknown,
        title=NO_SUCH_GUIDE,
        as_json=as_json,
        extra={"suggestions": [{"label": g["title"], "url": g["url"]} for g in listed]},
    )


async def bad_path(datasette, request, guide: reading.Guide, error: reading.PathError, as_json: bool, lang: str):
    """A 400 or 404 that offers the answers of the last step the path did reach."""
    reached = reading.walk(guide, ".".join(error.valid))  # the part of the path the walk did follow
    offered = reached.at if not reached.is_rule else None
    shown = "en" if as_json else lang  # the page names each answer in its language; JSON errors are in English
    suggestions = [
        {"label": answer["label"][shown], "url": guide.url((*error.valid, answer["next"] or answer["rule"]))}
        for answer in (guide.steps[offered]["answers"] if offered else [])
    ]
    suggestions.append({"label": guide.title["en"] if as_json else i18n.gettext("Start again"), "url": guide.url()})
    return await error_response(
        datasette,
        request,
        error.status,
        error.message,
        as_json=as_json,
        extra={"suggestions": suggestions},
    )


# ---------------------------------------------------------------- the page


def page_context(conn, walked: reading.Walk, lang: str) -> dict:
    guide = walked.guide
    node = guide.rules.get(walked.at) if walked.is_rule else guide.steps[walked.at]
    refs = [*guide.laws, *(node.get("see") or ()), *cited_refs(node)]
    names = labels(conn, [f"{guide.doc}:{ref}" for ref in refs], lang)
    texts = reading.unit_texts(conn, guide.doc, [node["cite"]]) if walked.is_rule else {}
    trail = [
        {
            "question": guide.steps[step_id]["question"][lang],
            "answer": guide.steps[step_id]["answers"][index]["label"][lang],
            "url": guide.url(walked.path[:depth]),
        }
        for depth, (step_id, index) in enumerate(walked.taken)
    ]
    return {
        "guide": {
            "id": guide.id,
            "title": guide.title[lang],
            "scope": (guide.scope or {}).get(lang),
            "laws": [reading.unit_link(guide.doc, ref, names) for ref in guide.laws],
            "url": guide.url(),
            "json_url": f"/-/guides/{guide.id}.json",
        },
        "trail": trail,
        "back_url": guide.url(walked.path[:-1]) if walked.path else None,
        "step": None if walked.is_rule else step_context(guide, node, walked.path, names, lang),
        "rule": rule_context(conn, guide, node, names, texts, lang) if walked.is_rule else None,
    }


def step_context(guide: reading.Guide, step: dict, path: tuple[str, ...], names: dict, lang: str) -> dict:
    return {
        "question": step["question"][lang],
        "note": (step.get("note") or {}).get(lang),
        "see": [reading.unit_link(guide.doc, ref, names) for ref in step.get("see") or ()],
        "answers": [
            {
                "label": answer["label"][lang],
                "url": guide.url((*path, answer["next"] or answer["rule"])),
                "ends": answer["rule"] is not None,
            }
            for answer in step["answers"]
        ],
    }


def rule_context(conn, guide: reading.Guide, rule: dict, names: dict, texts: dict, lang: str) -> dict:
    text = texts.get(rule["cite"]) or ""
    start = text.find(rule["quote"])  # the build checked it is there
    before, after = (text[:start], text[start + len(rule["quote"]) :]) if start >= 0 else ("", "")
    taken_over = rule.get("guide") and reading.one_guide(conn, rule["guide"])
    return {
        "summary": rule["summary"][lang],
        "note": (rule.get("note") or {}).get(lang),
        "cite": {**reading.unit_link(guide.doc, rule["cite"], names), "quote": rule["quote"]},
        "before": before,
        "after": after,
        "options": [citation_context(guide, option, names, lang) for option in rule.get("options") or ()],
        "also": [citation_context(guide, extra, names, lang) for extra in rule.get("also") or ()],
        "next_guide": {"title": taken_over.title[lang], "url": taken_over.url()} if taken_over else None,
    }


def citation_context(guide: reading.Guide, citation: dict, names: dict, lang: str) -> dict:
    return {
        **reading.unit_link(guide.doc, citation["cite"], names),
        "quote": citation["quote"],
        "option": (citation.get("label") or {}).get(lang),
        "note": (citation.get("note") or {}).get(lang),
        "options": [citation_context(guide, option, names, lang) for option in citation.get("options") or ()],
    }


def cited_refs(node: dict) -> list[str]:
    """Every ref a rule cites: its own, its options' (nested) and its also-entries' (none for a step)."""
    found = [node["cite"]] if "cite" in node else []
    for citation in [*(node.get("options") or ()), *(node.get("also") or ())]:
        found += cited_refs(citation)
    return found


# ---------------------------------------------------------------- JSON


def guide_json(conn, guide: reading.Guide) -> dict:
    """The whole guide, texts in every language, each step and rule with the URL of its page (by the
    first path that reaches it) and each cited unit with its permalink."""
    paths = guide.canonical_paths()

    def unit(ref: str) -> dict:
        return reading.unit_link(guide.doc, ref)

    def citation(data: dict) -> dict:
        out = {**data, "cite": unit(data["cite"])}
        if "options" in data:
            out["options"] = [citation(option) for option in data["options"]]
        return out

    steps = {
        step_id: {
            **step,
            "see": [unit(ref) for ref in step["see"]],
            "answers": [{**a, "url": guide.url(paths[a["next"] or a["rule"]])} for a in step["answers"]],
            "url": guide.url(paths[step_id]),
        }
        for step_id, step in guide.steps.items()
    }
    rules = {
        rule_id: {
            **rule,
            "cite": unit(rule["cite"]),
            "options": [citation(option) for option in rule["options"]],
            "also": [citation(extra) for extra in rule["also"]],
            "guide_url": f"/-/guides/{rule['guide']}" if rule.get("guide") else None,
            "url": guide.url(paths[rule_id]),
        }
        for rule_id, rule in guide.rules.items()
    }
    return {
        "ok": True,
        "id": guide.id,
        "title": guide.title,
        "scope": guide.scope,
        "doc": guide.doc,
        "laws": [unit(ref) for ref in guide.laws],
        "start": guide.start,
        "url": guide.url(),
        "steps": steps,
        "rules": rules,
    }


def walk_json(walked: reading.Walk) -> dict:
    """Where ``?path=`` leads: the step or rule reached and the answers taken on the way."""
    steps = walked.guide.steps
    return {
        "path": ".".join(walked.path),
        "kind": "rule" if walked.is_rule else "step",
        "id": walked.at,
        "url": walked.guide.url(walked.path),
        "taken": [
            {"step": step_id, "answer": index, "label": steps[step_id]["answers"][index]["label"]}
            for step_id, index in walked.taken
        ],
    }
