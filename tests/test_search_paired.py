"""Beside a result that is a unit of the 2017 Laws, the zh and en interfaces show the 1997 Chinese
unit the provision concordance pairs it with (issue 36, item 2; table provision_pairs): a
Chinese-speaking director reads the current law first and has the text they know one tap away. The
JSON carries the pairing in every language; the Japanese interface, whose readers have no use for a
Chinese translation of an older edition, does not show it. The offline page shows the same markup
(tests/test_offline_page_markup.py runs "insufficient bid" in the three interfaces)."""

from __future__ import annotations

import re
import sqlite3

import pytest

from laws_site.search import engine as searching

QUERY = "insufficient bid"  # reaches Law 27, which the concordance pairs with the 1997 Law 27


async def test_the_json_names_the_paired_1997_units(datasette):
    results = (await datasette.client.get(f"/-/search.json?q={QUERY}&limit=5")).json()["results"]
    by_id = {result["id"]: result for result in results}
    assert [unit["id"] for unit in by_id["laws-2017-ja:27"]["paired"]] == ["laws-1997-zh:27"]
    assert all(r["paired"] == [] for r in results if not r["id"].startswith("laws-2017-ja:"))


@pytest.mark.parametrize(("prefix", "shown"), [("/zh", True), ("/en", True), ("", False)], ids=["zh", "en", "ja"])
async def test_the_zh_and_en_interfaces_show_the_paired_unit_beside_the_result(datasette, prefix, shown):
    html = (await datasette.client.get(f"{prefix}/-/search?q={QUERY}")).text
    item = re.search(r'<li><a href="[^"]*/laws-2017-ja/27">.*?</li>', html, re.S)
    assert item, html[:2000]
    paired = re.search(r'<span class="paired">[^<]*<a href="([^"]+)">', item.group(0))
    assert (paired.group(1) if paired else None) == (f"{prefix}/laws-1997-zh/27" if shown else None)


# 叫牌不足 is the 1997 text's own term: word for word it matches 1997 Law 27B, and the current Law 27B
# only through the glossary's translation (a lower score)
CHINESE_TERM = "叫牌不足"


@pytest.fixture(scope="module")
def laws_conn(laws_db_path):
    connection = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    yield connection
    connection.close()


def first_ids(conn, interface: str, count: int = 2) -> list[str]:
    return [r["id"] for r in searching.search(conn, CHINESE_TERM, limit=count, interface=interface)]


@pytest.mark.parametrize("interface", ["zh", "en"])
def test_in_the_zh_and_en_interfaces_the_current_law_takes_its_1997_pairs_place(laws_conn, interface):
    results = searching.search(laws_conn, CHINESE_TERM, limit=20, interface=interface)
    assert [r["id"] for r in results[:2]] == ["laws-2017-ja:27B", "laws-2017-ja:27"]
    assert [unit["id"] for unit in results[0]["paired"]] == ["laws-1997-zh:27B"]  # shown beside it
    assert not any(r["id"] in ("laws-1997-zh:27B", "laws-1997-zh:27") for r in results)


def test_the_japanese_interface_ranks_each_text_by_its_own_words(laws_conn):
    assert first_ids(laws_conn, "ja", 1) == ["laws-1997-zh:27B"]


async def test_the_zh_page_lists_the_current_law_first_and_the_json_is_the_same_under_every_prefix(datasette):
    page = (await datasette.client.get(f"/zh/-/search?q={CHINESE_TERM}")).text
    listed = re.findall(r'<li><a href="/zh/(laws-[^"]+)">', page)
    assert listed[0] == "laws-2017-ja/27B" and "laws-1997-zh/27B" not in listed, listed
    assert '<a href="/zh/laws-1997-zh/27B">' in page  # beside 2017 27B
    plain = (await datasette.client.get(f"/-/search.json?q={CHINESE_TERM}&limit=3")).json()["results"]
    assert plain[0]["id"] == "laws-1997-zh:27B"
    for prefix in ("/zh", "/en"):
        assert (await datasette.client.get(f"{prefix}/-/search.json?q={CHINESE_TERM}&limit=3")).json()[
            "results"
        ] == plain
