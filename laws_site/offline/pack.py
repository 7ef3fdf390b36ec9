"""The offline pack: every page of the site a reader can reach, as the server renders it, packed small.

One pages pack per interface language (ja, zh, en: the chrome translated, the law texts as printed)
and one search pack, made by `bridge-laws build` with the database (laws_site/offline/make.py), never
by the server. The site is crawled in-process, in one
language, from its home page and every unit's permalink through its own links - every unit page of
every document, the contents, the 索引 rows, the glossary and its terms, the citation map and the
diff pages the Laws link to, and the offline page that answers search and whatever cannot work
offline. What is packed is therefore exactly what the server would send: no second renderer to keep
in step with the templates. Pages are keyed without their language prefix (`/en/laws-2017-ja/61`
is key `/laws-2017-ja/61` of the `en` pack).

~4,500 pages are 66 MB of HTML per language, but most of it repeats (the site's chrome, a
definition shown beside every unit using it, a commentary note shown on its law's pages). The pack
keeps each distinct line once: pages are grouped into shards of SHARD_PAGES neighbouring URLs; a
line used by several shards goes to the shared `common` list, a line used by one shard to that
shard's own list, and a page is the list of its line numbers (negative: the shard's own, -1 first).
The figures (JSON size, bytes on the wire, stored) are benchmarks/offline.py's, in
benchmarks/RESULTS.md. A shard is what the service worker inflates to answer one page.
"""

from __future__ import annotations

import asyncio
import functools
import html
import json
import re
from collections import Counter
from urllib.parse import unquote, unquote_plus, urlsplit

from ingest.text import kana as kana_table
from laws_site import routes
from laws_site.i18n import catalog as i18n
from laws_site.offline import in_process

SHARD_PAGES = 80
COMMON_MIN_SHARDS = 2
CRAWL_CONCURRENCY = 4
SHELL_PATH = "/-/offline/page"
HREF_RE = re.compile(r'\bhref="([^"]*)"')
# the same attribute found without `\b`, which keeps the regex engine from skipping to each `href="`
# (10x slower over the crawl's 70 MB per language); the character before is checked by hand
HREF_ATTRIBUTE = re.compile(r'href="([^"]*)"')
# pages that are not the Laws (search answers offline from the search pack; the server's own pages
# describe the running server)
SKIPPED_PATH_RE = re.compile(r"^/-/(search|databases|threads|offline/(?!page$))")


class CrawlError(RuntimeError):
    """A page of the site failed while it was crawled."""


# a request header that keeps the crawl out of responses.made_once's page cache
CRAWL_HEADERS = {"cookie": "bridge-laws-offline-crawl=1"}


def page_key(url: str) -> str:
    """One spelling of a page's URL for the pack and the service worker: path and query
    percent-decoded, no language prefix, no fragment, no `from_search` (which only adds a note to a
    unit page)."""
    parts = urlsplit(url)
    query = "&".join(p for p in parts.query.split("&") if p and not p.startswith("from_search="))
    path = i18n.split_prefix(unquote(parts.path) or "/")[1]
    return path + ("?" + unquote_plus(query) if query else "")


def language_of(url: str) -> str:
    """The interface language a URL asks for: its prefix, else the default (ja)."""
    return i18n.split_prefix(urlsplit(url).path)[0] or i18n.DEFAULT


def start_paths(lang: str, units: list[str]) -> list[str]:
    """Where the crawl of one language starts: home, the offline page, every unit's permalink."""
    return [i18n.localized(path, lang) for path in ("/", SHELL_PATH, *units)]


@functools.lru_cache(maxsize=100_000)
def crawlable(raw: str, lang: str) -> tuple[str, str] | None:
    """(link, page key) of an href as written in a page, if the crawl follows it; else None. Asked
    once per distinct href and language (most links repeat on every page: the menus, the footer)."""
    href = html.unescape(raw).split("#", 1)[0]
    if not href.startswith("/") or href.startswith("//"):
        return None
    prefix, decoded = i18n.split_prefix(unquote(urlsplit(href).path))
    if prefix != (None if lang == i18n.DEFAULT else lang):
        return None
    if decoded.endswith(".json") or SKIPPED_PATH_RE.match(decoded) or not routes.is_plugin_path(decoded):
        return None
    return href, page_key(href)


async def crawl(
    app, start, lang: str = i18n.DEFAULT, skipped: dict | None = None, follow: bool = True
) -> dict[str, str]:
    """{page key: HTML} of every page reachable from `start` through the site's links in `lang` (only
    the pages of `start` unless ``follow``), asked of ``app`` (the site's ASGI app: `datasette.app()`). A link that does not answer 200 (a redirect, a page that
    is not there) is left out and noted in `skipped` {url: status}: offline it gets the "not available
    offline" page, as any page not packed. A page that fails (5xx) stops the crawl: CrawlError."""
    pages: dict[str, str] = {}
    queued = {page_key(url) for url in start}
    todo = list(start)
    while todo:
        batch, todo = todo[:CRAWL_CONCURRENCY], todo[CRAWL_CONCURRENCY:]
        answers = await asyncio.gather(*(in_process.get(app, url, CRAWL_HEADERS) for url in batch))
        for url, answer in zip(batch, answers):
            if answer.status >= 500:  # a page the site fails to render: no pack without it
                raise CrawlError(f"{url} answered {answer.status}: {answer.text[:300]}")
            if answer.status != 200:
                if skipped is not None:
                    skipped[url] = answer.status
                continue
            text = pages[page_key(url)] = answer.text
            if not follow:
                continue
            for raw in dict.fromkeys(hrefs(text)):
                found = crawlable(raw, lang)
                if found and found[1] not in queued:
                    queued.add(found[1])
                    todo.append(found[0])
    return pages


