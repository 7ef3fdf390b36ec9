"""A minimal HTTP/1.1 keep-alive GET client on asyncio streams, for load benchmarks.

Why not httpx: on this 2-core machine the client shares the CPU with the servers it measures, and
httpx spends 1.1-1.7 ms of CPU per answer (one event loop: eight workers then wait ~9 ms a round on
the client alone). This client does what a load generator must - send the request line, read the
status, the headers and the whole body (Content-Length or chunked) - at a fraction of that, and the
same for every server, so the figures measure the servers.
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlencode, urlsplit


class HTTPFailure(Exception):
    """The server closed the connection or answered something that is not HTTP/1.1."""

    def __init__(self, cause: Exception):
        super().__init__(f"{type(cause).__name__}: {cause}")
        self.kind = type(cause).__name__


def target(path: str, params: dict) -> str:
    """Request target of a GET: the path and its percent-encoded query."""
    return f"{path}?{urlencode(params)}" if params else path


class Connection:
    """One keep-alive connection; `get` reopens it when the server closed it between requests."""

    def __init__(self, base: str, timeout: float = 30.0):
        parts = urlsplit(base)
        self.host, self.port = parts.hostname, parts.port or 80
        self.host_header = parts.netloc.encode("ascii")
        self.timeout = timeout
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, request_target: str) -> tuple[int, bytes]:
        """(status, body) of GET request_target."""
        try:
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            self.writer.write(
                b"GET "
                + request_target.encode("ascii")
                + b" HTTP/1.1\r\nHost: "
                + self.host_header
                + b"\r\nAccept: */*\r\n\r\n"
            )
            return await asyncio.wait_for(self._answer(), self.timeout)
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError) as error:
            await self.close()
            raise HTTPFailure(error) from error

    async def status(self, request_target: str) -> int:
        """Status of GET request_target, its body read in full and dropped."""
        return (await self.get(request_target))[0]

    async def _answer(self) -> tuple[int, bytes]:
        head = await self.reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head[:-4].split(b"\r\n")
        version, status = status_line.split(b" ", 2)[:2]
        if not version.startswith(b"HTTP/1."):
            raise ValueError(f"not an HTTP/1 answer: {status_line[:40]!r}")
        headers = {}
        for line in header_lines:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
        if headers.get(b"transfer-encoding", b"").lower() == b"chunked":
            body = await self._chunked()
        else:
            body = await self.reader.readexactly(int(headers.get(b"content-length", b"0")))
        if headers.get(b"connection", b"").lower() == b"close":
            await self.close()
        return int(status), body

    async def _chunked(self) -> bytes:
        chunks = []
        while True:
            size = int((await self.reader.readuntil(b"\r\n")).split(b";", 1)[0], 16)
            if size == 0:
                await self.reader.readuntil(b"\r\n")  # no trailers are sent by the servers measured
                return b"".join(chunks)
            chunks.append((await self.reader.readexactly(size + 2))[:-2])

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except OSError:
                pass
        self.reader = self.writer = None
