"""The interface language in the URL, as one ASGI layer around the whole site.

- Japanese pages have no prefix (/laws-2017-ja/61B); Chinese and English chrome live under /zh/ and
  /en/ (/en/laws-2017-ja/61B). The same URL always answers in the same language, so pages stay
  cacheable and a shared link opens as it was shared. The law texts are the same under every prefix.
- The prefix is taken off before Datasette routes the request (every page and Datasette's own
  views work under it) and kept in a context variable (i18n.current) that the templates' `_()`
  read. Links and redirects inside an /en/ or /zh/ page get the prefix put back, so a reader stays
  in their language: one place does it for every template, the project's and Datasette's.
- A first visit to an unprefixed page by a browser whose Accept-Language prefers Chinese or English
  is redirected to that language's URL. A language chosen in the switcher is remembered in a
  cookie (`ui_lang`): /ja/<path> sets Japanese and redirects to <path>; visiting /en/ or /zh/ sets
  that one. JSON, static files and non-browser clients are never redirected.
- Only the plugin's paths (plugin_paths.py) take a prefix: `/en/fixtures/...` of another database
  served beside it reaches Datasette as it came. A prefix followed by a path that could send a
  redirect off the site (`/ja//evil.example`, `/ja/%5Cevil.example`, a control character) is answered
  404/400 here (locations.path_problem); every redirect is built by locations.py.
"""

from __future__ import annotations

import re

from laws_site.http import locations, plugin_paths
from laws_site.http.held_body import HeldBody
from laws_site.i18n import catalog as i18n

COOKIE = "ui_lang"
COOKIE_MAX_AGE = 365 * 24 * 3600
# Paths whose answers are not pages in a language: files, JSON, Datasette's machine paths.
NOT_A_PAGE = re.compile(r"^/-/(static|static-plugins)/|\.(json|csv|db|js|css|png|ico|txt|xml)$")
# a link or form inside a page, to this site, not yet in a language and not a file or JSON
TAG = re.compile(r"<(?:a|form|area)\s[^>]*>", re.IGNORECASE)
LOCAL_URL = re.compile(r'(\s(?:href|action)=")(/(?![/\\])(?!-/static)(?!(?:en|zh|ja)(?:/|"|\?))[^"]*)"')


def wrapper(datasette):
    def wrap(app):
        async def with_language(scope, receive, send):
            if scope["type"] != "http":
                return await app(scope, receive, send)
            prefix, path = i18n.split_prefix(scope["path"])
            raw = scope.get("raw_path")
            raw_rest = raw[len(prefix) + 1 :] or b"/" if raw and prefix else raw
            if prefix:
                problem = locations.path_problem(path, raw_rest)
                if problem is not None:
                    return await refuse(datasette, scope, receive, send, *problem)
            if not plugin_paths.owns_path(datasette, path):
                return await app(scope, receive, send)  # another database's, or Datasette's own: as it came
            chosen, headers = cookie_and_rest(scope)
            query = (scope.get("query_string") or b"").decode("latin-1")
            if prefix == i18n.DEFAULT:  # the switcher's link to Japanese: remember it, drop the prefix
                return await redirect(send, path, query, set_cookie=i18n.DEFAULT)
            if prefix is None and wants_page(scope, path):
                preferred = chosen or i18n.best_language(header(scope, b"accept-language"))
                if preferred != i18n.DEFAULT:
                    return await redirect(send, i18n.localized(path, preferred), query, vary=True)
            lang = prefix or i18n.DEFAULT
            scope = dict(scope, headers=headers, ui_lang=lang)
            if prefix:
                scope.update(path=path, raw_path=raw_rest)
            token = i18n.current.set(lang)
            try:
                sender = LanguageSender(
                    send,
                    lang,
                    remember=prefix is not None and chosen != lang and wants_page(scope, path),
                    vary=prefix is None,
                )
                await app(scope, receive, sender.send)
            finally:
                i18n.current.reset(token)

        return with_language

    return wrap


def header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def cookie_and_rest(scope) -> tuple[str | None, list]:
    """The remembered language, and the request headers without that cookie: the views never see
    it, so it does not stop a page from being cached (responses.made_once skips requests with
    cookies)."""
    chosen, headers = None, []
    for key, value in scope.get("headers", []):
        if key.lower() != b"cookie":
            headers.append((key, value))
            continue
        kept = []
        for part in value.decode("latin-1").split(";"):
            name, _, val = part.strip().partition("=")
            if name == COOKIE:
                chosen = val if val in i18n.LANGUAGES else chosen
            elif part.strip():
                kept.append(part.strip())
        if kept:
            headers.append((key, "; ".join(kept).encode("latin-1")))
    return chosen, headers


