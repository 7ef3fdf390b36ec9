"""Cross-reference grammar: find the references a text makes and say what each one points at.

Pure text in, `Reference` out; which unit exists is `ingest.references.xrefs`' business. One grammar per
language / document family, because the same characters mean different things in each:

* Japanese Laws and the commentaries (`extract_ja_law_refs`): 第16条B項2(a)(v), 本条C項, bare
  B項 (= the Law last named, else the citing Law), 前項B 1(a), 第70および71条, 「不当な情報」…参照.
* Chinese Laws (`extract_zh_law_refs`): 第45条C款4(b), 本条A2(b), 30条、31条, 上述A款1、2.
* JCBL regulations (`extract_regulation_refs`): 第23条2項 and 3項 are the regulations' own
  articles; ブリッジ(の)規則第73条, any Nth article with a lettered 項, and a bare N条 (no 第) are
  Laws; in 付表7 (f)項, (a) (ii) 参照 and (3)参照 are the appendix's own items and paragraphs.
  docs/references.md states the rules.
* Index locators (`ingest.text.index_locators`): 61C, 40B2(a)(v), 定義, 前書き, 53脚注, 20脚注7.

Every reference carries its span (start, end) in the text it was found in, so a page can turn
exactly that surface into a link. Law refs are formatted in the WBF citation style the index
itself uses (`format_law_ref`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Iterator

# What a reference points into, named by role and language: the grammars know which kind of
# document a citation names (第61条 is a Law, 第23条2項 the regulations' own article), not which
# edition is in the corpus. ingest.references.xrefs maps each to a document through the registry.
LAWS_JA = "laws@ja"
LAWS_ZH = "laws@zh"
REGULATIONS = "regulations@ja"

# --- WBF-style law refs -------------------------------------------------------------------------


@dataclass(frozen=True)
class LawRef:
    """A position in the Laws: law 40, section B, item 2, sub-item (a), sub-sub-item (v)."""

    law: str
    section: str | None = None
    item: str | None = None
    sub: str | None = None
    subsub: str | None = None

    def __str__(self) -> str:
        return format_law_ref(self.law, self.section, self.item, self.sub, self.subsub)


# how each level after the law is written: 40, B, 2, (a), (v)
LEVEL_FORMATS = ("{}", "{}", "({})", "({})")


def format_law_ref(law, section=None, item=None, sub=None, subsub=None) -> str:
    """`format_law_ref("40", "B", "2", "a", "v") == "40B2(a)(v)"`; stops at the first missing level."""
    out = str(law)
    for part, fmt in zip((section, item, sub, subsub), LEVEL_FORMATS):
        if part is None:
            break
        out += fmt.format(part)
    return out


# sub-sub-items are roman in the 2017 Laws, printed (1) in the 1997 Chinese page
WBF_REF = re.compile(r"(\d+)([A-Z])?(\d+)?(?:\(([a-z])\))?(?:\(([ivx]+|\d+)\))?")


# A build asks ~1.3*10^4 times about ~2,400 refs (labels parse each ref once per interface language).
# The answer is immutable (a frozen LawRef of strings, or None), so sharing it is safe; bounded
# because the site also parses what users type.
@lru_cache(maxsize=4096)
def parse_law_ref(ref: str) -> LawRef | None:
    """The inverse of `format_law_ref`; None for anything that is not a whole WBF-style ref."""
    m = WBF_REF.fullmatch(ref)
    # each level needs the one above it: 40B2(ii) names no unit (its (ii) hangs from no sub-item)
    if not m or (m.group(3) and not m.group(2)) or (m.group(4) and not m.group(3)) or (m.group(5) and not m.group(4)):
        return None
    return LawRef(*m.groups())


MAX_LAW_DIGITS = 3  # a Law's number has at most three digits
LAW_NUMBER = re.compile(r"(?:quote:|L)?(\d+)(?=[A-Z(\-]|$)")


# ~1.3*10^4 calls a build (diffs and editions ask per row) about a few thousand refs; the answer
# is an int or None, nothing a caller can change. Bounded, as parse_law_ref.
@lru_cache(maxsize=4096)
def law_number(ref: str | None) -> int | None:
    """The Law a ref belongs to: 61 for `61`, `61B2(a)`, a reprint `quote:61B` or a commentary note
    `L61A`; None for a ref in no Law (`def:ダミー`, `fn:3`, `index:...`). This is the one place that
    reads a law number off a ref."""
    match = LAW_NUMBER.match(ref or "")
    return int(match.group(1)) if match and len(match.group(1)) <= MAX_LAW_DIGITS else None


def law_ancestors(ref: str) -> list[str]:
    """`61B2(a)` -> [`61B2`, `61B`, `61`]: the enclosing law units, nearest first."""
    parsed = parse_law_ref(ref)
    if parsed is None:
        return []
    parts = [parsed.law, parsed.section, parsed.item, parsed.sub, parsed.subsub]
    depth = sum(p is not None for p in parts)
    return [format_law_ref(*parts[:n]) for n in range(depth - 1, 0, -1)]


# --- what the grammars produce ---------------------------------------------------------------


@dataclass(frozen=True)
class Reference:
    """One reference found in a text.

    ``doc``/``ref`` name the target (``ref`` may name a unit that does not exist: resolution
    decides); ``doc`` is a document id or a role target (``LAWS_JA``...) that resolution maps.
    A footnote cited by the Law it hangs from (索引 ``53脚注``) has ``ref=None`` and
    ``footnote_of="53"``: only the resolver knows which footnote that is.
    """

    surface: str
    start: int
    end: int
    doc: str
    ref: str | None
    kind: str = "cites"
    footnote_of: str | None = None
    fallbacks: tuple[str, ...] = ()  # refs to try, in order, when ``ref`` names no unit

    def aimed_at(self, doc: str) -> Reference:
        """This reference with ``doc`` as its target document. As dataclasses.replace(self, doc=doc),
        copying the fields as they are: replace checks each field anew, 5x slower, and resolution
        re-aims ~2,000 references a build."""
        aimed = object.__new__(Reference)
        aimed.__dict__.update(self.__dict__, doc=doc)
        return aimed


@dataclass(frozen=True)
class Context:
    """What relative references in one unit's text are relative to.

    ``law``: the Law the citing unit belongs to or comments on (本条, bare B項); ``section``: its
    section letter (本款); ``article``/``path``: the regulation numbering of the citing unit
    (``24-5-1`` -> article 24, path ("24", "5", "1")) for 3項 and 前項.
    """

    doc: str
    law: str | None = None
    section: str | None = None
    path: tuple[str, ...] = field(default_factory=tuple)

    @property
    def article(self) -> str | None:
        return self.path[0] if self.path and self.path[0].isdigit() else None


# --- shared lexical pieces -------------------------------------------------------------------

# the PDF conversion scatters spaces inside refs: 第 23 条 A 項. Spelled as a branch, not as the
# class [ \t\u3000]: sre turns a class of ASCII and CJK characters in more than two runs into a
# 64K-entry table, ~0.1 ms to compile, and S occurs ~90 times in this module's patterns (9 ms at
# every start). `{1}` keeps the parser from folding the branch back into that class. Same
# characters, one per repetition, longest first: the same matches.
S = r"(?:[ \t]|\u3000{1})*"
NUM = r"[0-9０-９]+"
LETTER = r"[A-ZＡ-Ｚ]"
ROMAN = r"(?:viii|vii|iii|ix|iv|vi|ii|x|v|i)"
# what follows a number or letter to say which level it is: 第N条 (a Law, or a regulations' article),
# a section's 項 (Japanese) or 款 (Chinese), a regulations' paragraph 項 and item 号
ARTICLE_MARK = "条"
SECTION_MARK = "(?:項|款)"
ITEM_MARK = "(?:号|項)"
# item, sub-item, sub-sub-item after a section: 2, 2(a), 2(a)(v), and the PDF's 2(a) v
DEEP_TAIL = rf"(?:{S}{NUM}(?:{S}\([a-z]\)(?:{S}\({ROMAN}\)|{S}{ROMAN}(?![a-z]))?)?)?"
_TAIL_PARTS = re.compile(
    rf"{S}(?P<section>{LETTER})?{S}{SECTION_MARK}?{S}(?P<item>{NUM})?{S}(?:\((?P<sub>[a-z])\))?"
    rf"{S}\(?(?P<subsub>{ROMAN})?\)?"
)


_WHITESPACE_RE = re.compile(r"\s")


def norm(s: str) -> str:
    """Full-width digits and letters to ASCII (NFKC), spaces out: what refs are made of."""
    return _WHITESPACE_RE.sub("", unicodedata.normalize("NFKC", s))


def split_tail(tail: str) -> tuple[str | None, str | None, str | None, str | None]:
    """`B項2(a)(v)` / `C款4(b)` / `A2(b)` -> (section, item, sub, subsub)."""
    m = _TAIL_PARTS.match(norm(tail))
    return (m.group("section"), m.group("item"), m.group("sub"), m.group("subsub")) if m else (None,) * 4


def numbers(run: str) -> list[str]:
    """`27、28` / `70および71` / `1,4,7` -> the numbers in order."""
    return re.findall(r"\d+", norm(run))


# --- the scanner: token patterns with handlers, applied left to right --------------------------


@dataclass
class ScanState:
    """What a relative reference can lean on: the Law and section last named in this text."""

    ctx: Context
    last_law: str | None = None
    last_section: str | None = None
    last_item_ref: LawRef | None = None

    def __post_init__(self):
        self.last_law = self.ctx.law


Handler = Callable[[re.Match, ScanState], Iterator[Reference]]


def scan(text: str, tokens: list[tuple[re.Pattern, Handler]], ctx: Context) -> list[Reference]:
    """Find every token, keep the leftmost-longest non-overlapping ones, run their handlers in order."""
    found = []
    for pattern, handler in tokens:
        for m in pattern.finditer(text):
            found.append((m.start(), -m.end(), m, handler))
    found.sort(key=lambda t: (t[0], t[1]))
    state, refs, covered_to = ScanState(ctx), [], -1
    for start, neg_end, m, handler in found:
        if start < covered_to or start == -neg_end:
            continue
        covered_to = -neg_end
        refs.extend(handler(m, state))
    return refs


def law_reference(
    m: re.Match, state: ScanState, doc: str, law: str, tail: str, group: int | str = 0, kind: str = "cites"
) -> Reference:
    """A Reference to `law` + `tail`, remembered as the latest Law/section named."""
    section, item, sub, subsub = split_tail(tail)
    target = LawRef(law, section, item, sub, subsub)
    state.last_law = law
    if section:
        state.last_section = section
    state.last_item_ref = target if item else None
    return Reference(m.group(group), m.start(group), m.end(group), doc, str(target), kind)


def law_list_refs(m: re.Match, state: ScanState, doc: str) -> Iterator[Reference]:
    """第16条B項2 or 第70および71条 (a list shares one 条; the tail belongs to the last number)."""
    laws = numbers(m.group("nums"))
    tail = m.group("tail") or ""
    if len(laws) == 1:
        yield law_reference(m, state, doc, laws[0], tail)
        return
    # Each number of a list gets its own span so each can become its own link.
    for start, end, law in list_spans(m):
        state.last_law = law
        yield Reference(m.string[start:end], start, end, doc, law)


def list_spans(m: re.Match) -> list[tuple[int, int, str]]:
    """One (start, end, number) per number of 第70および71条: 第70 | 71条 (first takes 第, last 条)."""
    nums = list(re.finditer(NUM, m.group("nums")))
    spans = []
    for i, num_match in enumerate(nums):
        start = m.start() if i == 0 else m.start("nums") + num_match.start()
        end = m.end() if i == len(nums) - 1 else m.start("nums") + num_match.end()
        spans.append((start, end, norm(num_match.group())))
    return spans


def relative_law_ref(m: re.Match, state: ScanState, doc: str) -> Iterator[Reference]:
    """本条 / 本条C項2 / 本章B款 (zh): the citing unit's own Law."""
    if state.ctx.law:
        yield law_reference(m, state, doc, state.ctx.law, m.group("tail") or "")


