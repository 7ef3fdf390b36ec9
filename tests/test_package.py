"""The site travels as one unit: `datasette package` / `datasette publish` carry the database,
an inspect file, metadata, plugins/, templates/, static/ and settings, plus `pip install` of this
project (which installs the `ingest` package only, per pyproject.toml). Nothing `serve` needs may
live anywhere else.

The behavioural test builds the package directory with Datasette's own code
(`temporary_docker_directory`, what `datasette package` hands to `docker build`), installs `ingest`
as the wheel would (its .py files only, in a directory on PYTHONPATH), runs the Dockerfile's CMD
from inside that directory, and compares what it serves with the site run from the repository.
"""
from __future__ import annotations

import ast
import asyncio
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata as importlib_metadata
from pathlib import Path

import httpx
import pytest
import yaml

from benchmarks.search_load import QUERIES, free_port, serving
from ingest.serve import METADATA, PLUGINS_DIR, PROJECT_ROOT, SETTINGS, STATIC_DIR, TEMPLATES_DIR, datasette_args

SERVE_OPTIONS = {"--immutable", "--host", "--port", "--metadata", "--plugins-dir", "--template-dir", "--static",
                 "--setting"}
# ingest modules that read a file outside the package at serve time (corpus/*.yml): they work from
# a checkout but not from an installed package. Shrink this set; never grow it.
KNOWN_OUTSIDE_READS = {"ingest.tokenize", "ingest.diff", "ingest.align", "ingest.glossary", "ingest.corpus"}


def packaged_ingest_packages() -> list[str]:
    """Top-level packages the wheel installs (sub-packages travel inside them)."""
    project = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [p for p in project["tool"]["setuptools"]["packages"] if "." not in p]


def extra_options() -> str:
    """What `--extra-options` must carry so the package serves with our settings."""
    return " ".join(f"--setting {name} {value}" for name, value in SETTINGS.items())


# ---------------------------------------------------------------- static checks

def test_serve_args_name_only_what_a_package_carries(tmp_path):
    db = tmp_path / "laws.db"
    args = datasette_args(db, "127.0.0.1", 8001)
    assert args[0] == "serve"
    allowed_paths = {str(db), str(METADATA), str(PLUGINS_DIR), str(TEMPLATES_DIR), f"static:{STATIC_DIR}"}
    options = [a for a in args[1:] if a.startswith("--")]
    assert set(options) <= SERVE_OPTIONS, set(options) - SERVE_OPTIONS
    values = [a for a in args[1:] if not a.startswith("--")]
    setting_pairs = [(args[i + 1], args[i + 2]) for i, a in enumerate(args) if a == "--setting"]
    assert dict(setting_pairs) == SETTINGS
    setting_values = {v for pair in setting_pairs for v in pair}
    for value in values:
        if value in setting_values or value in ("127.0.0.1", "8001"):
            continue
        assert value in allowed_paths, f"serve uses {value!r}, which a package would not carry"
    for path in (METADATA, PLUGINS_DIR, TEMPLATES_DIR, STATIC_DIR):
        assert path.resolve().is_relative_to(PROJECT_ROOT) and path.exists(), path
    from datasette.app import DEFAULT_SETTINGS

    assert set(SETTINGS) <= set(DEFAULT_SETTINGS)


def plugin_files() -> list[Path]:
    return sorted(PLUGINS_DIR.rglob("*.py"))


def imported_modules(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module)
    return modules


def installed_top_levels() -> set[str]:
    """Top-level modules of bridge-laws' requirements and theirs (what `pip install` brings)."""
    seen, todo, names = set(), ["bridge-laws"], set()
    while todo:
        dist_name = todo.pop()
        key = re.sub(r"[-_.]+", "-", dist_name).lower()
        if key in seen:
            continue
        seen.add(key)
        try:
            dist = importlib_metadata.distribution(dist_name)
        except importlib_metadata.PackageNotFoundError:
            continue
        for requirement in dist.requires or []:
            if "extra ==" in requirement:
                continue
            todo.append(re.split(r"[ ;<>=!~\[(]", requirement, maxsplit=1)[0])
        top = dist.read_text("top_level.txt")
        names.update(top.split() if top else [])
        for file in dist.files or []:
            parts = Path(str(file)).parts
            if parts and not parts[0].endswith((".dist-info", ".egg-info")) and parts[0] != "..":
                names.add(parts[0].removesuffix(".py"))
    return names


