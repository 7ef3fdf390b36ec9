"""Per-request costs taken out of a search (issue 24) and out of the contents and citations pages
(issue 22) stay out. No timing: each test observes that a costly step is not taken at all.
"""

import hashlib
import json
import sqlite3

import pytest
from markupsafe import Markup

from laws_site import compat
from laws_site.http import asgi
from laws_site.search import engine as searching
from laws_site.search import presentation
from laws_site.sql import limits


@pytest.fixture(scope="module")
def conn(laws_db_path):
    connection = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True, check_same_thread=False)
    limits.prepare(connection, "laws")
    yield connection
    connection.close()


class CountingPattern:
    """Stands in for asgi.TIMING: counts every call and answers as the real pattern."""

    def __init__(self, pattern):
        self.pattern, self.calls = pattern, 0

    def sub(self, *args):
        self.calls += 1
        return self.pattern.sub(*args)

    def match(self, *args):
        self.calls += 1
        return self.pattern.match(*args)


def test_etag_of_an_answer_without_timing_never_runs_the_timing_pattern(conn, monkeypatch):
    """The pattern stopped at every kana's first byte (0xE3): 25x the SHA-256 of a search answer."""
    page = searching.search_page(conn, "リボーク", limit=20)
    body = json.dumps({"ok": True, **page}, ensure_ascii=False, separators=(",", ":")).encode()
    counting = CountingPattern(asgi.TIMING)
    monkeypatch.setattr(asgi, "TIMING", counting)
    etag = asgi.content_etag(body)
    assert counting.calls == 0
    assert etag == '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


@pytest.mark.parametrize(
    "body",
    [
        '{"ok":true,"query_ms":12.5,"rows":["リボーク"]}',
        '{"query_ms": 1e-3,"x":"query_ms"}',
        "<footer>Queries took 12.3 ms · クエリ時間 4.5ミリ秒 · 查询用时 3 毫秒</footer><p>リボーク</p>",
        "<p>Queries took many ms</p><p>query_ms</p>",
    ],
)
def test_timing_is_taken_out_as_the_pattern_does(body, monkeypatch):
    raw = body.encode()
    expected = asgi.TIMING.sub(b"", raw)
    counting = CountingPattern(asgi.TIMING)
    monkeypatch.setattr(asgi, "TIMING", counting)
    assert asgi.without_timing(raw) == expected
    assert counting.calls >= 1 or expected == raw


def test_search_reads_fts_scores_as_plain_tuples(conn):
    """The (rowid, score) rows of the FTS queries (hundreds per search) are numbers, which the
    result budget counts as 0: they are not made into sqlite3.Row through limits.budgeted_row."""
    seen = []

    def counting(cursor, values):
        seen.append(values)
        return limits.budgeted_row(cursor, values)

    conn.row_factory = counting
    try:
        page = searching.search_page(conn, "リボーク", limit=20)
    finally:
        limits.guard_results(conn)
    assert page["total"] > 20
    scores = [row for row in seen if len(row) == 2 and isinstance(row[0], int) and isinstance(row[1], float)]
    assert scores == []
    assert len(seen) < 200  # the page's own rows (texts, labels), not the hundreds of FTS hits


# ---------------------------------------------------------------- the contents and citations pages (issue 22)


def statements_of(conn, fn):
    """(what fn returned, the SQL statements it ran on conn)."""
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    try:
        return fn(), seen
    finally:
        conn.set_trace_callback(None)


