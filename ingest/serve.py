"""How `bridge-laws serve` runs Datasette: one place lists what the site is made of.

The same pieces (database, metadata.yml, plugins/, templates/, static/) are what
`datasette publish` / `datasette package` must carry; see README.
"""
from __future__ import annotations

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
METADATA = PROJECT_ROOT / "metadata.yml"
PLUGINS_DIR = PROJECT_ROOT / "plugins"
TEMPLATES_DIR = PROJECT_ROOT / "templates"
STATIC_DIR = PROJECT_ROOT / "static"

# A public, read-only site: no arbitrary SQL time sink, no writes.
SETTINGS = {
    "sql_time_limit_ms": "1500",
    "max_returned_rows": "1000",
    "allow_download": "on",
    "default_page_size": "50",
}


def datasette_args(db_path: Path, host: str, port: int) -> list[str]:
    args = ["serve", "--immutable", str(db_path), "--host", host, "--port", str(port),
            "--metadata", str(METADATA), "--plugins-dir", str(PLUGINS_DIR),
            "--template-dir", str(TEMPLATES_DIR), "--static", f"static:{STATIC_DIR}"]
    for name, value in SETTINGS.items():
        args += ["--setting", name, value]
    return args
