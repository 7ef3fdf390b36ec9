"""Printed tables as structured tables, made once at build for the unit pages and their JSON.

The parsers keep what a table says: as tab- or pipe-separated lines of a unit's text (Law 2,
77 and 78B of the 2017 Laws, Law 2 of the 1997 page), as items carrying `cells` (the
regulations' articles 7, 8, 25 and 44), or as relational data tables (the regulations' VP
scales and handicap table, `ParsedDocument.tables`). This module turns each into one shape a
template can draw and a JSON reader can use:

    {"caption": str,
     "head": [[{"text": str, "span": int}, ...], ...],      header rows (a cell may span columns)
     "groups": [{"label": str | None, "rows": [{"cells": [str, ...], "ref": str | None}]}],
     "width": int}                                            columns of the widest row

A table made from text also says which characters of the unit's text it stands for
(`text_start`, `text_end`), so a page shows the table there instead of those lines.
Nothing here reads the database: units and data tables in, rows for `unit_tables` out.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ingest.parsers.records import Unit

TABLE_COLUMNS = {
    "id": str,
    "unit_id": str,
    "doc": str,
    "ref": str,
    "seq": int,
    "source": str,
    "caption": str,
    "text_start": int,
    "text_end": int,
    "data": str,
}

NUMERIC = re.compile(r"[-+−]?\d[\d,. ]*(?:[-–~]\s*\d[\d,. ]*)?(?:以上|点|[+-])?")
PROSE_END = ("。", "：", ":")
LIST_BULLETS = ("・", "○", "•")
SUITS = "♣◇♢♦♡♥♠"
# what a printed table with no header row is taken to list, by language (Law 77's premiums)
POINTS_HEADER = {"ja": "得点", "zh": "分"}


def table_rows(
    units: list[Unit], data_tables: dict[str, dict[str, list[dict]]], languages: dict[str, str]
) -> list[dict]:
    """Every table of every unit, as rows of `unit_tables` (data is the table as JSON)."""
    rows: list[dict] = []
    for unit in units:
        found = [(t, "text") for t in text_tables(unit.text, languages.get(unit.doc, "ja"))]
        found += [(t, f"data:{unit.attrs['table']}") for t in data_table(unit, data_tables.get(unit.doc, {}))]
        for seq, (table, source) in enumerate(found, start=1):
            rows.append(table_row(unit, seq, source, table))
    for parent, table in cell_item_tables(units):
        seq = 1 + sum(1 for r in rows if r["unit_id"] == parent.id)
        rows.append(table_row(parent, seq, "items", table))
    return rows


def table_row(unit: Unit, seq: int, source: str, table: dict) -> dict:
    table["numeric"] = numeric_columns(table)
    return {
        "id": f"{unit.id}#table-{seq}",
        "unit_id": unit.id,
        "doc": unit.doc,
        "ref": unit.ref,
        "seq": seq,
        "source": source,
        "caption": table["caption"],
        "text_start": table.pop("text_start", None),
        "text_end": table.pop("text_end", None),
        "data": json.dumps(table, ensure_ascii=False),
    }


def numeric_columns(table: dict) -> list[bool]:
    """Which columns hold only numbers (set right-aligned, on one line); the first never does."""
    rows = [r["cells"] for g in table["groups"] for r in g["rows"]]
    return [
        column > 0
        and all(is_numeric(r[column]) or not r[column] for r in rows if column < len(r))
        and any(column < len(r) and r[column] for r in rows)
        for column in range(table["width"])
    ]


# --- tables printed as lines of text ---------------------------------------------------------------


@dataclass
class Line:
    text: str
    start: int
    end: int

    @property
    def cells(self) -> list[str]:
        if "\t" in self.text:
            return [c.strip() for c in self.text.split("\t")]
        return [c.strip() for c in self.text.strip().strip("|").split("|")]

    @property
    def is_row(self) -> bool:
        return "\t" in self.text or self.text.count(" | ") >= 1

    @property
    def is_prose(self) -> bool:
        # a line holding a sentence is prose even when its last clause lacks the stop (a
        # commentary's 「…取り消す。…下記のとおり扱う」 before its table), and so is a bulleted
        # paragraph (○第47条E項1「…」): neither is a heading that names a table
        text = self.text.strip()
        return text.endswith(PROSE_END) or "。" in text or text.startswith(LIST_BULLETS)


@dataclass
class Building:
    """A table being read line by line."""

    caption_lines: list[str]
    first: Line
    caption_in_text: bool = False  # the caption repeats words the text keeps (a heading, a sentence)
    head: list[str] | None = None
    groups: list[dict] = field(default_factory=list)
    column_groups: list[str] = field(default_factory=list)  # a headerless table's sub-tables, side by side
    last: Line | None = None

    @property
    def width(self) -> int:
        widths = [len(self.head or [])] + [len(r["cells"]) for g in self.groups for r in g["rows"]]
        return max(widths)

    def add(self, cells: list[str], line: Line) -> None:
        if not self.groups:
            self.groups.append({"label": None, "rows": []})
        if self.head and len(self.head) < len(cells):  # a header printed over the value columns only
            self.head = [""] * (len(cells) - len(self.head)) + self.head
        self.groups[-1]["rows"].append({"cells": cells, "ref": None})
        self.last = line


def text_lines(text: str) -> list[Line]:
    lines, offset = [], 0
    for raw in text.split("\n"):
        lines.append(Line(raw, offset, offset + len(raw)))
        offset += len(raw) + 1
    return lines


def is_numeric(cell: str) -> bool:
    return bool(NUMERIC.fullmatch(cell.strip()))


def looks_like_header(cells: list[str]) -> bool:
    # a row set with a list bullet (・間違って教えた側 | 反則者) is an entry, not column titles
    return len(cells) > 1 and not any(is_numeric(c) for c in cells[1:] if c) and not cells[0].startswith(LIST_BULLETS)


def text_tables(text: str | None, language: str = "ja") -> list[dict]:
    """The tables printed in a unit's text as tab-separated or `a | b` lines.

    Lines between rows name what follows: over a header they group rows (Law 77's 「1 トリック目」),
    in a headerless table they are sub-tables set side by side (最初の / 以後の各オッドトリック).
    A sentence ends a table; the heading lines right before a table are its caption.
    """
    if not text or ("\t" not in text and " | " not in text):
        return []
    lines = text_lines(text)
    tables: list[dict] = []
    table: Building | None = None
    pending: list[Line] = []  # heading lines since the last sentence or row
    last_heading: str | None = None
    prose_before: list[str] = []
    for index, line in enumerate(lines):
        if not line.text.strip():
            continue
        if not line.is_row:
            if line.is_prose:
                if table:
                    tables.append(finish(table, language))
                    table = None
                prose_before.append(line.text)
                pending = []
            else:
                pending.append(line)
                last_heading = line.text.strip()
            continue
        cells = line.cells
        after_words = index > 0 and not lines[index - 1].is_row
        # rows after words continue the table when they fit it (or it has only its header so far)
        continues = table is not None and (not pending or not table.groups or len(cells) == table.width)
        if table is not None and looks_like_header(cells) and after_words:
            continues = False
        if table is not None and continues:
            if pending:
                label = " ".join(p.text.strip() for p in pending)
                if table.head:
                    table.groups.append({"label": label, "rows": []})
                else:
                    table.column_groups.append(label)
                    table.groups.append({"label": None, "rows": []})
            table.add(cells, line)
            pending = []
            continue
        if table is not None:
            tables.append(finish(table, language))
        captions = [p.text.strip() for p in pending]
        if not captions:
            captions = [last_heading] if last_heading else [last_sentence(prose_before)]
        table = Building(caption_lines=captions, first=pending[0] if pending else line, caption_in_text=not pending)
        if looks_like_header(cells) and (after_words or index == 0):
            table.head = cells
            table.last = line
        else:
            if pending:  # the last heading names this first block; a second block may stand beside it
                table.column_groups.append(captions[-1])
            table.add(cells, line)
        pending, last_heading = [], None
    if table:
        tables.append(finish(table, language))
    return tables


def last_sentence(prose: list[str]) -> str:
    text = "".join(prose).rstrip()
    for end in PROSE_END:
        text = text.removesuffix(end)
    return re.split(r"[。.]", text)[-1].strip()


def finish(table: Building, language: str) -> dict:
    caption_lines = list(table.caption_lines)
    groups = [g for g in table.groups if g["rows"]]
    head: list[dict] | None = None
    if table.head:
        head = [{"text": c, "span": 1} for c in split_suit(table.head)]
    elif len(table.column_groups) > 1 and same_row_labels(groups):
        # sub-tables with the same row labels read best side by side: one column per sub-table
        if caption_lines and caption_lines[-1] == table.column_groups[0]:
            caption_lines.pop()
        head = [{"text": "", "span": 1}] + [{"text": label, "span": 1} for label in table.column_groups]
        groups = [
            {
                "label": None,
                "rows": [
                    {"cells": [row["cells"][0]] + [g["rows"][n]["cells"][1] for g in groups], "ref": None}
                    for n, row in enumerate(groups[0]["rows"])
                ],
            }
        ]
    else:
        groups = [{"label": None, "rows": [r for g in groups for r in g["rows"]]}]
    if head is None:
        head = derived_head(groups, language)
    unfolded = unfold(head, groups)
    if unfolded:
        head, groups = unfolded
    width = max([sum(c["span"] for c in head)] + [len(r["cells"]) for g in groups for r in g["rows"]])
    return {
        "caption": " — ".join(c for c in caption_lines if c),
        "caption_in_text": table.caption_in_text,
        "head": [head],
        "groups": groups,
        "width": width,
        "text_start": table.first.start,
        "text_end": (table.last or table.first).end,
    }


def split_suit(head: list[str]) -> list[str]:
    """「トランプコントラクト ♣ | ◇ | ♡ | ♠」 over three value columns: the ♣ belongs with ◇.

    The PDF conversion glued the first suit to the row-label heading; clubs and diamonds share
    one column of values (20/40/80), hearts and spades one each.
    """
    first = head[0]
    if len(head) > 1 and len(first) > 2 and first[-1] in SUITS and first[-2] == " " and head[1] in SUITS:
        return [first[:-2].strip(), f"{first[-1]} {head[1]}"] + head[2:]
    return head


def same_row_labels(groups: list[dict]) -> bool:
    labels = [[r["cells"][0] for r in g["rows"]] for g in groups]
    return all(l == labels[0] for l in labels) and all(len(r["cells"]) == 2 for g in groups for r in g["rows"])


def derived_head(groups: list[dict], language: str) -> list[dict]:
    """A header for a table printed without one: a prefix its column shares (ボード No.), spanning
    the number columns that follow it; else what a label -> number list gives (得点)."""
    rows = [r["cells"] for g in groups for r in g["rows"]]
    width = max(len(r) for r in rows)
    head: list[dict] = [{"text": "", "span": 1}]
    column = 1
    while column < width:
        values = [r[column] for r in rows if column < len(r)]
        prefix = shared_prefix(values)
        if prefix:
            for r in rows:
                r[column] = r[column][len(prefix) :].strip()
            span = 1
            while column + span < width and all(is_numeric(r[column + span]) for r in rows if column + span < len(r)):
                span += 1
            head.append({"text": prefix.strip(), "span": span})
            column += span
            continue
        numeric = all(is_numeric(v) for v in values)
        head.append({"text": POINTS_HEADER.get(language, "") if numeric and width == 2 else "", "span": 1})
        column += 1
    return head


def shared_prefix(values: list[str]) -> str | None:
    """The words every value starts with before its number (「ボード No. 」 of 「ボード No. 1」)."""
    match = re.match(r"(\D+)\d", values[0]) if values else None
    if not match or len(values) < 2:
        return None
    prefix = match.group(1)
    return prefix if all(v.startswith(prefix) and is_numeric(v[len(prefix) :]) for v in values) else None


def unfold(head: list[dict], groups: list[dict]) -> tuple[list[dict], list[dict]] | None:
    """A narrow table printed three times side by side (78B: 得点差 IMP ×3) as one long table."""
    texts = [c["text"] for c in head]
    for size in range(2, len(texts) // 2 + 1):
        if len(texts) % size or any(texts[i] != texts[i % size] for i in range(len(texts))):
            continue
        rows = [r for g in groups for r in g["rows"]]
        columns = [
            [
                {"cells": r["cells"][k : k + size], "ref": None}
                for r in rows
                if len(r["cells"]) >= k + size and any(r["cells"][k : k + size])
            ]
            for k in range(0, len(texts), size)
        ]
        return head[:size], [{"label": None, "rows": [r for block in columns for r in block]}]
    return None


# --- tables parsed into relational data (the regulations' appendices) ------------------------------


def data_table(unit: Unit, tables: dict[str, list[dict]]) -> list[dict]:
    """The table a unit stands for (attrs.table names a data table), drawn as printed."""
    name = unit.attrs.get("table")
    if not isinstance(name, str) or name not in tables:
        return []
    rows = [r for r in tables[name] if r.get("table_ref", r.get("appendix")) == unit.ref]
    if not rows:
        return []
    maker = DATA_LAYOUTS.get(name)
    if maker is None:
        return []
    table = maker(rows)
    table.setdefault("caption", unit.title or rows[0].get("scale_title") or unit.ref)
    table["width"] = max(
        [sum(c["span"] for c in table["head"][-1])] + [len(r["cells"]) for g in table["groups"] for r in g["rows"]]
    )
    return [table]


def cell(text, span: int = 1) -> dict:
    return {"text": str(text), "span": span}


def span_text(low, high, open_mark: str = "-", digits: int | None = None) -> str:
    """`1-2`, `0` (low == high), `27+` / `72.14-` (no upper bound, as printed)."""
    show = (lambda v: f"{v:.{digits}f}") if digits is not None else (lambda v: str(v))
    if high is None or high == "":
        return f"{show(low)}{open_mark}"
    return show(low) if low == high else f"{show(low)}-{show(high)}"


def vp_pair(row: dict) -> str:
    return f"{row['vp_winner']:g}-{row['vp_loser']:g}"


def boards_label(row: dict) -> str:
    if "boards" in row:
        return str(row["boards"])
    low, high = row["boards_min"], row["boards_max"]
    return f"{low}+" if high in (None, "") else (str(low) if low == high else f"{low}-{high}")


def vp_scale(rows: list[dict]) -> dict:
    """WBF VP scales: one IMP margin per row, one column per number of boards (winner's VPs);
    the whole-number scale gives an IMP range per VP result instead."""
    boards = list(dict.fromkeys(boards_label(r) for r in rows))
    if all(r["imp_max"] is None or r["imp_min"] == r["imp_max"] for r in rows):
        by_imp: dict[int, dict[str, str]] = {}
        for r in rows:
            by_imp.setdefault(r["imp_min"], {})[boards_label(r)] = f"{r['vp_winner']:.2f}"
        body = [{"cells": [str(imp)] + [by_imp[imp].get(b, "") for b in boards], "ref": None} for imp in sorted(by_imp)]
        head = [[cell("IMPs \\ Boards")] + [cell(b) for b in boards]]
    else:
        by_vp: dict[str, dict[str, str]] = {}
        for r in rows:
            by_vp.setdefault(vp_pair(r), {})[boards_label(r)] = span_text(r["imp_min"], r["imp_max"], "+")
        body = [{"cells": [vp] + [cells.get(b, "") for b in boards], "ref": None} for vp, cells in by_vp.items()]
        head = [[cell("VPs \\ Boards")] + [cell(b) for b in boards]]
    return {"caption": rows[0]["scale_title"], "head": head, "groups": [{"label": None, "rows": body}]}


def vp_ranges(low: str, high: str, digits: int | None):
    def make(rows: list[dict]) -> dict:
        boards = list(dict.fromkeys(boards_label(r) for r in rows))
        by_vp: dict[str, dict[str, str]] = {}
        for r in rows:
            by_vp.setdefault(vp_pair(r), {})[boards_label(r)] = span_text(r[low], r[high], "-", digits)
        body = [{"cells": [vp] + [cells.get(b, "") for b in boards], "ref": None} for vp, cells in by_vp.items()]
        head = [[cell("VPs \\ Boards")] + [cell(b) for b in boards]]
        return {"caption": rows[0]["scale_title"], "head": head, "groups": [{"label": None, "rows": body}]}

    return make


def board_a_match_points(rows: list[dict]) -> dict:
    return {
        "caption": rows[0]["scale_title"],
        "head": [[cell("Result"), cell("Points")]],
        "groups": [{"label": None, "rows": [{"cells": [r["result"], str(r["points"])], "ref": None} for r in rows]}],
    }


def handicap(rows: list[dict]) -> dict:
    body = [{"cells": [span_text(r["sp_min"], r["sp_max"]), str(r["handicap"])], "ref": None} for r in rows]
    return {"head": [[cell("SP"), cell("HC")]], "groups": [{"label": None, "rows": body}]}


# the data tables the regulations parser writes, and how each is printed
DATA_LAYOUTS = {
    "vp_scales": vp_scale,
    "vp_scales_swiss_pairs": vp_ranges("pct_min", "pct_max", 2),
    "vp_scales_board_a_match": vp_ranges("points_min", "points_max", None),
    "board_a_match_points": board_a_match_points,
    "handicap": handicap,
}


# --- tables printed as numbered items with cells (regulations 7, 8, 25, 44) --------------------------


def cell_item_tables(units: list[Unit]) -> list[tuple[Unit, dict]]:
    """Runs of sibling items that each carry `cells`: one table on their parent, a row per item.

    A paragraph that itself carries cells (25-3: アベレージ / マッチポイント / ...) is the header.
    """
    by_ref = {(u.doc, u.ref): u for u in units}
    runs: dict[tuple[str, str, str], list[Unit]] = {}
    for unit in units:
        cells = unit.attrs.get("cells")
        if unit.kind == "item" and isinstance(cells, list) and unit.parent_ref:
            group = unit.ref.rsplit("-", 1)[0]
            runs.setdefault((unit.doc, unit.parent_ref, group), []).append(unit)
    tables = []
    for (doc, parent_ref, _group), items in runs.items():
        parent = by_ref.get((doc, parent_ref))
        if parent is None or len(items) < 2:
            continue
        header_cells = parent.attrs.get("cells")
        width = max(len(i.attrs["cells"]) for i in items)
        if isinstance(header_cells, list) and len(header_cells) == width:
            head = [cell(c) for c in header_cells]
        else:
            head = [cell("")] * width
        body = [
            {"cells": [str(c) for c in item.attrs["cells"]], "ref": item.ref, "label": item.attrs.get("label")}
            for item in items
        ]
        caption = parent.title or (parent.text.split("。")[0] if parent.text else parent.ref)
        tables.append(
            (parent, {"caption": caption, "head": [head], "groups": [{"label": None, "rows": body}], "width": width})
        )
    return tables
