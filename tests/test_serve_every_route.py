"""A real `bridge-laws serve --workers 2` on the installed Datasette (issue 34: 0.65.x in .venv, the
1.0 alpha line in .ci/run's second virtual environment): it starts, its workers, gzip and the public
site's rules are on, and every page kind and JSON route answers 200 - each route of
laws_site/routes.py and Datasette's own pages of the laws database, in the three interface languages.
"""

from __future__ import annotations

import re
from importlib.metadata import version

import httpx
import pytest

from laws_site import routes
from tests.live_server import PYTHON, free_port, serving

pytestmark = [pytest.mark.live, pytest.mark.slow]

WORKERS = 2
GLOSSARY_TERM = "ダミー"
# one address per page kind: the site's routes (HTML and JSON), then Datasette's own pages of the
# laws database (database, table, row, SQL, canned query) and its pages about the server
SITE = [
    "/",
    "/laws-2017-ja",
    "/laws-2017-ja.json",
    "/laws-1997-zh/50",
    "/laws-2017-ja/61B2(a)",
    "/laws-2017-ja/61B2(a).json",
    "/revoke-notes-ja/L61A.json",
    "/jcbl-regs-ja/appendix-1-table-1",
    "/laws-2017-ja/-/index",
    "/laws-2017-ja/-/index.json",
    "/-/search?q=リボーク",
    "/-/search.json?q=revoke",
    "/-/diff?ref=6&from=laws-1997-zh&to=laws-2017-ja",
    "/-/diff.json?ref=61&from=revoke-notes-ja&to=laws-2017-ja",
    "/-/diff/overview?from=laws-1997-zh&to=laws-2017-ja",
    "/-/diff/overview.json?from=laws-1997-zh&to=laws-2017-ja",
    "/-/citations",
    "/-/citations.json?law=61",
    "/-/history",
    "/-/history.json",
    "/-/history/16",
    "/-/history/16.json",
    "/-/glossary",
    "/-/glossary.json?q=revoke",
    f"/-/glossary/{GLOSSARY_TERM}",
    f"/-/glossary/{GLOSSARY_TERM}.json",
    "/-/guides",
    "/-/guides.json",
    "/-/guides/revoke",
    "/-/guides/revoke.json",
    "/-/api",
    "/-/openapi.json",
    "/sw.js",
    "/-/offline/manifest.webmanifest",
    "/-/offline/page",
    "/-/databases",
    "/-/databases.json",
    "/-/threads",
    "/-/threads.json",
]
DATASETTE = [
    "/laws",
    "/laws.json",
    "/laws/sections?kind=law",
    "/laws/sections.json?_facet=doc",
    "/laws/sections/laws-2017-ja:61B",
    "/laws/sections/laws-2017-ja:61B.json",
    "/laws?sql=select+id,+label+from+sections+limit+5",  # 1.0 redirects it to /laws/-/query
    "/laws.json?sql=select+1+as+n",
    "/laws/citations?doc=laws-2017-ja&ref=61",
    "/laws/citations.json?doc=laws-2017-ja&ref=61&_shape=array",
    "/-/versions.json",
    "/-/plugins.json",
]
# the packs are files `bridge-laws build` writes beside its database (the session's test database
# has none): served with their build id by tests/test_offline.py
NEEDS_PACK_FILES = {r"^/-/offline/pages\.json$", r"^/-/offline/search\.json$"}
NEEDS_PACK_FILES.add(next(p for p, _ in routes.ROUTES if p.startswith(r"^/-/offline/(?P<build>")))
LANGUAGES = ["", "/zh", "/en"]


@pytest.fixture(scope="module")
def served(laws_db_path, tmp_path_factory):
    log = tmp_path_factory.mktemp("serve") / "server.log"
    port = free_port()
    argv = [PYTHON, "-m", "laws_site.cli", "serve", "--db", str(laws_db_path), "--port", str(port)]
    with serving(laws_db_path, port=port, argv=argv + ["--workers", str(WORKERS)], log=log, timeout=120) as (
        base,
        _process,
    ):
        with httpx.Client(base_url=base, timeout=60) as client:
            yield client, log


def test_every_route_of_the_plugin_has_an_address_here():
    """A new route fails here until it is listed (and so answered by a real server on both Datasettes)."""
    listed = [path.split("?")[0] for path in SITE]
    for pattern, _view in routes.ROUTES + routes.PUBLIC_SITE_ROUTES:
        if pattern not in NEEDS_PACK_FILES:
            assert any(re.match(pattern, path) for path in listed), pattern


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("path", SITE + DATASETTE)
def test_every_page_kind_and_json_route_answers(served, lang, path):
    client, _log = served
    if ".json" in path.split("?")[0]:
        lang = ""  # JSON has no language prefix (laws_site/i18n/prefix.py)
    response = client.get(lang + path, follow_redirects=True)
    assert response.status_code == 200, (version("datasette"), lang + path, response.text[:300])
    if ".json" in path:
        assert response.headers["access-control-allow-origin"] == "*"


def test_it_runs_its_workers_gzip_and_the_public_sites_rules(served):
    client, log = served
    started = re.findall(r"Started server process \[(\d+)\]", log.read_text(encoding="utf-8"))
    assert len(set(started)) == WORKERS, log.read_text(encoding="utf-8")[-2000:]
    page = client.get("/laws-2017-ja/61", headers={"accept-encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip" and "ETag" in page.headers.get(
        "access-control-expose-headers", ""
    )
    assert page.headers["x-content-type-options"] == "nosniff" and page.headers["etag"]
    assert client.post("/laws-2017-ja/61").status_code == 405  # the public site is read-only


def test_the_database_download_is_sent_as_it_is(served, laws_db_path):
    client, _log = served
    served_db = client.get("/laws.db", headers={"accept-encoding": "gzip"})
    assert served_db.status_code == 200 and "content-encoding" not in served_db.headers
    assert served_db.content == laws_db_path.read_bytes()
