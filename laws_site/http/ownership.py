"""What is this plugin's: the database `bridge-laws build` wrote (its paths: plugin_paths.py).

Datasette loads the plugin into every `datasette` of the environment, beside any other database.
Its pages, language prefixes, SQL limits, error pages and cell links apply to these paths and this
database only; everything else is answered by Datasette exactly as without the plugin.
"""

from __future__ import annotations

import sqlite3
import weakref

PLUGIN = "bridge-laws"
DEFAULT_NAME = "laws"
# the table only `bridge-laws build` writes (ingest/build/database.py): it marks the database as ours
MARKER_TABLE = "build_info"

_names: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def is_laws_connection(conn: sqlite3.Connection) -> bool:
    """True if the connection's main database was written by `bridge-laws build`."""
    try:
        found = conn.execute(
            "select 1 from main.sqlite_master where type = 'table' and name = ?", [MARKER_TABLE]
        ).fetchone()
    except sqlite3.Error:
        return False
    return found is not None


def has_marker(path: str) -> bool:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return False
    try:
        return is_laws_connection(conn)
    finally:
        conn.close()


def laws_database_name(datasette) -> str | None:
    """The served database the plugin reads: the one the plugin setting `database` names, else the
    one called `laws`, else the first file database written by `bridge-laws build`; None if none."""
    databases = {name: db for name, db in datasette.databases.items() if name != "_internal"}
    served = tuple(databases)  # a database added later is looked at then
    known = _names.get(datasette)
    if known is not None and known[0] == served:
        return known[1]
    configured = (datasette.plugin_config(PLUGIN) or {}).get("database")
    if configured:
        name = configured if configured in databases else None
    elif DEFAULT_NAME in databases:
        name = DEFAULT_NAME
    else:
        name = next((n for n, db in databases.items() if db.path and not db.is_memory and has_marker(db.path)), None)
    _names[datasette] = (served, name)
    return name


def laws_route(datasette) -> str | None:
    name = laws_database_name(datasette)
    return datasette.databases[name].route if name in datasette.databases else None


def owns_database(datasette, database: str | None) -> bool:
    return database is not None and database == laws_database_name(datasette)


def plugin_setting(datasette, key: str, default=None):
    """One of the plugin's settings (metadata.yml / datasette.yaml: plugins: bridge-laws:)."""
    return (datasette.plugin_config(PLUGIN) or {}).get(key, default)


def public_site_on(datasette) -> bool:
    """The plugin setting `public_site: true`: the whole server gets asgi.public_site's rules."""
    return plugin_setting(datasette, "public_site") is True
