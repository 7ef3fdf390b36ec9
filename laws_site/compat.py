"""What differs between Datasette 0.65 and the 1.0 line, in one place: the rest of the plugin asks here.

Each function uses the public API of the version installed (0.65: `metadata()`, `jinja_env`,
`ensure_permissions`, `get_canned_query`; 1.0: `get_instance_metadata()`, `get_jinja_environment()`,
`ensure_permission`, `get_query`), chosen by what the Datasette object offers, never by patching it.
"""

from __future__ import annotations


def is_one_point_oh(datasette) -> bool:
    return hasattr(datasette, "get_instance_metadata")


async def instance_metadata(datasette, key: str):
    """One key of the instance's metadata (title, license...), or None."""
    if is_one_point_oh(datasette):
        return (await datasette.get_instance_metadata()).get(key)
    return datasette.metadata(key)


def instance_metadata_now(datasette, key: str):
    """One key of the instance's metadata without awaiting: 0.65 has it at once; the 1.0 line only
    after start-up (its internal database), so None there (the caller has a default)."""
    return None if is_one_point_oh(datasette) else datasette.metadata(key)


def jinja_environment(datasette, request=None):
    """The Jinja environment Datasette renders with (plugins' templates and filters included)."""
    if hasattr(datasette, "get_jinja_environment"):
        return datasette.get_jinja_environment(request)
    return datasette.jinja_env


async def ensure_view_instance(datasette, actor) -> None:
    """Forbidden (Datasette's exception) unless the actor may view the instance."""
    if hasattr(datasette, "ensure_permission"):
        await datasette.ensure_permission(action="view-instance", actor=actor)
    else:
        await datasette.ensure_permissions(actor, ["view-instance"])


async def is_named_query(datasette, database: str, name: str) -> bool:
    """True if `name` is a canned (0.65) or stored (1.0) query of the database."""
    if hasattr(datasette, "get_query"):
        return await datasette.get_query(database, name) is not None
    return await datasette.get_canned_query(database, name, None) is not None


def takes_stored_queries(datasette) -> bool:
    """The 1.0 line: canned queries are stored queries, added through `add_query` (no hook asks)."""
    return hasattr(datasette, "add_query")


async def add_queries(datasette, database: str, queries: dict[str, dict]) -> None:
    """Queries defined in Datasette's canned-query shape, as 1.0's stored queries of the database."""
    for name, query in queries.items():
        await datasette.add_query(
            database,
            name,
            query["sql"],
            title=query.get("title"),
            description=query.get("description"),
            hide_sql=bool(query.get("hide_sql")),
            parameters=query.get("params"),
            is_trusted=True,
            source="plugin",
        )


def query_path(datasette, database: str, ext: str = "") -> str:
    """Where the database's arbitrary SQL is answered: /laws?sql= on 0.65, /laws/-/query?sql= on the
    1.0 line (which redirects the old address there)."""
    route = datasette.get_database(database).route
    return f"/{route}/-/query{ext}" if is_one_point_oh(datasette) else f"/{route}{ext}"
