"""/-/openapi.json: the JSON API as OpenAPI 3.1, generated from docs/api.md (its one home).

Each ```` ```json schema=NAME route=PATH query=NAMES ```` block of the documentation is a response
schema (JSON Schema 2020-12, which OpenAPI 3.1 takes as it is) and the route that answers it; the
section's heading is the operation's summary; `error` is every route's 4xx answer.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache

from laws_site.http.responses import json_response
from laws_site.pages.api_docs import SOURCE

BLOCK = re.compile(r"^```json schema=(\w+)([^\n]*)\n(.*?)\n```", re.S | re.M)
HEADING = re.compile(r"^## (.+)$", re.M)
PATH_PARAMETER = re.compile(r"{(\w+)}")
ERROR_STATUSES = ("400", "404")


@dataclass(frozen=True)
class Block:
    name: str
    schema: dict
    route: str | None
    query: tuple[str, ...]
    heading: str


def blocks(text: str) -> list[Block]:
    """Every schema block of the documentation, with its route, query parameters and heading."""
    found = []
    for match in BLOCK.finditer(text):
        options = dict(part.split("=", 1) for part in match.group(2).split() if "=" in part)
        headings = HEADING.findall(text[: match.start()])
        found.append(
            Block(
                match.group(1),
                json.loads(match.group(3)),
                options.get("route"),
                tuple(filter(None, options.get("query", "").split(","))),
                headings[-1].strip() if headings else "",
            )
        )
    return found


def component(schema: dict) -> dict:
    """A schema as an OpenAPI component: its `$schema` is the document's dialect already."""
    return {key: value for key, value in schema.items() if key != "$schema"}


def operation(block: Block) -> dict:
    parameters = [
        {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
        for name in PATH_PARAMETER.findall(block.route or "")
    ] + [{"name": name, "in": "query", "required": False, "schema": {"type": "string"}} for name in block.query]
    error = {
        "description": "Error",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/error"}}},
    }
    return {
        "get": {
            "operationId": block.name,
            "summary": block.heading,
            "parameters": parameters,
            "responses": {
                "200": {
                    "description": block.schema.get("title", block.name),
                    "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{block.name}"}}},
                },
                **{status: error for status in ERROR_STATUSES},
            },
        }
    }


def document(text: str, title: str) -> dict:
    found = blocks(text)
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {"title": title, "version": "1", "description": "Public, read-only, anonymous: see /-/api."},
        "paths": {block.route: operation(block) for block in found if block.route},
        "components": {"schemas": {block.name: component(block.schema) for block in found}},
    }


@lru_cache(maxsize=1)
def generated() -> dict:
    text = SOURCE.read_text(encoding="utf-8")
    title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), "API")
    return document(text, title)


async def view(datasette, request):
    return json_response(generated())
