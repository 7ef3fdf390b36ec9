"""Interactive ruling guides (corpus/guides/*.yml): one file read and checked.

A guide is a director's flowchart as data: steps, each a question the director can settle at the
table, whose answers lead to another step or to a rule; a rule says what the director does and cites
the unit of laws-2017-ja that says so, with a verbatim quote of it (corpus/guides/README.md).

Two layers of checks, each a ParseError naming the file and the line:

- ``load_guide(path)`` - the file alone: YAML within bounds (ingest/sources/safe_yaml.py), the shape, every
  text in ja, zh and en, and the graph: every answer leads to an existing step or rule, every step
  and rule is reached from ``start``, no cycle - so every path from ``start`` ends in a rule.
- ``law_problems(guide, units)`` - against the Laws: every cited ref is a unit of laws-2017-ja, every
  quote an exact substring of that unit's text (as built, after errata), every cite inside one of
  the guide's ``laws``. ``units`` maps ref -> anything with ``text`` and ``parent_ref`` (the
  parser's records.Unit, or LawUnit rows read from laws.db).

Pure: reads the one file it is given, never the database.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import yaml

from ingest.parsers.records import ParseError
from ingest.sources import safe_yaml
from ingest.sources.corpus import utf8_text

LANGUAGES = ("ja", "zh", "en")
LAWS = "the Laws in force"  # how messages name the document cited (the registry's current_laws)
MIN_STEPS, MAX_STEPS = 4, 15  # a guide stays focused: a director reads it at the table
MIN_ANSWERS = 2
MIN_QUOTE = 8  # characters: a shorter quote would match almost anywhere and prove nothing
MAX_OPTION_DEPTH = 2  # an option may list the options the law then gives (54D -> 50D2(a), (b))
ID_RE = re.compile(r"[a-z0-9][a-z0-9-]*")

Text = dict  # {"ja": str, "zh": str, "en": str}


class LawUnit(NamedTuple):
    """What the law checks read of a unit: its own text and its parent's ref."""

    text: str
    parent_ref: str | None


@dataclass(frozen=True)
class Citation:
    """A unit of laws-2017-ja and a verbatim quote of it. An option (``label``) is a choice the law
    gives, listed as the law lists it; its own ``options`` are the choices it leads to. An ``also``
    entry has a ``note`` saying why the unit applies too."""

    cite: str
    quote: str
    line: int
    quote_line: int
    label: Text | None = None
    note: Text | None = None
    options: tuple[Citation, ...] = ()


@dataclass(frozen=True)
class Answer:
    label: Text
    next: str | None  # a step id, or
    rule: str | None  # a rule id
    line: int
    target_line: int  # the line of its next: or rule:

    @property
    def target(self) -> str:
        return self.next if self.next is not None else self.rule


@dataclass(frozen=True)
class Step:
    id: str
    question: Text
    answers: tuple[Answer, ...]
    note: Text | None
    see: tuple[tuple[str, int], ...]  # (ref, line): units the question rests on
    line: int


@dataclass(frozen=True)
class Rule:
    id: str
    summary: Text
    citation: Citation
    note: Text | None
    options: tuple[Citation, ...]
    also: tuple[Citation, ...]
    guide: str | None  # another guide that takes over from here
    guide_line: int | None
    line: int


