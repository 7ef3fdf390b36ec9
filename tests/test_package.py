"""The site travels as one unit: the project's wheel (both packages, templates and static files
inside `laws_site`) plus the database, an inspect file, metadata and settings. `datasette package`
/ `datasette publish` carry exactly that; no plugins or template directories.

Static checks: the read side registers through the `datasette` entry point, the build side imports
no web code, nobody edits sys.path. The behavioural test builds the wheel, installs it alone into a
directory (as the Dockerfile's `pip install` would), builds the package directory with Datasette's
own code (`temporary_docker_directory`, what `datasette package` hands to `docker build`), runs the
Dockerfile's CMD and compares what it serves with the site run from the repository.
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
from pathlib import Path

import httpx
import pytest
import yaml

from ingest.build.outputs import packs_root
from laws_site.http.serve import METADATA, SETTINGS, datasette_args
from tests.live_server import QUERIES, ROOT, free_port, serving

pytestmark = pytest.mark.slow  # wheels built and installed

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# the wheel, for --install; the build's offline packs, beside the database in /app (issue 35)
STATIC = ["dist:dist", "laws.db.offline:laws.db.offline"]
WEB_MODULES = {"datasette", "jinja2", "markupsafe"}


def extra_options() -> str:
    """What `--extra-options` must carry so the package serves with our settings."""
    return " ".join(f"--setting {name} {value}" for name, value in SETTINGS.items())


def python_files(*directories: str) -> list[Path]:
    """The project's own modules (not a virtualenv a benchmark keeps in a dot-directory)."""
    return sorted(
        p
        for d in directories
        for p in (ROOT / d).rglob("*.py")
        if not any(part.startswith(".") for part in p.relative_to(ROOT).parts)
    )


def imported_top_levels(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module.split(".")[0])
    return modules


# ---------------------------------------------------------------- static checks


def test_serve_args_name_only_the_database_metadata_and_settings(tmp_path):
    db = tmp_path / "laws.db"
    args = datasette_args(db, "127.0.0.1", 8001)
    assert args[:3] == ["serve", "--immutable", str(db)]
    assert not {"--plugins-dir", "--template-dir", "--static"} & set(args)
    setting_pairs = [(args[i + 1], args[i + 2]) for i, a in enumerate(args) if a == "--setting"]
    assert dict(setting_pairs) == SETTINGS
    assert args[args.index("--metadata") + 1] == str(METADATA)
    from datasette.app import DEFAULT_SETTINGS

    assert set(SETTINGS) <= set(DEFAULT_SETTINGS)


def test_the_read_side_is_registered_through_the_datasette_entry_point():
    assert PROJECT["project"]["entry-points"]["datasette"] == {"bridge_laws": "laws_site"}
    assert {"ingest*", "laws_site*", "corpus*"} <= set(PROJECT["tool"]["setuptools"]["packages"]["find"]["include"])
    assert "templates/*.html" in PROJECT["tool"]["setuptools"]["package-data"]["laws_site"]


async def test_datasette_finds_the_plugin_its_templates_and_static_files(datasette):
    plugins = (await datasette.client.get("/-/plugins.json")).json()
    ours = next(p for p in plugins if p["name"] == "bridge-laws")
    assert ours["templates"] and ours["static"]
    assert {"register_routes", "extra_template_vars", "render_cell", "filters_from_request"} <= set(ours["hooks"])


def test_the_build_side_imports_no_web_code():
    offenders = {
        str(p.relative_to(ROOT)): sorted(imported_top_levels(p) & WEB_MODULES)
        for p in python_files("ingest")
        if imported_top_levels(p) & WEB_MODULES
    }
    assert not offenders, offenders


def test_nothing_outside_tests_edits_sys_path():
    offenders = [
        str(p.relative_to(ROOT))
        for p in python_files("ingest", "laws_site", "benchmarks", "scripts")
        if "sys.path" in p.read_text(encoding="utf-8")
    ]
    assert not offenders


# The judged sets are kept with the tests (the project's standard) and read by one evaluator each,
# which the benchmark commands print and the tests hold to a floor: those modules only.
JUDGED_SET_EVALUATORS = {"benchmarks.situations", "benchmarks.relevance"}


def imported_benchmark_modules(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] == "benchmarks")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "benchmarks":
                found.update(f"benchmarks.{alias.name}" for alias in node.names)
            elif node.module.startswith("benchmarks."):
                found.add(node.module)
    return found


def test_tests_import_from_benchmarks_only_the_judged_sets_evaluators():
    offenders = {
        str(p.relative_to(ROOT)): sorted(imported_benchmark_modules(p) - JUDGED_SET_EVALUATORS)
        for p in python_files("tests")
        if imported_benchmark_modules(p) - JUDGED_SET_EVALUATORS
    }
    assert not offenders, offenders


# ---------------------------------------------------------------- the package, served


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    return next(out.glob("bridge_laws-*.whl"))


