"""corpus/guides/*.yml, the interactive ruling guides (issue 36, item 4): the data, checked.

Each guide loads through ingest/sources/guides.py (shape, ja/zh/en everywhere, every answer leads to an
existing step or rule, everything reached from ``start``, no cycle), every path from ``start`` ends in
a rule, every cite is a unit of laws-2017-ja in the session's build (tests/conftest.py), every quote
an exact substring of that unit's text as built (after errata), every cite inside the guide's
``laws``; options a player has are listed as the law lists them. The second half writes broken guides
and expects an error naming the file and the line.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
import yaml

from ingest.parsers.records import ParseError
from ingest.sources import guides
from ingest.sources.corpus import DEFAULT_CORPUS, load_manifest
from ingest.sources.guides import LawUnit
from ingest.sources.registry import Registry

GUIDES = Path(__file__).resolve().parent.parent / "corpus" / "guides"
EXPECTED = {
    "lead-out-of-turn",
    "insufficient-bid",
    "call-out-of-rotation",
    "revoke",
    "claims",
    "exposed-cards",
    "unauthorised-information",
    "misinformation",
}
GUIDE_FILES = sorted(GUIDES.glob("*.yml"))
KANA_RE = re.compile(r"[\u3040-\u30ff]")
HAN_RE = re.compile(r"[\u4e00-\u9fff]")
CJK_RE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uff01-\uff5e]")


@pytest.fixture(scope="module")
def all_guides() -> dict[str, guides.Guide]:
    return {guide.id: guide for guide in guides.load_guides(GUIDES)}


@pytest.fixture(scope="module")
def laws_doc() -> str:
    """The document the guides cite: the Laws in force (laws-2017-ja)."""
    return Registry.from_rows(load_manifest(DEFAULT_CORPUS)).current_laws.id


@pytest.fixture(scope="module")
def laws_units(laws_build, laws_doc) -> dict[str, LawUnit]:
    """The Laws in force as built: ref -> (text after errata, parent ref)."""
    conn = sqlite3.connect(f"file:{laws_build.path}?mode=ro", uri=True)
    try:
        rows = conn.execute("select ref, parent_id, text from sections where doc = ?", (laws_doc,))
        return guides.units_from_rows(rows)
    finally:
        conn.close()


@pytest.fixture(scope="module")
def positions(laws_build, laws_doc) -> dict[str, int]:
    conn = sqlite3.connect(f"file:{laws_build.path}?mode=ro", uri=True)
    try:
        return dict(conn.execute("select ref, position from sections where doc = ?", (laws_doc,)))
    finally:
        conn.close()


# ---------------------------------------------------------------- the corpus's guides


def test_the_eight_guides_are_there(all_guides):
    assert set(all_guides) == EXPECTED
    assert {path.stem for path in GUIDE_FILES} == EXPECTED


@pytest.mark.parametrize("path", GUIDE_FILES, ids=lambda path: path.stem)
def test_guide_loads_and_stays_focused(path):
    guide = guides.load_guide(path)
    assert guides.MIN_STEPS <= len(guide.steps) <= guides.MAX_STEPS
    assert guide.start in guide.steps


@pytest.mark.parametrize("path", GUIDE_FILES, ids=lambda path: path.stem)
def test_every_text_is_in_its_language(path):
    """ja has kana or kanji, zh has Han characters and no kana, en has no CJK at all: a text pasted
    into the wrong language's field fails here."""
    problems = []

    def walk(node, where):
        if isinstance(node, dict):
            if set(node) == set(guides.LANGUAGES):
                ja, zh, en = (str(node[lang]) for lang in guides.LANGUAGES)
                if not (KANA_RE.search(ja) or HAN_RE.search(ja)):
                    problems.append((where, "ja", ja))
                if not HAN_RE.search(zh) or KANA_RE.search(zh):
                    problems.append((where, "zh", zh))
                if CJK_RE.search(en):
                    problems.append((where, "en", en))
                return
            for key, value in node.items():
                walk(value, f"{where}.{key}")
        elif isinstance(node, list):
            for number, value in enumerate(node):
                walk(value, f"{where}[{number}]")

    walk(yaml.safe_load(path.read_text(encoding="utf-8")), path.stem)
    assert problems == []


def test_every_path_ends_in_a_rule_and_reaches_every_rule(all_guides):
    for guide in all_guides.values():
        paths = list(guide.paths())
        assert paths, guide.id
        for path in paths:
            *steps, end = path
            assert end in guide.rules, (guide.id, path)
            assert all(step in guide.steps for step in steps), (guide.id, path)
            assert steps[0] == guide.start and len(set(steps)) == len(steps), (guide.id, path)
        assert {path[-1] for path in paths} == set(guide.rules), guide.id
        assert {step for path in paths for step in path[:-1]} == set(guide.steps), guide.id


