"""The crawl's pages rendered by the site's own templates, synchronously.

Datasette's Jinja environment is async-enabled (a server renders while other requests wait): every
output, call and attribute of a template goes through Jinja's async machinery. The pack crawl renders
~4,500 pages per language one after another, with nothing to wait for: there that machinery was a
third of the rendering time (benchmarks/RESULTS.md). So the crawl's requests (offline/in_process.py
marks them) render from a synchronous overlay of Datasette's environment - the same loader, filters,
globals and i18n extension, the same template files - and Datasette still makes the page's whole
context (its hooks, the plugin's chrome): only the last step, template to text, differs.

Jinja calls in a sync template do not await: an async function in the context is awaited before
rendering when it takes no arguments (Datasette's `menu_links`); a template that calls one that
takes arguments (Datasette's `crumb_items`, which no page of the plugin calls) is rendered by
Datasette's own async template instead. tests/test_offline.py compares crawled pages of every kind
and language with `datasette.client`'s answers byte for byte.
"""

from __future__ import annotations

import functools
import inspect
import types
import weakref

import jinja2

from laws_site import compat

CACHE_SIZE = 400  # templates compiled once per crawl (Jinja's default; the site has ~30)


class AsyncOnly(RuntimeError):
    """A template called an async function that takes arguments: it needs the async environment."""


class SyncRendered(jinja2.Template):
    """A template of the synchronous overlay, rendered synchronously where Datasette awaits it."""

    async def render_async(self, *args, **kwargs) -> str:
        context = dict(*args, **kwargs)
        try:
            return self.render(await awaited(context))
        except AsyncOnly:
            return await self.environment.linked_to.get_template(self.name).render_async(context)


async def awaited(context: dict) -> dict:
    """The context with its async functions replaced by what a sync template can call: the answer,
    awaited now, of one that takes no arguments; an AsyncOnly error for one that does."""
    out = dict(context)
    for name, value in context.items():
        # most values are data: the type test first (iscoroutinefunction asked of every value was ~1 %)
        if not isinstance(value, (types.FunctionType, types.MethodType)) or not inspect.iscoroutinefunction(value):
            continue
        if required_parameters(value):
            out[name] = refusing(name)
        else:
            out[name] = constant(await value())
    return out


def required_parameters(function) -> tuple[str, ...]:
    """The parameters a call of ``function`` must fill. Datasette makes its context's async functions
    anew for every page (a closure, a bound method): the answer is kept per code object, defaults and
    binding, which is all it depends on, unless the function says otherwise (``__wrapped__``,
    ``__signature__``). inspect.signature on every page was ~1.5 % of the crawl."""
    underlying = getattr(function, "__func__", function)
    if hasattr(underlying, "__wrapped__") or hasattr(underlying, "__signature__"):
        return signature_requires(function)
    return code_requires(
        underlying.__code__,
        len(underlying.__defaults__ or ()),
        tuple(underlying.__kwdefaults__ or ()),
        isinstance(function, types.MethodType),
    )


@functools.lru_cache(maxsize=256)
def code_requires(code: types.CodeType, defaults: int, keyword_defaults: tuple, bound: bool) -> tuple[str, ...]:
    positional = code.co_varnames[int(bound) : code.co_argcount - defaults]
    keyword_only = code.co_varnames[code.co_argcount : code.co_argcount + code.co_kwonlyargcount]
    return positional + tuple(name for name in keyword_only if name not in keyword_defaults)


def signature_requires(function) -> tuple[str, ...]:
    return tuple(
        p.name
        for p in inspect.signature(function).parameters.values()
        if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    )


def constant(value):
    return lambda: value


def refusing(name: str):
    def call(*args, **kwargs):
        raise AsyncOnly(f"{name}() is async")

    return call


_environments: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def sync_environment(datasette) -> jinja2.Environment:
    """The synchronous overlay of this Datasette's environment, made once per Datasette (its own
    template cache: the compiled templates differ from the async ones; no up-to-date checks: the
    templates do not change during a build)."""
    env = _environments.get(datasette)
    if env is None:
        env = _environments[datasette] = sync_overlay(compat.jinja_environment(datasette))
    return env


def sync_overlay(env: jinja2.Environment) -> jinja2.Environment:
    """A synchronous overlay of an async environment, whose templates are SyncRendered."""
    overlay = env.overlay(enable_async=False, cache_size=CACHE_SIZE, auto_reload=False)
    overlay.template_class = SyncRendered  # the overlay's own attribute: its loader makes SyncRendered
    return overlay


def page_template(datasette, name: str) -> jinja2.Template:
    """The template ``name`` for a crawled page: the synchronous overlay's."""
    return sync_environment(datasette).get_template(name)