@pytest.fixture(scope="module")
def installed_wheel(package_dir, wheel, tmp_path_factory) -> Path:
    """The wheel the package carries, installed alone into a directory, as the Dockerfile's
    `pip install` does (its dependencies come from this environment)."""
    site = tmp_path_factory.mktemp("site")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(site),
            str(package_dir / "dist" / wheel.name),
        ],
        check=True,
        capture_output=True,
    )
    return site


@pytest.fixture(scope="module")
def package_dir(laws_db_path, wheel, tmp_path_factory):
    """The directory README's `datasette package laws.db -m metadata.yml --static dist:dist --static
    laws.db.offline:laws.db.offline --install /app/dist/<wheel> --extra-options '<settings>'` sends to
    docker build, plus its inspect file."""
    from datasette.utils import temporary_docker_directory

    from laws_site.offline.make import add_packs

    add_packs(laws_db_path, jobs=2, log=lambda line: None)  # `bridge-laws build` makes them with the database

    out = tmp_path_factory.mktemp("package") / "app"
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with open(METADATA, encoding="utf-8") as metadata_file:
            with temporary_docker_directory(
                files=[str(laws_db_path)],
                name="bridge-laws",
                metadata=metadata_file,
                extra_options=extra_options(),
                branch=None,
                template_dir=None,
                plugins_dir=None,
                static=[("dist", str(wheel.parent)), ("laws.db.offline", str(packs_root(laws_db_path)))],
                install=[f"/app/dist/{wheel.name}"],
                spatialite=False,
                version_note=None,
                secret="test-secret",
            ) as directory:
                shutil.copytree(directory, out, ignore=shutil.ignore_patterns("__pycache__"))
    finally:
        os.chdir(cwd)
    subprocess.run(
        [sys.executable, "-m", "datasette", "inspect", "laws.db", "--inspect-file", "inspect-data.json"],
        cwd=out,
        check=True,
        capture_output=True,
    )
    return out


def dockerfile_cmd(package_dir: Path, port: int) -> list[str]:
    cmd = re.search(r"^CMD (.*)$", (package_dir / "Dockerfile").read_text(), re.M).group(1)
    argv = shlex.split(cmd.replace("$PORT", str(port)))
    assert argv[:2] == ["datasette", "serve"]
    argv = [sys.executable, "-m", "datasette", *argv[1:]]
    return [a if a != "0.0.0.0" else "127.0.0.1" for a in argv]


