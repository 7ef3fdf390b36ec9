"""The tree shows the design (issue 33 item 1, DEVELOPERS.md "Layout"): no import circles in
`ingest` or `laws_site`, no module over 600 lines except a document parser, and the site takes from
the build side only what the design says it may.

Every import counts, at module level or inside a function: an import moved into a function still
ties the two modules together, it only hides the knot until run time.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("ingest", "laws_site")
MAX_LINES = 600
# a document parser reads one printed book's layout: long by nature, one concern (DEVELOPERS.md)
DOCUMENT_PARSERS = "ingest/parsers"
# DEVELOPERS.md "Layout": the site "imports from `ingest` only its text core (`ingest.text`) and what
# the build defined for it to read" - named here, each with what it is
SITE_READS = {
    "ingest.text": "the text core both sides share",
    "ingest.sources.registry": "the one document registry (which document plays which part)",
    "ingest.search": "what search reads, made at build (glossary, vocabulary, index words)",
    "ingest.references.labels": "human labels: the one place they are made",
    "ingest.editions.relations": "what became of a provision between editions, in words",
    "ingest.build.identity": "the build's id",
    "ingest.build.outputs": "where the build put its outputs (the offline packs)",
    "ingest.build.db_target": "the database's default path",
    "ingest.build.read_only": "the database opened read-only, outside Datasette",
}
# the two site modules that run the build itself: the command line and the build's outputs (the
# database and the offline packs, which are the site's pages, switched into place together)
SITE_RUNS_THE_BUILD = ("laws_site.cli", "laws_site.offline.make")


# ---------------------------------------------------------------- the import graph


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


@dataclass(frozen=True)
class Import:
    target: str
    line: int


def absolute_base(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    """The module a `from X import ...` names, relative imports resolved against the importer."""
    if not node.level:
        return node.module or ""
    package = importer.split(".") if is_package else importer.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


# an import statement starts a line (at any indentation: inside a function too); parsing only these
# statements is 40 times faster than parsing every module whole, and finds the same imports
IMPORT_LINE = re.compile(r"^[ \t]*(?:from[ \t]+\.*[\w.]*[ \t]+import\b|import[ \t]+\w)", re.MULTILINE)


def import_statements(source: str) -> Iterator[tuple[ast.stmt, int]]:
    """Each import statement of a module with its line; a line of a docstring that merely starts
    with `from` or `import` is not Python, and is left out."""
    for match in IMPORT_LINE.finditer(source):
        start = match.start()
        end = source.find("\n", start)
        end = len(source) if end < 0 else end
        statement = first_statement(source, start, end)
        if statement is not None:
            yield statement, source.count("\n", 0, start) + 1


def first_statement(source: str, start: int, end: int) -> ast.stmt | None:
    """The statement from `start` to the end of its line, or on to the `)` that closes its names (a
    `)` inside a comment on the way is passed over: the text up to it does not parse)."""
    while True:
        try:
            return ast.parse(source[start:end].strip()).body[0]
        except SyntaxError:
            if "(" not in source[start:end]:
                return None
            end = source.find(")", end) + 1
            if end == 0:
                return None


def imports_of(path: Path, modules: dict[str, Path], root: Path = ROOT) -> Iterator[Import]:
    """The project modules `path` imports, anywhere in it (functions too), each with its line."""
    importer = module_name(path, root)
    for node, line in import_statements(path.read_text(encoding="utf-8")):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    yield Import(alias.name, line)
        elif isinstance(node, ast.ImportFrom):
            base = absolute_base(node, importer, path.name == "__init__.py")
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in modules:
                    yield Import(submodule, line)
                elif base in modules:
                    yield Import(base, line)


def import_graph() -> dict[str, dict[str, int]]:
    """module -> {imported module: line of the first import}, over the project's own modules."""
    modules = project_modules()
    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        edges: dict[str, int] = {}
        for found in imports_of(path, modules):
            if found.target != name:
                edges.setdefault(found.target, found.line)
        graph[name] = edges
    return graph


