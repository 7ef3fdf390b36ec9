"""/-/citations?law=N: the citation map opens one law's lists; a number these Laws have no law of says so."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "prefix, said",
    [
        ("", "この規則に第999条はありません。"),
        ("/zh", "本规则没有第999条。"),
        ("/en", "These Laws have no Law 999: every law is listed below."),
    ],
)
async def test_a_law_these_laws_lack_is_said_not_silently_skipped(datasette, prefix, said):
    """?law=999 showed the whole map as if no law had been asked for."""
    html = (await datasette.client.get(f"{prefix}/-/citations?law=999")).text
    assert f'<p class="friendly-note" role="status">{said}' in html
    opened = (await datasette.client.get(f"{prefix}/-/citations?law=61")).text
    assert 'class="friendly-note"' not in opened and 'id="law-61" open' in opened


@pytest.mark.parametrize("prefix, named", [("", "規則 2017"), ("/zh", "规则 2017"), ("/en", "Laws 2017")])
async def test_the_laws_are_named_in_the_interfaces_language(datasette, prefix, named):
    """The lead sentence named the Laws by their Japanese short title (規則 2017) under /en/ and /zh/,
    where the menu says Laws 2017 / 规则 2017."""
    html = (await datasette.client.get(f"{prefix}/-/citations")).text
    lead = html.split('<p class="side-text">', 1)[1].split("</p>", 1)[0]
    assert f">{named}</a>" in lead