@pytest.mark.parametrize("path", GUIDE_FILES, ids=lambda path: path.stem)
def test_cites_exist_quotes_are_verbatim_and_laws_cover_them(path, laws_units):
    guide = guides.load_guide(path)
    assert [str(problem) for problem in guides.law_problems(guide, laws_units)] == []


def test_every_laws_entry_is_used(all_guides, laws_units):
    """A law listed in ``laws`` is cited, or a question rests on it: the list says what the guide covers."""
    for guide in all_guides.values():
        used = {ref for citation in guide.citations() for ref in guides.ancestors(citation.cite, laws_units)}
        used |= {
            ref for step in guide.steps.values() for see, _ in step.see for ref in guides.ancestors(see, laws_units)
        }
        assert [ref for ref, _ in guide.laws if ref not in used] == [], guide.id


def option_cites(rule: guides.Rule) -> list:
    return [
        (option.cite, [sub.cite for sub in option.options]) if option.options else option.cite
        for option in rule.options
    ]


@pytest.mark.parametrize(
    "guide_id, rule_id, expected",
    [
        # Law 54: spread and become dummy, accept, or require withdrawal (a major penalty card: 50D2 then)
        ("lead-out-of-turn", "opening-lead-options", ["54A", "54B", ("54D", ["50D2(a)", "50D2(b)"])]),
        ("lead-out-of-turn", "defender-led-partners-turn", ["56A", ("56B", ["50D2(a)", "50D2(b)"])]),
        ("lead-out-of-turn", "defender-led-declarers-turn", ["56A", "56B"]),
        ("lead-out-of-turn", "declarer-led-defenders-turn", ["55A", "55B1"]),
        ("lead-out-of-turn", "declarer-led-wrong-hand", ["55A", "55B2"]),
        ("lead-out-of-turn", "lead-stands-law-57", ["57A1", "57A2", "57A3", "57A4"]),
        ("insufficient-bid", "another-insufficient-bid", ["27A1", "27B3"]),
        ("call-out-of-rotation", "changed-call", ["25B1", "25B2"]),
        ("exposed-cards", "one-penalty-card", ["50D2(a)", "50D2(b)"]),
        ("exposed-cards", "several-in-one-suit", ["51B1(a)", "51B1(b)", "50D2(b)"]),
        ("exposed-cards", "several-suits", ["51B2(a)", "51B2(b)", "51B2(c)"]),
        ("exposed-cards", "failed-to-play", ["52B1(a)", "52B2"]),
        ("unauthorised-information", "before-any-call", ["16D2(a)", "16D2(b)", "16D2(c)", "16D2(d)"]),
    ],
)
def test_options_are_listed_as_the_law_lists_them(all_guides, guide_id, rule_id, expected):
    assert option_cites(all_guides[guide_id].rules[rule_id]) == expected


def test_options_of_one_law_keep_the_law_s_order(all_guides, positions):
    """Options citing units of one law come in the order the law prints them."""
    for guide in all_guides.values():
        for rule in guide.rules.values():
            for options in [rule.options, *(option.options for option in rule.options)]:
                cites = [option.cite for option in options]
                if len({re.match(r"\d+", cite).group() for cite in cites}) == 1:
                    assert cites == sorted(cites, key=positions.__getitem__), (guide.id, rule.id, cites)


def test_the_rulings_rest_on_the_right_units(all_guides):
    """Spot checks read against the Laws: where each guide sends the director."""

    def rule_at(guide_id, *answers):
        guide = all_guides[guide_id]
        step = guide.steps[guide.start]
        for number in answers[:-1]:
            step = guide.steps[step.answers[number].next]
        return guide.rules[step.answers[answers[-1]].rule]

    assert rule_at("revoke", 1, 2, 2, 4, 0).citation.cite == "64A1"  # established, offender won the trick
    assert rule_at("revoke", 1, 2, 2, 4, 1, 1).citation.cite == "64B1"  # offending side won no trick
    assert rule_at("revoke", 0, 0).citation.cite == "62B1"  # a defender corrects: major penalty card
    assert rule_at("insufficient-bid", 0, 1, 1, 1, 1, 0).citation.cite == "27B2"  # partner passes throughout
    assert rule_at("lead-out-of-turn", 1, 0, 0).citation.cite == "41A"  # face-down opening lead out of turn
    assert rule_at("misinformation", 0).citation.cite == "75C"  # mistaken call: no infraction


# ---------------------------------------------------------------- broken guides are reported


