"""What makes the pack crawl cheaper keeps what it renders: messages kept per interface language, the
crawl's templates' async functions asked what they need once per code, the citation pages' shared
parts made once per language (the packs are compared whole with the server's pages in the full tier:
tests/test_offline.py; benchmarks/RESULTS.md has the before/after bytes of every pack)."""

from __future__ import annotations

import asyncio
import functools
import inspect
import re

import jinja2
import pytest

from laws_site.i18n import catalog as i18n
from laws_site.i18n import templates as i18n_templates
from laws_site.offline import responses as crawl_responses


@pytest.fixture
def environment():
    env = jinja2.Environment(autoescape=True)
    i18n_templates.install(env)
    return env


def rendered_in(lang: str, template: jinja2.Template, **context) -> str:
    token = i18n.current.set(lang)
    try:
        return template.render(**context)
    finally:
        i18n.current.reset(token)


def test_a_message_is_remembered_in_each_interface_language_apart(environment):
    template = environment.from_string('{{ _("Search") }}|{{ gettext("Search") }}|{{ _("Close") }}')
    first = {lang: rendered_in(lang, template) for lang in ("ja", "zh", "en", "ja")}
    again = {lang: rendered_in(lang, template) for lang in ("en", "zh", "ja")}
    assert first == again
    assert first["en"] == "Search|Search|Close"
    assert first["ja"].split("|")[0] == i18n.translations("ja").gettext("Search") != "Search"
    assert len({first["ja"], first["zh"], first["en"]}) == 3


def test_a_message_with_variables_is_filled_in_each_time_and_escaped(environment):
    template = environment.from_string('{{ _("Ready offline · build %(build)s", build=build) }}')
    assert rendered_in("en", template, build="abc") == "Ready offline · build abc"
    assert rendered_in("en", template, build="<b>") == "Ready offline · build &lt;b&gt;"
    percent = environment.from_string('{{ _("100%% sure") }}')
    assert rendered_in("en", percent) == rendered_in("en", percent) == "100% sure"


def test_a_message_from_data_answers_the_same_past_what_is_kept():
    environment = jinja2.Environment(autoescape=True)
    environment.add_extension("jinja2.ext.i18n")
    environment.install_gettext_callables(i18n_templates.plain_gettext, i18n_templates.plain_ngettext, newstyle=True)
    environment.globals["_"] = i18n_templates.remembered(environment.globals["gettext"], kept=0)
    template = environment.from_string("{{ _(name) }}")
    assert rendered_in("en", template, name="Search") == rendered_in("en", template, name="Search") == "Search"


class Page:
    def items(self, first, second=2, *rest, third, fourth=4, **more):
        return first

    async def links(self):
        return []


def plain(a, b=1, *, c, d=2):
    return a


async def no_arguments():
    return 1


def made_per_page():
    async def menu_links():
        return []

    return menu_links


@functools.wraps(plain)
def wrapped(*args, **kwargs):
    return plain(*args, **kwargs)


def annotated(x: int, /, y: str = "", *, z: list) -> None:
    return None


@pytest.mark.parametrize(
    "function",
    [plain, no_arguments, made_per_page(), made_per_page(), Page().items, Page().links, wrapped, annotated],
    ids=lambda function: getattr(function, "__qualname__", repr(function)),
)
def test_what_a_function_needs_is_what_inspect_says(function):
    expected = tuple(
        p.name
        for p in inspect.signature(function).parameters.values()
        if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    )
    assert crawl_responses.required_parameters(function) == expected


def get(datasette, path: str) -> str:
    response = asyncio.run(datasette.client.get(path))
    assert response.status_code == 200, path
    return response.text


def picture(page: str) -> str:
    return re.search(r'<section class="citation-picture".*?</section>', page, re.S).group(0)


def law_lists(page: str) -> str:
    return re.search(r'<section class="by-law">.*?</section>\n', page, re.S).group(0)


def test_the_citation_pages_shared_parts_are_each_languages_and_the_opened_laws(datasette):
    """The picture and the laws' list are made once per language (the list once where no law is
    opened): each language's page shows its own, and a page with a law opened shows that law's lists."""
    pages = {
        (prefix, query): get(datasette, f"{prefix}/-/citations{query}")
        for prefix in ("", "/zh", "/en")
        for query in ("?from=61&to=64", "", "?law=62", "?law=13")
    }
    for prefix, words in (("", "行が列を参照"), ("/zh", "行引用列"), ("/en", "row cites column")):
        shown = {picture(page) for (where, _), page in pages.items() if where == prefix}
        assert len(shown) == 1 and words in shown.pop()
    assert len({picture(page) for page in pages.values()}) == 3
    for prefix in ("", "/zh", "/en"):
        closed = law_lists(pages[prefix, ""])
        assert law_lists(pages[prefix, "?from=61&to=64"]) == closed and "citation-lists" not in closed
        for law in ("62", "13"):
            opened = law_lists(pages[prefix, f"?law={law}"])
            assert f'<details class="law-citations" id="law-{law}" open>' in opened and "citation-lists" in opened
        assert law_lists(pages[prefix, "?law=62"]) != law_lists(pages[prefix, "?law=13"])
