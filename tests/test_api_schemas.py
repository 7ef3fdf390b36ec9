"""docs/api.md is the API's contract: its JSON Schemas validate live answers of every JSON route
(through the site's whole ASGI stack, as `bridge-laws serve` runs it), its examples validate
against their schemas, and every JSON route in routes.py is documented there."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from laws_site import routes

API_DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"
BLOCK = re.compile(r"^```json (schema|example)=(\w+)(?: [^\n]*)?\n(.*?)\n```", re.S | re.M)


def blocks(kind: str) -> list[tuple[str, object]]:
    return [
        (name, json.loads(body))
        for found, name, body in BLOCK.findall(API_DOC.read_text(encoding="utf-8"))
        if found == kind
    ]


SCHEMAS = dict(blocks("schema"))

# schema -> live requests whose answers it must accept
LIVE = {
    "unit": [
        "/laws-2017-ja/61B2(a).json",
        "/laws-2017-ja/61.json",
        "/laws-1997-zh/50D2(a).json",
        "/revoke-notes-ja/L61A.json",
        "/jcbl-regs-ja/24-5-1.json",
        "/laws-2017-ja/def:%E3%83%80%E3%83%9F%E3%83%BC.json",
        "/laws-2017-ja/index:%E3%83%AA%E3%83%9C%E3%83%BC%E3%82%AF.json",
        "/laws-2017-ja/fn:1.json",
        "/laws-1997-zh/23.json",
        "/laws-2017-ja/72C.json",
        "/jcbl-regs-ja/appendix-7-4-a-ii.json",
    ],
    "history": ["/-/history/23.json", "/-/history/16.json", "/-/history/61.json", "/-/history/93.json"],
    "history_index": ["/-/history.json"],
    "document": [
        "/laws-2017-ja.json",
        "/laws-1997-zh.json",
        "/revoke-notes-ja.json",
        "/out-of-turn-notes-ja.json",
        "/jcbl-regs-ja.json",
    ],
    "index": ["/laws-2017-ja/-/index.json", "/laws-2017-ja/-/index.json?row=%E3%81%8B"],
    "search": [
        "/-/search.json?q=%E3%83%AA%E3%83%9C%E3%83%BC%E3%82%AF",
        "/-/search.json?q=revoke&lang=zh",
        "/-/search.json?q=%E8%97%8F%E7%89%8C&limit=3",
        "/-/search.json?q=zzzzqqqq",
        "/-/search.json?q=%E3%83%80%E3%83%9F%E3%83%BC&doc=laws-2017-ja",
    ],
    "xrefs": [
        "/laws/xrefs.json?target_id=laws-2017-ja:61A&_shape=array",
        "/laws/xrefs.json?source_id=laws-2017-ja:61B2(a)&_shape=array",
        "/laws/xrefs.json?_shape=array&_size=200",
    ],
    "diff": [
        "/-/diff.json?ref=63B&from=revoke-notes-ja&to=laws-2017-ja",
        "/-/diff.json?ref=61&from=laws-1997-zh&to=laws-2017-ja",
        "/-/diff.json?ref=6D3&from=laws-1997-zh&to=laws-2017-ja&whitespace=1",
    ],
    "diff_overview": [
        "/-/diff/overview.json?from=laws-1997-zh&to=laws-2017-ja",
        "/-/diff/overview.json?from=revoke-notes-ja&to=laws-2017-ja",
    ],
    "citations": ["/-/citations.json", "/-/citations.json?from=61&to=44"],
    "glossary": ["/-/glossary.json", "/-/glossary.json?q=revoke"],
    "glossary_term": [
        "/-/glossary/%E3%83%80%E3%83%9F%E3%83%BC.json",
        "/-/glossary/revoke.json?limit=2",
        "/-/glossary/%E6%98%8E%E6%89%8B.json?limit=1&offset=3",
    ],
    "databases": ["/-/databases.json"],
    "guides": ["/-/guides.json"],
    "guide": [
        "/-/guides/revoke.json",
        "/-/guides/lead-out-of-turn.json?path=which-lead.opening-faced.declarer-spread.dummy-seen.opening-lead-options",
        "/-/guides/misinformation.json?path=corrected-when",
    ],
}
ERRORS = [
    "/laws-2017-ja/61Z.json",
    "/nope-doc.json",
    "/jcbl-regs-ja/-/index.json",
    "/-/diff.json?ref=61",
    "/-/diff.json?ref=61&from=nope&to=laws-2017-ja",
    "/-/diff/overview.json?from=x",
    "/-/search.json?q=",
    "/-/search.json?q=x&doc=nope",
    "/laws/nope.json",
    "/laws/sections.json?_sort=nope",
    "/laws/sections.json?_where=%00",
    "/-/history/999.json",
    "/-/history/%E5%8D%81.json",
    "/laws.json?sql=select+nonsense",
    "/laws.json?sql=select+randomblob(1000000000)",
    "/laws/sections.json?_size=x",
    "/-/guides/nope.json",
    "/-/guides/revoke.json?path=Nope",
    "/-/guides/revoke.json?path=trick-12.nope",
]


def validator(name: str) -> Draft202012Validator:
    Draft202012Validator.check_schema(SCHEMAS[name])
    return Draft202012Validator(SCHEMAS[name])


def problems(name: str, data) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator(name).iter_errors(data)][:5]


def test_every_response_kind_has_a_schema():
    assert set(SCHEMAS) == set(LIVE) | {"error"}


@pytest.mark.parametrize("name, example", blocks("example"), ids=lambda v: v if isinstance(v, str) else "")
def test_examples_match_their_schemas(name, example):
    assert not problems(name, example)


@pytest.mark.parametrize("name, path", [(n, p) for n, paths in LIVE.items() for p in paths])
async def test_live_answers_match_the_schemas(datasette, name, path):
    response = await datasette.client.get(path)
    assert response.status_code == 200, response.text[:300]
    assert response.headers["access-control-allow-origin"] == "*"
    assert not problems(name, response.json()), path


@pytest.mark.parametrize("path", ERRORS)
async def test_live_errors_match_the_error_schema(datasette, path):
    response = await datasette.client.get(path, follow_redirects=True)  # 1.0: /laws.json?sql= -> /laws/-/query.json
    assert 400 <= response.status_code < 500, response.text[:300]
    data = response.json()
    assert not problems("error", data), path
    assert data["status"] == response.status_code


def test_every_json_route_is_documented():
    """A new JSON route in routes.py needs a line here and a section in docs/api.md."""
    from laws_site.pages import (
        citations,
        contents,
        diff,
        glossary,
        guides,
        history,
        index_terms,
        search,
        site_info,
        unit,
    )

    documented_as = {
        contents.view: "/{doc}.json",
        index_terms.view: "/{doc}/-/index.json",
        unit.view: "/{doc}/{ref}.json",
        search.view: "/-/search.json",
        diff.diff_view: "/-/diff.json",
        diff.overview_view: "/-/diff/overview.json",
        citations.view: "/-/citations.json",
        glossary.view: "/-/glossary.json",
        glossary.term_view: "/-/glossary/ダミー.json",
        site_info.databases: "/-/databases.json",
        history.view: "/-/history/{law}.json",
        history.index: "/-/history.json",
        site_info.threads: "/-/threads.json",
        guides.index: "/-/guides.json",
        guides.view: "/-/guides/{id}.json",
    }
    text = API_DOC.read_text(encoding="utf-8")
    for pattern, view in routes.ROUTES:
        view = getattr(view, "__wrapped__", view)  # answers made once per build (responses.made_once)
        if "as_json" in pattern:
            assert view in documented_as, f"{pattern} is not in docs/api.md"
            assert documented_as[view] in text, documented_as[view]
