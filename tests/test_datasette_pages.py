"""Datasette's own pages (table, row, query, database, its errors) in the interface language.

laws_site/templates holds copies of Datasette 0.65's templates with their chrome through the
catalogue; the words Datasette's Python puts on them ("sorted by", filter names, "hide") and
metadata.yml's descriptions are catalogue messages too (laws_site/i18n/datasette_pages.py, i18n.py).
The data (cells, facet values, a row's key, SQL, column names) are the database's, as stored.
"""

from __future__ import annotations

import hashlib
import html as html_lib
import re
from pathlib import Path

import pytest

from tests.test_context import INTERNAL_ID

# sha256 of each Datasette template the project copied (laws_site/templates), as Datasette 0.65.5
# ships it: if an upgrade within the pin changes one, the copy must be compared with it again.
UPSTREAM = {
    "table.html": "81cec4b0f7948bf0b4756b1a0ce706ce30d5694e506fd5639f3cd08a4a8f88a9",
    "row.html": "ff5dde41541c39dd09f1dee1bbb3e4e58e8487775b17e1c9650bd558eb1b5a17",
    "query.html": "bc3559df0e209da97d0bb46d0da5e36e02a9a561e4e473d1b79f62776786b435",
    "database.html": "4fd5e97823bb5380b54c4f4f5285f07d1db74e366ef6225aa46dddfcf5b2c88a",
    "_table.html": "f75a8872713f28fdce49b9a44a397f26ba1b5db5e82a74dda1f20ec14faaaa57",
    "_facet_results.html": "622d3c764aa14f17f07714af7bbdee5719adfbce9cce5358fd3df3e2df137f30",
    "_suggested_facets.html": "da43051a548a47be72a74513d45e7a4fba4fd5e89d49b29fc48b0b306000f20f",
    "_description_source_license.html": "13fcf73b733dadc598f79a11ce5ec04df6205d13deefeb76bd388008cc072e51",
    "_crumbs.html": "882c9d69e13363b440d4b977d432ae7287548d53e71ca199327c1acece3c9c81",
    "error.html": "c2115d1fdbff1a480b804fe880bafec9a754544f7b154e5322f680309ee3b497",
    "base.html": "bb22df33caea147e1db3b238878f2716ab698c81be89a66d9dabd5649e899dc2",
    "_footer.html": "d190d9e7dc5046c1bdfb2b738c60754143eab44fdbae2d9a74e7b8f1aa2cf44b",
}
# table.js builds the column menu whose words table-words.js translates
UPSTREAM_STATIC = {"table.js": "DROPDOWN_HTML"}


def test_the_copied_templates_match_the_installed_datasette():
    import datasette

    installed = Path(datasette.__file__).resolve().parent
    changed = {name: hashlib.sha256((installed / "templates" / name).read_bytes()).hexdigest() for name in UPSTREAM}
    assert {n: h for n, h in changed.items() if h != UPSTREAM[n]} == {}, (
        "Datasette's template changed under the pin: compare laws_site/templates' copy with it, then update UPSTREAM"
    )
    for ours in UPSTREAM:
        assert (Path(__file__).resolve().parent.parent / "laws_site" / "templates" / ours).exists(), ours
    table_js = (installed / "static" / "table.js").read_text(encoding="utf-8")
    for phrase in (
        "Sort ascending",
        "Facet by this",
        "Show not-blank rows",
        'a.setAttribute("aria-label", "Remove this filter")',
    ):
        assert phrase in table_js, phrase


def chrome_text(html: str) -> str:
    """The page's own words: without the data (the table of rows, facet values, SQL and code, the
    column dictionary whose descriptions name ids on purpose, the row's key in its heading), the
    language switcher (each language names itself), scripts and tags."""
    html = re.sub(r"<(script|style|template|textarea|pre|code|table)\b.*?</\1>", " ", html, flags=re.S | re.I)
    html = re.sub(r'<(div) class="facet-results">.*?</div>\s*</div>\s*</div>', " ", html, flags=re.S)
    html = re.sub(r'<dl class="column-descriptions">.*?</dl>', " ", html, flags=re.S)
    html = re.sub(r'<nav class="ui-languages".*?</nav>', " ", html, flags=re.S)
    html = re.sub(
        r"<select\b.*?</select>",
        lambda m: m.group(0) if "_filter_op" in m.group(0) or "_sort" in m.group(0) else " ",
        html,
        flags=re.S,
    )
    html = re.sub(r"<h1\b.*?</h1>", " ", html, flags=re.S)
    html = re.sub(r"<!--.*?-->", " ", html, flags=re.S)
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", html)).split())


