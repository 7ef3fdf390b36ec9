"""Beside a result that is a unit of the 2017 Laws, the zh and en interfaces show the 1997 Chinese
unit the provision concordance pairs it with (issue 36, item 2; table provision_pairs): a
Chinese-speaking director reads the current law first and has the text they know one tap away. The
JSON carries the pairing in every language; the Japanese interface, whose readers have no use for a
Chinese translation of an older edition, does not show it. The offline page shows the same markup
(tests/test_offline_page_markup.py runs "insufficient bid" in the three interfaces)."""

from __future__ import annotations

import re

import pytest

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
