"""Read the corpus: the sources manifest, the verbatim texts and the errata applied to them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ingest.parsers.records import ParseError

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "corpus"


def read_yaml(path: Path | str):
    """A YAML data file of the corpus (manifest, errata, variants, glossary, concordance), read once
    per build however many steps ask (callers read it, never change it). Bad YAML, YAML out of
    bounds (ingest/sources/safe_yaml.py) or a file of the wrong shape (ingest/sources/shapes.py) is a
    ParseError naming the file and line."""
    return parsed_yaml(*cache_key(Path(path)))


def read_every_yaml(corpus_dir: Path) -> None:
    """Read (and so check) every YAML file of the corpus before any parsing: a damaged file stops the
    build at once, not after the documents are parsed; the steps that use a file later read it from
    read_yaml's cache."""
    for path in sorted(Path(corpus_dir).rglob("*.yml")):
        read_yaml(path)


def cache_key(path: Path) -> tuple[Path, int, int]:
    """A file as the caches below know it: its real path, modification time and size."""
    stat = regular_file(path).stat()
    return path.resolve(), stat.st_mtime_ns, stat.st_size


@lru_cache(maxsize=64)
def parsed_yaml(path: Path, mtime_ns: int, size: int):
    from ingest.sources.shapes import SHAPES, check_shape

    data, node = parse_yaml(path)
    check_shape(str(path), node, SHAPES.get(path.name))
    return data


def parse_yaml(path: Path):
    """(data, root node) of a corpus YAML file, or a ParseError naming file and line."""
    import yaml

    from ingest.sources import safe_yaml

    try:
        return safe_yaml.load_with_node(utf8_text(path, "a UTF-8 YAML file"))
    except yaml.YAMLError as exc:
        raise yaml_error(path, exc) from exc
    except (ValueError, RecursionError) as exc:  # a value the constructor refuses (safe_yaml bounds the known ones)
        raise ParseError(str(path), None, f"invalid YAML value: {str(exc).splitlines()[0][:200]}") from exc


def regular_file(path: Path) -> Path:
    """path, if it is a regular file: a FIFO would block the build, a device is nothing to read."""
    if path.exists() and not path.is_file():
        raise ParseError(str(path), None, "not a regular file; expected a text file")
    return path


MANIFEST_FIELDS = (
    "id",
    "title",
    "language",
    "edition",
    "version_date",
    "publisher",
    "copyright",
    "kind",
    "file",
    "parser",
)


@dataclass
class Source:
    """One manifest entry plus its text (errata applied)."""

    id: str
    title: str
    language: str
    edition: str
    version_date: str
    publisher: str
    copyright: str
    kind: str
    file: str
    parser: str
    path: Path
    text: str
    meta: dict

    @property
    def name(self) -> str:
        """How error messages name the file."""
        return str(self.path)


def load_manifest(corpus_dir: Path) -> list[dict]:
    manifest = Path(corpus_dir) / "sources.yml"
    if not manifest.exists():
        raise ParseError(str(manifest), None, "sources manifest not found")
    entries = read_yaml(manifest)["documents"]
    if not entries:
        raise ParseError(str(manifest), None, "expected a non-empty 'documents:' list")
    seen = set()
    for entry in entries:
        missing = [f for f in MANIFEST_FIELDS if not entry.get(f)]
        if missing:
            raise ParseError(str(manifest), None, f"entry {entry.get('id', '?')!r} lacks {', '.join(missing)}")
        structured = [f for f, value in entry.items() if isinstance(value, (list, dict))]
        if structured:
            raise ParseError(
                str(manifest),
                None,
                f"entry {entry['id']!r}: {', '.join(map(str, structured))} "
                f"must be a single value, not a list or mapping",
            )
        if entry["id"] in seen:
            raise ParseError(str(manifest), None, f"document id {entry['id']!r} is listed twice")
        seen.add(entry["id"])
        file = Path(str(entry["file"]))
        if file.is_absolute() or ".." in file.parts:
            raise ParseError(
                str(manifest),
                None,
                f"entry {entry['id']!r}: file {str(file)!r} must be a path inside the corpus directory",
            )
    return entries


def read_text(path: Path) -> str:
    """The file as UTF-8, or a ParseError naming the first undecodable line."""
    if not path.exists():
        raise ParseError(str(path), None, "file named in sources.yml does not exist")
    text = utf8_text(regular_file(path), "a UTF-8 text")
    if not text.strip():
        raise ParseError(str(path), None, "file is empty; expected the document's text")
    return text.replace("\r\n", "\n")


def tab_separated_lines(path: Path) -> list[tuple[int, str, list[str]]]:
    """A corpus table kept as text (corpus/neighbours.tsv, english_lexicon.tsv): (line number, line, its
    tab-separated fields) of every line but blank ones and `#` comments; [] when the file is absent."""
    if not path.exists():
        return []
    return [
        (number, line, line.split("\t"))
        for number, line in enumerate(read_text(path).splitlines(), start=1)
        if line.strip() and not line.startswith("#")
    ]


