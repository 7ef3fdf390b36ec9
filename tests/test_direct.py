"""The plugin's JSON answers to anonymous GETs skip Datasette's router (laws_site/http/direct.py, issue 24):
the same status, headers and bytes as the router's answer, errors included; a request that could
be personal (a cookie, an Authorization header) still goes through Datasette."""

import asyncio
from collections import OrderedDict

import pytest

from laws_site.http import direct, responses
from laws_site.search import engine as searching

PATHS = [
    ("/-/search.json", "q=%E3%83%AA%E3%83%9C%E3%83%BC%E3%82%AF"),  # リボーク
    ("/-/search.json", "q=27%E6%9D%A1&limit=5"),  # 27条: a citation
    ("/-/search.json", "q=ribooku&exact=1"),
    ("/-/search.json", "q="),  # 400
    ("/-/search.json", "q=revoke&limit=0"),  # 400
    ("/laws-2017-ja/61B.json", ""),
    ("/laws-2017-ja/99Z.json", ""),  # 404
    ("/laws-1997-zh.json", ""),
    ("/-/glossary.json", "lang=zh"),
    ("/-/citations.json", "to=16"),
    ("/en/-/search.json", "q=revoke"),  # an interface language
]


def get(datasette, path: str, query: str = "", headers: list | None = None) -> dict:
    """One request through the whole site (every asgi_wrapper), as the server sends it."""
    app = datasette.app()
    messages = []
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"host", b"localhost")] + (headers or []),
        "client": ("127.0.0.1", 1),
        "server": ("localhost", 80),
    }

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        messages.append(message)

    asyncio.run(app(scope, receive, send))
    start = messages[0]
    return {
        "status": start["status"],
        "headers": sorted(start["headers"]),
        "body": b"".join(m.get("body", b"") for m in messages[1:]),
    }


@pytest.fixture
def direct_calls(monkeypatch):
    calls = []
    real = direct.answer

    async def counted(*args, **kwargs):
        calls.append(args[2]["path"])
        return await real(*args, **kwargs)

    monkeypatch.setattr(direct, "answer", counted)
    return calls


def through_router(monkeypatch):
    monkeypatch.setattr(direct, "json_view", lambda datasette, scope: None)


@pytest.mark.parametrize("path,query", PATHS)
def test_a_json_answer_skips_the_router_and_is_the_routers_answer(datasette, monkeypatch, direct_calls, path, query):
    monkeypatch.setattr(responses, "_answers", OrderedDict())
    straight = get(datasette, path, query)
    assert direct_calls, "the answer was not handed to the view directly"
    monkeypatch.setattr(responses, "_answers", OrderedDict())
    through_router(monkeypatch)
    routed = get(datasette, path, query)
    assert len(direct_calls) == 1
    assert straight == routed
    assert (b"vary", b"Cookie, Authorization") in straight["headers"] or any(
        k == b"vary" and b"Cookie, Authorization" in v for k, v in straight["headers"]
    )


@pytest.mark.parametrize("header", [(b"cookie", b"ds_actor=x"), (b"authorization", b"Bearer x")])
def test_a_request_that_could_be_personal_goes_through_datasette(datasette, fresh_answers, direct_calls, header):
    answer = get(datasette, "/-/search.json", "q=revoke", headers=[header])
    assert answer["status"] == 200
    assert direct_calls == []
    assert (b"cache-control", b"private, no-store") in answer["headers"]


@pytest.mark.parametrize("path", ["/-/search", "/laws-2017-ja/61B", "/laws.json", "/laws/sections.json"])
def test_pages_and_datasettes_own_json_go_through_datasette(datasette, fresh_answers, direct_calls, path):
    get(datasette, path, "q=revoke" if path == "/-/search" else "")
    assert direct_calls == []


def test_an_exception_in_a_view_is_answered_as_the_router_answers_it(
    datasette, monkeypatch, fresh_answers, direct_calls
):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug in the search")

    monkeypatch.setattr(searching, "search_page", broken)
    straight = get(datasette, "/-/search.json", "q=revoke")
    through_router(monkeypatch)
    routed = get(datasette, "/-/search.json", "q=revoke")
    assert direct_calls == ["/-/search.json"]
    assert straight["status"] == routed["status"] == 500
    assert straight == routed
    assert b"Traceback" not in straight["body"] and b'"ok":false' in straight["body"]
