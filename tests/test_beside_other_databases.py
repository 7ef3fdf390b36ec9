"""Installed beside other databases, the plugin changes nothing of theirs (issue 34).

Datasette loads the plugin into every `datasette` of the environment. Served next to another
database (no metadata.yml, so no public_site rules), that database's pages, JSON, facets, canned
queries (writable ones too), SQL limits, language and errors are Datasette's own.
"""

from __future__ import annotations

import pytest
import sqlite_utils
from datasette.app import Datasette

WRITABLE = {
    "databases": {"other": {"queries": {"add": {"sql": "insert into things (name) values (:name)", "write": True}}}}
}


@pytest.fixture
async def beside(tmp_path, laws_db_path):
    other = sqlite_utils.Database(tmp_path / "other.db")
    other["things"].insert_all(
        [{"id": i, "name": f"n{i}", "kind": "odd" if i % 2 else "even"} for i in range(6)], pk="id"
    )
    other["things"].enable_fts(["name"])
    other.close()
    # 0.65 reads canned queries from metadata, the 1.0 line from its configuration (datasette.yaml)
    where = "config" if hasattr(Datasette, "add_query") else "metadata"
    ds = Datasette([str(tmp_path / "other.db")], immutables=[str(laws_db_path)], **{where: WRITABLE})
    await ds.invoke_startup()
    return ds


BROWSER = {"accept": "text/html", "accept-language": "en"}


@pytest.mark.parametrize(
    "path",
    [
        "/other",
        "/other/things",
        "/other/things/1",
        "/other/things?_sort=name",
        "/other/things?_sort_desc=name",
        "/other/things?kind__exact=odd",
        "/other/things?_facet=kind",
        "/other/things?_search=n1",
        "/other?sql=select+1",
        "/other/add",
    ],
)
async def test_another_databases_pages_are_datasettes_own(beside, path):
    response = await beside.client.get(path, headers=BROWSER, follow_redirects=True)  # 1.0: ?sql= -> /-/query
    assert response.status_code == 200, response.text[:300]
    html = response.text
    assert 'class="site-header"' not in html and "ui-languages" not in html  # Datasette's layout
    assert "Powered by" in html and "no such table" not in html


async def test_its_json_facets_and_errors_are_datasettes_own(beside):
    data = (await beside.client.get("/other/things.json?_facet=kind&_extra=facet_results")).json()
    facets = data["facet_results"].get("results", data["facet_results"])  # 1.0 nests them
    toggle = facets["kind"]["results"][0]["toggle_url"]
    assert toggle.startswith("http://localhost/other/things.json?")  # absolute, as Datasette makes it
    missing = await beside.client.get("/other/nope", headers=BROWSER)
    assert missing.status_code == 404 and "site-header" not in missing.text
    bad_sort = await beside.client.get("/other/things.json?_sort=zzz")
    # Datasette's own answer (0.65 says 500 for it): the plugin's error pages are for its own paths
    assert "Cannot sort table by zzz" in bad_sort.text and "suggestions" not in bad_sort.text


async def test_its_paging_shapes_filters_and_csv_are_datasettes_own(beside):
    """Datasette's table conventions, which the plugin refuses on its own routes, work here."""
    first = (await beside.client.get("/other/things.json?_size=2&_shape=objects")).json()
    assert len(first["rows"]) == 2 and first["next_url"].startswith("http://localhost/other/things.json?")
    second = (await beside.client.get("/other/things.json?_size=2&_shape=objects&_next=" + first["next"])).json()
    assert [r["id"] for r in second["rows"]] == [2, 3]
    array = (await beside.client.get("/other/things.json?kind__exact=odd&_shape=array")).json()
    assert [r["id"] for r in array] == [1, 3, 5]
    csv = await beside.client.get("/other/things.csv?_sort_desc=id&_size=1")
    assert csv.status_code == 200 and csv.text.splitlines()[1].startswith("5,")