def preceding_item_ref(m: re.Match, state: ScanState, doc: str) -> Iterator[Reference]:
    """前項1: item 1 of the citing unit's own section (93C3(a) 前項1および2 -> 93C1, 93C2); the
    および 2 that may follow is a continuation of it."""
    if state.ctx.law and state.ctx.section:
        yield law_reference(m, state, doc, state.ctx.law, state.ctx.section + norm(m.group("item")))


def bare_section_ref(m: re.Match, state: ScanState, doc: str) -> Iterator[Reference]:
    """B項 / A款1 with no Law named: the Law last named in this text, else the citing Law;
    上記B項 / 以下のB項 / 上述A款 point inside the citing Law whatever was named before."""
    law = state.ctx.law if m.group("here") else state.last_law
    if law:
        yield law_reference(m, state, doc, law, m.group("tail"), group="tail")


def this_section_ref(m: re.Match, state: ScanState, doc: str) -> Iterator[Reference]:
    """本款3 (zh): item 3 of the citing unit's own section."""
    if state.ctx.law and state.ctx.section:
        yield law_reference(m, state, doc, state.ctx.law, state.ctx.section + (m.group("tail") or ""))


def continued_item_ref(m: re.Match, state: ScanState, doc: str) -> Iterator[Reference]:
    """…A款1、2 / 本条D項2(c)および2(d) / 本条C項2(a)および(b): more of the section just cited."""
    prev = state.last_item_ref
    if not (prev and prev.section):
        return
    item, sub = m.group("item"), m.group("sub") or m.group("sub2")
    if item:
        target = LawRef(prev.law, prev.section, norm(item), sub)
    elif prev.sub:
        target = LawRef(prev.law, prev.section, prev.item, sub)
    else:
        return
    state.last_item_ref = target
    yield Reference(m.group("more"), m.start("more"), m.end("more"), doc, str(target))