def test_plugins_import_only_what_an_installed_package_provides():
    local = {p.name for p in PLUGINS_DIR.iterdir() if p.is_dir()} | {p.stem for p in PLUGINS_DIR.glob("*.py")}
    available = set(sys.stdlib_module_names) | installed_top_levels() | set(packaged_ingest_packages()) | local
    assert {"datasette", "markupsafe", "ingest", "yaml"} <= available
    missing = {}
    for path in plugin_files():
        for module in imported_modules(path):
            top = module.split(".")[0]
            if top not in available and top != "__future__":
                missing.setdefault(str(path.relative_to(PROJECT_ROOT)), []).append(module)
    assert not missing, f"plugins import modules no package installs: {missing}"


def ingest_imports(path: Path) -> set[str]:
    """ingest.* modules a file imports, in every spelling (from ingest import x, from .x import y, ...)."""
    found = set()
    inside_ingest = path.parent.name == "ingest"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("ingest."))
        elif isinstance(node, ast.ImportFrom):
            if node.level == 1 and inside_ingest:
                base = f"ingest.{node.module}" if node.module else "ingest"
            elif node.level == 0 and node.module and node.module.split(".")[0] == "ingest":
                base = node.module
            else:
                continue
            found.add(base)
            if base == "ingest":
                found.update(f"ingest.{a.name}" for a in node.names)
    return {m for m in found if m != "ingest"}


def ingest_modules_reached_from_plugins() -> set[str]:
    todo = [m for path in plugin_files() for m in ingest_imports(path)]
    reached = set()
    while todo:
        module = todo.pop()
        path = PROJECT_ROOT / (module.replace(".", "/") + ".py")
        if module in reached or not path.exists():
            continue
        reached.add(module)
        todo += ingest_imports(path)
    return reached


