"""A reader's path in real headless Chromium against a real `bridge-laws serve`:
home -> search リボーク -> Law 61 -> click 第44条 -> /laws-2017-ja/44 (screenshot in test-artifacts/)."""
from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
LAW_61 = re.compile(r"/laws-2017-ja/61(?:[A-Z][^/]*)?$")

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is not installed")]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_serving(url: str, process: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"bridge-laws serve exited with {process.returncode}: {process.stderr.read()}")
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer within {seconds}s")


@pytest.fixture(scope="module")
def served(laws_db_path):
    """`bridge-laws serve` in a subprocess on a free localhost port; yields its base URL."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "laws_site.cli", "serve", "--db", str(laws_db_path),
                                "--port", str(port)], cwd=Path(__file__).resolve().parent.parent,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(base + "/", process)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def page():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser.new_page(viewport={"width": 1200, "height": 900})
        browser.close()


def open_law_61_from_search(page, base: str) -> None:
    """Search from the home page's box; follow the Law 61 result if the search page exists."""
    page.goto(base + "/")
    page.fill("header.site-header input[name=q]", "リボーク")
    with page.expect_navigation() as navigation:
        page.press("header.site-header input[name=q]", "Enter")
    assert page.url.startswith(base + "/-/search?q=")
    assert navigation.value.status == 200
    result = page.locator("a[href]").filter(has_not=page.locator("header a")).evaluate_all(
        "links => links.map(a => a.getAttribute('href'))")
    law_61 = next(href for href in result if LAW_61.search(href.split("?")[0].split("#")[0]))
    page.click(f'a[href="{law_61}"] >> nth=0')
    page.wait_for_load_state()


def test_search_to_law_61_then_follow_the_reference_to_law_44(served, page):
    open_law_61_from_search(page, served)
    assert LAW_61.search(page.url), page.url
    link = page.locator("article.law-text a.xref", has_text="第44条").first
    assert link.get_attribute("href") == "/laws-2017-ja/44"
    link.click()
    page.wait_for_url(served + "/laws-2017-ja/44")
    assert page.locator("article.law-text h1").inner_text().startswith("44")
    assert page.locator("form[action='/-/search'] input[name=q]").count() >= 1
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "law-44-from-search.png"
    page.screenshot(path=str(shot), full_page=False)
    assert shot.stat().st_size > 10_000