@pytest.fixture(scope="module")
def packaged_site(package_dir, installed_wheel, tmp_path_factory):
    env = {**os.environ, "PYTHONPATH": str(installed_wheel)}
    where = subprocess.run(
        [sys.executable, "-c", "import laws_site, ingest; print(laws_site.__file__, ingest.__file__)"],
        cwd=package_dir,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert all(Path(w).is_relative_to(installed_wheel) for w in where), f"imported from {where}, not the wheel"
    port = free_port()
    log = tmp_path_factory.mktemp("log") / "package.log"
    with serving(
        package_dir / "laws.db", port=port, argv=dockerfile_cmd(package_dir, port), log=log, cwd=package_dir, env=env
    ) as (base, _process):
        with httpx.Client(base_url=base, timeout=30) as client:
            yield client


def readme_publish_command() -> list[str]:
    """The `datasette package` line of the README's Publishing section, in whichever bash block holds it."""
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Publishing")[1].split("\n## ")[0]
    lines = [
        line
        for block in re.findall(r"```bash\n(.*?)```", section, re.S)
        for line in block.replace("\\\n", " ").splitlines()
        if line.startswith("datasette package")
    ]
    assert len(lines) == 1, f"README's Publishing section has {len(lines)} `datasette package` commands"
    return shlex.split(lines[0])


@pytest.mark.slow
def test_readme_publish_command_is_the_one_tested(wheel):
    argv = readme_publish_command()
    options = {argv[i]: argv[i + 1] for i in range(len(argv) - 1) if argv[i].startswith("-")}
    assert argv[2] == "laws.db"
    assert (ROOT / options["-m"]).resolve() == METADATA
    assert options["--install"] == f"/app/dist/{wheel.name}"
    assert [argv[i + 1] for i, a in enumerate(argv) if a == "--static"] == STATIC
    assert options["--extra-options"] == extra_options()
    assert not {"--plugins-dir", "--template-dir"} & set(argv)


def test_package_dockerfile_installs_the_wheel_and_serves_immutable_with_settings(package_dir, wheel):
    text = (package_dir / "Dockerfile").read_text()
    assert f"/app/dist/{wheel.name}" in text
    assert "-i laws.db" in text and "--inspect-file inspect-data.json" in text
    for name, value in SETTINGS.items():
        assert f"--setting {name} {value}" in text
    words = shlex.split(text.replace("\n", " "))
    assert not {"--plugins-dir", "--template-dir"} & set(words)
    assert [words[i + 1] for i, word in enumerate(words) if word == "--static"] == STATIC
    for part in ("metadata.json", "laws.db", "inspect-data.json"):
        assert (package_dir / part).exists(), part


@pytest.mark.slow
def test_packaged_site_has_the_same_metadata_and_settings(packaged_site):
    assert packaged_site.get("/-/metadata.json").json() == json.loads(
        json.dumps(yaml.safe_load(METADATA.read_text(encoding="utf-8")))
    )
    settings = packaged_site.get("/-/settings.json").json()
    for name, value in SETTINGS.items():
        assert str(settings[name]).lower() in (value.lower(), {"on": "true", "off": "false"}.get(value, value))
    assert packaged_site.get("/-/databases.json").json()[0]["is_mutable"] is False


async def repo_json(datasette, path: str):
    response = await datasette.client.get(path)
    return response.status_code, response.json() if response.status_code == 200 else None


PAGES = [
    "/",
    "/laws-2017-ja",
    "/laws-2017-ja/61B2",
    "/laws-1997-zh/40",
    "/-/search?q=リボーク",
    "/laws/sections?_search=取り消した",
    "/-/diff?ref=45&from=laws-1997-zh&to=laws-2017-ja",
    "/-/diff/overview?from=laws-1997-zh&to=laws-2017-ja",
]


@pytest.mark.parametrize("path", PAGES)
def test_packaged_pages_answer_and_their_static_files_too(packaged_site, path):
    response = packaged_site.get(path)
    assert response.status_code == 200, f"{path}: {response.status_code} {response.text[:300]}"
    assets = sorted(set(re.findall(r'(?:href|src)="(/-/static[^"?#]+)', response.text)))
    assert any("/-/static-plugins/bridge-laws/" in asset for asset in assets)
    for asset in assets:
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


def test_the_cli_starts_without_importing_datasette():
    """`bridge-laws build` pays for what it uses: Datasette loads only to serve."""
    code = "import sys, laws_site.cli; print(sorted(m for m in sys.modules if m.split('.')[0] in %r))" % (
        sorted(WEB_MODULES),
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


def test_no_module_spells_a_document_id_but_the_registry():
    """Which document plays which part is corpus/sources.yml's to say (ingest/sources/registry.py); code asks.
    Docstrings, comments and help texts may name a document as an example."""
    import io
    import tokenize as python_tokens

    ids = [
        entry["id"]
        for entry in yaml.safe_load((ROOT / "corpus" / "sources.yml").read_text(encoding="utf-8"))["documents"]
    ]
    spelled = {}
    for path in python_files("ingest", "laws_site"):
        source = path.read_text(encoding="utf-8")
        strings = [
            tok
            for tok in python_tokens.generate_tokens(io.StringIO(source).readline)
            if tok.type == python_tokens.STRING and not tok.string.startswith(('"""', "'''"))
        ]
        found = sorted({doc for tok in strings for doc in ids if doc in tok.string and "help=" not in tok.line})
        if found:
            spelled[str(path.relative_to(ROOT))] = found
    assert not spelled, spelled


# ---------------------------------------------------------------- the wheel is the repository (issue 35)


@pytest.mark.slow
def test_a_build_from_the_installed_wheel_outside_the_checkout_is_the_repository_build(installed_wheel, tmp_path):
    """`bridge-laws build` from the wheel alone, in a directory far from the checkout, writes the same
    bytes as from the repository (the same SOURCE_DATE_EPOCH: built_at is the corpus's time)."""
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000"}
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    built = {}
    for where, cwd, extra in (("repository", ROOT, {}), ("wheel", outside, {"PYTHONPATH": str(installed_wheel)})):
        db = tmp_path / where / "laws.db"
        done = subprocess.run(
            [sys.executable, "-m", "laws_site.cli", "build", "--db", str(db), "--no-offline"],
            cwd=cwd,
            env={**env, **extra},
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        built[where] = db
    located = subprocess.run(
        [sys.executable, "-c", "import ingest.sources.corpus as c; print(c.DEFAULT_CORPUS)"],
        cwd=outside,
        env={**env, "PYTHONPATH": str(installed_wheel)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(located).is_relative_to(installed_wheel)  # the wheel's own corpus, not the checkout's
    assert built["wheel"].read_bytes() == built["repository"].read_bytes()


@pytest.mark.slow
def test_the_packaged_site_serves_its_offline_app_baked_in(packaged_site, laws_db_path):
    from ingest.build.identity import read_build_id
    from laws_site.offline.make import NAMES

    build = read_build_id(laws_db_path)
    assert f'const BUILD = "{build}";' in packaged_site.get("/sw.js").text
    for name in NAMES:
        response = packaged_site.get(f"/-/offline/{build}/{name}.json.gz")
        assert response.status_code == 200 and response.json()["build"] == build, name
