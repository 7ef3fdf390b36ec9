"""The interface language: which one a request is in, and the catalogues that translate the chrome.

The chrome (navigation, buttons, headings, messages, error pages, dates) is written in English in
the templates as ``{{ _("English text") }}`` (Jinja's i18n extension) and translated from Babel
message catalogues, ``locale/<lang>/LC_MESSAGES/messages.po``; the law texts stay as printed.
Japanese is the default. The .po files are compiled in memory the first time a language is asked
for (a few milliseconds), so an installed wheel and an editable checkout work without a build step.

The language of a request is set by ``ui_lang.py`` (the ASGI layer reading the URL prefix) in a
context variable; templates, macros and Python code all read it from there.
"""

from __future__ import annotations

import contextvars
import datetime as _dt
from functools import lru_cache
from io import BytesIO
from pathlib import Path

LANGUAGES = ("ja", "zh", "en")
DEFAULT = "ja"
# how each language names itself in the switcher
NATIVE_NAMES = {"ja": "日本語", "zh": "中文", "en": "English"}
# BCP 47 tags for <html lang> and hreflang (the Chinese texts are simplified Chinese)
TAGS = {"ja": "ja", "zh": "zh-Hans", "en": "en"}
LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
DOMAIN = "messages"

current = contextvars.ContextVar("laws_site_ui_lang", default=DEFAULT)


def N_(message: str) -> str:
    """Marks a string for the catalogue (pybabel extracts it) without translating it here: the
    template translates it at render time, in the reader's language."""
    return message


@lru_cache(maxsize=None)
def translations(lang: str):
    """The catalogue of one language (babel.support.Translations), compiled from its .po file: no
    .mo file needed on disk. Babel is imported here, not with the module (`bridge-laws build`
    imports the plugin's hooks and should not pay for it)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import NullTranslations, Translations

    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if lang == "en" or not path.exists():
        return NullTranslations()  # English is the msgid itself
    with path.open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    buffer = BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


def lang() -> str:
    return current.get()


def gettext(message: str, **variables) -> str:
    text = translations(current.get()).gettext(message)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, n: int, **variables) -> str:
    text = translations(current.get()).ngettext(singular, plural, n)
    return text % {"num": n, **variables}


def translate_text(value) -> str:
    """A string that is itself a catalogue msgid but not written in a template - metadata.yml's titles
    and descriptions, Datasette's filter names - in the interface language; a string the catalogue
    does not have is returned as it is (and an empty one stays empty: gettext("") is the header)."""
    if not value or not isinstance(value, str):
        return value
    return translations(current.get()).gettext(value)


def extract_metadata(fileobj, keywords, comment_tags, options):
    """A Babel extractor (babel.cfg: ``[laws_site.i18n.catalog:extract_metadata: metadata.yml]``): the titles,
    descriptions, licences, sources and column descriptions of metadata.yml, which Datasette's pages
    show (templates: ``|ui_text``)."""
    import yaml

    data = yaml.safe_load(fileobj.read().decode("utf-8")) or {}
    for text in metadata_texts(data):
        yield 1, "gettext", text, []


def metadata_texts(data: dict) -> list[str]:
    """Every human string of a Datasette metadata dictionary, in file order, once."""
    found: list[str] = []

    def add(node: dict) -> None:
        for key in ("title", "description", "license", "source", "about"):
            value = node.get(key)
            if isinstance(value, str) and value.strip() and value not in found:
                found.append(value)

    add(data)
    for database in (data.get("databases") or {}).values():
        add(database)
        for table in (database.get("tables") or {}).values():
            add(table)
            for description in (table.get("columns") or {}).values():
                if isinstance(description, str) and description.strip() and description not in found:
                    found.append(description)
        for query in (database.get("queries") or {}).values():
            if isinstance(query, dict):
                add(query)
    for query in (data.get("queries") or {}).values():  # laws_site/queries.yml
        if isinstance(query, dict):
            add(query)
    return found


def format_date(value, lang: str | None = None) -> str:
    """A date in the interface language: 2017年10月1日 / 2017年10月1日 / 1 October 2017 (Babel's CLDR
    data). A value that is not an ISO date (e.g. a bare year) is returned as it is."""
    from babel.dates import format_date as babel_format_date

    if value in (None, ""):
        return ""
    if isinstance(value, str):
        try:
            value = _dt.date.fromisoformat(value.strip())
        except ValueError:
            return value
    locale = {"ja": "ja_JP", "zh": "zh_Hans_CN", "en": "en_GB"}[lang or current.get()]
    return babel_format_date(value, format="long", locale=locale)


# ---------------------------------------------------------------- URLs


def split_prefix(path: str) -> tuple[str | None, str]:
    """('en', '/61B') for /en/61B; (None, path) for a path without a language prefix."""
    for code in LANGUAGES:
        if path == f"/{code}" or path.startswith(f"/{code}/"):
            return code, path[len(code) + 1 :] or "/"
    return None, path


def localized(path: str, lang: str) -> str:
    """The path as the interface in `lang` serves it: /61B -> /en/61B; Japanese has no prefix."""
    if lang == DEFAULT:
        return path
    return f"/{lang}{path}" if path != "/" else f"/{lang}/"


def best_language(accept_language: str | None) -> str:
    """The interface language an Accept-Language header prefers (RFC 9110 q-values); zh-TW, zh-CN,
    zh-Hant all take the Chinese interface; nothing usable -> Japanese."""
    if not accept_language:
        return DEFAULT
    choices = []
    for order, item in enumerate(accept_language.split(",")[:20]):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary in LANGUAGES and quality > 0:
            choices.append((-quality, order, primary))
    return min(choices)[2] if choices else DEFAULT


def switcher(path: str, query_string: str, lang: str) -> list[dict]:
    """The language switcher's links for this page: every language, the current one marked. The
    link to Japanese goes through /ja/ so the choice is remembered (ui_lang.py)."""
    suffix = f"?{query_string}" if query_string else ""
    return [
        {
            "lang": code,
            "tag": TAGS[code],
            "name": NATIVE_NAMES[code],
            "current": code == lang,
            "url": (f"/ja{path}" if code == DEFAULT else localized(path, code)) + suffix,
            "canonical": localized(path, code) + suffix,
        }
        for code in LANGUAGES
    ]


# The titles of the error pages (HTTP's phrases in sentence case, errors.page_heading): catalogue msgids.
STATUS_TITLES = [
    N_("Not found"),
    N_("Method not allowed"),
    N_("Address too long"),
    N_("Internal server error"),
    N_("Forbidden"),
    N_("Internal error"),
    N_("Bad request"),
    N_("Invalid query"),
    N_("Query took too long"),
    N_("Query too large"),
]
