"""How `bridge-laws serve` runs Datasette: the settings and metadata of the public site.

The pages, templates and static files come with the installed plugin (entry point `datasette`),
so these arguments are all a host needs besides the database; see README for publishing.
"""
from __future__ import annotations

from pathlib import Path

METADATA = Path(__file__).resolve().parent / "metadata.yml"

# A public, read-only site: no arbitrary SQL time sink, no writes.
SETTINGS = {
    "sql_time_limit_ms": "1500",
    "max_returned_rows": "1000",
    "allow_download": "on",
    "default_page_size": "50",
    # suggesting facets scans every column of the sections table: 70 % of a ?_search= answer
    # (benchmarks/RESULTS.md); the configured facets (doc, kind) stay
    "suggest_facets": "off",
    # seconds a browser or proxy may reuse an answer; after that the ETag makes revalidation a 304
    "default_cache_ttl": "60",
}


def datasette_args(db_path: Path, host: str, port: int) -> list[str]:
    args = ["serve", "--immutable", str(db_path), "--host", host, "--port", str(port),
            "--metadata", str(METADATA)]
    for name, value in SETTINGS.items():
        args += ["--setting", name, value]
    return args