async def test_a_writable_canned_query_still_writes(beside):
    response = await beside.client.post("/other/add", data={"name": "added"})
    assert response.status_code == 302  # Datasette's redirect after a write; no "read-only" 405
    rows = (await beside.client.get("/other/things.json?name=added")).json()["rows"]
    assert len(rows) == 1


async def test_no_language_prefix_or_redirect_for_another_database(beside):
    assert (await beside.client.get("/en/other/things", headers=BROWSER)).status_code == 404  # no database "en"
    plain = await beside.client.get("/other/things", headers={"accept": "text/html", "accept-language": "zh"})
    assert plain.status_code == 200 and "location" not in plain.headers


async def test_the_sql_limits_are_the_laws_databases_only(beside):
    big = "select length(zeroblob(300000)) as n"
    other = await beside.client.get("/other.json", params={"sql": big, "_shape": "array"}, follow_redirects=True)
    assert other.status_code == 200 and other.json() == [{"n": 300000}]
    laws = await beside.client.get("/laws.json", params={"sql": big}, follow_redirects=True)
    assert laws.status_code == 400 and "too big" in laws.json()["error"]


async def test_the_laws_site_still_answers_beside_it(beside):
    assert (await beside.client.get("/laws-2017-ja/61B.json")).json()["ref"] == "61B"
    page = await beside.client.get("/laws/sections", headers={"accept": "text/html"})
    assert page.status_code == 200 and 'class="site-header"' in page.text


async def test_without_a_laws_database_the_plugin_owns_no_path(tmp_path):
    """`datasette other-db.db` alone (a hyphen, like a document id): every page is Datasette's."""
    db = sqlite_utils.Database(tmp_path / "extra-database.db")
    db["things"].insert({"id": 1, "name": "x"}, pk="id")
    db.close()
    ds = Datasette([str(tmp_path / "extra-database.db")])
    for path in ("/", "/extra-database", "/extra-database/things", "/extra-database/things/1"):
        response = await ds.client.get(path, headers=BROWSER)
        assert response.status_code == 200 and "site-header" not in response.text, path
    assert (await ds.client.get("/extra-database/nope")).status_code == 404


async def test_the_public_sites_own_pages_take_a_language_prefix(datasette, beside):
    """/-/databases and /-/threads are the plugin's on the public site (and read in its languages);
    beside another database, without public_site, they are Datasette's, unprefixed."""
    for path in ("/zh/-/databases", "/en/-/threads"):
        page = await datasette.client.get(path, headers=BROWSER)
        assert page.status_code == 200 and 'class="site-header"' in page.text, path
    assert (await beside.client.get("/en/-/databases", headers=BROWSER)).status_code == 404
    assert (await beside.client.get("/-/databases", headers=BROWSER)).status_code == 200


@pytest.mark.parametrize("laws_beside", [False, True])
async def test_under_base_url_a_custom_page_sees_its_path_as_it_came(tmp_path, laws_db_path, laws_beside):
    """Datasette's own custom pages under base_url read request.path with the prefix (Datasette's
    suite: test_custom_pages_with_base_url); the plugin's base_url layer leaves paths not its own alone."""
    pages = tmp_path / "templates" / "pages"
    pages.mkdir(parents=True)
    (pages / "request.html").write_text("path:{{ request.path }}", encoding="utf-8")
    sqlite_utils.Database(tmp_path / "other.db")["t"].insert({"id": 1})
    ds = Datasette(
        [str(tmp_path / "other.db")],
        immutables=[str(laws_db_path)] if laws_beside else [],
        template_dir=str(tmp_path / "templates"),
        settings={"base_url": "/prefix/"},
    )
    await ds.invoke_startup()
    response = await ds.client.get("/request")  # datasette.client puts base_url in front itself
    assert response.status_code == 200 and response.text == "path:/prefix/request"
    if laws_beside:  # the plugin's own pages are still served under the prefix, links and all
        unit = await ds.client.get("/laws-2017-ja/61", headers={"accept": "text/html", "accept-language": "ja"})
        assert unit.status_code == 200 and 'href="/prefix/laws-2017-ja/' in unit.text