def wants_page(scope, path: str) -> bool:
    """A browser asking for a page (not JSON, a file or an API client)."""
    return (
        scope["method"] in ("GET", "HEAD")
        and not NOT_A_PAGE.search(path)
        and "text/html" in (header(scope, b"accept") or "")
    )


def cookie_header(lang: str) -> tuple[bytes, bytes]:
    return (b"set-cookie", f"{COOKIE}={lang}; Path=/; Max-Age={COOKIE_MAX_AGE}; SameSite=Lax".encode())


async def refuse(datasette, scope, receive, send, status: int, message: str) -> None:
    """The error page (or JSON) for a prefixed path no page has, echoing nothing of it."""
    from datasette.utils.asgi import Request

    from laws_site.http.responses import error_response

    quiet = dict(scope, path="/", raw_path=b"/", query_string=b"", csrftoken=lambda: "")
    response = await error_response(
        datasette, Request(quiet, receive), status, message, as_json=scope["path"].endswith(".json")
    )
    await response.asgi_send(send)


async def redirect(send, path: str, query: str, set_cookie: str | None = None, vary: bool = False) -> None:
    headers = [
        *locations.redirect_headers(path, query),
        (b"content-length", b"0"),
        (b"cache-control", b"private, no-cache"),
    ]
    if set_cookie:
        headers.append(cookie_header(set_cookie))
    if vary:
        headers.append((b"vary", b"Accept-Language, Cookie"))
    await send({"type": "http.response.start", "status": 302, "headers": headers})
    await send({"type": "http.response.body", "body": b""})


def localize_links(html: str, lang: str) -> str:
    """Every on-site link and form of a page, in the page's language (/61B -> /en/61B)."""

    def tag(match: re.Match) -> str:
        text = match.group(0)
        if "hreflang=" in text:  # the switcher's links name their language themselves
            return text
        return LOCAL_URL.sub(
            lambda m: m.group(1) + (m.group(2) if is_file(m.group(2)) else i18n.localized(m.group(2), lang)) + '"', text
        )

    return TAG.sub(tag, html)


def is_file(url: str) -> bool:
    return bool(NOT_A_PAGE.search(url.split("?")[0].split("#")[0]))


class LanguageSender:
    """Puts the language back into an /en/ or /zh/ page's links and redirects, remembers a chosen
    language in a cookie, and says that an unprefixed page varies with the browser's language."""

    def __init__(self, send, lang: str, remember: bool, vary: bool):
        self.downstream, self.lang, self.remember, self.vary = send, lang, remember, vary
        self.held = HeldBody(send, self.localized_links)

    async def send(self, message):
        if await self.held.take(message):
            return
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            html = any(k.lower() == b"content-type" and v.startswith(b"text/html") for k, v in headers)
            if self.lang != i18n.DEFAULT:
                headers = [(k, self.localize_location(v) if k.lower() == b"location" else v) for k, v in headers]
            if html and self.remember and message["status"] == 200:
                headers = [(k, v) for k, v in headers if k.lower() != b"cache-control"]
                headers += [cookie_header(self.lang), (b"cache-control", b"private, max-age=0")]
            if html and self.vary:
                headers = vary_on(headers)
            message = dict(message, headers=headers)
            if html and self.lang != i18n.DEFAULT:
                return self.held.hold(message)
        await self.downstream(message)

    def localized_links(self, body: bytes) -> bytes:
        return localize_links(body.decode("utf-8"), self.lang).encode("utf-8") if body else b""

    def localize_location(self, value: bytes) -> bytes:
        location = value.decode("latin-1")
        if is_file(location):  # JSON and files carry no prefix (docs/api.md)
            return value
        if location.startswith("/") and not location.startswith("//") and i18n.split_prefix(location)[0] is None:
            return i18n.localized(location, self.lang).encode("latin-1")
        return value


def vary_on(headers: list) -> list:
    current = [v.decode("latin-1") for k, v in headers if k.lower() == b"vary"]
    names = {n.strip().lower() for v in current for n in v.split(",") if n.strip()}
    wanted = [n for n in ("Accept-Language", "Cookie") if n.lower() not in names]
    if not wanted:
        return headers
    merged = ", ".join([*current, *wanted])
    return [(k, v) for k, v in headers if k.lower() != b"vary"] + [(b"vary", merged.encode("latin-1"))]
