"""Datasette's own test suite, with the project installed and its entry point loaded, fails no test
that it does not fail without the project (issue 34).

Two virtual environments with the installed Datasette version and its test extras: one with the
project (`pip install -e .`), one without it. Each runs Datasette's repository `tests/` (with
tests/datasette_entry_points.py loading the `datasette` entry points, as `datasette` does outside its
tests); the failing test ids are compared.

Datasette's PyPI sdist ships its test modules without conftest.py, fixtures.py and the test
plugins, so the suite comes from Datasette's repository at the installed version's tag (or the
nearest earlier one): set DATASETTE_SUITE to a checkout's directory, e.g.
`git clone --branch 0.65.2 --depth 1 https://github.com/simonw/datasette /tmp/datasette-0.65`.
Without it the test fails, saying how to run it, unless DATASETTE_SUITE_NOT_RUN gives the reason it
cannot (.ci/run sets it when github.com is out of reach): then it is skipped with that reason
printed, never passed. The figures measured by hand: benchmarks/RESULTS.md, issue 34.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from importlib.metadata import version
from pathlib import Path

import pytest

pytestmark = [pytest.mark.live, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
SUITE = os.environ.get("DATASETTE_SUITE")
# why the suite cannot run here (an explicit opt-out: the skip says it)
NOT_RUN = os.environ.get("DATASETTE_SUITE_NOT_RUN", "").strip()
TIMEOUT = 3 * 3600


def make_venv(path: Path, *requirements: str) -> Path:
    if not (path / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
        subprocess.run([str(path / "bin" / "pip"), "install", "-q", *requirements], check=True, timeout=TIMEOUT)
    return path / "bin" / "python"


def suite_copy(source: Path, target: Path) -> Path:
    """Datasette's tests, docs and pytest.ini without its package: the installed Datasette is tested."""
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for name in ("tests", "docs"):
        shutil.copytree(source / name, target / name)
    shutil.copy(source / "pytest.ini", target / "pytest.ini")
    return target


# Datasette's tests that assert the exact list of installed plugins (EXPECTED_PLUGINS == what
# /-/plugins.json and `datasette plugins` list): any plugin installed beside Datasette fails them by
# construction, so they say nothing about this plugin's behaviour; left out of both runs.
PLUGIN_LIST_TESTS = ("tests/test_api.py::test_plugins_json", "tests/test_cli.py::test_plugins_cli")


def failures(python: Path, suite: Path, report: Path) -> tuple[int, set[str]]:
    """(tests run, ids of the failed or erroring ones)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "tests"))
    deselect = [arg for test in PLUGIN_LIST_TESTS for arg in ("--deselect", test)]
    subprocess.run(
        [str(python), "-m", "pytest", "-q", "-p", "datasette_entry_points", "-p", "no:cacheprovider",
         *deselect, f"--junitxml={report}", "tests"],
        cwd=suite, env=env, timeout=TIMEOUT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    failed, ran = set(), 0
    for case in ET.parse(report).getroot().iter("testcase"):
        ran += 1
        if case.find("failure") is not None or case.find("error") is not None:
            failed.add(f"{case.get('classname')}::{case.get('name')}")
    return ran, failed


def require_the_suite() -> Path:
    if SUITE:
        return Path(SUITE)
    if NOT_RUN:
        pytest.skip(f"Datasette's own test suite did NOT run: {NOT_RUN}")
    pytest.fail(
        "Datasette's own test suite needs its repository's tests: set DATASETTE_SUITE to a checkout at the "
        "installed version's tag (module docstring), or DATASETTE_SUITE_NOT_RUN to the reason it cannot run",
        pytrace=False,
    )


def test_datasettes_suite_fails_nothing_more_with_the_project(tmp_path_factory):
    source = require_the_suite()
    work = ROOT / "test-artifacts" / "datasette-suite"
    work.mkdir(parents=True, exist_ok=True)
    datasette = f"datasette[test]=={version('datasette')}"
    alone = make_venv(work / "venv-alone", datasette)
    with_project = make_venv(work / "venv-with", "-e", str(ROOT), datasette)
    suite = suite_copy(source, tmp_path_factory.mktemp("suite"))
    ran_alone, failed_alone = failures(alone, suite, work / "alone.xml")
    ran_with, failed_with = failures(with_project, suite, work / "with.xml")
    (work / "figures.txt").write_text(
        f"without the project: {len(failed_alone)} failed of {ran_alone}\n"
        f"with the project:    {len(failed_with)} failed of {ran_with}\n"
        + "".join(f"  only with: {name}\n" for name in sorted(failed_with - failed_alone)),
        encoding="utf-8",
    )
    assert ran_with >= ran_alone > 1000
    assert sorted(failed_with - failed_alone) == []
