"""An answer's head held until its body is whole, then the body rewritten and both sent with the new
length: the one mechanism of the layers that rewrite a page's links (the language prefix,
i18n/prefix.py; base_url, base_path.py); the public site (asgi.py) takes `with_length`."""

from __future__ import annotations

from typing import Awaitable, Callable


def with_length(start: dict, body: bytes) -> dict:
    """The head of an answer whose body is now `body`."""
    return dict(
        start,
        headers=[(k, str(len(body)).encode() if k.lower() == b"content-length" else v) for k, v in start["headers"]],
    )


class HeldBody:
    """hold(start), then take(message) for each body message until it says the answer went out."""

    def __init__(self, send: Callable[[dict], Awaitable[None]], rewrite: Callable[[bytes], bytes]):
        self.downstream, self.rewrite = send, rewrite
        self.start: dict | None = None
        self.body = b""

    def hold(self, start: dict) -> None:
        self.start = start

    async def take(self, message: dict) -> bool:
        """Whether `message` belonged to a held answer (kept, or sent rewritten with its head)."""
        if self.start is None or message["type"] != "http.response.body":
            return False
        self.body += message.get("body", b"")
        if message.get("more_body"):
            return True
        body = self.rewrite(self.body)
        start, self.start, self.body = self.start, None, b""
        await self.downstream(with_length(start, body))
        await self.downstream({"type": "http.response.body", "body": body})
        return True
