"""Human labels for every unit, made at build: what people read where the site would show an id.

A unit's id (``revoke-notes-ja:quote:63``) lives in URLs and JSON; its label (「第63条の引用」) is what
headings, breadcrumbs, search results, previous/next and citation lists print. Labels are made for
each interface language (ja, zh, en), each in that language's convention: a law unit is 第61条B項2 in
Japanese, 第61条B款2 in Chinese (as the corpus's Chinese text cites: 第42条B款2), Law 61B2 in English,
whichever edition it belongs to; the regulations 第24条5項1号 / 第24条5项1号 / Article 24(5)(1). An
English label is wholly English: a term the book prints (an index heading) is quoted, a heading the
book names in Japanese (前書き) is said in English.

This module is the one place labels are made: table ``unit_labels`` holds them (``sections.label`` and
``search_labels.labels`` are copies of it for their readers). ``unit_labels`` is pure: records in,
labels out. ``full`` labels prefix the document's short title (「リボーク注釈: 第63条の引用」) for lists
that mix documents.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ingest.parsers.records import Unit
from ingest.text.refs import parse_law_ref

UI_LANGUAGES = ("ja", "zh", "en")

# Words around a citation, per interface language.
WORDS = {
    "definition": {"ja": "定義: {}", "zh": "定义: {}", "en": "Definition: {}"},
    "footnote": {"ja": "脚注{}", "zh": "脚注{}", "en": "Footnote {}"},
    "ja_note": {"ja": "日本語版注（{}）", "zh": "日文版注（{}）", "en": "Japanese edition note ({})"},
    "index": {"ja": "索引", "zh": "索引", "en": "Index"},
    "index_entry": {"ja": "索引: {}", "zh": "索引: {}", "en": "Index: “{}”"},
    "index_row": {"ja": "索引: {}行", "zh": "索引: {}行", "en": "Index: “{}” row"},
    "toc": {"ja": "目次", "zh": "目录", "en": "Contents"},
    "toc_entry": {"ja": "目次: {}", "zh": "目录: {}", "en": "Contents: {}"},
    "quote": {"ja": "{}の引用", "zh": "{}（引文）", "en": "{} (as reprinted)"},
    "note": {"ja": "注釈 {}", "zh": "注释 {}", "en": "Note {}"},
    "note_on": {"ja": "{}への注釈", "zh": "{}注释", "en": "Note on {}"},
    "ruling": {"ja": "裁定 {}", "zh": "裁定 {}", "en": "Ruling {}"},
    "closing": {"ja": "{} 結び", "zh": "{} 末段", "en": "{}, closing paragraph"},
    "part": {"ja": "第{}部", "zh": "第{}部", "en": "Part {}"},
    "chapter": {"ja": "第{}章", "zh": "第{}章", "en": "Chapter {}"},
    "front_matter": {"ja": "表紙", "zh": "封面", "en": "Title page"},
    "history": {"ja": "制定・改訂の経緯", "zh": "制定与修订记录", "en": "History of revisions"},
    "appendix_history": {"ja": "付表の改訂の経緯", "zh": "附表修订记录", "en": "Appendices: history of revisions"},
    "appendices": {"ja": "付表", "zh": "附表", "en": "Appendices"},
    "appendix": {"ja": "付表{}", "zh": "附表{}", "en": "Appendix {}"},
    "table": {"ja": "表{}", "zh": "表{}", "en": "table {}"},
    "rulings": {"ja": "裁定", "zh": "裁定", "en": "Rulings"},
}
# Headings the documents print in their own language, said in each interface language (by ref; a
# language not given keeps the printed heading: the Japanese interface reads the Japanese book's).
HEADINGS = {
    "preface:wbf": {
        "zh": "2017年版复式桥牌规则序",
        "en": "Foreword to the 2017 Laws of Duplicate Bridge",
    },
    "preface:jcbl": {
        "zh": "2017年版复式桥牌规则日文版序",
        "en": "Foreword to the Japanese edition of the 2017 Laws of Duplicate Bridge",
    },
    "preface:laws-2017": {
        "zh": "2017年版复式桥牌规则前言",
        "en": "Preface to the 2017 Laws of Duplicate Bridge",
    },
    "introduction": {"zh": "导言", "en": "Introduction"},
    "definitions": {"zh": "定义", "en": "Definitions"},
    "essay:規則の目的": {"zh": "规则的目的", "en": "The purpose of the Laws"},
    "preface:web": {"ja": "桥牌（ウェブページの紹介文）", "en": "Bridge (the web page's introduction)"},
}
# How each interface language cites a law unit: 第61条B項2 (ja), 第61条B款2 (zh); English: Law 61B2.
SECTION_WORD = {"ja": "項", "zh": "款"}
# The regulations' paragraphs and numbered items: 第24条5項1号.
REG_PARAGRAPH = {"ja": "{}項", "zh": "{}项", "en": "({})"}
REG_ITEM = {"ja": "{}号", "zh": "{}号", "en": "({})"}


@dataclass(frozen=True)
class DocumentNames:
    """What the labels need to know of a document: its language and short title per UI language."""

    id: str
    language: str
    role: str
    short_titles: dict[str, str]


def law_citation(ref: str, ui: str) -> str | None:
    """``61B2(a)`` -> 「第61条B項2(a)」 (ja), 「第61条B款2(a)」 (zh), "Law 61B2(a)" (en), whichever
    edition prints it: the reader's language decides the convention."""
    parsed = parse_law_ref(ref)
    if parsed is None:
        return None
    if ui == "en":
        return f"Law {ref}"
    text = f"第{parsed.law}条"
    if parsed.section:
        text += f"{parsed.section}{SECTION_WORD[ui]}"
    tail = ref[len(str(parsed.law)) + (1 if parsed.section else 0) :]
    return text + tail


