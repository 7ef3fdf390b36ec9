"""/-/api: the JSON API's documentation (docs/api.md), served by the site and linked from every
page's footer. The Markdown is rendered once per process (markdown-it-py, CommonMark + tables);
the installed package carries the file as laws_site/api.md (a link to docs/api.md in the source)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from markupsafe import Markup

from laws_site.http.responses import html_page

SOURCE = Path(__file__).resolve().parent.parent / "api.md"


@lru_cache(maxsize=1)
def rendered() -> tuple[str, Markup]:
    """(title, HTML) of the documentation: the Markdown's first heading and the whole text."""
    from markdown_it import MarkdownIt

    text = SOURCE.read_text(encoding="utf-8")
    title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), "API")
    # html=False: the file's own text is escaped, never markup (it is ours, but costs nothing)
    return title, Markup(MarkdownIt("commonmark", {"html": False}).enable("table").render(text))


async def view(datasette, request):
    title, body = rendered()
    return await html_page(datasette, request, "api_docs.html", {"title": title, "body": body})
