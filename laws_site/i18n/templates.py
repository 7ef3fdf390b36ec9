"""The catalogues in Jinja: ``{{ _("Search") }}``, ``{{ _("%(n)s results", n=5) }}`` and the filters
that show dates, catalogue strings and Messages in the interface language.

Its own module because it joins the catalogues (catalog.py) with the Messages (message.py), which
themselves read the catalogues.
"""

from __future__ import annotations

from laws_site.i18n.catalog import current, format_date, translate_text, translations
from laws_site.i18n.message import shown


def install(env) -> None:
    """Jinja's i18n extension on Datasette's environment, with our gettext (new-style: autoescaped,
    %-formatted)."""
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(plain_gettext, plain_ngettext, newstyle=True)
    env.globals["ui_date"] = format_date
    env.filters["ui_date"] = format_date
    env.filters["ui_text"] = translate_text
    env.filters["ui_message"] = shown


def plain_gettext(message: str) -> str:
    return translations(current.get()).gettext(message)


def plain_ngettext(singular: str, plural: str, n: int) -> str:
    return translations(current.get()).ngettext(singular, plural, n)