def definition_ref(m: re.Match, state: ScanState, doc: str) -> Iterator[Reference]:
    """「不当な情報」…参照: the term's definition."""
    yield Reference(m.group("term"), m.start("term"), m.end("term"), doc, f"def:{m.group('term')}", "definition")


def footnote_marker(m: re.Match, state: ScanState) -> Iterator[Reference]:
    """*5 left in the text where the footnote hangs."""
    yield Reference(m.group(0), m.start(), m.end(), state.ctx.doc, f"fn:{norm(m.group('n'))}", "footnote")


# --- Japanese Laws and commentaries ----------------------------------------------------------

JA_TAIL = rf"(?:{S}{LETTER}{S}項{DEEP_TAIL})?"
# 第41条A 『オープニングリードを伏せて出す』 (out-of-turn notes): a section letter printed without
# 項, taken only before a quotation, a parenthesis or punctuation, where nothing else can follow
LAW_TAIL = rf"(?:{S}{LETTER}(?:{S}項{DEEP_TAIL}|(?=[ \u3000]*[『「（(、。）)]|[ \u3000]*$)))?"
JA_LAW = re.compile(rf"第{S}(?P<nums>{NUM}(?:{S}(?:、|,|，|および|及び|と){S}{NUM})*){S}条(?P<tail>{LAW_TAIL})")
JA_THIS_LAW = re.compile(rf"(?:本条項?|同条)(?P<tail>{JA_TAIL})")
# (?=...) first: every match starts with 上, 以, 下 or the section letter, and saying so lets the
# scan skip a position on one test instead of three (a third of the time over the Laws' texts)
JA_BARE_SECTION = re.compile(
    rf"(?=[上以下A-ZＡ-Ｚ])(?P<here>上記の?|以下の|下記の?)?(?<![A-Za-zＡ-Ｚａ-ｚ])(?P<tail>{LETTER}{S}項{DEEP_TAIL})"
)
# 前項B 1(a) (51B2): the preceding section of this Law, printed in compact style
JA_PRECEDING_SECTION = re.compile(rf"前項{S}(?P<tail>{LETTER}{S}{NUM}(?:{S}\([a-z]\))?)")
# 前項 1 および 2 (93C3(a)): items 1 and 2 before the citing one, in the citing section
JA_PRECEDING_ITEM = re.compile(rf"前項{S}(?P<item>{NUM})(?!{S}[条項])")
JA_RANGE = re.compile(
    rf"(?P<from>第{S}(?P<first>{NUM}){S}条){S}(?:から|～|〜|ないし|乃至){S}(?P<to>第{S}(?P<last>{NUM}){S}条)(?:まで)?"
)
# 本条F項1および2: the 2 is another item of the section just cited
JA_CONTINUED_ITEM = re.compile(
    rf"(?:、|および|及び|または|又は|と|や){S}(?P<more>(?P<item>{NUM})(?:{S}\((?P<sub>[a-z])\))?|\((?P<sub2>[a-z])\))"
    r"(?=[\s)）、。をにのとがはもや]|および|または|参照|$)"  # 2回目 and 2枚 are counts, not items
)
# the 参照 must close the term's own parenthesis: not 「取りの宣言」の合意（本条A項参照）
JA_DEFINITION = re.compile(r"「(?P<term>[^」「\n]{1,30})」(?=[^。「」（(\n]{0,12}参照)")
FOOTNOTE_MARKER = re.compile(rf"\*(?P<n>{NUM})")