# Datasette's English chrome: none of it may be left on a Japanese or Chinese page
ENGLISH = [
    "rows",
    "View and edit SQL",
    "This data as",
    "Advanced export",
    "CSV options",
    "Next page",
    "Suggested facets",
    "Links from other tables",
    "Custom SQL query",
    "Run SQL",
    "Format SQL",
    "home",
    "Data license",
    "Data source",
    "sorted by",
    "descending",
    "Apply",
    "Search:",
    "download file",
    "expand labels",
    "Queries",
    "Tables",
    "Download SQLite DB",
    "0 records",
    "Every addressable unit",
    "Reading order",
    "contains",
    "is not null",
    "remove filter",
    "Not Found",
    "Table not found",
    "Sort by",
    "JSON shape",
    "newline-delimited",
]

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


@pytest.mark.parametrize("prefix", ["", "/zh", "/en"])
async def test_datasette_pages_leave_no_english_chrome_and_name_no_internal_id(datasette, prefix):
    offenders = []
    for path in DATASETTE_PAGES:
        response = await datasette.client.get(prefix + path)
        assert response.status_code == 200, path
        text = chrome_text(response.text)
        english = [w for w in ENGLISH if re.search(rf"(?<![\w/]){re.escape(w)}(?!\w)", text)] if prefix != "/en" else []
        found = INTERNAL_ID.search(text)
        if english or found:
            offenders.append((path, english, found and text[max(0, found.start() - 30) : found.end() + 30]))
    assert offenders == []


@pytest.mark.parametrize(
    "prefix, rows, edit_sql, export, home, lang",
    [
        ("", "3,131 行", "SQL を表示・編集", "詳細なエクスポート", "ホーム", "ja"),
        ("/zh", "3,131 行", "查看和编辑 SQL", "高级导出", "首页", "zh-Hans"),
        ("/en", "3,131 rows", "View and edit SQL", "Advanced export", "Home", "en"),
    ],
)
async def test_the_sections_table_reads_in_the_interface_language(
    datasette, prefix, rows, edit_sql, export, home, lang
):
    html = (await datasette.client.get(f"{prefix}/laws/sections")).text
    assert f'<html lang="{lang}"' in html
    assert re.search(rf"<h3>{re.escape(rows)}\s", html), rows
    assert f'<span class="underlined">{edit_sql}</span>' in html
    assert f"<h3>{export}</h3>" in html
    assert f'<a href="{prefix}/">{home}</a>' in html
    # links inside the page stay in the language: the facets, the next page, the edit-SQL link
    assert f'href="{prefix}/laws?sql=' in html
    assert re.search(rf'<a href="{re.escape(prefix)}/laws/sections\?_next=[^"]+">', html)
    assert ' href="/laws/sections.json' in html  # JSON is not in a language


@pytest.mark.parametrize(
    "prefix, description",
    [
        ("", "<h3>4 行\n        条件: 「リボーク」を検索、かつ kind = &#34;law&#34; position の降順\n    </h3>"),
        ("/zh", "<h3>4 行\n        条件：搜索“リボーク”，且 kind = &#34;law&#34; 按 position 降序排列\n    </h3>"),
        (
            "/en",
            "<h3>4 rows\n        where search matches &#34;リボーク&#34; and kind = &#34;law&#34; sorted by position descending\n    </h3>",
        ),
    ],
)
async def test_a_filtered_table_describes_its_filters_in_the_interface_language(datasette, prefix, description):
    html = (await datasette.client.get(f"{prefix}/laws/sections?kind=law&_search=リボーク&_sort_desc=position")).text
    assert description in html


