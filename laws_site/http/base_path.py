"""The site under a path prefix: Datasette's `base_url` setting (`--setting base_url /bridge/`), as one
ASGI layer around the whole site, outermost.

A proxy sends `/bridge/en/laws-2017-ja/61` on unchanged. This layer takes `/bridge` off before
anything else reads the path (the language prefix, the routes, Datasette), and on the way out puts
it in front of every link to the site in an HTML page (href, src, action, offline.js's data-root)
and of every redirect, where it is not there already (Datasette's own pages write their links with
`urls.path`, which adds it). So the pages, their templates and the language layer keep writing
site paths (`/laws-2017-ja/61`) and one rule places them: the rule the service worker applies to
the offline packs' pages (static/sw.js `rebased`) and the static export to its files
(laws_site/offline/export.py), which are all made at the root. JSON is left as it is: its `url`
fields are site paths, as docs/api.md documents them. A base_url that is also the name of a
database (`/laws/`) is ambiguous and refused at start-up.
"""

from __future__ import annotations

import re

from laws_site.http import locations, plugin_paths
from laws_site.http.held_body import HeldBody
from laws_site.i18n import catalog as i18n
from laws_site.i18n.catalog import LANGUAGES as INTERFACE_LANGUAGES

LANGUAGES = [lang.encode("ascii") for lang in INTERFACE_LANGUAGES]
LINK = re.compile(rb'(\s(?:href|src|action|data-root)=")(/(?![/\\])[^"]*)"')
# a base_url the site accepts: path segments of URL-safe characters, none of them . or .. (a space, a
# quote or a percent sign would be written into every link as it is)
BASE_RE = re.compile(r"/(?:(?!\.\.?/)[A-Za-z0-9._~-]+/)+")


def base_of(datasette) -> str:
    """The setting, as "/" or "/prefix/"."""
    base = (datasette.setting("base_url") or "/").strip("/")
    return f"/{base}/" if base else "/"


def wrapper(datasette):
    def wrap(app):
        base = base_of(datasette)
        if base == "/":
            return app
        if not BASE_RE.fullmatch(base):
            raise ValueError(f"base_url {base} is not a path of letters, digits and . _ ~ - (e.g. /bridge/)")
        if base.strip("/") in datasette.databases:
            raise ValueError(f"base_url {base} is also the name of a database: choose another path")
        prefix = base.rstrip("/").encode("latin-1")

        async def under_base(scope, receive, send):
            if scope["type"] != "http":
                return await app(scope, receive, send)
            path = scope["path"]
            if not (path == base.rstrip("/") or path.startswith(base)):
                return await app(scope, receive, BaseSender(send, prefix).send)
            site_path = "/" + path[len(base) :]
            raw = scope.get("raw_path")
            site_raw = raw[len(prefix) :] if raw else None
            owned = plugin_paths.owns_path(datasette, i18n.split_prefix(site_path)[1])
            if not owned and not locations.could_leave_the_site(site_path, site_raw):
                # another database's page, or Datasette's own: Datasette reads base_url itself and its
                # pages see the path as it came (a custom page's request.path keeps /bridge/). A path
                # that could leave the site goes in without the prefix, to be refused as at the root.
                return await app(scope, receive, send)
            scope = dict(scope, path=site_path, raw_path=site_raw)
            return await app(scope, receive, BaseSender(send, prefix).send)

        return under_base

    return wrap


def under(value: bytes, prefix: bytes) -> bytes:
    """A site path under the prefix, unless it is already there (Datasette's own links). A link
    Datasette put under the prefix and the language layer then put in a language (`/en/bridge/x`)
    goes under the prefix first: `/bridge/en/x`."""
    if value == prefix or value.startswith(prefix + b"/"):
        return value
    for lang in LANGUAGES:
        localized = b"/" + lang + prefix
        if value == localized or value.startswith(localized + b"/"):
            return prefix + b"/" + lang + value[len(localized) :]
    return prefix + value


class BaseSender:
    """Puts the prefix in front of an HTML page's site links and a redirect's site Location."""

    def __init__(self, send, prefix: bytes):
        self.downstream, self.prefix = send, prefix
        self.held = HeldBody(send, self.prefixed_links)

    async def send(self, message):
        if await self.held.take(message):
            return
        if message["type"] == "http.response.start":
            headers = [
                (k, under(v, self.prefix) if k.lower() == b"location" and is_site_path(v) else v)
                for k, v in message.get("headers", [])
            ]
            message = dict(message, headers=headers)
            encoded = any(k.lower() == b"content-encoding" for k, _ in headers)
            if not encoded and any(k.lower() == b"content-type" and v.startswith(b"text/html") for k, v in headers):
                return self.held.hold(message)
        await self.downstream(message)

    def prefixed_links(self, body: bytes) -> bytes:
        return LINK.sub(lambda m: m.group(1) + under(m.group(2), self.prefix) + b'"', body)


def is_site_path(value: bytes) -> bool:
    return value.startswith(b"/") and not value.startswith((b"//", b"/\\"))