def law_range_refs(m: re.Match, state: ScanState, doc: str) -> Iterator[Reference]:
    """第61条から第64条: both ends as links, and each law between cited by the whole range."""
    first, last = int(norm(m.group("first"))), int(norm(m.group("last")))
    yield Reference(m.group("from"), m.start("from"), m.end("from"), doc, str(first))
    for law in range(first + 1, last):
        yield Reference(m.group(0), m.start(), m.end(), doc, str(law), "cites-in-range")
    yield Reference(m.group("to"), m.start("to"), m.end("to"), doc, str(last))
    state.last_law = str(last)


def ja_tokens(law_doc: str, with_footnotes: bool) -> list[tuple[re.Pattern, Handler]]:
    tokens = [
        (JA_RANGE, lambda m, st: law_range_refs(m, st, law_doc)),
        (JA_LAW, lambda m, st: law_list_refs(m, st, law_doc)),
        (JA_THIS_LAW, lambda m, st: relative_law_ref(m, st, law_doc)),
        (JA_BARE_SECTION, lambda m, st: bare_section_ref(m, st, law_doc)),
        (JA_PRECEDING_SECTION, lambda m, st: relative_law_ref(m, st, law_doc)),
        (JA_PRECEDING_ITEM, lambda m, st: preceding_item_ref(m, st, law_doc)),
        (JA_CONTINUED_ITEM, lambda m, st: continued_item_ref(m, st, law_doc)),
        (JA_DEFINITION, lambda m, st: definition_ref(m, st, law_doc)),
    ]
    if with_footnotes:
        tokens.append((FOOTNOTE_MARKER, footnote_marker))
    return tokens


