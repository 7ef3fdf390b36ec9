"""Text cleaning shared by the parsers (the one home for it): markup, markers and conversion spacing.

The sources are PDF conversions. What we remove is furniture the conversion added (HTML tags,
Markdown marks, spaces it put between characters); what we keep is everything the book prints.
"""

from __future__ import annotations

import re

TAG_RE = re.compile(r"</?(?:b|sup|sub|i|em|strong|span)[^>]*>", re.I)
# Any HTML tag: the Chinese web page and the regulations carry more kinds than the Laws' PDF.
ANY_TAG_RE = re.compile(r"</?[A-Za-z][^<>]*>")
# `\*3`, `<sup>\*3</sup>` and `*3` all print the footnote marker *3; `\*` alone is an unnumbered
# translator's note marker.
ESCAPED_STAR_RE = re.compile(r"\\\*")
HEADING_MARK_RE = re.compile(r"^\s*#{1,6}\s*")
BOLD_RE = re.compile(r"\*\*(.+?)\*\*")
BULLET_RE = re.compile(r"^\s*[-•]\s+")

_CJK = r"\u3040-\u30ff\u3400-\u9fff\uff01-\uff60"


def is_japanese(ch: str) -> bool:
    """Kana or a kanji (U+3040-30FF, U+3400-9FFF): one character of Japanese running text. Tested
    in Python where a pattern would need the class: sre compiles a class of the 27,000 ideographs
    one table entry per character, ~1-2 ms a pattern at every start."""
    return "\u3040" <= ch <= "\u30ff" or "\u3400" <= ch <= "\u9fff"


# A space the conversion put inside Japanese text: between CJK characters, between a CJK
# character and a digit or capital (第 23 条 A 項, RHO がパス) or inside a number (1 3トリック).
_INNER_SPACE_RES = [
    re.compile(rf"(?<=[{_CJK}])[ \u3000](?=[{_CJK}0-9A-Z])"),
    re.compile(rf"(?<=[0-9A-Z])[ \u3000](?=[{_CJK}])"),
    re.compile(r"(?<=\d) (?=\d)"),
]


# Each parser calls these on every line; most lines hold none of the marks, so a plain `in` test
# (a tenth of a regular expression's call) answers first.


def strip_tags(text: str) -> str:
    """The tags the Laws' PDF conversion uses (a `<` in the text stays)."""
    return TAG_RE.sub("", text) if "<" in text else text


def strip_any_tags(text: str) -> str:
    return ANY_TAG_RE.sub("", text) if "<" in text else text


def unescape_markers(text: str) -> str:
    return ESCAPED_STAR_RE.sub("*", text) if "\\*" in text else text


def strip_bold(text: str) -> str:
    return BOLD_RE.sub(r"\1", text).replace("**", "") if "**" in text else text


def close_conversion_spaces(text: str) -> str:
    """Remove spaces the PDF conversion inserted inside Japanese text; tab-separated rows are tables."""
    if "\t" in text or not (" " in text or "\u3000" in text or "\x00" in text):
        return text  # a table row, or nothing the steps below would change
    # `こと ー リボーク`: a lone long-vowel mark between spaces is a dash, and its spaces are printed
    text = text.replace(" ー ", "\x00")
    for pattern in _INNER_SPACE_RES:
        text = pattern.sub("", text)
    return text.replace("\x00", " ー ")


def normalise_spaces(text: str) -> str:
    """For comparing titles: drop every space (the 目次 wraps titles with spaces)."""
    return re.sub(r"[\s\u3000]+", "", text)


def clean_inline(text: str) -> str:
    """One line of running text: tags, escapes, bold marks and conversion spaces removed."""
    text = strip_bold(unescape_markers(strip_tags(text)))
    return close_conversion_spaces(text).strip()
