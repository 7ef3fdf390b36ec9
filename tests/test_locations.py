"""Every Location stays on the site (issue 38 item 1): the one place that builds redirects
(laws_site/http/locations.py), the language prefix's refusals, and the public site's outermost check
of every Location, Datasette's own included. Real Chromium: tests/test_datasette_browser.py."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from laws_site.http import locations
from tests.test_datasette_browser import CRAFTED


@pytest.mark.parametrize(
    "given, expected",
    [
        ("//evil.example", "/"),  # a host, not a path: the site root
        ("/\\evil.example", "/%5Cevil.example"),
        ("\\\\evil.example/x", "/%5C%5Cevil.example/x"),
        ("/\tevil.example", "/evil.example"),
        ("/ok\r\nSet-Cookie: x=1", "/okSet-Cookie: x=1"),
        ("http://evil.example/x?y=1", "/x?y=1"),
        ("https://laws.example.org/61", "https://laws.example.org/61"),  # this request's own host
        ("javascript:alert(1)", "/alert(1)"),
        ("/laws-2017-ja/61B2(a)", "/laws-2017-ja/61B2(a)"),
        ("relative/path", "/relative/path"),
    ],
)
def test_safe_location_keeps_every_target_on_the_site(given, expected):
    assert locations.safe_location(given, host="laws.example.org") == expected


@pytest.mark.parametrize(
    "path, raw, problem",
    [
        ("//evil.example", b"//evil.example", 404),
        ("/\\evil.example", b"/%5Cevil.example", 404),
        ("/\\evil.example", b"/%5cevil.example", 404),
        ("//evil.example", b"/%2Fevil.example", 404),
        ("/\tx", b"/%09x", 400),
        ("/\x00", b"/%00", 400),
        ("/laws-2017-ja/index:a/b", b"/laws-2017-ja/index:a%2Fb", None),  # a ref's own encoded slash
        ("/laws-2017-ja/61B", b"/laws-2017-ja/61B", None),
    ],
)
def test_which_paths_could_leave_the_site(path, raw, problem):
    found = locations.path_problem(path, raw)
    assert (found and found[0]) == problem


@pytest.mark.parametrize("path", CRAFTED)
@pytest.mark.parametrize("accept", ["text/html", "application/json"])
async def test_no_crafted_path_answers_with_a_location_off_the_site(datasette, path, accept):
    response = await datasette.client.get(path, headers={"accept": accept})
    assert response.status_code < 500, (path, response.status_code)
    location = response.headers.get("location")
    if location is not None:
        parts = urlsplit(location)
        assert not parts.netloc and not parts.scheme and location.startswith("/"), (path, location)
        assert not location.startswith("//") and "\\" not in location and location.isprintable()


@pytest.mark.parametrize(
    "path, status",
    [
        ("/ja//evil.example", 404),
        ("/ja/%5Cevil.example", 404),
        ("/en/%2Fevil.example", 404),
        ("/ja/%09/evil.example", 400),
        ("/ja/%0d%0aX:%20y", 400),
        ("/ja/%00", 400),
    ],
)
async def test_a_prefix_before_an_off_site_path_is_refused(datasette, path, status):
    response = await datasette.client.get(path, headers={"accept": "text/html"})
    assert response.status_code == status and "location" not in response.headers
    assert "evil.example" not in response.text  # nothing of the path is echoed


async def test_refused_even_without_the_public_site_rules(laws_db_path):
    """The language prefix refuses on its own: a plain `datasette laws.db` has no public_site layer."""
    from datasette.app import Datasette

    plain = Datasette(immutables=[str(laws_db_path)])
    for path, status in [("/ja//evil.example", 404), ("/zh/%5Cevil.example", 404), ("/ja/%00", 400)]:
        response = await plain.client.get(path, headers={"accept": "text/html"})
        assert response.status_code == status and "location" not in response.headers


async def test_the_language_redirect_is_built_from_checked_parts(datasette):
    response = await datasette.client.get("/ja/laws-2017-ja/61B?x=%0d%0a", headers={"accept": "text/html"})
    assert response.status_code == 302 and response.headers["location"] == "/laws-2017-ja/61B?x=%0d%0a"
    assert response.headers["access-control-allow-origin"] == "*"
