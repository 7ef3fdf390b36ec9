"""Datasette's own pages (table, row, query, database) in the interface language: the words its
Python code puts into them, as catalogue messages.

The templates are the project's copies of Datasette's (laws_site/templates, pinned by
tests/test_datasette_templates.py); what Datasette computes in Python - the filter names of the
table form, "sorted by position descending", a facet's type, the query page's "hide"/"show" - is
translated here or through these msgids. Column and table names are the database's identifiers
and stay as they are; values stay as stored.
"""

from __future__ import annotations

import json

from laws_site.i18n import catalog as i18n
from laws_site.i18n.catalog import N_

# Datasette's filter names (datasette/filters.py, Filters._filters: display), its facet types and
# the query page's show/hide link: the templates pass them through `ui_text`.
DATASETTE_WORDS = [
    N_("contains"),
    N_("ends with"),
    N_("starts with"),
    N_("like"),
    N_("not like"),
    N_("glob"),
    N_("in"),
    N_("not in"),
    N_("array contains"),
    N_("array does not contain"),
    N_("date"),
    N_("is null"),
    N_("is not null"),
    N_("is blank"),
    N_("is not blank"),
    N_("array"),
    N_("hide"),
    N_("show"),
]

# How each filter reads in a sentence (Datasette's human_template, datasette/filters.py); the
# symbolic ones (=, !=, >, ≥, <, ≤) read the same in every language and keep Datasette's wording.
CLAUSES = {
    "contains": N_('%(column)s contains "%(value)s"'),
    "endswith": N_('%(column)s ends with "%(value)s"'),
    "startswith": N_('%(column)s starts with "%(value)s"'),
    "like": N_('%(column)s like "%(value)s"'),
    "notlike": N_('%(column)s not like "%(value)s"'),
    "glob": N_('%(column)s glob "%(value)s"'),
    "in": N_("%(column)s in %(value)s"),
    "notin": N_("%(column)s not in %(value)s"),
    "arraycontains": N_('%(column)s contains "%(value)s"'),
    "arraynotcontains": N_('%(column)s does not contain "%(value)s"'),
    "date": N_("%(column)s is on date %(value)s"),
    "isnull": N_("%(column)s is null"),
    "notnull": N_("%(column)s is not null"),
    "isblank": N_("%(column)s is blank"),
    "notblank": N_("%(column)s is not blank"),
}


def clause(filters, column: str, lookup: str, value: str) -> str | None:
    """One filter as a phrase in the interface language (None: a lookup Datasette does not know)."""
    known = filters._filters_by_key.get(lookup)
    if known is None:
        return None
    msgid = CLAUSES.get(lookup)
    if msgid is None:
        return known.human_clause(column, value)
    if lookup in ("in", "notin"):
        value = json.dumps(known.split_value(value), ensure_ascii=False)
    return i18n.gettext(msgid, column=column, value=value)


def table_description(filters, search: str | None, sort: str | None, sort_desc: str | None) -> str:
    """What Datasette's table page calls human_description_en ('where kind = "law" and search matches
    "x" sorted by position descending'), made from the same parts, in the interface language."""
    bits = []
    if search:
        bits.append(i18n.gettext('search matches "%(query)s"', query=search))
    for column, lookup, value in filters.selections() if filters is not None else []:
        phrase = clause(filters, column, lookup, value)
        if phrase:
            bits.append(phrase)
    text = ""
    if bits:
        listed = i18n.gettext(", ").join(bits[:-1])
        joined = i18n.gettext("%(first)s and %(last)s", first=listed, last=bits[-1]) if listed else bits[-1]
        text = i18n.gettext("where %(conditions)s", conditions=joined)
    if sort or sort_desc:
        sorted_by = (
            i18n.gettext("sorted by %(column)s descending", column=sort or sort_desc)
            if sort_desc
            else i18n.gettext("sorted by %(column)s", column=sort)
        )
        text = " ".join(b for b in (text, sorted_by) if b)
    return text