# Every Japanese token above holds one of these (a continued item only extends a reference before
# it in the same text); most texts hold none and need no scan
JA_CAN_REFER = re.compile(r"[条項*]|参照")


def extract_ja_law_refs(text: str, ctx: Context, with_footnotes: bool = False) -> list[Reference]:
    """References in Japanese Law text or commentary; Law targets are laws-2017-ja."""
    if not JA_CAN_REFER.search(text):
        return []
    return scan(text, ja_tokens(LAWS_JA, with_footnotes), ctx)


# --- Chinese Laws -----------------------------------------------------------------------------

ZH_TAIL = rf"(?:{S}{LETTER}{S}款{DEEP_TAIL}|{S}{LETTER}{NUM}(?:\([a-z]\))?)?"
ZH_LAW = re.compile(rf"(?:第|(?<![0-9０-９第]))(?P<nums>{NUM}){S}条(?P<tail>{ZH_TAIL})")
# 本章B款 (41C) can only mean this Law: the Laws' chapters have no lettered sections
ZH_THIS_LAW = re.compile(rf"(?:本条|本章(?={S}{LETTER}{S}款))(?P<tail>{ZH_TAIL})")
ZH_THIS_SECTION = re.compile(rf"本款(?P<tail>{S}{NUM}(?:\([a-z]\))?)")
ZH_BARE_SECTION = re.compile(  # (?=...) first, as in JA_BARE_SECTION
    rf"(?=[上以下A-ZＡ-Ｚ])(?P<here>上述|以下|下述)?(?<![A-Za-zＡ-Ｚ本])(?P<tail>{LETTER}{S}款{DEEP_TAIL})"
)
ZH_CONTINUED_ITEM = re.compile(
    rf"(?:、|和|及|或){S}(?P<more>(?P<item>{NUM})(?:\((?P<sub>[a-z])\))?|\((?P<sub2>[a-z])\))(?=[\s)）、。,，中的和及或]|$)"
)


def zh_tokens() -> list[tuple[re.Pattern, Handler]]:
    return [
        (ZH_LAW, lambda m, st: law_list_refs(m, st, LAWS_ZH)),
        (ZH_THIS_LAW, lambda m, st: relative_law_ref(m, st, LAWS_ZH)),
        (ZH_THIS_SECTION, lambda m, st: this_section_ref(m, st, LAWS_ZH)),
        (ZH_BARE_SECTION, lambda m, st: bare_section_ref(m, st, LAWS_ZH)),
        (ZH_CONTINUED_ITEM, lambda m, st: continued_item_ref(m, st, LAWS_ZH)),
    ]


