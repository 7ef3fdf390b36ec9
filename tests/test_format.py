"""The tree keeps the one formatter's layout and its lint rules (pyproject.toml, [tool.ruff])."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True)


def test_the_tree_is_formatted():
    result = ruff("format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_lint_rules_pass():
    result = ruff("check", ".")
    assert result.returncode == 0, result.stdout + result.stderr