def hrefs(page: str) -> list[str]:
    """Every href="..." value of a page, in order: HREF_RE.findall(page), faster."""
    return [
        match.group(1)
        for match in HREF_ATTRIBUTE.finditer(page)
        if not match.start() or not is_word_character(page[match.start() - 1])
    ]


def is_word_character(character: str) -> bool:
    return character.isalnum() or character == "_"  # what `\w` matches in a str pattern


def unit_pages(conn) -> list[str]:
    """Every unit's permalink and every document's contents: in the pack whether linked or not."""
    from laws_site.read.units import permalink

    pages = [f"/{doc}" for (doc,) in conn.execute("select id from documents order by rowid")]
    return pages + [permalink(doc, ref) for doc, ref in conn.execute("select doc, ref from sections order by rowid")]


def result_labels(conn, lang: str) -> dict:
    """How offline search names its results in this interface language, as the search page does
    online (templates/search.html): {"labels": [each unit's label, in rowid order, as the search
    pack lists the units], "contexts": {i: the title of the nearest enclosing unit with one, for
    the i-th unit, which has no title}, "documents": {doc: short title}}. A link to another unit
    reads "<its document's short title>: <its label>" (unit_labels.full_label)."""
    from laws_site.i18n.chrome import short_titles

    labels, contexts = [], {}
    for i, (title, names, context) in enumerate(
        conn.execute(
            "select s.title, l.labels, l.context from sections s left join search_labels l on l.id = s.id "
            "order by s.rowid"
        )
    ):
        labels.append(json.loads(names or "{}").get(lang))
        if context and not title:
            contexts[i] = context
    return {"labels": labels, "contexts": contexts, "documents": short_titles(conn, lang)}


def pack_pages(
    pages: dict[str, str],
    build_id: str,
    skipped: dict | None = None,
    lang: str = i18n.DEFAULT,
    labels: dict | None = None,
) -> dict:
    """{"build", "lang", "pages": {key: shard}, "aliases": {key: key}, "common": [line],
    "shards": [{"lines", "pages"}], "skipped": {url: status}, "result_labels": result_labels()}."""
    keys = sorted(pages)
    shards = [keys[i : i + SHARD_PAGES] for i in range(0, len(keys), SHARD_PAGES)]
    used_in = Counter()
    for shard in shards:
        # each distinct line once per shard, in the order of the pages: a set's order changes with the
        # process's string hashing, and the pack must be the same bytes on every build
        used_in.update(dict.fromkeys(line for key in shard for line in pages[key].split("\n")).keys())
    common = [line for line, count in used_in.items() if count >= COMMON_MIN_SHARDS]
    common_ids = {line: i for i, line in enumerate(common)}
    packed_shards, where = [], {}
    for number, shard in enumerate(shards):
        own: dict[str, int] = {}
        shard_pages = {}
        for key in shard:
            shard_pages[key] = [
                common_ids[line] if line in common_ids else -1 - own.setdefault(line, len(own))
                for line in pages[key].split("\n")
            ]
            where[key] = number
        packed_shards.append({"lines": list(own), "pages": shard_pages})
    return {
        "build": build_id,
        "lang": lang,
        "pages": where,
        "aliases": aliases(keys),
        "common": common,
        "shards": packed_shards,
        "skipped": skipped or {},
        "result_labels": labels,
    }


INDEX_ROW_KEY = re.compile(r"^(/[^?]+/-/index)\?row=(.)$")


def aliases(keys: list[str]) -> dict[str, str]:
    """Other URLs the server answers with a packed page: the 索引 takes any kana of a row
    (`?row=り` or `?row=リ` shows the ら row; pages/index_terms.py)."""
    found = {}
    for key in keys:
        match = INDEX_ROW_KEY.match(key)
        if match and match.group(2) in kana_table.GOJUON_ROWS:
            hiragana = kana_table.kana_of_row(match.group(2))
            for kana in hiragana + kana_table.hiragana_to_katakana(hiragana):  # リ as り
                alias = f"{match.group(1)}?row={kana}"
                if alias not in keys:
                    found[alias] = key
    return found


def unpack_page(pack: dict, key: str) -> str | None:
    """The inverse, as the service worker does it (for tests and the benchmark)."""
    number = pack["pages"].get(key)
    if number is None:
        return None
    shard = pack["shards"][number]
    return "\n".join(pack["common"][i] if i >= 0 else shard["lines"][-1 - i] for i in shard["pages"][key])