GOOD = """\
id: tiny
title: {ja: テスト, zh: 测试, en: Test}
laws: ["61"]
start: a
steps:
  a:
    question: {ja: 質問A, zh: 问题A, en: Question A}
    answers:
      - label: {ja: はい, zh: 是, en: "Yes"}
        next: b
      - label: {ja: いいえ, zh: 否, en: "No"}
        rule: r1
  b:
    question: {ja: 質問B, zh: 问题B, en: Question B}
    answers:
      - label: {ja: はい, zh: 是, en: "Yes"}
        next: c
      - label: {ja: いいえ, zh: 否, en: "No"}
        rule: r1
  c:
    question: {ja: 質問C, zh: 问题C, en: Question C}
    answers:
      - label: {ja: はい, zh: 是, en: "Yes"}
        next: d
      - label: {ja: いいえ, zh: 否, en: "No"}
        rule: r2
  d:
    question: {ja: 質問D, zh: 问题D, en: Question D}
    answers:
      - label: {ja: はい, zh: 是, en: "Yes"}
        rule: r1
      - label: {ja: いいえ, zh: 否, en: "No"}
        rule: r2
rules:
  r1:
    summary: {ja: 規則1, zh: 规则1, en: Rule 1}
    cite: "61A"
    quote: "スートにフォローしないことはリボークになる"
  r2:
    summary: {ja: 規則2, zh: 规则2, en: Rule 2}
    cite: "61B"
    quote: "ディクレアラーは質問することができる"
    options:
      - label: {ja: 選択1, zh: 选择1, en: Option 1}
        cite: "61A"
        quote: "スートにフォローしないこと"
      - label: {ja: 選択2, zh: 选择2, en: Option 2}
        cite: "61B"
        quote: "ディクレアラーは質問することができる"
"""
UNITS = {
    "61": LawUnit("", None),
    "61A": LawUnit("第44条で定められたとおりにスートにフォローしないことはリボークになる。", "61"),
    "61B": LawUnit("ディクレアラーは質問することができる。", "61"),
    "62": LawUnit("", None),
    "62A": LawUnit("リボークが成立する前に違反行為が指摘された場合、訂正しなければならない。", "62"),
}


def write(tmp_path: Path, text: str, name: str = "tiny") -> Path:
    path = tmp_path / f"{name}.yml"
    path.write_text(text, encoding="utf-8")
    return path


def line_of(text: str, fragment: str, occurrence: int = 1) -> int:
    """1-based line of the n-th line containing fragment."""
    hits = [number for number, line in enumerate(text.splitlines(), 1) if fragment in line]
    return hits[occurrence - 1]


def test_the_good_example_is_good(tmp_path):
    guide = guides.load_guide(write(tmp_path, GOOD))
    assert guides.law_problems(guide, UNITS) == []
    assert list(guide.paths()) == [
        ("a", "b", "c", "d", "r1"),
        ("a", "b", "c", "d", "r2"),
        ("a", "b", "c", "r2"),
        ("a", "b", "r1"),
        ("a", "r1"),
    ]


@pytest.mark.parametrize(
    "old, new, fragment, occurrence, message",
    [
        (
            'label: {ja: いいえ, zh: 否, en: "No"}\n        rule: r2',
            'label: {ja: いいえ, en: "No"}\n        rule: r2',
            "label: {ja: いいえ, en:",
            1,
            "has no 'zh'",
        ),
        (
            '        rule: r1\n      - label: {ja: いいえ, zh: 否, en: "No"}\n        rule: r2\nrules',
            '        next: a\n      - label: {ja: いいえ, zh: 否, en: "No"}\n        rule: r2\nrules',
            "next: a",
            1,
            "cycle: a -> b -> c -> d -> a",
        ),
        ("        next: c\n", "        rule: r2\n", "  c:", 1, "step 'c' is not reached from start"),
        (
            "        rule: r2\nrules",
            "        rule: r1\nrules",
            "rule: r1",
            4,
            "step 'd' has two answers leading to 'r1'",
        ),
        ("        next: d\n", "        next: e\n", "next: e", 1, "next 'e' is not a step"),
        ("        rule: r2\n  d:", "        rule: r3\n  d:", "rule: r3", 1, "rule 'r3' is not a rule"),
        (
            "    summary: {ja: 規則2, zh: 规则2, en: Rule 2}\n",
            "    summary: {ja: 規則2, zh: 规则2, en: ''}\n",
            "en: ''",
            1,
            "summary.en must be a non-empty string",
        ),
        ("id: tiny", "id: other", "id: other", 1, "must be the file's name"),
        (
            '    quote: "スートにフォローしないこと"\n',
            '    quote: "フォロー"\n',
            'quote: "フォロー"',
            1,
            "shorter than",
        ),
        ("  d:\n", "  r1:\n", "  r1:", 2, "'r1' is both a step and a rule"),
        ("        rule: r1\n  b:", "        rule: r1\n    colour: red\n  b:", "colour: red", 1, "unknown key 'colour'"),
        (
            '      - label: {ja: 選択2, zh: 选择2, en: Option 2}\n        cite: "61B"\n',
            '      - cite: "61B"\n',
            '- cite: "61B"',
            1,
            "has no 'label'",
        ),
        (
            '      - label: {ja: 選択2, zh: 选择2, en: Option 2}\n        cite: "61B"\n        quote: "ディクレアラーは質問することができる"\n',
            "",
            "選択1",
            1,
            "lists one option",
        ),
    ],
)
def test_a_broken_guide_names_file_and_line(tmp_path, old, new, fragment, occurrence, message):
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    path = write(tmp_path, text)
    with pytest.raises(ParseError) as raised:
        guides.load_guide(path)
    assert raised.value.source == str(path)
    assert message in raised.value.message
    assert raised.value.line == line_of(text, fragment, occurrence), raised.value