def outside_reads() -> dict[str, list[str]]:
    """Modules whose code builds paths outside ingest/ (…parent.parent / "corpus" …)."""
    found = {}
    for module in ingest_modules_reached_from_plugins():
        source = (PROJECT_ROOT / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8")
        hits = [line.strip() for line in source.splitlines()
                if re.search(r"parent\.parent|DEFAULT_CORPUS|PROJECT_ROOT", line) and not line.strip().startswith("#")]
        if hits:
            found[module] = hits
    return found


def test_no_new_module_reads_files_outside_the_package_at_serve_time():
    assert "ingest.search" in ingest_modules_reached_from_plugins()
    new = set(outside_reads()) - KNOWN_OUTSIDE_READS
    assert not new, f"these modules read files a package leaves out: { {m: outside_reads()[m] for m in new} }"


def test_serve_time_modules_read_only_what_the_package_ships():
    # they reach corpus/*.yml beside ingest/: the wheel installs `corpus` as a package with its data
    assert "corpus" in packaged_ingest_packages()
    for module, lines in outside_reads().items():
        assert all(re.search(r"corpus|DEFAULT_CORPUS", line) or "PROJECT_ROOT" in line for line in lines), (module, lines)


# ---------------------------------------------------------------- the package, served

@pytest.fixture(scope="module")
def package_dir(laws_db_path, tmp_path_factory):
    """The directory `datasette package laws.db -m metadata.yml --plugins-dir plugins --template-dir templates
    --static static:static --extra-options '<settings>'` sends to docker build, plus its inspect file."""
    from datasette.utils import temporary_docker_directory

    out = tmp_path_factory.mktemp("package") / "app"
    cwd = os.getcwd()
    os.chdir(PROJECT_ROOT)
    try:
        with open(METADATA, encoding="utf-8") as metadata_file:
            with temporary_docker_directory(
                files=[str(laws_db_path)], name="bridge-laws", metadata=metadata_file,
                extra_options=extra_options(), branch=None, template_dir="templates", plugins_dir="plugins",
                static=[("static", "static")], install=["bridge-laws"], spatialite=False, version_note=None,
                secret="test-secret",
            ) as directory:
                shutil.copytree(directory, out, ignore=shutil.ignore_patterns("__pycache__"))
    finally:
        os.chdir(cwd)
    subprocess.run([sys.executable, "-m", "datasette", "inspect", "laws.db", "--inspect-file", "inspect-data.json"],
                   cwd=out, check=True, capture_output=True)
    return out


@pytest.fixture(scope="module")
def installed_ingest(tmp_path_factory) -> Path:
    """`ingest` as the wheel installs it: the packages pyproject.toml lists, nothing beside them."""
    site = tmp_path_factory.mktemp("site")
    for package in packaged_ingest_packages():
        shutil.copytree(PROJECT_ROOT / package, site / package, ignore=shutil.ignore_patterns("__pycache__"))
    return site


def dockerfile_cmd(package_dir: Path, port: int) -> list[str]:
    cmd = re.search(r"^CMD (.*)$", (package_dir / "Dockerfile").read_text(), re.M).group(1)
    argv = shlex.split(cmd.replace("$PORT", str(port)))
    assert argv[:2] == ["datasette", "serve"]
    argv = [sys.executable, "-m", "datasette", *argv[1:]]
    return [a if a != "0.0.0.0" else "127.0.0.1" for a in argv]


@pytest.fixture(scope="module")
def packaged_site(package_dir, installed_ingest, tmp_path_factory):
    env = {**os.environ, "PYTHONPATH": str(installed_ingest)}
    where = subprocess.run([sys.executable, "-c", "import ingest; print(ingest.__file__)"], cwd=package_dir, env=env,
                           capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where).is_relative_to(installed_ingest), f"ingest came from {where}, not the installed copy"
    port = free_port()
    log = tmp_path_factory.mktemp("log") / "package.log"
    with serving(package_dir / "laws.db", port=port, argv=dockerfile_cmd(package_dir, port), log=log,
                 cwd=package_dir, env=env) as (base, _process):
        with httpx.Client(base_url=base, timeout=30) as client:
            yield client


def test_package_dockerfile_serves_immutable_with_inspect_file_and_settings(package_dir):
    text = (package_dir / "Dockerfile").read_text()
    assert "-i laws.db" in text and "--inspect-file inspect-data.json" in text
    for name, value in SETTINGS.items():
        assert f"--setting {name} {value}" in text
    for part in ("templates", "plugins", "static", "metadata.json", "laws.db", "inspect-data.json"):
        assert (package_dir / part).exists(), part
    assert (package_dir / "plugins" / "lawsite" / "__init__.py").exists(), "plugin sub-packages travel"


def test_packaged_site_has_the_same_metadata_and_settings(packaged_site):
    assert packaged_site.get("/-/metadata.json").json() == json.loads(json.dumps(
        yaml.safe_load(METADATA.read_text(encoding="utf-8"))))
    settings = packaged_site.get("/-/settings.json").json()
    for name, value in SETTINGS.items():
        assert str(settings[name]).lower() in (value.lower(), {"on": "true", "off": "false"}.get(value, value))
    assert packaged_site.get("/-/databases.json").json()[0]["is_mutable"] is False


async def repo_json(datasette, path: str):
    response = await datasette.client.get(path)
    return response.status_code, response.json() if response.status_code == 200 else None


PAGES = ["/", "/laws-2017-ja", "/laws-2017-ja/61B2", "/laws-1997-zh/40", "/-/search?q=リボーク",
         "/laws/sections?_search=取り消した"]


@pytest.mark.parametrize("path", PAGES)
def test_packaged_pages_answer_and_their_static_files_too(packaged_site, path):
    response = packaged_site.get(path)
    assert response.status_code == 200, f"{path}: {response.status_code} {response.text[:300]}"
    for asset in sorted(set(re.findall(r'(?:href|src)="(/static/[^"?#]+)', response.text))):
        assert packaged_site.get(asset).status_code == 200, f"{path} links {asset}, missing from the package"


def test_packaged_unit_json_equals_the_repository_site(packaged_site, datasette):
    for path in ("/laws-2017-ja/61B2.json", "/revoke-notes-ja/L61B.json", "/jcbl-regs-ja/23.json"):
        status, expected = asyncio.run(repo_json(datasette, path))
        assert packaged_site.get(path).json() == expected, path


def test_packaged_search_ranks_like_the_repository_site(packaged_site, datasette):
    differing = []
    for query in QUERIES + ["プレイヤ", "ディクレアララー", "デュブリケート"]:
        status, expected = asyncio.run(repo_json(datasette, "/-/search.json?" + str(httpx.QueryParams({"q": query}))))
        got = packaged_site.get("/-/search.json", params={"q": query}).json()
        if [r["id"] for r in got.get("results", [])] != [r["id"] for r in (expected or {}).get("results", [])]:
            differing.append(query)
    assert not differing, f"the package answers these queries differently: {differing}"


def test_packaged_diff_page_works(packaged_site):
    for path in ("/-/diff?ref=45&from=laws-1997-zh&to=laws-2017-ja", "/-/diff/overview?from=laws-1997-zh&to=laws-2017-ja"):
        response = packaged_site.get(path)
        assert response.status_code == 200, f"{path}: {response.status_code} {response.text[:300]}"