# Every Chinese token above holds one of these (a continued item only extends a reference before it)
ZH_CAN_REFER = re.compile(r"[条款]")


def extract_zh_law_refs(text: str, ctx: Context) -> list[Reference]:
    """References in the Chinese Laws; targets are laws-1997-zh."""
    if not ZH_CAN_REFER.search(text):
        return []
    return scan(text, zh_tokens(), ctx)


# --- JCBL regulations --------------------------------------------------------------------------

LAWS_NAME = rf"ブリッジ(?:の)?規則{S}"
REG_LAW_EXPLICIT = re.compile(rf"{LAWS_NAME}第?{S}(?P<nums>{NUM}){S}条(?P<tail>{JA_TAIL})")
# (?=...) first, as in JA_BARE_SECTION: the characters a match can start with (most of the
# regulations' characters are none of them)
REG_LETTERED = re.compile(rf"(?=[第0-9０-９ \t\u3000])第?{S}(?P<nums>{NUM}){S}条(?P<tail>{S}{LETTER}{S}項{DEEP_TAIL})")
REG_BARE_LAW = re.compile(rf"(?=[0-9０-９])(?<![第0-9０-９])(?P<nums>{NUM}){S}条(?P<tail>{JA_TAIL})")
REG_ARTICLE = re.compile(rf"第{S}(?P<nums>{NUM}(?:{S}(?:、|,|，|および|と){S}{NUM})*){S}条(?P<para>{S}{NUM}{S}項)?")
REG_PARAGRAPH = re.compile(rf"(?=[0-9０-９])(?<![0-9０-９条第)）])(?P<para>{NUM}){S}項")
REG_PRECEDING = re.compile(rf"前項(?P<item>{NUM})?")
REG_LETTERED_ITEM = re.compile(r"\((?P<letter>[a-z])\)項")
# 付表7-4 b) 「(a) (ii) 参照」 and d) 「(3)参照」: a sibling's sub-item and a paragraph of the same
# appendix, recognised only before 参照 (a bare (3) elsewhere is a paragraph's own number)
REG_LETTERED_SUBITEM = re.compile(rf"\((?P<letter>[a-z])\){S}\((?P<roman>{ROMAN})\)(?={S}参照)")
REG_PAREN_PARAGRAPH = re.compile(rf"(?=\()(?<![)）a-z])\((?P<para>{NUM})\)(?={S}参照)")
REG_CHAPTER = re.compile(rf"第{S}(?P<n>{NUM}){S}章")
REG_APPENDIX = re.compile(rf"付表{S}(?P<nums>{NUM}(?:{S}[,、，]{S}{NUM})*)")


def regulation_ref(*parts: str) -> str:
    """("23", "2") -> `23-2`; paragraph 1 is printed as the article's own text, so 23-1 is `23`."""
    if len(parts) == 2 and parts[1] == "1":
        return parts[0]
    return "-".join(parts)


def reg_article_refs(m: re.Match, state: ScanState) -> Iterator[Reference]:
    """第23条2項 -> 23-2; 第27、28条 -> one ref per number."""
    arts = numbers(m.group("nums"))
    if len(arts) == 1:
        para = numbers(m.group("para") or "")
        yield Reference(m.group(0), m.start(), m.end(), REGULATIONS, regulation_ref(*arts, *para))
        return
    for start, end, art in list_spans(m):
        yield Reference(m.string[start:end], start, end, REGULATIONS, art)


def reg_paragraph_ref(m: re.Match, state: ScanState) -> Iterator[Reference]:
    """3項: paragraph 3 of the citing article."""
    if state.ctx.article:
        yield Reference(
            m.group(0), m.start(), m.end(), REGULATIONS, regulation_ref(state.ctx.article, norm(m.group("para")))
        )


def reg_preceding_ref(m: re.Match, state: ScanState) -> Iterator[Reference]:
    """前項1 = item 1 of the citing paragraph; 前項 = the item just before the citing one, or,
    for a first sub-item (① under 2.), the item before its parent."""
    path = state.ctx.path
    if m.group("item") and len(path) >= 2:
        target = regulation_ref(*path[:2], norm(m.group("item")))
    elif not m.group("item") and (before := preceding(path)):
        target = regulation_ref(*before)
    else:
        return
    yield Reference(m.group(0), m.start(), m.end(), REGULATIONS, target)