@dataclass(frozen=True)
class Guide:
    id: str
    source: str
    title: Text
    scope: Text | None
    laws: tuple[tuple[str, int], ...]  # (ref, line)
    start: str
    steps: dict[str, Step]
    rules: dict[str, Rule]

    def citations(self) -> Iterator[Citation]:
        """Every citation of every rule: its own, its options (nested) and its also-entries."""

        def walk(citation: Citation) -> Iterator[Citation]:
            yield citation
            for option in citation.options:
                yield from walk(option)

        for rule in self.rules.values():
            yield rule.citation
            for extra in (*rule.options, *rule.also):
                yield from walk(extra)

    def paths(self) -> Iterator[tuple[str, ...]]:
        """Every path from ``start``: step ids, then the rule it ends in (depth-first, answer order)."""

        def walk(step_id: str, prefix: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
            for answer in self.steps[step_id].answers:
                if answer.rule is not None:
                    yield (*prefix, step_id, answer.rule)
                else:
                    yield from walk(answer.next, (*prefix, step_id))

        yield from walk(self.start, ())


# ---------------------------------------------------------------- reading the nodes


class _Reader:
    """Typed reads of a composed YAML document, each error at its node's line."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, node, message: str) -> ParseError:
        line = node.start_mark.line + 1 if node is not None else None
        return ParseError(self.source, line, message)

    def mapping(self, node, what: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, f"{what} must be a mapping with {', '.join(required)}")
        found = {}
        for key, value in node.value:
            name = key.value if isinstance(key, yaml.ScalarNode) else None
            if name not in required and name not in optional:
                raise self.fail(key, f"unknown key {name!r} in {what}; expected {', '.join((*required, *optional))}")
            if name in found:
                raise self.fail(key, f"{what} has {name!r} twice")
            found[name] = value
        for name in required:
            if name not in found:
                raise self.fail(node, f"{what} has no {name!r}")
        return found

    def string(self, node, what: str) -> str:
        if not isinstance(node, yaml.ScalarNode) or node.tag == "tag:yaml.org,2002:null" or not node.value.strip():
            raise self.fail(node, f"{what} must be a non-empty string")
        return node.value

    def identifier(self, node, what: str) -> str:
        value = self.string(node, what)
        if not ID_RE.fullmatch(value):
            raise self.fail(node, f"{what} {value!r} must be lower-case letters, digits and hyphens")
        return value

    def sequence(self, node, what: str) -> list:
        if not isinstance(node, yaml.SequenceNode) or not node.value:
            raise self.fail(node, f"{what} must be a non-empty list")
        return node.value

    def text(self, node, what: str) -> Text:
        """A text in the three languages: exactly ja, zh and en, none empty."""
        fields = self.mapping(node, f"{what} (a text in {', '.join(LANGUAGES)})", LANGUAGES)
        return {lang: self.string(fields[lang], f"{what}.{lang}").strip() for lang in LANGUAGES}

    def ref(self, node, what: str) -> tuple[str, int]:
        return self.string(node, what).strip(), node.start_mark.line + 1

    def citation(self, node, what: str, kind: str, depth: int = 0) -> Citation:
        """kind: 'option' (label, cite, quote, note?, options?) or 'also' (cite, quote, note)."""
        required = {"option": ("label", "cite", "quote"), "also": ("cite", "quote", "note")}[kind]
        optional = ("note", "options") if kind == "option" else ()
        fields = self.mapping(node, what, required, optional)
        options = ()
        if "options" in fields:
            if depth + 1 >= MAX_OPTION_DEPTH:
                raise self.fail(fields["options"], f"{what}: options nest at most {MAX_OPTION_DEPTH} deep")
            options = self.options(fields["options"], what, depth + 1)
        return self.cited(
            fields,
            what,
            options=options,
            label=self.text(fields["label"], f"{what} label") if "label" in fields else None,
            note=self.text(fields["note"], f"{what} note") if "note" in fields else None,
        )

    def options(self, node, what: str, depth: int = 0) -> tuple[Citation, ...]:
        """The choices the law gives, at least two."""
        options = tuple(
            self.citation(item, f"{what} option {n + 1}", "option", depth)
            for n, item in enumerate(self.sequence(node, f"{what} options"))
        )
        if len(options) == 1:
            raise self.fail(node, f"{what} lists one option; options are the choices the law gives")
        return options

    def cited(self, fields: dict, what: str, **extra) -> Citation:
        """The Citation of a mapping's ``cite`` and ``quote`` nodes."""
        quote = self.string(fields["quote"], f"{what} quote")
        if len(quote) < MIN_QUOTE:
            raise self.fail(
                fields["quote"],
                f"{what} quote {quote!r} is shorter than {MIN_QUOTE} characters: "
                f"quote enough of the law to show what it says",
            )
        return Citation(
            cite=self.ref(fields["cite"], f"{what} cite")[0],
            quote=quote,
            line=fields["cite"].start_mark.line + 1,
            quote_line=fields["quote"].start_mark.line + 1,
            **extra,
        )


# ---------------------------------------------------------------- one file


def load_guide(path: Path | str) -> Guide:
    """The guide in ``path``, checked on its own (shape, languages, graph), or a ParseError."""
    path = Path(path)
    source = str(path)
    try:
        text = utf8_text(path, "a UTF-8 YAML file")
        safe_yaml.check_events(text)  # bounds first: no alias bombs, no deep nesting
        root = yaml.compose(text, Loader=safe_yaml.LOADER)  # the nodes carry the lines
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ParseError(source, mark.line + 1 if mark else None, f"invalid YAML: {problem}") from exc
    read = _Reader(source)
    if root is None:
        raise ParseError(source, None, "empty file; expected a guide (id, title, laws, start, steps, rules)")
    top = read.mapping(root, "a guide", ("id", "title", "laws", "start", "steps", "rules"), ("scope",))
    guide_id = read.identifier(top["id"], "id")
    if guide_id != path.stem:
        raise read.fail(top["id"], f"id {guide_id!r} must be the file's name without .yml ({path.stem!r})")
    laws = tuple(read.ref(item, "laws entry") for item in read.sequence(top["laws"], "laws"))
    steps = _steps(read, top["steps"])
    rules = _rules(read, top["rules"])
    start = read.identifier(top["start"], "start")
    guide = Guide(
        id=guide_id,
        source=source,
        title=read.text(top["title"], "title"),
        scope=read.text(top["scope"], "scope") if "scope" in top else None,
        laws=laws,
        start=start,
        steps=steps,
        rules=rules,
    )
    _check_graph(read, guide, top)
    return guide


def _steps(read: _Reader, node) -> dict[str, Step]:
    if not isinstance(node, yaml.MappingNode) or not node.value:
        raise read.fail(node, "steps must be a mapping of step ids to steps")
    steps = {}
    for key, value in node.value:
        step_id = read.identifier(key, "step id")
        if step_id in steps:
            raise read.fail(key, f"step {step_id!r} is defined twice")
        what = f"step {step_id!r}"
        fields = read.mapping(value, what, ("question", "answers"), ("note", "see"))
        answers = []
        for number, item in enumerate(read.sequence(fields["answers"], f"{what} answers")):
            a_what = f"{what} answer {number + 1}"
            a_fields = read.mapping(item, a_what, ("label",), ("next", "rule"))
            if ("next" in a_fields) == ("rule" in a_fields):
                raise read.fail(item, f"{a_what} must have exactly one of 'next' (a step) or 'rule' (a rule)")
            answers.append(
                Answer(
                    label=read.text(a_fields["label"], f"{a_what} label"),
                    next=read.identifier(a_fields["next"], f"{a_what} next") if "next" in a_fields else None,
                    rule=read.identifier(a_fields["rule"], f"{a_what} rule") if "rule" in a_fields else None,
                    line=item.start_mark.line + 1,
                    target_line=a_fields.get("next", a_fields.get("rule")).start_mark.line + 1,
                )
            )
        if len(answers) < MIN_ANSWERS:
            raise read.fail(
                fields["answers"], f"{what} has {len(answers)} answer; a question has at least {MIN_ANSWERS}"
            )
        labels = [answer.label["en"] for answer in answers]
        if len(set(labels)) != len(labels):
            raise read.fail(fields["answers"], f"{what} has two answers with the same label")
        _check_one_answer_per_target(read, what, answers)
        see = (
            tuple(read.ref(item, f"{what} see") for item in read.sequence(fields["see"], f"{what} see"))
            if "see" in fields
            else ()
        )
        steps[step_id] = Step(
            step_id,
            read.text(fields["question"], f"{what} question"),
            tuple(answers),
            read.text(fields["note"], f"{what} note") if "note" in fields else None,
            see,
            key.start_mark.line + 1,
        )
    return steps


def _check_one_answer_per_target(read: _Reader, what: str, answers: list[Answer]) -> None:
    """A page's path names where each answer led (laws_site/read/guides.py): two answers of a step
    leading to one place would be one path, so they are one answer."""
    seen = set()
    for answer in answers:
        if answer.target in seen:
            raise ParseError(
                read.source, answer.target_line, f"{what} has two answers leading to {answer.target!r}; make them one"
            )
        seen.add(answer.target)


def _rules(read: _Reader, node) -> dict[str, Rule]:
    if not isinstance(node, yaml.MappingNode) or not node.value:
        raise read.fail(node, "rules must be a mapping of rule ids to rules")
    rules = {}
    for key, value in node.value:
        rule_id = read.identifier(key, "rule id")
        if rule_id in rules:
            raise read.fail(key, f"rule {rule_id!r} is defined twice")
        what = f"rule {rule_id!r}"
        fields = read.mapping(value, what, ("summary", "cite", "quote"), ("note", "options", "also", "guide"))
        citation = read.cited(fields, what)
        options = read.options(fields["options"], what) if "options" in fields else ()
        also = (
            tuple(
                read.citation(item, f"{what} also {n + 1}", "also")
                for n, item in enumerate(read.sequence(fields["also"], f"{what} also"))
            )
            if "also" in fields
            else ()
        )
        rules[rule_id] = Rule(
            id=rule_id,
            summary=read.text(fields["summary"], f"{what} summary"),
            citation=citation,
            note=read.text(fields["note"], f"{what} note") if "note" in fields else None,
            options=options,
            also=also,
            guide=read.identifier(fields["guide"], f"{what} guide") if "guide" in fields else None,
            guide_line=fields["guide"].start_mark.line + 1 if "guide" in fields else None,
            line=key.start_mark.line + 1,
        )
    return rules


# ---------------------------------------------------------------- the graph


def _check_graph(read: _Reader, guide: Guide, top: dict) -> None:
    """Every answer leads somewhere that exists, everything is reached from start, no cycle:
    then, as every step has answers, every path from start ends in a rule."""
    source = guide.source
    if not MIN_STEPS <= len(guide.steps) <= MAX_STEPS:
        raise read.fail(
            top["steps"],
            f"{len(guide.steps)} steps; a guide has {MIN_STEPS}-{MAX_STEPS} (split a longer flow into two guides)",
        )
    clash = sorted(set(guide.steps) & set(guide.rules))
    if clash:
        raise ParseError(source, guide.rules[clash[0]].line, f"{clash[0]!r} is both a step and a rule")
    if guide.start not in guide.steps:
        raise read.fail(top["start"], f"start {guide.start!r} is not a step")
    for step in guide.steps.values():
        for answer in step.answers:
            if answer.next is not None and answer.next not in guide.steps:
                raise ParseError(source, answer.target_line, f"step {step.id!r}: next {answer.next!r} is not a step")
            if answer.rule is not None and answer.rule not in guide.rules:
                raise ParseError(source, answer.target_line, f"step {step.id!r}: rule {answer.rule!r} is not a rule")
    _check_no_cycle(guide)
    reached = _reachable(guide)
    for step in guide.steps.values():
        if step.id not in reached:
            raise ParseError(source, step.line, f"step {step.id!r} is not reached from start {guide.start!r}")
    for rule in guide.rules.values():
        if rule.id not in reached:
            raise ParseError(source, rule.line, f"rule {rule.id!r} is not reached from start {guide.start!r}")


def _reachable(guide: Guide) -> set[str]:
    reached, todo = set(), [guide.start]
    while todo:
        step_id = todo.pop()
        if step_id in reached:
            continue
        reached.add(step_id)
        for answer in guide.steps[step_id].answers:
            if answer.rule is not None:
                reached.add(answer.rule)
            else:
                todo.append(answer.next)
    return reached


def _check_no_cycle(guide: Guide) -> None:
    """A ParseError at the answer that closes a cycle (iterative depth-first search, three colours)."""
    on_path, done = set(), set()
    for root in guide.steps:
        if root in done:
            continue
        stack = [(root, iter(guide.steps[root].answers))]
        on_path.add(root)
        while stack:
            step_id, answers = stack[-1]
            answer = next(answers, None)
            if answer is None:
                stack.pop()
                on_path.discard(step_id)
                done.add(step_id)
            elif answer.next is None or answer.next in done:
                continue
            elif answer.next in on_path:
                cycle = [s for s, _ in stack][[s for s, _ in stack].index(answer.next) :]
                raise ParseError(
                    guide.source,
                    answer.target_line,
                    f"cycle: {' -> '.join((*cycle, answer.next))}; every path must end in a rule",
                )
            else:
                on_path.add(answer.next)
                stack.append((answer.next, iter(guide.steps[answer.next].answers)))


# ---------------------------------------------------------------- against the Laws


def law_problems(guide: Guide, units: Mapping[str, object]) -> list[ParseError]:
    """Each problem of the guide against laws-2017-ja: ``units`` maps ref -> an object with ``text``
    and ``parent_ref``. A ``laws`` entry, a cite or a ``see`` ref that is not a unit; a quote that is
    not an exact substring of its unit's text; a cite outside every one of the guide's ``laws``
    (the cite itself or one of its ancestors must be listed)."""
    source, problems = guide.source, []
    listed = set()
    for ref, line in guide.laws:
        if ref in listed:
            problems.append(ParseError(source, line, f"laws lists {ref!r} twice"))
        listed.add(ref)
        if ref not in units:
            problems.append(ParseError(source, line, f"laws: {ref!r} is not a unit of {LAWS}"))
    for step in guide.steps.values():
        for ref, line in step.see:
            if ref not in units:
                problems.append(ParseError(source, line, f"step {step.id!r} see: {ref!r} is not a unit of {LAWS}"))
    for citation in guide.citations():
        unit = units.get(citation.cite)
        if unit is None:
            problems.append(ParseError(source, citation.line, f"cite {citation.cite!r} is not a unit of {LAWS}"))
            continue
        if citation.quote not in unit.text:
            problems.append(
                ParseError(
                    source,
                    citation.quote_line,
                    f"quote is not in the text of {citation.cite} as built: {citation.quote!r}",
                )
            )
        if not listed & set(ancestors(citation.cite, units)):
            problems.append(
                ParseError(
                    source, citation.line, f"cite {citation.cite!r} is outside the guide's laws {sorted(listed)}"
                )
            )
    return problems


def ancestors(ref: str, units: Mapping[str, object]) -> list[str]:
    """ref, its parent, its parent's parent... (a footnote's parent is the unit it annotates)."""
    chain = []
    while ref is not None and ref in units and ref not in chain:
        chain.append(ref)
        ref = units[ref].parent_ref
    return chain


def check_against_laws(guide: Guide, units: Mapping[str, object]) -> None:
    """The first of law_problems, raised."""
    problems = law_problems(guide, units)
    if problems:
        raise problems[0]


# ---------------------------------------------------------------- a directory of guides


def load_guides(directory: Path | str) -> list[Guide]:
    """Every ``*.yml`` guide in ``directory`` (by file name), each loaded, and the links between them
    checked: a rule's ``guide`` must name another guide of the directory."""
    guides = [load_guide(path) for path in sorted(Path(directory).glob("*.yml"))]
    ids = {guide.id for guide in guides}
    for guide in guides:
        for rule in guide.rules.values():
            if rule.guide is not None and (rule.guide not in ids or rule.guide == guide.id):
                raise ParseError(
                    guide.source,
                    rule.guide_line,
                    f"rule {rule.id!r}: guide {rule.guide!r} is not another guide in {directory}",
                )
    return guides


def units_from_rows(rows) -> dict[str, LawUnit]:
    """LawUnits by ref from (ref, parent_id, text) rows of laws.db's ``sections`` for the Laws in force."""
    return {
        ref: LawUnit(text or "", parent_id.split(":", 1)[1] if parent_id else None) for ref, parent_id, text in rows
    }
