"""The offline page shows a search's results with the search page's markup and wording, in each
interface language: offline-search.js fills the parts of templates/_search_results.html that the
offline page holds, the search page renders the same parts (issue 33 item 2: one definition of the
markup). Run in Node on this build's search pack and the offline page as the service worker gets it,
against the server's page through Datasette's test client (tests/test_offline_browser.py does it in
Chromium, offline, in the full tier)."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path
from urllib.parse import quote

import pytest

from laws_site.offline.pack import result_labels
from laws_site.offline.search_scripts import script_paths

RUNNER = Path(__file__).resolve().parent / "node" / "offline_page.js"
QUERIES = [
    "リボーク",
    "revoke",
    "revoek",
    "ribooku",
    "夢家",
    "61B、64A1",
    "61Z",  # a citation nobody holds: the same nearest units
    "罚牌",
    "insufficient bid",  # Law 27 and the 1997 Law 27 the concordance pairs it with (zh, en: tests/test_search_paired.py)
    "ダミーがディクレアラーの間違ったハンドからのリードを止めようとした",
    "叫牌不足",  # the 1997 text's words: in /zh/ and /en/ the current Law 27B first, in the Japanese interface 1997 27B
]


@pytest.fixture(scope="module")
def offline_page(search_pack_file):
    """ask(shell, labels, url) -> the service worker's answer, from one Node process."""
    assert shutil.which("node"), "node is not installed"
    pack = search_pack_file
    process = subprocess.Popen(
        ["node", str(RUNNER), str(pack), *map(str, script_paths())],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )

    def ask(shell: str, labels: dict, url: str) -> dict:
        process.stdin.write(json.dumps([shell, labels, url], ensure_ascii=False) + "\n")
        process.stdin.flush()
        return json.loads(process.stdout.readline())

    yield ask
    process.stdin.close()
    process.wait(timeout=10)


def between(html: str, start: str, end: str) -> str:
    """The markup between two marks, blank space between tags left out."""
    region = html[html.index(start) + len(start) :]
    return re.sub(r">\s+<", "><", region[: region.index(end)]).strip()


def unprefixed(region: str, prefix: str) -> str:
    """Links without the language prefix: the service worker adds it to the offline page's links
    that lack it (the pages' own links keep the address they were asked at)."""
    return region.replace(f'href="{prefix}/', 'href="/') if prefix else region


def online_results(html: str, prefix: str) -> str:
    """The search page's results, without its summary's link to the JSON (offline has none)."""
    region = between(html, "</details>", "</main>").removesuffix("</section>")
    return re.sub(r' · <a href="/-/search\.json\?[^"]*">JSON</a>', "", unprefixed(region, prefix))


@pytest.fixture(scope="module")
def labels(laws_db_path):
    conn = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    yield {lang: result_labels(conn, lang) for lang in ("ja", "zh", "en")}
    conn.close()


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("prefix", ["", "/zh", "/en"], ids=["ja", "zh", "en"])
async def test_offline_results_have_the_search_pages_markup(datasette, labels, offline_page, prefix, query):
    shell = (await datasette.client.get(f"{prefix}/-/offline/page")).text
    url = f"{prefix}/-/search?q={quote(query)}&list=1"
    online = online_results((await datasette.client.get(url)).text, prefix)
    offline = offline_page(shell, labels[prefix.strip("/") or "ja"], url)["html"]
    assert (
        unprefixed(between(offline, '<div id="offline-results">', '</div>\n<p class="offline-status'), prefix) == online
    )