def test_contents_rows_are_the_printed_toc(conn):
    """Table contents_rows (made at build) holds the 目次 entries exactly as the page derived them
    from the toc_entry units: real rows of Law 61 and the whole table compared."""
    from laws_site.pages import contents
    from laws_site.read import queries

    rows = [
        tuple(row)
        for row in conn.execute(
            "select doc, ref, title, depth, part from contents_rows where ref like '61%' order by doc, position"
        )
    ]
    assert rows == [
        ("laws-2017-ja", "61", "スートにフォローしないことーリボークに関する質問", 0, "プレイ"),
        ("laws-2017-ja", "61A", "リボークの定義", 1, "プレイ"),
        ("laws-2017-ja", "61B", "リボークの可能性について質問する権利", 1, "プレイ"),
        ("laws-2017-ja", "61C", "トリックを調べる権利", 1, "プレイ"),
        ("revoke-notes-ja", "61", "スートにフォローしないことーリボークに関する質問", 0, None),
    ]
    for doc in ("laws-2017-ja", "revoke-notes-ja", "out-of-turn-notes-ja"):
        from_units = []
        for entry in queries.units_of_kinds(conn, doc, ("toc_entry",)):
            target = entry["attrs"].get("target_ref") or entry["attrs"].get("law")
            if target:
                from_units.append(
                    {
                        "ref": target,
                        "title": entry["title"],
                        "depth": 0 if target.isdigit() else 1,
                        "url": contents.permalink(doc, target),
                        "part": entry["attrs"].get("part"),
                    }
                )
        assert contents.printed_toc(conn, doc) == from_units
        assert len(from_units) > 5


def test_contents_page_reads_the_build_time_rows_not_the_units(conn):
    from laws_site.pages import contents

    context, statements = statements_of(conn, lambda: contents.contents_context(conn, "laws-2017-ja", "ja"))
    assert len(context["parts"]) == 10 and context["has_index"] is True
    assert any("from contents_rows" in sql for sql in statements)
    assert not any("toc_entry" in sql for sql in statements)  # no entry's row or attrs read per request
    assert not any("'index_row'" in sql and "limit 1" not in sql for sql in statements)


def test_citations_page_links_only_the_opened_laws_units(conn, monkeypatch):
    """The page lists one law's citing units (?law=62); making every law's lists and parsing every
    pair's units was a third of its reading. The JSON still has every list."""
    from laws_site.pages import citations

    calls = []
    real = citations.citing_units
    monkeypatch.setattr(citations, "citing_units", lambda pair: calls.append(pair) or real(pair))
    page = citations.citation_context(conn, lang="ja", lists_for={None})
    assert calls == [] and all(law["cites"] == [] for law in page["laws"])
    opened = citations.citation_context(conn, law=62, lang="ja", lists_for={62})
    law62 = next(law for law in opened["laws"] if law["law"] == 62)
    assert [x["law"] for x in law62["cites"]] and len(law62["cited_by"]) == 4
    assert calls and all(62 in (pair["from_law"], pair["to_law"]) for pair in calls)
    everything = citations.citation_context(conn, lang="ja")
    assert all(pair["citing_units"] for pair in citations.citation_json(everything)["pairs"])
    full62 = next(law for law in everything["laws"] if law["law"] == 62)
    assert (law62["cites"], law62["cited_by"]) == (full62["cites"], full62["cited_by"])


@pytest.mark.parametrize("template", ["document.html", "citation_map.html"])
def test_page_content_is_given_out_as_one_piece(datasette, conn, template):
    """The content block is made into one string: given out piece by piece, each of a few thousand
    pieces passed through three async generators."""
    import asyncio

    from laws_site.pages import citations, contents

    environment = compat.jinja_environment(datasette)
    if template == "document.html":
        data = contents.contents_context(conn, "laws-2017-ja", "ja")
    else:  # with the parts the page makes from templates of their own (citations.page_parts)
        data = {**citations.citation_context(conn, law=62, lang="ja", lists_for={62}), "ui_tag": "ja"}
        for name, part in (("picture", citations.PICTURE), ("law_lists", citations.LAW_LISTS)):
            data[name] = Markup(asyncio.run(environment.get_template(part).render_async(data)))
    compiled = environment.get_template(template)
    context = compiled.new_context(data)

    async def pieces():
        return [piece async for piece in compiled.blocks["content"](context)]

    given = asyncio.run(pieces())
    assert len(given) <= 2  # the page, and the line break after it
    assert len("".join(given)) > 10_000