def preceding(path: tuple[str, ...]) -> tuple[str, ...] | None:
    """The numbered sibling before `path`, climbing while `path` is a first child."""
    for depth in range(len(path) - 1, 0, -1):
        if path[depth].isdigit() and int(path[depth]) > 1:
            return path[:depth] + (str(int(path[depth]) - 1),)
    return None


def reg_lettered_item_ref(m: re.Match, state: ScanState) -> Iterator[Reference]:
    """(f)項 in item g) of 付表7: the sibling item f)."""
    if len(state.ctx.path) >= 2:
        yield Reference(
            m.group(0), m.start(), m.end(), REGULATIONS, "-".join(state.ctx.path[:-1] + (m.group("letter"),))
        )


def reg_lettered_subitem_ref(m: re.Match, state: ScanState) -> Iterator[Reference]:
    """(a) (ii) 参照 in item b) of 付表7 (4): sub-item ii) of the sibling item a)."""
    if len(state.ctx.path) >= 2:
        target = state.ctx.path[:-1] + (m.group("letter"), m.group("roman"))
        yield Reference(m.group(0), m.start(), m.end(), REGULATIONS, "-".join(target))


def reg_paren_paragraph_ref(m: re.Match, state: ScanState) -> Iterator[Reference]:
    """(3)参照 inside an appendix: its paragraph (3) (付表7 (4) d) -> appendix-7-3)."""
    path = state.ctx.path
    if len(path) >= 2 and path[0] == "appendix":
        yield Reference(m.group(0), m.start(), m.end(), REGULATIONS, "-".join(path[:2] + (norm(m.group("para")),)))


def reg_chapter_ref(m: re.Match, state: ScanState) -> Iterator[Reference]:
    yield Reference(m.group(0), m.start(), m.end(), REGULATIONS, f"chapter:{norm(m.group('n'))}")


def reg_appendix_refs(m: re.Match, state: ScanState) -> Iterator[Reference]:
    """付表1,4 -> appendix-1 (span 付表1) and appendix-4 (span 4)."""
    for i, num_match in enumerate(re.finditer(NUM, m.group("nums"))):
        start = m.start() if i == 0 else m.start("nums") + num_match.start()
        end = m.start("nums") + num_match.end()
        yield Reference(m.string[start:end], start, end, REGULATIONS, f"appendix-{norm(num_match.group())}")


def reg_law_ref(m: re.Match, state: ScanState) -> Iterator[Reference]:
    yield law_reference(m, state, LAWS_JA, norm(m.group("nums")), m.group("tail") or "")


def regulation_tokens() -> list[tuple[re.Pattern, Handler]]:
    return [
        (JA_RANGE, lambda m, st: law_range_refs(m, st, REGULATIONS)),
        (REG_LAW_EXPLICIT, reg_law_ref),
        (REG_LETTERED, reg_law_ref),
        (REG_ARTICLE, reg_article_refs),
        (REG_BARE_LAW, reg_law_ref),
        (REG_PARAGRAPH, reg_paragraph_ref),
        (REG_PRECEDING, reg_preceding_ref),
        (REG_LETTERED_ITEM, reg_lettered_item_ref),
        (REG_LETTERED_SUBITEM, reg_lettered_subitem_ref),
        (REG_PAREN_PARAGRAPH, reg_paren_paragraph_ref),
        (REG_CHAPTER, reg_chapter_ref),
        (REG_APPENDIX, reg_appendix_refs),
    ]


def extract_regulation_refs(text: str, ctx: Context) -> list[Reference]:
    """References in the JCBL regulations, to its own articles or to the Laws (laws-2017-ja)."""
    refs = scan(text, regulation_tokens(), ctx)
    # A bare-number match may start with the spaces before it: spans hold the surface only.
    return [strip_span(r) for r in refs]


def strip_span(ref: Reference) -> Reference:
    lead = len(ref.surface) - len(ref.surface.lstrip())
    trail = len(ref.surface) - len(ref.surface.rstrip())
    if not lead and not trail:
        return ref
    return Reference(
        ref.surface.strip(), ref.start + lead, ref.end - trail, ref.doc, ref.ref, ref.kind, ref.footnote_of
    )
