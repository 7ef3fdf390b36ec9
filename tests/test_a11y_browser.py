"""Accessibility (WCAG 2.x AA, issue 37.8) measured by axe-core in real Chromium on every page kind, in
each interface language, at a phone's 390 px and a desktop's 1280 px: no serious or critical violation.

axe-core is pinned in tests/js/package.json and package-lock.json and installed there by `.ci/run`
(`npm ci`), never fetched from a CDN; it is injected into each page with Playwright. The counts of
every violation by impact, page kind and language go to test-artifacts/axe.json for the issue's note.
Service workers are blocked: the offline copy is not saved in the background while pages are measured
(its status line is still there, saying this browser keeps no copy).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser_fixtures import ARTIFACTS, BROWSER_MARKS, VIEWPORTS

pytestmark = BROWSER_MARKS

AXE = Path(__file__).resolve().parent / "js" / "node_modules" / "axe-core" / "axe.min.js"
LANGUAGES = {"ja": "/ja", "zh": "/zh", "en": "/en"}
# every page kind the site draws, one of each (a unit of each kind: a law, a sub-item with its context,
# a definition, a commentary note, a worked ruling, an index entry, a part, a regulation)
PAGES = [
    ("home", "/"),
    ("contents", "/laws-2017-ja"),
    ("contents-1997", "/laws-1997-zh"),
    ("law", "/laws-2017-ja/61"),
    ("sub-item", "/laws-2017-ja/43B2(a)"),
    ("law-1997", "/laws-1997-zh/23"),
    ("definition", "/laws-2017-ja/def:ダミー"),
    ("note", "/revoke-notes-ja/L61A"),
    ("ruling", "/revoke-notes-ja/ruling:1"),
    ("index-entry", "/laws-2017-ja/index:リボーク"),
    ("part", "/laws-2017-ja/part:5"),
    ("regulation", "/jcbl-regs-ja/8"),
    ("glossary", "/-/glossary"),
    ("glossary-term", "/-/glossary/ダミー"),
    ("citations", "/-/citations"),
    ("index", "/laws-2017-ja/-/index?row=り"),
    ("search", "/-/search?q=リボーク"),
    ("guides", "/-/guides"),
    ("guide", "/-/guides/revoke"),
    ("guide-path", "/-/guides/revoke?path=who-revoked"),
    ("history", "/-/history/23"),
    ("history-index", "/-/history"),
    ("compare", "/-/diff?ref=23&from=laws-1997-zh&to=laws-2017-ja"),
    ("compare-reprint", "/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja"),
    ("compare-overview", "/-/diff/overview?from=laws-1997-zh&to=laws-2017-ja"),
    ("api", "/-/api"),
    ("offline", "/-/offline/page"),
    ("not-found", "/laws-2017-ja/61Z"),
]
BLOCKING = ("serious", "critical")
RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.length,
    where: v.nodes.slice(0, 3).map((n) => n.target.join(" "))}));
}"""


@pytest.fixture(scope="module")
def axe_source() -> str:
    assert AXE.exists(), f"{AXE} is missing: run `npm ci` in tests/js (.ci/run does)"
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def measured():
    found: dict[str, dict] = {}
    yield found
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "axe.json").write_text(json.dumps(found, ensure_ascii=False, indent=1), encoding="utf-8")


@pytest.fixture(scope="module")
def quiet_pages(browser, served):
    """One page per width, its service workers blocked."""
    contexts = {name: browser.new_context(**options, service_workers="block") for name, options in VIEWPORTS.items()}
    yield {name: context.new_page() for name, context in contexts.items()}
    for context in contexts.values():
        context.close()


@pytest.mark.parametrize("width", list(VIEWPORTS))
@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("name, path", PAGES, ids=[p[0] for p in PAGES])
def test_no_serious_or_critical_accessibility_violation(
    quiet_pages, served, axe_source, measured, width, lang, name, path
):
    page = quiet_pages[width]
    page.goto(served + LANGUAGES[lang] + path)
    page.wait_for_load_state("load")
    page.add_script_tag(content=axe_source)
    violations = page.evaluate(RUN)
    counts: dict[str, int] = {}
    for v in violations:
        counts[v["impact"]] = counts.get(v["impact"], 0) + v["nodes"]
    measured[f"{name}@{lang}@{width}"] = {"counts": counts, "rules": {v["id"]: v["nodes"] for v in violations}}
    blocking = [v for v in violations if v["impact"] in BLOCKING]
    assert blocking == [], f"{path} ({lang}, {width})"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_one_main_landmark_and_one_banner_on_every_page_kind(quiet_pages, served, lang):
    page = quiet_pages["phone"]
    for name, path in PAGES:
        page.goto(served + LANGUAGES[lang] + path)
        landmarks = page.evaluate(
            "[document.querySelectorAll('main, [role=main]').length,"
            " document.querySelectorAll('header, [role=banner]').length]"
        )
        assert landmarks == [1, 1], (name, landmarks)
        assert page.locator("summary a, summary button, summary input").count() == 0, name


UNSUPPORTED = {
    "ja": "このブラウザーはオフライン用の写しを保存できません。",
    "zh": "此浏览器无法保存离线副本。",
    "en": "This browser cannot keep an offline copy.",
}


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_status_line_says_a_browser_without_service_workers_keeps_no_copy(quiet_pages, served, lang):
    """The status line the README sends phone users to: where the browser blocks service workers it read
    "Offline copy not saved: Cannot read properties of undefined (reading 'installing')"."""
    page = quiet_pages["phone"]
    page.goto(served + LANGUAGES[lang] + "/laws-2017-ja/64A2")
    line = page.locator("#offline-status")
    page.wait_for_selector("#offline-status[data-state]:not([data-state=saving])")
    assert (line.get_attribute("data-state"), line.inner_text()) == ("unsupported", UNSUPPORTED[lang])
