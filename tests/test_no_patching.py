"""The plugin uses Datasette and uvicorn through their public API only (issue 34): no assignment to
their functions, methods or attributes (nor to a Datasette object's), no private name of theirs.

Read from the source (ast), so a new patch fails here before any live test could notice it. A class
of the project that subclasses one of theirs (uvicorn's HttpToolsProtocol) counts: it lives on
their internals.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIBRARIES = ("datasette", "uvicorn")
# the Datasette object as the hooks name it
INSTANCE_NAMES = {"datasette", "ds"}


def library_names(tree: ast.Module) -> set[str]:
    """Local names bound to a module, class or function of Datasette or uvicorn."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in LIBRARIES:
                    names.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in LIBRARIES:
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def root_and_chain(node: ast.AST) -> tuple[str | None, list[str]]:
    chain = []
    while isinstance(node, ast.Attribute):
        chain.append(node.attr)
        node = node.value
    return (node.id if isinstance(node, ast.Name) else None), chain[::-1]


def theirs(node: ast.AST, names: set[str]) -> bool:
    root, chain = root_and_chain(node)
    return root in names or root in INSTANCE_NAMES or "ds" in chain


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def findings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = library_names(tree)
    found = []
    for node in ast.walk(tree):
        where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in LIBRARIES:
            found += [f"{where} imports private {a.name}" for a in node.names if is_private(a.name)]
        targets = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if isinstance(target, ast.Attribute) and theirs(target, names):
                found.append(f"{where} assigns {ast.unparse(target)}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr"):
            if node.args and theirs(node.args[0], names) or (node.args and root_and_chain(node.args[0])[0] in names):
                found.append(f"{where} {node.func.id} on {ast.unparse(node.args[0])}")
        if isinstance(node, ast.Attribute) and is_private(node.attr) and theirs(node.value, names):
            found.append(f"{where} reads private {ast.unparse(node)}")
        if isinstance(node, ast.ClassDef):
            found += [f"{where} subclasses {ast.unparse(b)}" for b in node.bases if root_and_chain(b)[0] in names]
    return found


def sources() -> list[Path]:
    return sorted((ROOT / "laws_site").rglob("*.py"))  # ingest imports neither library


def test_no_library_code_is_patched_and_no_private_name_is_used():
    found = [f for path in sources() for f in findings(path)]
    assert found == []


def test_the_check_finds_each_kind_of_patch(tmp_path):
    """The check can fail: each way of patching that the plugin used before issue 34 is found."""
    sample = ROOT / "laws_site" / "_patch_sample.py"
    code = """
import uvicorn
from datasette.utils.asgi import Request
from datasette.views.database import QueryView
from datasette import database
from datasette.app import _private_helper
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
Request.args = property(lambda self: None)
QueryView.data = None
database.sqlite_timelimit = None
uvicorn.run = None
datasette.absolute_url = None
setattr(Request, "args", None)
if datasette._startup_invoked:
    pass
self.ds._prepare_connection(conn, name)
class Bounded(HttpToolsProtocol):
    pass
"""
    sample.write_text(code, encoding="utf-8")
    try:
        found = findings(sample)
    finally:
        sample.unlink()
    assert len(found) == 10, found  # one per line of the sample after the imports, and the private import
