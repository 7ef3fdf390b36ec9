"""What every page's chrome needs to know about the interface language (for base.html)."""

from __future__ import annotations

from laws_site.http import request_bounds
from laws_site.i18n import catalog as i18n


def language_vars(request) -> dict:
    """ui_lang ('ja'), ui_tag (<html lang>), ui_languages: the switcher's links for this very page
    (each with hreflang and whether it is the current one)."""
    lang = i18n.current.get()
    path = request.path if request is not None else "/"
    query = request.query_string if request is not None else ""
    query = query if request_bounds.linkable(query) else ""
    path = path if request_bounds.linkable_path(path) else "/"  # a path no page has: the languages' homes
    return {"ui_lang": lang, "ui_tag": i18n.TAGS[lang], "ui_languages": i18n.switcher(path, query, lang)}


def short_titles(conn, lang: str) -> dict[str, str]:
    """Each document's short title in the interface language (documents.short_title_zh/_en;
    Japanese is short_title): the navigation names the editions in the reader's language."""
    cursor = conn.execute("select * from documents")
    names = [column[0] for column in cursor.description]
    column = "short_title" if lang == "ja" else f"short_title_{lang}"
    out = {}
    for row in cursor:
        document = dict(zip(names, row))
        out[document["id"]] = document.get(column) or document.get("short_title") or document.get("title")
    return out
