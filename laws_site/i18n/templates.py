"""The catalogues in Jinja: ``{{ _("Search") }}``, ``{{ _("%(n)s results", n=5) }}`` and the filters
that show dates, catalogue strings and Messages in the interface language.

Its own module because it joins the catalogues (catalog.py) with the Messages (message.py), which
themselves read the catalogues.
"""

from __future__ import annotations

from jinja2 import pass_context

from laws_site.i18n.catalog import current, format_date, translate_text, translations
from laws_site.i18n.message import shown


def install(env) -> None:
    """Jinja's i18n extension on Datasette's environment, with our gettext (new-style: autoescaped,
    %-formatted), its answers to a message without variables kept per language (remembered)."""
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(plain_gettext, plain_ngettext, newstyle=True)
    env.globals["_"] = env.globals["gettext"] = remembered(env.globals["gettext"])
    env.globals["ui_date"] = format_date
    env.filters["ui_date"] = format_date
    env.filters["ui_text"] = translate_text
    env.filters["ui_message"] = shown


def plain_gettext(message: str) -> str:
    return translations(current.get()).gettext(message)


def plain_ngettext(singular: str, plural: str, n: int) -> str:
    return translations(current.get()).ngettext(singular, plural, n)


KEPT_ANSWERS = 5_000  # the catalogues hold ~600 messages; a template may pass a name read from data


def remembered(gettext, kept: int = KEPT_ANSWERS):
    """Jinja's new-style ``gettext`` (the extension's, around plain_gettext), answering a message
    without variables from memory after the first time in each interface language: a page asks for
    ~45 messages, each through three calls, a catalogue lookup, Markup and %-formatting (~10 % of the
    offline crawl's rendering, benchmarks/RESULTS.md). ``_`` is this function too (the extension's
    ``_`` looks ``gettext`` up by name on every call). At most ``kept`` answers are kept."""
    answers: dict[tuple, str] = {}

    @pass_context
    def cached(context, message: str, **variables) -> str:
        if variables:
            return gettext(context, message, **variables)
        key = (current.get(), message, context.eval_ctx.autoescape)
        found = answers.get(key)
        if found is None:
            found = gettext(context, message)
            if len(answers) < kept:
                answers[key] = found
        return found

    return cached
