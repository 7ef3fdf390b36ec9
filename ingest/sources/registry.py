"""The one document registry: what each document is, read from corpus/sources.yml.

Every module asks here which document plays which part (the current Laws, an earlier edition, a
commentary and the Laws it reprints, the regulations); no other module spells a document id. The
build writes these fields to table ``documents``, from which the read side loads the same registry
(``Registry.from_rows``), so serving never opens corpus/.
"""

from __future__ import annotations

from dataclasses import dataclass

ROLES = ("laws", "commentary", "regulations")
LANGUAGES = ("ja", "zh")


class RegistryError(ValueError):
    """Rows that are not documents (a partial or foreign `documents` table): names what is missing."""


REQUIRED_FIELDS = ("id", "language")


@dataclass(frozen=True)
class Document:
    id: str
    language: str  # ja | zh
    role: str  # laws | commentary | regulations (column `kind` of table documents)
    edition: str
    version_date: str
    parser: str  # the ingest module that parses it: ingest.<parser>.parse(text, doc, source)
    comments_on: str | None = None  # a commentary's or the regulations' Laws: what it reprints or cites
    title: str = ""
    short_title: str = ""  # for navigation: 規則 2017


@dataclass(frozen=True)
class Registry:
    documents: tuple[Document, ...]

    @classmethod
    def from_rows(cls, rows) -> "Registry":
        """From manifest entries or `documents` rows (dicts or sqlite3.Row); `kind` is the role."""
        documents = []
        for row in rows:
            row = dict(row)
            missing = [f for f in REQUIRED_FIELDS if not row.get(f)] + (
                [] if row.get("role") or row.get("kind") else ["kind"]
            )
            if missing:
                raise RegistryError(
                    f"document {row.get('id')!r} has no {', '.join(missing)}: not a bridge-laws documents table"
                )
            documents.append(
                Document(
                    id=row["id"],
                    language=row["language"],
                    role=row.get("role") or row["kind"],
                    edition=str(row.get("edition") or ""),
                    version_date=str(row.get("version_date") or ""),
                    parser=row.get("parser") or "",
                    comments_on=row.get("comments_on") or None,
                    title=row.get("title") or "",
                    short_title=row.get("short_title") or "",
                )
            )
        return cls(tuple(documents))

    @property
    def ids(self) -> list[str]:
        return [d.id for d in self.documents]

    def get(self, doc_id: str | None) -> Document | None:
        return next((d for d in self.documents if d.id == doc_id), None)

    def of_role(self, role: str) -> list[Document]:
        return [d for d in self.documents if d.role == role]

    @property
    def laws(self) -> list[Document]:
        """Every edition of the Laws, newest first."""
        return sorted(self.of_role("laws"), key=lambda d: d.edition, reverse=True)

    @property
    def current_laws(self) -> Document | None:
        """The edition in force: the one every commentary and the index cite (laws-2017-ja)."""
        return self.laws[0] if self.laws else None

    @property
    def earlier_laws(self) -> list[Document]:
        return self.laws[1:]

    @property
    def commentaries(self) -> list[Document]:
        return self.of_role("commentary")

    @property
    def regulations(self) -> Document | None:
        found = self.of_role("regulations")
        return found[0] if found else None

    def laws_in(self, language: str) -> Document | None:
        """The newest Laws edition in a language (ja: 2017, zh: 1997)."""
        return next((d for d in self.laws if d.language == language), None)

    def diff_pairs(self) -> list[tuple[str, str]]:
        """The comparisons the site offers: each commentary's reprints against the Laws they quote,
        and each earlier edition against the current one."""
        current = self.current_laws
        pairs = [(c.id, c.comments_on) for c in self.commentaries if c.comments_on]
        pairs += [(old.id, current.id) for old in self.earlier_laws] if current else []
        return pairs