def word(key: str, ui: str, *values) -> str:
    return WORDS[key][ui].format(*values)


_LAW_IN_TOC = re.compile(r"\d+[A-Z]?$")


def unit_label(unit: Unit, document: DocumentNames, ui: str, parent_label: str | None) -> str:
    """The label of one unit in one interface language; ``parent_label`` is its parent's (same UI)."""
    kind, ref, attrs = unit.kind, unit.ref, unit.attrs or {}
    lang = document.language
    if document.role == "regulations":
        regulation = regulation_label(unit, ui, parent_label)
        if regulation:
            return regulation
    citation = law_citation(ref, ui)
    if citation and kind in ("law", "section", "item", "subitem", "subsubitem"):
        return citation
    head, _, rest = ref.partition(":")
    heading = HEADINGS.get(ref, {}).get(ui)
    if heading:
        return heading
    if kind == "definition":
        return word("definition", ui, definition_term(rest, attrs, ui))
    if kind == "footnote":
        if rest.startswith("ja-"):
            return word("ja_note", ui, law_citation(attrs.get("anchor_ref") or rest[3:], ui) or rest)
        return word("footnote", ui, attrs.get("label") or rest)
    if kind == "index":
        return word("index", ui)
    if kind == "introduction_note" and parent_label:  # 前書き's 【日本語版注】: 日本語版注（前書き）
        return word("ja_note", ui, parent_label)
    if kind == "index_row":
        return word("index_row", ui, attrs.get("row") or rest)
    if kind == "index_entry":
        return word("index_entry", ui, rest.replace("/", " / "))
    if kind == "quote":
        return word("quote", ui, law_citation(rest, ui) or rest)
    if kind == "note":
        if attrs.get("label") or unit.title:
            return word("note", ui, attrs.get("label") or unit.title)
        # an unlabelled note (note:57-1): the note on the law it covers
        covers = [law_citation(ref, ui) or ref for ref in attrs.get("covers") or []]
        return word("note_on", ui, "・".join(covers) or rest)
    if kind == "ruling":
        return word("ruling", ui, rest)
    if kind == "closing":
        return word("closing", ui, law_citation(ref.split("/")[0], ui) or ref)
    if kind == "toc" and head == "toc" and not rest:
        # a commentary prints its contents as 「索引」: keep the printed word in Japanese
        return unit.title if unit.title and document.role == "commentary" and ui == "ja" else word("toc", ui)
    if kind in ("toc", "toc_entry"):
        return word("toc_entry", ui, toc_target(rest, ui))
    if kind == "front_matter":
        return word("front_matter", ui)
    if kind in ("part", "division") and lang == "zh":
        return printed_chain(unit, parent_label, ui)
    if kind == "part":
        return word("part", ui, rest)
    if kind == "chapter" and attrs.get("number_printed") and ui != "en":
        return attrs["number_printed"]
    if kind == "chapter" and attrs.get("number") is not None:
        return word("chapter", ui, attrs["number"])
    return unit.title or ref


def printed_marker(kind: str, attrs: dict) -> str | None:
    """The number the book prints before a unit inside its law's text - 第61条, B., 2., (a), (v), ① -
    where the unit's label (``unit_label``) names it on its own."""
    if kind in ("law", "article") and attrs.get("number") is not None:
        return f"第{attrs['number']}条"
    if "letter" in attrs:
        return f"{attrs['letter']}."
    label = attrs.get("label")
    if kind in ("subitem", "subsubitem") and label:
        return f"({label})"
    if label and kind == "item":
        return str(label)
    if attrs.get("number") is not None and kind in ("item", "paragraph"):
        return f"{attrs['number']}."
    return None


def definition_term(term: str, attrs: dict, ui: str) -> str:
    """The defined term as the ref names it (宕墩(2) tells the second 宕墩 apart); in English the term
    the definitions chapter prints in English (``term_en``: UNDER TRICK (2), Artificial call)."""
    english = attrs.get("term_en_plain") or attrs.get("term_en")
    if ui != "en" or not english:
        return term
    again = re.search(r"\(\d+\)$", term)
    return f"{english} {again.group(0)}" if again and not english.endswith(again.group(0)) else english


