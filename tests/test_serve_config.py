"""laws_site/http/serve.py and compression.py without a server: the app factory builds the site as
`bridge-laws serve` configures it (settings passed through), and answers are compressed for
clients that accept gzip - streamed chunk by chunk, already-encoded answers left as they are."""

from __future__ import annotations

import gzip
import zlib

import httpx
import pytest
from click.testing import CliRunner

from laws_site.cli import cli
from laws_site.http import compression, serve

PAGE = ("<p>" + "デュプリケートブリッジの規則 " * 200 + "</p>").encode()


def asgi_answer(body_parts: list[bytes], headers: list | None = None):
    async def app(scope, receive, send):
        start_headers = [(b"content-type", b"text/html; charset=utf-8"), (b"etag", b'"abc"')] + (headers or [])
        await send({"type": "http.response.start", "status": 200, "headers": start_headers})
        for index, part in enumerate(body_parts):
            await send({"type": "http.response.body", "body": part, "more_body": index < len(body_parts) - 1})

    return app


async def call(app, path: str = "/page", accept: str | None = "gzip, br") -> tuple[dict, list[dict]]:
    headers = [(b"accept-encoding", accept.encode())] if accept else []
    scope = {"type": "http", "method": "GET", "path": path, "headers": headers, "query_string": b""}
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    return sent[0], sent[1:]


def header(start: dict, name: bytes) -> bytes | None:
    return next((v for k, v in start["headers"] if k.lower() == name), None)


async def test_a_page_is_compressed_and_its_etag_made_weak():
    start, bodies = await call(compression.wrap(asgi_answer([PAGE])))
    assert header(start, b"content-encoding") == b"gzip"
    assert b"Accept-Encoding" in header(start, b"vary")
    assert header(start, b"etag") == b'W/"abc"'
    wire = b"".join(m["body"] for m in bodies)
    assert gzip.decompress(wire) == PAGE and len(wire) * 5 < len(PAGE)


async def test_without_accept_encoding_the_page_goes_as_it_is():
    start, bodies = await call(compression.wrap(asgi_answer([PAGE])), accept=None)
    assert header(start, b"content-encoding") is None and header(start, b"etag") == b'"abc"'
    assert b"".join(m["body"] for m in bodies) == PAGE


async def test_an_answer_already_encoded_is_sent_as_stored():
    stored = gzip.compress(PAGE)
    app = asgi_answer([stored], headers=[(b"content-encoding", b"gzip")])
    start, bodies = await call(compression.wrap(app))
    assert b"".join(m["body"] for m in bodies) == stored  # not compressed twice
    assert header(start, b"etag") == b'"abc"'  # the app's own tag names these bytes


async def test_the_database_download_is_never_compressed():
    start, bodies = await call(compression.wrap(asgi_answer([PAGE])), path="/laws.db")
    assert header(start, b"content-encoding") is None
    assert b"".join(m["body"] for m in bodies) == PAGE


async def test_a_streamed_answer_is_compressed_chunk_by_chunk():
    parts = [PAGE] * 4
    start, bodies = await call(compression.wrap(asgi_answer(parts)))
    assert header(start, b"content-encoding") == b"gzip" and header(start, b"content-length") is None
    assert len(bodies) == len(parts)  # one compressed chunk out per chunk in: nothing held whole
    inflate = zlib.decompressobj(wbits=31)
    assert b"".join(inflate.decompress(m["body"]) for m in bodies) == b"".join(parts)


def test_settings_are_typed_as_datasette_types_them():
    assert serve.setting_value("sql_time_limit_ms", "3000") == 3000
    assert serve.setting_value("allow_download", "off") is False
    assert serve.setting_value("base_url", "/laws/") == "/laws/"
    for name, value, message in [
        ("sql_time_limit", "3000", "is not a Datasette setting"),
        ("sql_time_limit_ms", "fast", "is a whole number"),
        ("allow_download", "maybe", "is on or off"),
    ]:
        with pytest.raises(ValueError, match=message):
            serve.setting_value(name, value)


def test_settings_from_the_environment_say_what_is_wrong(monkeypatch):
    monkeypatch.setenv(serve.SETTINGS_VARIABLE, '{"sql_time_limit_ms": 3000}')
    assert serve.settings_from_environment() == {"sql_time_limit_ms": "3000"}
    for text, message in [("{not json", "is not JSON"), ('["sql_time_limit_ms"]', "must be a JSON object")]:
        monkeypatch.setenv(serve.SETTINGS_VARIABLE, text)
        with pytest.raises(ValueError, match=message):
            serve.settings_from_environment()


def test_serve_refuses_an_unknown_setting_in_one_line(laws_db_path):
    result = CliRunner().invoke(cli, ["serve", "--db", str(laws_db_path), "--setting", "nonsense", "1"])
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0 and "nonsense is not a Datasette setting" in result.output


async def test_the_factory_builds_the_site_with_the_settings_passed_through(laws_db_path, monkeypatch):
    monkeypatch.setenv(serve.DB_VARIABLE, str(laws_db_path))
    monkeypatch.setenv(serve.SETTINGS_VARIABLE, '{"sql_time_limit_ms": "2500", "base_url": "/"}')
    app = serve.app()
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as client:
        settings = (await client.get("/-/settings.json")).json()
        databases = (await client.get("/-/databases.json")).json()
        index = await client.get("/laws-2017-ja/-/index", headers={"Accept-Encoding": "gzip"})
    assert settings["sql_time_limit_ms"] == 2500  # passed through
    assert settings["max_returned_rows"] == int(serve.SETTINGS["max_returned_rows"])  # the site's own
    assert settings["suggest_facets"] is False
    assert [(d["name"], d["is_mutable"]) for d in databases] == [("laws", False)]
    assert index.status_code == 200 and index.headers["content-encoding"] == "gzip"
    assert len(index.content) >= 5 * int(index.headers["content-length"])  # 35.3: >= 5x smaller on the wire


async def test_static_files_are_versioned_and_kept_a_year(laws_db_path, monkeypatch):
    from laws_site.http import static_files

    monkeypatch.setenv(serve.DB_VARIABLE, str(laws_db_path))
    monkeypatch.delenv(serve.SETTINGS_VARIABLE, raising=False)
    app = serve.app()
    version = static_files.asset_version("site.css")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as client:
        page = (await client.get("/laws-2017-ja/61B2")).text
        current = await client.get(f"/-/static-plugins/bridge-laws/site.css?v={version}")
        stale = await client.get("/-/static-plugins/bridge-laws/site.css?v=0123456789abcdef")
        bare = await client.get("/-/static-plugins/bridge-laws/site.css")
    assert f'href="/-/static-plugins/bridge-laws/site.css?v={version}"' in page
    assert f'src="/-/static-plugins/bridge-laws/site.js?v={static_files.asset_version("site.js")}"' in page
    assert current.status_code == 200 and current.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert current.content == (static_files.STATIC / "site.css").read_bytes()
    for short in (stale, bare):  # not this version's URL: the site's short lifetime
        assert short.status_code == 200 and "immutable" not in short.headers["cache-control"]


def test_serve_refuses_a_base_url_naming_the_database_in_one_line(laws_db_path):
    """Was a traceback from uvicorn's worker as the app factory ran (issue 38's audit)."""
    from tests.live_server import free_port

    argv = ["serve", "--db", str(laws_db_path), "--port", str(free_port()), "--setting", "base_url", "/laws/"]
    result = CliRunner().invoke(cli, argv)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert result.output.strip() == "Error: base_url /laws/ is also the name of a database: choose another path"
