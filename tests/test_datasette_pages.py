"""Datasette's own pages of the laws database (table, row, query, database, its errors) in the site.

The plugin copies none of Datasette's page templates: Datasette renders its pages with its own
templates, which extend `base.html`; the plugin's base.html takes the site's layout (laws_base.html:
the header, search box, language switcher, footer, <html lang>) on the plugin's pages and its
database's, and is Datasette's own base.html everywhere else. Datasette's words inside its pages
stay Datasette's (English); errors on the plugin's paths are the site's, in the interface language.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parent.parent / "laws_site" / "templates"

DATASETTE_PAGES = [
    "/laws",
    "/laws/sections",
    "/laws/sections?kind=law&_search=リボーク&_sort_desc=position",
    "/laws/sections?ref__contains=61&doc=laws-2017-ja",
    "/laws/sections/laws-2017-ja:61B",
    "/laws/documents",
    "/laws/documents/jcbl-regs-ja",
    "/laws?sql=select+id,+ref+from+sections+limit+3",
    "/laws/search_text?q=リボーク",
    "/laws/glossary",
    "/laws/concordance",
]


def test_no_datasette_page_template_is_copied():
    """Only base.html shares a name with Datasette's templates, and it extends Datasette's own."""
    import datasette

    theirs = {p.name for p in (Path(datasette.__file__).parent / "templates").glob("*.html")}
    ours = {p.name for p in TEMPLATES.glob("*.html")}
    assert ours & theirs == {"base.html"}
    base = (TEMPLATES / "base.html").read_text(encoding="utf-8")
    assert '{% extends "laws_base.html" if laws_chrome else "default:base.html" %}' in base
    assert re.sub(r"{#.*?#}", "", base, flags=re.S).strip().count("\n") == 0  # nothing else in it


@pytest.mark.parametrize("prefix, tag", [("", "ja"), ("/zh", "zh-Hans"), ("/en", "en")])
@pytest.mark.parametrize("path", DATASETTE_PAGES)
async def test_datasette_pages_of_the_laws_database_wear_the_site_chrome(datasette, path, prefix, tag):
    response = await datasette.client.get(prefix + path, follow_redirects=True)  # 1.0 moved ?sql= to /-/query
    assert response.status_code == 200, (prefix + path, response.text[:300])
    html = response.text
    assert f'<html lang="{tag}"' in html and 'class="site-header"' in html and 'class="ui-languages' in html
    assert re.search(r'href="(/zh|/en)?/-/api"', html)  # the site's footer


@pytest.mark.parametrize(
    "path, prefix, status, message",
    [
        ("/laws/nope", "/zh", 404, "没有这个表。"),
        ("/laws/sections/nope", "", 404, "その行はありません。"),
        ("/laws/sections?_sort=zzz", "/zh", 400, "此表不能按 zzz 排序。"),
        ("/laws/sections?_sort=zzz", "/en", 400, "The table cannot be sorted by zzz."),
        ("/-/diff?ref=99&from=laws-1997-zh&to=laws-2017-ja", "/zh", 400, "规则 1997 和 规则 2017 都没有 99。"),
        (
            "/-/diff?ref=1&from=nope&to=laws-2017-ja",
            "",
            400,
            "「nope」は比較できません。旧版の文書を リボーク注釈、規則 2017、順番外注釈、规则 1997 から選んでください。",
        ),
        (
            "/-/diff?ref=abc&from=laws-1997-zh&to=laws-2017-ja",
            "/zh",
            400,
            "“abc”不是 61、61B、61B2(a) 或 40B2(a)(v) 这样的条号。",
        ),
        ("/-/citations?from=x", "/zh", 400, "from=&#39;x&#39; 在此无效：from 必须是条号（数字，例如 61）。"),
        ("/-/search?q=x&limit=abc", "", 400, "limit は 1 から 200 までの整数で指定してください。"),
    ],
)
async def test_error_messages_on_pages_are_in_the_interface_language(datasette, path, prefix, status, message):
    response = await datasette.client.get(prefix + path)
    assert response.status_code == status
    assert message in response.text


async def test_json_errors_keep_their_english_message(datasette):
    """docs/api.md: the JSON `error` is plain text, the same under every prefix."""
    plain = (await datasette.client.get("/-/diff.json?ref=99&from=laws-1997-zh&to=laws-2017-ja")).json()
    chinese = (await datasette.client.get("/zh/-/diff.json?ref=99&from=laws-1997-zh&to=laws-2017-ja")).json()
    assert plain["error"] == chinese["error"] == "neither laws-1997-zh nor laws-2017-ja has a unit '99'"


def message_ids() -> list[tuple[str, str]]:
    """(file:line, msgid) of every message the code builds by id: `message("...")`, `Message("...")`."""
    import ast

    root = Path(__file__).resolve().parent.parent / "laws_site"
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("message", "Message", "message_by_id"):
                first = node.args[0] if node.args else None
                # a sentence, not one of search's message names (query.MESSAGES: "empty", "too_long")
                if isinstance(first, ast.Constant) and isinstance(first.value, str) and " " in first.value:
                    found.append((f"{path.name}:{node.lineno}", first.value))
    from laws_site.search.query import PAGE_MESSAGES

    return found + [(f"query.PAGE_MESSAGES[{name}]", msgid) for name, (msgid, _) in PAGE_MESSAGES.items()]


def test_every_message_id_is_translated_and_keeps_its_variables():
    """Messages by id (issue 33 item 4): each id the code uses has a ja and a zh entry with the same
    parameters; no sentence is matched back from its English."""
    from babel.messages.pofile import read_po

    ids = message_ids()
    assert len(ids) >= 35, len(ids)
    root = Path(__file__).resolve().parent.parent / "laws_site" / "locale"
    for lang in ("ja", "zh"):
        with (root / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
            catalog = read_po(po)
        for where, msgid in ids:
            translated = catalog.get(msgid)
            assert translated and translated.string, (lang, where, msgid)
            assert set(re.findall(r"%\((\w+)\)s", msgid)) == set(re.findall(r"%\((\w+)\)s", translated.string)), (
                lang,
                where,
                msgid,
            )


def test_no_message_is_translated_by_parsing_english():
    """English text is never read back into a message: only a Message shows in the interface
    language (before, 51 regular expressions matched English sentences)."""
    from laws_site.i18n import catalog as i18n
    from laws_site.i18n.message import Doc, message, shown

    english = "neither laws-1997-zh nor laws-2017-ja has a unit '99'"
    token = i18n.current.set("zh")
    try:
        assert shown(english) == english
        by_id = message(
            "Neither %(a)s nor %(b)s has %(ref)s.",
            "neither %(a)s nor %(b)s has a unit '%(ref)s'",
            a=Doc("laws-1997-zh"),
            b=Doc("laws-2017-ja"),
            ref="99",
        )
        assert str(by_id) == english
        assert (
            shown(by_id, {"laws-1997-zh": "规则 1997", "laws-2017-ja": "规则 2017"})
            == "规则 1997 和 规则 2017 都没有 99。"
        )
    finally:
        i18n.current.reset(token)
    assert not (Path(__file__).resolve().parent.parent / "laws_site" / "i18n" / "messages.py").exists()
