"""A good API citizen (issue 34): an OpenAPI description made from docs/api.md, CORS on every JSON
answer (redirects too), Datasette's paging conventions refused rather than ignored on the site's
routes, the canned queries the plugin gives its database."""

from __future__ import annotations

import re

import pytest
from jsonschema import Draft202012Validator

from laws_site import routes
from laws_site.pages import openapi
from tests.test_api_schemas import LIVE, SCHEMAS


async def test_the_openapi_description_is_served_and_made_from_the_documentation(datasette):
    response = await datasette.client.get("/-/openapi.json")
    assert response.status_code == 200 and response.headers["access-control-allow-origin"] == "*"
    document = response.json()
    assert document["openapi"] == "3.1.0"
    components = document["components"]["schemas"]
    assert set(components) == set(SCHEMAS) and len(components) == 16  # every schema block of docs/api.md
    for name, schema in components.items():
        Draft202012Validator.check_schema(schema)
        assert schema == {k: v for k, v in SCHEMAS[name].items() if k != "$schema"}
    # every route a schema is checked against live (tests/test_api_schemas.py) is one of its paths
    for name, paths in LIVE.items():
        (route,) = [p for p, op in document["paths"].items() if op["get"]["operationId"] == name]
        pattern = re.sub(r"\\{\w+\\}", "[^?]+", re.escape(route)) + r"(\?.*)?"
        assert all(re.fullmatch(pattern, path) for path in paths), (name, route)
    for operation in document["paths"].values():
        assert operation["get"]["responses"]["404"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/error"
        }


def test_each_documented_site_path_is_a_route_of_the_plugin():
    for block in openapi.blocks(openapi.SOURCE.read_text(encoding="utf-8")):
        if block.route and not block.route.startswith("/laws/"):  # /laws/xrefs.json is Datasette's table
            sample = re.sub(r"{\w+}", "laws-2017-ja" if "{doc}" in block.route else "61", block.route)
            sample = sample.replace("{ref}", "61")
            assert any(re.match(pattern, sample) for pattern, _ in routes.ROUTES + routes.PUBLIC_SITE_ROUTES), (
                block.route
            )


async def test_the_api_page_links_the_openapi_description(datasette):
    html = (await datasette.client.get("/-/api")).text
    assert 'href="/-/openapi.json"' in html and 'rel="service-desc"' in html


async def test_every_table_of_the_api_page_has_named_columns(datasette):
    """A table header cell with no text is announced as nothing by a screen reader (axe: empty-table-header)."""
    html = (await datasette.client.get("/-/api")).text
    headers = re.findall(r"<th[^>]*>(.*?)</th>", html, flags=re.S)
    assert headers and [h for h in headers if not re.sub(r"<[^>]+>", "", h).strip()] == []


@pytest.mark.parametrize("path", ["/laws-2017-ja/61-B-2-a.json", "/en/laws-2017-ja/61-B-2-a.json"])
async def test_a_redirect_of_a_json_url_allows_any_origin(datasette, path):
    response = await datasette.client.get(path, headers={"origin": "https://example.org"})
    assert response.status_code == 302 and response.headers["location"] == "/laws-2017-ja/61B2(a).json"
    assert response.headers["access-control-allow-origin"] == "*"


@pytest.mark.parametrize("parameter", ["_size=2", "_shape=array", "_next=5", "_sort=title"])
@pytest.mark.parametrize("path", ["/-/search.json?q=revoke", "/-/glossary.json?q=revoke", "/-/citations.json?law=61"])
async def test_datasettes_table_parameters_are_refused_not_ignored(datasette, path, parameter):
    response = await datasette.client.get(f"{path}&{parameter}")
    data = response.json()
    assert response.status_code == 400 and data["ok"] is False
    assert parameter.split("=")[0] in data["error"] and "limit and offset" in data["error"]


async def test_search_pages_with_limit_and_offset_as_documented(datasette):
    first = (await datasette.client.get("/-/search.json?q=revoke&limit=2")).json()
    second = (await datasette.client.get(first["next_url"])).json()
    assert first["offset"] == 0 and second["offset"] == 2 and second["results"][0] != first["results"][0]


async def test_the_canned_queries_come_with_the_plugin(datasette):
    names = {q["name"] for q in (await datasette.client.get("/laws.json")).json()["queries"]}
    assert {"search_text", "citations", "glossary_lookup"} <= names
    rows = (await datasette.client.get("/laws/citations.json?doc=laws-2017-ja&ref=61&_shape=array")).json()
    assert rows and {"citing_doc", "citations"} <= set(rows[0])