def strongly_connected(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one module (iterative: no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = counter
                    counter += 1
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return components


def one_cycle(graph: dict[str, dict[str, int]], component: list[str]) -> list[str]:
    """A shortest circle through the component's first module, for the failure message."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for successor in sorted(graph[node]):
                if successor == start:
                    return paths[node] + [start]
                if successor in members and successor not in paths:
                    paths[successor] = paths[node] + [successor]
                    following.append(successor)
        frontier = following
    return component


def describe_cycle(graph: dict[str, dict[str, int]], cycle: list[str]) -> str:
    steps = [f"{a} (line {graph[a][b]})" for a, b in zip(cycle, cycle[1:])]
    return " -> ".join(steps + [cycle[-1]])


# ---------------------------------------------------------------- the tool itself


def test_tarjan_finds_a_circle_and_leaves_a_chain_alone():
    graph = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3}, "d": {"a": 4}, "e": {}}
    assert strongly_connected(graph) == [["a", "b", "c"]]
    assert describe_cycle(graph, one_cycle(graph, ["a", "b", "c"])) == "a (line 1) -> b (line 2) -> c (line 3) -> a"
    assert strongly_connected({"a": {"b": 1}, "b": {"c": 1}, "c": {}}) == []


def test_imports_inside_functions_and_relative_imports_are_edges(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "one.py").write_text(
        '"""Docs.\nfrom pkg import three is prose.\n"""\ndef late():\n    from pkg import two\n'
    )
    (package / "two.py").write_text("from .one import (  # noqa (a comment)\n    late,  # the (late) one\n)\n")
    (package / "three.py").write_text("")
    modules = {module_name(p, tmp_path): p for p in package.rglob("*.py")}
    assert list(imports_of(package / "one.py", modules, tmp_path)) == [Import("pkg.two", 5)]
    assert list(imports_of(package / "two.py", modules, tmp_path)) == [Import("pkg.one", 1)]


# ---------------------------------------------------------------- the tree


@pytest.fixture(scope="module")
def graph() -> dict[str, dict[str, int]]:
    return import_graph()


def test_no_import_circles(graph):
    circles = [describe_cycle(graph, one_cycle(graph, c)) for c in strongly_connected(graph)]
    assert not circles, "import circles:\n" + "\n".join(circles)


def test_no_module_over_600_lines_but_a_document_parser():
    too_long = {
        str(path.relative_to(ROOT)): lines
        for path in project_modules().values()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
        and path.parent != ROOT / DOCUMENT_PARSERS
    }
    assert not too_long, too_long


def test_no_script_of_the_site_over_600_lines():
    """The site's scripts (the offline search and app, the service worker) are read like its Python: each in
    one sitting (offline-search-engine.js had grown to 1,164 lines)."""
    scripts = sorted((ROOT / "laws_site" / "static").glob("*.js"))
    assert scripts, "no scripts found"
    too_long = {
        path.name: lines
        for path in scripts
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not too_long, too_long


def reads_from(target: str) -> bool:
    return any(target == allowed or target.startswith(allowed + ".") for allowed in SITE_READS)


def test_the_site_takes_from_the_build_side_only_its_text_core_and_what_the_build_made_for_it(graph):
    reaches = {
        f"{site_module} line {line}": target
        for site_module, edges in graph.items()
        if site_module.startswith("laws_site.") and site_module not in SITE_RUNS_THE_BUILD
        for target, line in edges.items()
        if target.startswith("ingest.") and not reads_from(target)
    }
    assert not reaches, reaches


def test_the_build_side_imports_nothing_of_the_site(graph):
    """Data flows one way: corpus -> ingest -> laws.db -> laws_site."""
    reaches = {
        f"{module} line {line}": target
        for module, edges in graph.items()
        if module.startswith("ingest")
        for target, line in edges.items()
        if target.startswith("laws_site")
    }
    assert not reaches, reaches


# ---------------------------------------------------------------- one parser per concept (issue 33 item 3)

# the one citation grammar (ingest/text/refs.py, spelling.py) and the one kana table (ingest/text/kana.py)
ONE_HOME = {
    "parse_law_ref": "ingest.text.refs",
    "format_law_ref": "ingest.text.refs",
    "law_number": "ingest.text.refs",
    "law_ancestors": "ingest.text.refs",
    "typed_law_ref": "ingest.text.spelling",
    "katakana_to_hiragana": "ingest.text.kana",
}
# the same name for another concept: a URL parameter's check, not a reading of a ref
OTHER_CONCEPT = {("law_number", "laws_site.http.request_bounds")}


TOP_LEVEL_FUNCTION = re.compile(r"^(?:async )?def (\w+)\(", re.MULTILINE)


def test_each_grammar_function_is_defined_once():
    defined: dict[str, set[str]] = {name: set() for name in ONE_HOME}
    for module, path in project_modules().items():
        for name in TOP_LEVEL_FUNCTION.findall(path.read_text(encoding="utf-8")):
            if name in defined and (name, module) not in OTHER_CONCEPT:
                defined[name].add(module)
    assert {name: sorted(modules) for name, modules in defined.items()} == {
        name: [home] for name, home in ONE_HOME.items()
    }
