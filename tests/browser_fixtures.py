"""Headless Chromium for the page tests, set up once: Debian's /usr/bin/chromium driven by Playwright
(no browser download), a real `bridge-laws serve` over the session's database, and one page per
width - a phone's 390x844 (is_mobile, touch) and a desktop's 1280x900, Japanese browsers.

Fixtures (tests/conftest.py registers them; a module may define its own of the same name):
- ``served``: the base URL of a server over the session build, one per module;
- ``browser``: Chromium, one per module (Playwright's sync API runs one loop at a time, so a module
  that starts its own, as tests/test_offline_browser.py does, never meets another one still running);
- ``pages``: {"phone": Page, "desktop": Page}, one context per width with the clipboard allowed,
  reused across a module's tests.

A module marks itself with ``pytestmark = BROWSER_MARKS``: on a machine without Chromium its tests
skip; where CI is set (.ci/run installs Chromium) they fail instead of skipping.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.live_server import serving

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
VIEWPORTS = {
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
        "locale": "ja-JP",
    },
    "desktop": {"viewport": {"width": 1280, "height": 900}, "locale": "ja-JP"},
}

# a machine without Chromium skips these; CI, where .ci/run installs it, fails instead
BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists() and os.environ.get("CI") != "true", reason="/usr/bin/chromium is not installed"
    ),
]


@pytest.fixture(scope="module")
def served(laws_db_path):
    with serving(laws_db_path) as (base, _process):
        yield base


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def pages(browser, served):
    """One page per width, reused by every test in the module."""
    contexts = {name: browser.new_context(**options) for name, options in VIEWPORTS.items()}
    for context in contexts.values():
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=served)
    yield {name: context.new_page() for name, context in contexts.items()}
    for context in contexts.values():
        context.close()