@pytest.mark.parametrize(
    "old, new, fragment, message",
    [
        (
            'quote: "ディクレアラーは質問することができる"\n    options',
            'quote: "ディクレアラーは質問してはならない"\n    options',
            "質問してはならない",
            "quote is not in the text of 61B",
        ),
        ('cite: "61B"\n    quote', 'cite: "61Z"\n    quote', '"61Z"', "cite '61Z' is not a unit"),
        (
            'cite: "61A"\n    quote: "スートにフォローしないことはリボークになる"',
            'cite: "62A"\n    quote: "リボークが成立する前に違反行為が指摘された場合"',
            '"62A"',
            "outside the guide's laws",
        ),
        ('laws: ["61"]', 'laws: ["61", "99"]', "laws:", "'99' is not a unit"),
    ],
)
def test_a_guide_wrong_about_the_laws_names_file_and_line(tmp_path, old, new, fragment, message):
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    path = write(tmp_path, text)
    problems = guides.law_problems(guides.load_guide(path), UNITS)
    assert len(problems) == 1, problems
    assert problems[0].source == str(path) and message in problems[0].message
    assert problems[0].line == line_of(text, fragment)
    with pytest.raises(ParseError):
        guides.check_against_laws(guides.load_guide(path), UNITS)


def test_a_link_to_an_unknown_guide_is_refused(tmp_path):
    write(tmp_path, GOOD)
    text = GOOD.replace(
        "    summary: {ja: 規則1, zh: 规则1, en: Rule 1}\n",
        "    summary: {ja: 規則1, zh: 规则1, en: Rule 1}\n    guide: nowhere\n",
    )
    path = write(tmp_path, text.replace("id: tiny", "id: tiny2"), "tiny2")
    with pytest.raises(ParseError) as raised:
        guides.load_guides(tmp_path)
    assert raised.value.source == str(path) and raised.value.line == line_of(text, "guide: nowhere")
    path.write_text(text.replace("id: tiny", "id: tiny2").replace("guide: nowhere", "guide: tiny"), encoding="utf-8")
    assert [guide.id for guide in guides.load_guides(tmp_path)] == ["tiny", "tiny2"]


def test_yaml_out_of_bounds_or_broken_is_a_parse_error(tmp_path):
    anchored = GOOD.replace("    answers:\n", "    answers: &shared\n", 1)
    with pytest.raises(ParseError) as raised:
        guides.load_guide(write(tmp_path, anchored))
    assert raised.value.line == line_of(anchored, "&shared") and "anchor" in raised.value.message
    broken = GOOD.replace(
        "question: {ja: 質問A, zh: 问题A, en: Question A}", "question: {ja: 質問A, zh: 问题A, en: A: B}"
    )
    with pytest.raises(ParseError) as raised:
        guides.load_guide(write(tmp_path, broken))
    assert raised.value.line is not None and "invalid YAML" in raised.value.message


def test_the_readme_table_matches_the_guides(all_guides):
    """corpus/guides/README.md lists every guide with its step and rule counts."""
    rows = re.findall(
        r"^\| `([a-z-]+)\.yml` \| [^|]+ \| (\d+) \| (\d+) \|$", (GUIDES / "README.md").read_text(encoding="utf-8"), re.M
    )
    assert {name: (int(steps), int(rules)) for name, steps, rules in rows} == {
        guide.id: (len(guide.steps), len(guide.rules)) for guide in all_guides.values()
    }