async def test_filter_names_facets_and_the_column_menu_are_translated(datasette):
    html = (await datasette.client.get("/zh/laws/sections")).text
    assert '<option value="contains">包含</option>' in html and '<option value="isnull__1">为 null</option>' in html
    assert '<input type="submit" value="应用">' in html
    assert 'data-sort-asc="升序排列"' in html and 'data-facet="按此列分面"' in html
    assert "/-/static-plugins/bridge-laws/table-words.js" in html
    assert '<p class="facet-info-name">\n                <strong>kind' in html  # the facet's column name as stored
    ja = (await datasette.client.get("/laws/sections")).text
    assert (
        "<dd>参照できるすべての単位を読む順に並べたもの。単位のパーマリンクは /&lt;doc&gt;/&lt;ref&gt; です。</dd>"
        not in ja
    )
    assert "参照できるすべての単位を読む順に並べたもの。" in ja  # the table's description (metadata.yml)
    assert "<dt>position</dt><dd>データベース全体での読む順</dd>" in ja  # a column's


@pytest.mark.parametrize(
    "prefix, links, count",
    [
        ("", "<h2>他のテーブルからのリンク</h2>", "3 行</a>\n                （sections の parent_id から）"),
        ("/zh", "<h2>来自其他表的链接</h2>", "3 行</a>\n                （来自 sections 的 parent_id）"),
        ("/en", "<h2>Links from other tables</h2>", "3 rows</a>\n                from parent_id in sections"),
    ],
)
async def test_a_row_page_reads_in_the_interface_language(datasette, prefix, links, count):
    html = (await datasette.client.get(f"{prefix}/laws/sections/laws-2017-ja:61B")).text
    assert links in html and count in html


@pytest.mark.parametrize(
    "prefix, heading, run",
    [
        ("", "SQL クエリ（3 行）", "SQL を実行"),
        ("/zh", "自定义 SQL 查询（返回 3 行）", "运行 SQL"),
        ("/en", "Custom SQL query returning 3 rows", "Run SQL"),
    ],
)
async def test_a_query_page_reads_in_the_interface_language(datasette, prefix, heading, run):
    html = (await datasette.client.get(f"{prefix}/laws?sql=select+id+from+sections+limit+3")).text
    assert f"<h3>{heading}" in html and f'<input type="submit" value="{run}"' in html


@pytest.mark.parametrize(
    "prefix, tables, documents_rows",
    [
        ("", '<h2 id="tables">テーブル</h2>', "5 行"),
        ("/zh", '<h2 id="tables">表</h2>', "5 行"),
        ("/en", '<h2 id="tables">Tables</h2>', "5 rows"),
    ],
)
async def test_the_database_page_reads_in_the_interface_language(datasette, prefix, tables, documents_rows):
    html = (await datasette.client.get(f"{prefix}/laws")).text
    assert tables in html
    documents = re.search(r'<h3><a href="[^"]*/laws/documents">documents</a></h3>.*?</div>', html, re.S).group(0)
    assert f"<p>{documents_rows}</p>" in documents


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


def test_every_pattern_message_is_translated_and_keeps_its_variables():
    from babel.messages.pofile import read_po

    from laws_site.i18n import datasette_pages as datasette_chrome
    from laws_site.i18n import messages

    msgids = (
        [m for _, m in messages.PATTERNS] + [m for _, m in messages.EXPECTED] + list(datasette_chrome.CLAUSES.values())
    )
    root = Path(__file__).resolve().parent.parent / "laws_site" / "locale"
    for lang in ("ja", "zh"):
        with (root / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
            catalog = read_po(po)
        for msgid in msgids:
            translated = catalog.get(msgid)
            assert translated and translated.string, (lang, msgid)
            assert sorted(re.findall(r"%\((\w+)\)s", msgid)) == sorted(
                set(re.findall(r"%\((\w+)\)s", translated.string))
            ) or set(re.findall(r"%\((\w+)\)s", translated.string)) == set(re.findall(r"%\((\w+)\)s", msgid)), (
                lang,
                msgid,
            )


async def test_the_english_chrome_check_sees_english_chrome(datasette):
    """The check above can fail: on the English page it finds Datasette's words."""
    text = chrome_text((await datasette.client.get("/en/laws/sections?ref__contains=61")).text)
    found = [w for w in ENGLISH if re.search(rf"(?<![\w/]){re.escape(w)}(?!\w)", text)]
    assert {
        "rows",
        "View and edit SQL",
        "This data as",
        "Advanced export",
        "Data source",
        "contains",
        "Every addressable unit",
    } <= set(found)