def utf8_text(path: Path, expected: str) -> str:
    """The file decoded as UTF-8, or a ParseError naming the line of its first undecodable byte."""
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ParseError(str(path), line, f"not UTF-8 (byte 0x{raw[exc.start]:02x}); expected {expected}") from exc


def yaml_error(path: Path, exc: Exception) -> ParseError:
    """The ParseError of a yaml.YAMLError: the file, the line it marks, its problem."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    return ParseError(str(path), mark.line + 1 if mark is not None else None, f"invalid YAML: {problem}")


def load_errata(corpus_dir: Path, doc_id: str) -> list[dict]:
    """Fixes for one document, from ``errata/<doc-id>.yml`` (one file per document). Each fix keeps
    where it was written (``_file``, ``_line``) so a fix that is wrong is reported there."""
    path, data, lines = errata_file(corpus_dir, doc_id)
    errata = []
    for fix, line in zip(data.get("errata") or [], lines):
        if not isinstance(fix, dict):
            raise ParseError(str(path), line, "each erratum is a mapping with line, find, replace and reason")
        errata.append(dict(fix, doc=doc_id, _file=str(path), _line=line))
    return errata


def errata_section(corpus_dir: Path, doc_id: str, key: str) -> list[dict]:
    """Another list of ``errata/<doc-id>.yml``: ``as_printed`` (spans reviewed and kept as printed,
    with why), ``not_kept`` (source lines no unit keeps, with why)."""
    return list(errata_file(corpus_dir, doc_id)[1].get(key) or [])


def errata_file(corpus_dir: Path, doc_id: str) -> tuple[Path, dict, list[int | None]]:
    """``errata/<doc-id>.yml`` (its path, its mapping, the line each ``errata:`` entry starts on),
    parsed once per version of the file however many steps of a build ask; ({}, []) if none."""
    path = Path(corpus_dir) / "errata" / f"{doc_id}.yml"
    if not path.exists():
        return path, {}, []
    return (path, *parsed_errata(*cache_key(path)))


@lru_cache(maxsize=16)
def parsed_errata(path: Path, mtime_ns: int, size: int) -> tuple[dict, list[int | None]]:
    from ingest.sources.shapes import ERRATA, check_shape

    data, node = parse_yaml(path)  # the nodes carry the line numbers, the data is built from them
    check_shape(str(path), node, ERRATA)
    return data, entry_lines(node, len(data.get("errata") or []))


def entry_lines(node, count: int) -> list[int | None]:
    """The line each item of the top-level `errata:` list starts on (1-based)."""
    import yaml

    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if getattr(key, "value", None) == "errata" and isinstance(value, yaml.SequenceNode):
                return [item.start_mark.line + 1 for item in value.value]
    return [None] * count


def apply_errata(doc_id: str, text: str, errata: list[dict], source: str) -> str:
    """Apply each fix for this document on its line; a fix that no longer matches is an error.
    A malformed fix (no reason, no find, a line that is not a number) is reported in the errata
    file at the fix; one that does not match is reported in the text at its line."""
    lines = text.split("\n")
    for fix in errata:
        if fix.get("doc") != doc_id:
            continue
        where, at = fix.get("_file", source), fix.get("_line")
        if not fix.get("reason"):
            raise ParseError(where, at, "erratum without a reason")
        if not isinstance(fix.get("find"), str) or not fix["find"]:
            raise ParseError(where, at, "erratum without 'find': the text to replace, as a string")
        if "replace" in fix and not isinstance(fix["replace"], (str, type(None))):
            raise ParseError(where, at, "'replace' must be a string")
        line = fix.get("line")
        if isinstance(line, bool) or not isinstance(line, int):
            raise ParseError(where, at, f"'line' must be a line number of {source}, not {line!r}")
        if not 1 <= line <= len(lines):
            raise ParseError(where, at, f"'line' {line} is outside {source} (1-{len(lines)})")
        if fix["find"] not in lines[line - 1]:
            raise ParseError(
                source, line, f"erratum does not match: expected {fix['find']!r} on this line (erratum at {where}:{at})"
            )
        lines[line - 1] = lines[line - 1].replace(fix["find"], fix.get("replace") or "", 1)
    return "\n".join(lines)


def load_sources(corpus_dir: Path | str = DEFAULT_CORPUS, errata: bool = True) -> list[Source]:
    """Every document of the manifest; ``errata=False`` gives the texts verbatim (the text checker
    reviews what the conversion produced)."""
    corpus_dir = Path(corpus_dir)
    sources = []
    for entry in load_manifest(corpus_dir):
        path = corpus_dir / entry["file"]
        fixes = load_errata(corpus_dir, entry["id"]) if errata else []
        text = apply_errata(entry["id"], read_text(path), fixes, str(path))
        fields = {f: str(entry[f]) for f in MANIFEST_FIELDS}
        sources.append(Source(**fields, path=path, text=text, meta=dict(entry)))
    return sources
