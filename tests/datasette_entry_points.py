"""A pytest plugin for running Datasette's own test suite with this project installed
(tests/test_datasette_suite.py): Datasette's conftest sets `sys._called_from_test`, and its
plugins.py then skips the `datasette` entry points; here they are loaded (pluggy's public API), as
`datasette` loads them outside its tests."""

from __future__ import annotations

import pytest


@pytest.hookimpl(trylast=True)  # after Datasette's own conftest set its flag
def pytest_configure(config):  # noqa: ARG001 - pytest's hook signature
    from datasette.plugins import pm

    pm.load_setuptools_entrypoints("datasette")