def test_search_asks_no_schema_questions(conn):
    """Labels, texts and offsets come from tables every build writes: a search asks nothing of the schema."""
    searching.search_page(conn, "リボーク", limit=20)
    page, statements = statements_of(conn, lambda: searching.search_page(conn, "ダミー", limit=20))
    assert page["results"][0]["labels"]  # labels are shown
    assert not any("pragma_table_info" in sql or "sqlite_master" in sql for sql in statements)


def test_search_labels_are_read_from_the_build_time_table(conn):
    """Table search_labels (made at build) gives each unit's labels and context, and unit_labels the
    labels of links to other units, read once per build and looked up per page: every unit's, as the
    tables hold them and in their key order."""
    data = searching.search_data(conn)
    ids = [row[0] for row in conn.execute("select id from sections order by position")]
    stored = presentation.unit_labels(conn, ids, data)
    in_table = {
        unit: {"label": label, "labels": json.loads(labels), "context": context}
        for unit, label, labels, context in conn.execute("select id, label, labels, context from search_labels")
    }
    assert stored == in_table and len(stored) == len(ids)
    linked = presentation.link_labels(conn, ids, data)
    linked_in_table: dict[str, dict[str, str]] = {}
    for unit, lang, label in conn.execute("select unit_id, lang, full_label from unit_labels order by unit_id, lang"):
        linked_in_table.setdefault(unit, {})[lang] = label
    assert [(unit, list(names.items())) for unit, names in sorted(linked.items())] == [
        (unit, list(names.items())) for unit, names in sorted(linked_in_table.items())
    ]
    assert len(linked) == len(ids)
    assert stored["laws-2017-ja:27B1(b)"]["context"] == "不十分なビッドが受け入れられなかった場合"
    assert list(stored["laws-2017-ja:27B1(b)"]["labels"]) == ["en", "ja", "zh"]
    searching.search_page(conn, "リボーク", limit=20)
    _, statements = statements_of(conn, lambda: searching.search_page(conn, "ダミー", limit=20))
    assert not any("with recursive" in sql for sql in statements)
    # read once per build with the search data (laws_site/search/shown.py), not per page
    assert not any(table in sql for sql in statements for table in ("search_labels", "search_offsets", "unit_labels"))


def test_shown_texts_are_each_units_text_tokens_and_offsets(conn):
    """What a result's snippet is cut from, read once per build: for every unit the text (or the
    title when it has none), its tokens and their offsets, as the tables hold them."""
    shown = searching.search_data(conn).shown
    rows = conn.execute("""select s.id, s.title, s.text, s.search_title, s.search_text, o.title, o.text
                           from sections s left join search_offsets o on o.id = s.id""").fetchall()
    assert len(shown.texts) == len(rows) > 3000
    for unit, title, text, title_tokens, text_tokens, title_offsets, text_offsets in rows:
        found = shown.texts[unit]
        expected = (text, text_tokens, text_offsets) if text else (title or "", title_tokens, title_offsets)
        assert (found.text, found.padded, found.offsets.tobytes()) == (
            expected[0],
            " " + (expected[1] or "") + " ",
            expected[2] or b"",
        )
    assert shown.texts["laws-2017-ja:61"].padded.startswith(" ")


def test_a_server_keeps_the_search_data_of_its_newest_builds_only(monkeypatch):
    """Each rebuild a running server picks up loads its search data (~17 MB): the oldest go."""
    from types import SimpleNamespace

    from laws_site.search import data as module

    monkeypatch.setattr(module, "_loaded", type(module._loaded)())
    identities = iter(range(10))
    monkeypatch.setattr(module.glossary, "database_identity", lambda conn: ("build", next(identities)))
    monkeypatch.setattr(module, "_load", lambda conn: SimpleNamespace(variants={}))
    monkeypatch.setattr(module.tokenize, "use_variants", lambda variants: None)
    for _ in range(module.MAX_LOADED + 2):
        module.search_data(None)
    assert list(module._loaded) == [("build", n) for n in range(2, module.MAX_LOADED + 2)]
