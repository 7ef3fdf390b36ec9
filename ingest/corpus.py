"""Read the corpus: the sources manifest, the verbatim texts and the errata applied to them."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from .records import ParseError

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent / "corpus"
# libyaml's loader when present: the pure-Python one is a tenth of the build's time
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path | str):
    """A YAML data file of the corpus (manifest, errata, variants, glossary, concordance), read once
    per build however many steps ask (callers read it, never change it)."""
    path = Path(path)
    stat = path.stat()
    return _parsed_yaml(path.resolve(), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=64)
def _parsed_yaml(path: Path, mtime_ns: int, size: int):
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_YAML_LOADER)


MANIFEST_FIELDS = ("id", "title", "language", "edition", "version_date", "publisher", "copyright", "kind", "file",
                   "parser")


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
    try:
        data = read_yaml(manifest) or {}
    except yaml.YAMLError as exc:
        line = getattr(getattr(exc, "problem_mark", None), "line", None)
        raise ParseError(str(manifest), line + 1 if line is not None else None, f"invalid YAML: {exc}") from exc
    entries = data.get("documents")
    if not isinstance(entries, list) or not entries:
        raise ParseError(str(manifest), None, "expected a non-empty 'documents:' list")
    for entry in entries:
        missing = [f for f in MANIFEST_FIELDS if not entry.get(f)]
        if missing:
            raise ParseError(str(manifest), None, f"entry {entry.get('id', '?')!r} lacks {', '.join(missing)}")
    return entries


def read_text(path: Path) -> str:
    """The file as UTF-8, or a ParseError naming the first undecodable line."""
    if not path.exists():
        raise ParseError(str(path), None, "file named in sources.yml does not exist")
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ParseError(str(path), line, f"not UTF-8 (byte 0x{raw[exc.start]:02x}); expected a UTF-8 text") from exc
    if not text.strip():
        raise ParseError(str(path), None, "file is empty; expected the document's text")
    return text.replace("\r\n", "\n")


def load_errata(corpus_dir: Path, doc_id: str) -> list[dict]:
    """Fixes for one document, from ``errata/<doc-id>.yml`` (one file per document)."""
    return [dict(fix, doc=doc_id) for fix in errata_section(corpus_dir, doc_id, "errata")]


def errata_section(corpus_dir: Path, doc_id: str, key: str) -> list[dict]:
    """One list of ``errata/<doc-id>.yml``: ``errata`` (the fixes), ``as_printed`` (spans reviewed
    and kept as printed, with why), ``not_kept`` (source lines no unit keeps, with why)."""
    path = Path(corpus_dir) / "errata" / f"{doc_id}.yml"
    if not path.exists():
        return []
    return list((read_yaml(path) or {}).get(key) or [])


def apply_errata(doc_id: str, text: str, errata: list[dict], source: str) -> str:
    """Apply each fix for this document on its line; a fix that no longer matches is an error."""
    lines = text.split("\n")
    for fix in errata:
        if fix.get("doc") != doc_id:
            continue
        if not fix.get("reason"):
            raise ParseError(source, fix.get("line"), "erratum without a reason")
        n = int(fix["line"])
        if not (1 <= n <= len(lines)) or fix["find"] not in lines[n - 1]:
            raise ParseError(source, n, f"erratum does not match: expected {fix['find']!r} on this line")
        lines[n - 1] = lines[n - 1].replace(fix["find"], fix.get("replace", ""), 1)
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
