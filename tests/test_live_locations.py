"""Issue 38 item 1 on a real `bridge-laws serve`, at the root and under a base_url: every Location
stays on the site whatever layer makes it (the language prefix, base_url's prefix, other spellings of
a ref, search, Datasette's own trailing-slash, filter and tilde redirects), and a crafted path after
any prefix is answered 404/400, never a dropped connection or a 500 - sent byte for byte as curl
sends it, and followed by Chromium.

The same rules in process: tests/test_locations.py, tests/test_base_url.py; at the root only in
Chromium: tests/test_datasette_browser.py.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.browser_fixtures import BROWSER_MARKS
from tests.live_server import serve_argv, serving
from tests.server_probe import CRAFTED, raw_request, stays_on_the_site

pytestmark = [pytest.mark.live, pytest.mark.slow]

BASES = {"root": "/", "base_url": "/site/"}

# paths each layer answers with a redirect (or may), some with an off-site target in the query
REDIRECTED = [
    "/ja/",  # the language switcher's Japanese
    "/ja/laws-2017-ja/61B",
    "/laws-2017-ja/61-B",  # another spelling of a ref
    "/-/search?q=61B",  # a citation typed into search
    "/-/search?q=%2F%2Fevil.example",
    "/-/guides/",
    "/laws/sections/",  # Datasette's trailing slash
    "/en/laws/sections/",
    "/laws/sections/?next=//evil.example",
    "/laws/sections?_filter_column=doc&_filter_op=exact&_filter_value=%2F%2Fevil.example",  # Datasette's filter form
    "/laws/sections?_format=json",
    "/laws/sections?_sort_by_desc=%2F%2Fevil.example",
    "/ja/%2e%2e//evil.example",  # Datasette's tilde redirect
    "/ja/.//evil.example",
    "/laws/%2F%2Fevil.example",
    "/laws-2017-ja/%2F%2Fevil.example",
]


@pytest.fixture(scope="module")
def sites(laws_db_path, tmp_path_factory):
    """{"root": origin, "base_url": origin + "/site"}: one server each."""
    from tests.live_server import free_port

    logs = tmp_path_factory.mktemp("locations")
    root_port, base_port = free_port(), free_port()
    base_argv = [*serve_argv(laws_db_path, base_port), "--setting", "base_url", BASES["base_url"]]
    with (
        serving(laws_db_path, root_port, log=logs / "root.log") as (root, _),
        serving(laws_db_path, base_port, argv=base_argv, log=logs / "base.log") as (based, _),
    ):
        yield {"root": root, "base_url": based + BASES["base_url"].rstrip("/")}


@pytest.mark.parametrize("base", list(BASES))
@pytest.mark.parametrize("path", list(CRAFTED))
def test_a_crafted_path_after_any_prefix_is_refused_as_sent(sites, base, path):
    status, headers = raw_request(sites[base], urlsplit(sites[base]).path + path)
    assert status == CRAFTED[path] and "location" not in headers, (base, path, status, headers)


@pytest.mark.parametrize("base", list(BASES))
@pytest.mark.parametrize("path", REDIRECTED)
def test_every_layers_redirect_stays_on_the_site(sites, base, path):
    status, headers = raw_request(sites[base], urlsplit(sites[base]).path + path)
    assert status is not None and status < 500, (base, path, status)
    location = headers.get("location")
    assert location is None or stays_on_the_site(sites[base], path, location), (base, path, location)


def browser_test(test):
    for mark in BROWSER_MARKS:  # browser, slow, and skipped only where Chromium is missing outside CI
        test = mark(test)
    return test


@browser_test
@pytest.mark.parametrize("base", list(BASES))
def test_chromium_never_leaves_the_origin(sites, browser, base):
    """Every crafted and redirected path, followed as a browser follows it (Chromium reads `\\` as `/`
    and resolves `%2e%2e`), ends on the origin with an answer under 500."""
    context = browser.new_context()
    page = context.new_page()
    wrong = []
    try:
        for path in [*CRAFTED, *REDIRECTED]:
            try:
                response = page.goto(sites[base] + path)
            except Exception as error:  # noqa: BLE001 - a dropped connection is a failure, named
                wrong.append((path, f"no answer: {error}"))
                continue
            if urlsplit(page.url).netloc != urlsplit(sites[base]).netloc:
                wrong.append((path, page.url))
            elif response is None or response.status >= 500:
                wrong.append((path, response and response.status))
    finally:
        context.close()
    assert not wrong, wrong
