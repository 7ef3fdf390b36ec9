"""The interface's words inside a document's text carry the interface's language (lang), as the unit page's
other parts (In context, Footnotes, the page and citation line) already did."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest


async def get(datasette, path):
    response = await datasette.client.get(path)
    assert response.status_code == 200, path
    return response


class LangOfText(HTMLParser):
    """Each text of a page with the language of its nearest element that states one."""

    VOID = {"br", "img", "input", "meta", "link", "hr", "wbr", "source"}

    def __init__(self):
        super().__init__()
        self.stack: list[str] = []
        self.texts: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(dict(attrs).get("lang") or (self.stack[-1] if self.stack else ""))

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if data.strip() and self.stack:
            self.texts.append((self.stack[-1], data.strip()))


@pytest.mark.parametrize(
    "path",
    [
        "/en/laws-2017-ja/64A1",  # a provision: its label, its law in context, the guide, the reprint
        "/en/laws-2017-ja/50",  # a law: its sections' neighbours, previous and next
        "/en/laws-2017-ja/def:ダミー",  # a definition: 「Definition: Dummy」
        "/en/revoke-notes-ja/L61A",  # a commentary note: Note L61A, the reprints beside it
        "/en/jcbl-regs-ja/45",  # a regulation: Article 45
    ],
)
async def test_the_interfaces_words_inside_a_documents_text_say_their_language(datasette, path):
    """Under /en/ the h1's 「Law 64A1」, the context's 「Law 64」, the neighbours 「Law 41 ... Law 51」, the
    guide offer and previous/next stood inside <article lang="ja">: read with a Japanese voice and font.
    No English word of the interface may sit where the nearest stated language is the document's."""
    parser = LangOfText()
    parser.feed((await get(datasette, path)).text.split("<body", 1)[1])
    article = [(lang, text) for lang, text in parser.texts if re.search(r"[A-Za-z]{3,}", text)]
    misread = [text for lang, text in article if lang in ("ja", "zh-Hans") and text not in ("JSON",)]
    assert misread == []


async def test_a_part_without_a_printed_number_is_named_in_the_interfaces_language(datasette):
    """The introduction's 日本語版注 is named 「Japanese edition note (Introduction)」 under /en/ (its text quotes
    English words itself, so the page is checked at the name)."""
    html = (await get(datasette, "/en/laws-2017-ja/introduction")).text
    assert re.search(r'<a class="unit-ref" href="[^"]*ja-note" lang="en">Japanese edition note', html)
