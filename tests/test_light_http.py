"""tests/light_http.py, the load benchmarks' client: it must read every answer whole, whatever
framing the server uses, or the figures would count answers never received."""

from __future__ import annotations

import asyncio

import pytest

from tests import light_http

ANSWERS = {
    b"/length": b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello",
    b"/chunked": (
        b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nnot \r\n5;ext=1\r\nfound\r\n0\r\n\r\n"
    ),
    b"/close": b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbusy",
    b"/cut": b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort",
}


async def tiny_server(seen: list):
    async def handle(reader, writer):
        while True:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError:
                break
            seen.append(head)
            path = head.split(b" ")[1]
            writer.write(ANSWERS[path.split(b"?")[0]])
            await writer.drain()
            if path in (b"/close", b"/cut"):
                break
        writer.close()

    return await asyncio.start_server(handle, "127.0.0.1", 0)


def run(coroutine_function):
    seen: list = []

    async def main():
        server = await tiny_server(seen)
        port = server.sockets[0].getsockname()[1]
        try:
            return await coroutine_function(light_http.Connection(f"http://127.0.0.1:{port}"))
        finally:
            server.close()
            await server.wait_closed()

    return asyncio.run(main()), seen


def test_reads_length_and_chunked_answers_on_one_connection():
    async def three(connection):
        try:
            return [await connection.get("/length"), await connection.get("/chunked"), await connection.get("/length")]
        finally:
            await connection.close()

    answers, seen = run(three)
    assert answers == [(200, b"hello"), (404, b"not found"), (200, b"hello")]
    assert len(seen) == 3 and seen[0].startswith(b"GET /length HTTP/1.1\r\nHost: 127.0.0.1:")


def test_reopens_after_the_server_closes():
    async def twice(connection):
        try:
            return [await connection.get("/close"), await connection.get("/length")]
        finally:
            await connection.close()

    answers, seen = run(twice)
    assert answers == [(503, b"busy"), (200, b"hello")]
    assert len(seen) == 2


def test_an_answer_cut_short_is_a_failure_not_an_answer():
    async def cut(connection):
        return await connection.get("/cut")

    with pytest.raises(light_http.HTTPFailure) as failure:
        run(cut)
    assert failure.value.kind == "IncompleteReadError"


def test_targets_are_percent_encoded():
    assert (
        light_http.target("/-/search.json", {"q": "リボーク 61", "limit": "20"})
        == "/-/search.json?q=%E3%83%AA%E3%83%9C%E3%83%BC%E3%82%AF+61&limit=20"
    )
