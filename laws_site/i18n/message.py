"""A message the interface shows, by id: what refuses a request says it once, as a Message.

`id` is the catalogue entry (laws_site/locale; the English page wording is the msgid), `text` the
English of a JSON `error` (docs/api.md: plain English, the same under every prefix), both with the
same %(name)s parameters. `str(message)` is the JSON text; `message.shown(names)` the page's
sentence in the interface language. A parameter may itself say how it reads on a page: a document
id (`Doc`, named as the interface names it), a list of them (`Docs`), a diff side (`Side`), or a
nested Message (what a parameter must be).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from laws_site.i18n import catalog as i18n
from laws_site.i18n.catalog import N_


class Doc(str):
    """A document id: itself in JSON, the document's short name on a page."""

    def shown(self, names: dict[str, str]) -> str:
        return names.get(str(self), str(self))


class Docs(tuple):
    """Document ids: joined by commas in JSON, their names joined in the interface language on a page."""

    def __str__(self) -> str:
        return ", ".join(self)

    def shown(self, names: dict[str, str]) -> str:
        return i18n.gettext(", ").join(names.get(d, d) for d in self)


SIDE_NAMES = {"from": N_("older"), "to": N_("newer")}


class Side(str):
    """`from` or `to` of a diff: the parameter's name in JSON, 'older'/'newer' on a page."""

    def shown(self, names: dict[str, str]) -> str:  # noqa: ARG002 - every parameter is shown alike
        return i18n.gettext(SIDE_NAMES[str(self)])


@dataclass(frozen=True)
class Message:
    id: str
    text: str | None = None  # None: the JSON says what the page says
    params: dict = field(default_factory=dict)

    def __str__(self) -> str:
        template = self.text if self.text is not None else self.id
        return template % {key: str(value) for key, value in self.params.items()}

    def shown(self, names: dict[str, str] | None = None) -> str:
        names = names or {}
        values = {
            key: value.shown(names) if hasattr(value, "shown") else str(value) for key, value in self.params.items()
        }
        return i18n.gettext(self.id, **values)


def message(msgid: str, text: str | None = None, **params) -> Message:
    return Message(msgid, text, params)


def shown(value, names: dict[str, str] | None = None):
    """A page's error in the interface language: a Message by its id; anything else (SQLite's own
    "no such column: x", markup) as it is."""
    return value.shown(names) if isinstance(value, Message) else value


def of(error: BaseException):
    """The Message an exception was raised with (else its text)."""
    first = error.args[0] if error.args else None
    return first if isinstance(first, Message) else str(error)
