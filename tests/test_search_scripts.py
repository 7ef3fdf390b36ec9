"""The offline search's scripts (laws_site/offline/search_scripts.py) are one list: the service worker
imports and keeps the same files in the same order, the offline page and the glossary's filter load
them, and each is valid JavaScript."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from laws_site.offline.search_scripts import OFFLINE_SEARCH_SCRIPTS, STATIC, script_paths


def test_the_service_worker_imports_the_same_scripts_in_the_same_order():
    worker = (STATIC / "sw.js").read_text(encoding="utf-8")
    listed = re.search(r"const SEARCH_SCRIPTS = (\[[^\]]*\])", worker).group(1)
    assert tuple(json.loads(listed)) == OFFLINE_SEARCH_SCRIPTS
    assert "importScripts(...SEARCH_SCRIPTS.map(at));" in worker


async def test_the_offline_page_and_the_glossary_load_them_in_order(datasette):
    page = (await datasette.client.get("/-/offline/page")).text
    loaded = re.findall(r'<script src="[^"]*/bridge-laws/(offline-search[^"?]*\.js)[^"]*" defer>', page)
    assert tuple(loaded) == OFFLINE_SEARCH_SCRIPTS
    glossary = (await datasette.client.get("/-/glossary")).text
    engine = re.search(r'data-engine="([^"]+)"', glossary).group(1).split(" ")
    assert tuple(url.rsplit("/", 1)[1] for url in engine) == OFFLINE_SEARCH_SCRIPTS


@pytest.mark.parametrize("path", script_paths(), ids=OFFLINE_SEARCH_SCRIPTS)
def test_each_script_is_valid_javascript(path):
    assert shutil.which("node"), "node is not installed"
    checked = subprocess.run(["node", "--check", str(path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