def printed_chain(unit: Unit, parent_label: str | None, ui: str) -> str:
    """1997 parts and divisions as printed under their chapter: 「第五章 第二部分 第三节」
    (English: "Chapter 5, part 2, division 3")."""
    attrs = unit.attrs or {}
    if ui == "en" and attrs.get("number") is not None:
        printed = f"{unit.kind} {attrs['number']}"
        return f"{parent_label}, {printed}" if parent_label else printed.capitalize()
    printed = attrs.get("number_printed") or unit.title or unit.ref
    return f"{parent_label} {printed}" if parent_label else printed


def toc_target(rest: str, ui: str) -> str:
    if rest == "rulings":
        return word("rulings", ui)
    if rest == "appendices":
        return word("appendices", ui)
    if rest.startswith("appendix-"):
        return word("appendix", ui, rest.removeprefix("appendix-"))
    if _LAW_IN_TOC.fullmatch(rest):
        return law_citation(rest, ui) or rest
    return rest


_APPENDIX = re.compile(r"appendix-(\d+)$")
_APPENDIX_TABLE = re.compile(r"appendix-(\d+)-table-(\d+)$")


def regulation_label(unit: Unit, ui: str, parent_label: str | None) -> str | None:
    """Regulations: 第24条, 第24条5項, 第24条5項1号, 第21条1項1号①, 付表7, 付表7-4(a)(ii)."""
    kind, ref, attrs = unit.kind, unit.ref, unit.attrs or {}
    if ref == "history":
        return word("history", ui)
    if ref == "history:appendices":
        return word("appendix_history", ui)
    if kind == "chapter" and attrs.get("number") is not None:
        return word("chapter", ui, attrs["number"])
    if kind == "article" and attrs.get("number") is not None:
        return f"Article {attrs['number']}" if ui == "en" else f"第{attrs['number']}条"
    if kind == "appendix" and (m := _APPENDIX.match(ref)):
        return word("appendix", ui, m.group(1))
    if kind == "table" and (m := _APPENDIX_TABLE.match(ref)):
        # 付表1 表1; in English "Appendix 1, table 1"
        return f"{word('appendix', ui, m.group(1))}{', ' if ui == 'en' else ' '}{word('table', ui, m.group(2))}"
    if parent_label is None:
        return None
    if kind == "paragraph":
        if ref.startswith("appendix-"):
            return f"{parent_label}-{attrs.get('number', ref.rsplit('-', 1)[-1])}"
        return parent_label + REG_PARAGRAPH[ui].format(attrs.get("number", ref.rsplit("-", 1)[-1]))
    if kind == "item":
        parts = ref.split("-")
        if unit.parent_ref and "-" not in unit.parent_ref and len(parts) == 3 and parts[1].isdigit():
            # an item of an article's first, unnumbered paragraph (2-1-1): say the paragraph
            parent_label += REG_PARAGRAPH[ui].format(parts[1])
        return parent_label + item_segment(attrs.get("label") or "", ref, ui, ref.startswith("appendix-"))
    return None


def item_segment(printed: str, ref: str, ui: str, in_appendix: bool) -> str:
    """How an item's printed label reads after its parent's: 1. -> 1号 (in an appendix (1)), ① as
    printed, a) -> (a), ・ -> (n)."""
    bare = printed.strip().rstrip(".)．）")
    if bare.isdecimal():
        return f"({bare})" if in_appendix else REG_ITEM[ui].format(bare)
    if re.fullmatch(r"[a-z]+", bare):
        return f"({bare})"
    if bare and bare not in "・･":
        return bare
    return f"({ref.rsplit('-', 1)[-1]})"


def unit_labels(units: Iterable[Unit], documents: dict[str, DocumentNames]) -> dict[str, dict[str, dict[str, str]]]:
    """{unit id: {ui language: {"label": ..., "full_label": ...}}}, units in document order (a parent
    comes before its children, as every parser emits them)."""
    short_titles = {doc: {ui: short_title(document, ui) for ui in UI_LANGUAGES} for doc, document in documents.items()}
    labels: dict[str, dict[str, dict[str, str]]] = {}
    for unit in units:
        document, shorts = documents[unit.doc], short_titles[unit.doc]
        labels[unit.id] = own = {}
        parents = labels.get(unit.parent_id or "", {})
        for ui in UI_LANGUAGES:
            label = unit_label(unit, document, ui, parents.get(ui, {}).get("label"))
            own[ui] = {"label": label, "full_label": f"{shorts[ui]}: {label}"}
    return labels


def short_title(document: DocumentNames, ui: str) -> str:
    """What a full label starts with: the document's short title in `ui`, else in Japanese, else its id."""
    return document.short_titles.get(ui) or document.short_titles.get("ja") or document.id


def label_rows(labels: dict[str, dict[str, dict[str, str]]]) -> list[dict]:
    """Rows of table ``unit_labels``: one per unit and interface language."""
    return [
        {"id": f"{unit_id}@{ui}", "unit_id": unit_id, "lang": ui, **texts}
        for unit_id, by_ui in labels.items()
        for ui, texts in by_ui.items()
    ]
