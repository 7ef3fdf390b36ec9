"""What happened to each law's parts between the 1997 and the 2017 Laws, made at build: table ``law_changes``.

A law's own pair (2017 Law 25 is 1997 Law 25, reworded) hides what happened under it (Law 25: most
parts changed, five added, one removed). One row per law of each edition: the law's headline
relation and its parts counted by kind, with a sentence in each interface language
("revised: 9 parts changed, 6 added, 1 removed"). Parts are the law's rows of table provision_pairs
other than the law's own: for a 2017 law, the pairs that reach its units and the 1997 units of its
number that went nowhere; for a 1997 law, the pairs that leave its units and the 2017 units of its
number that no 1997 unit became (unless the 2017 law of that number is a new rule: 2017 Law 23).
``not_read`` counts the parts the build paired by its rule and nobody has read yet.
"""

from __future__ import annotations

LAW_CHANGE_COLUMNS = {
    "doc": str,
    "law": int,
    "headline": str,
    "same": int,
    "changed": int,
    "added": int,
    "removed": int,
    "not_in_source": int,
    "not_read": int,
    "summary": str,
    "summary_ja": str,
    "summary_zh": str,
}
KINDS = {
    "same": "same",
    "reworded": "changed",
    "moved": "changed",
    "split": "changed",
    "merged": "changed",
    "partial": "changed",
    "new": "added",
    "removed": "removed",
    "not_in_source": "not_in_source",
}
# each count in each language, in the order a reader wants them: what changed first
PHRASES = {
    "changed": {"en": "{} changed", "ja": "変更{}", "zh": "修改{}处"},
    "added": {"en": "{} added", "ja": "追加{}", "zh": "新增{}处"},
    "removed": {"en": "{} removed", "ja": "削除{}", "zh": "删除{}处"},
    "same": {"en": "{} the same", "ja": "同じ{}", "zh": "相同{}处"},
    "not_in_source": {
        "en": "{} with no 1997 text to compare",
        "ja": "1997年版の本文なし{}",
        "zh": "无1997年版条文{}处",
    },
}
HEADS = {
    "revised": {"en": "revised", "ja": "改訂", "zh": "修订"},
    "unchanged": {"en": "unchanged", "ja": "変更なし", "zh": "未改"},
    "new": {"en": "new in 2017", "ja": "2017年版で新設", "zh": "2017年版新增"},
    "removed": {"en": "removed in 2017", "ja": "2017年版で削除", "zh": "2017年版删除"},
    "moved": {"en": "moved", "ja": "移動", "zh": "移动"},
    "no_source": {
        "en": "no 1997 text in the corpus",
        "ja": "1997年版の本文はコーパスにない",
        "zh": "语料库中没有1997年版条文",
    },
}
JOIN = {"en": ", ", "ja": "、", "zh": "，"}
COLON = {"en": ": ", "ja": "：", "zh": "："}


def law_change_rows(pairs: list[dict], old_doc: str, new_doc: str) -> list[dict]:
    """Rows of table ``law_changes``: one per (document, law) of either edition."""
    new_laws = {row["to_law"] for row in pairs if row["to_law"] is not None}
    old_laws = {row["from_law"] for row in pairs if row["from_law"] is not None}
    rows = [law_row(new_doc, law, own_pair(pairs, "to", law), new_side(pairs, law)) for law in sorted(new_laws)]
    rows += [law_row(old_doc, law, own_pair(pairs, "from", law), old_side(pairs, law)) for law in sorted(old_laws)]
    return rows


def own_pair(pairs: list[dict], side: str, law: int) -> dict | None:
    return next((row for row in pairs if row[f"{side}_ref"] == str(law)), None)


def new_side(pairs: list[dict], law: int) -> list[dict]:
    """The parts of 2017 Law ``law``: pairs reaching its units, 1997 units of its number removed."""
    return [
        row
        for row in pairs
        if row["to_ref"] != str(law) and (row["to_law"] == law or (row["to_law"] is None and row["from_law"] == law))
    ]


def old_side(pairs: list[dict], law: int) -> list[dict]:
    """The parts of 1997 Law ``law``: pairs leaving its units, 2017 units of its number from nowhere
    (none when the 2017 law of that number is itself new: a different rule)."""
    reused = (own_pair(pairs, "to", law) or {}).get("relation") == "new"
    return [
        row
        for row in pairs
        if row["from_ref"] != str(law)
        and (row["from_law"] == law or (row["from_law"] is None and row["to_law"] == law and not reused))
    ]


def law_row(doc: str, law: int, own: dict | None, parts: list[dict]) -> dict:
    counts = {kind: 0 for kind in PHRASES}
    for row in parts:
        counts[KINDS[row["relation"]]] += 1
    headline = own["relation"] if own else None
    not_read = sum(1 for row in parts + ([own] if own else []) if row["basis"] != "reviewed")
    summary = {lang: sentence(headline, counts, lang) for lang in ("en", "ja", "zh")}
    return {
        "doc": doc,
        "law": law,
        "headline": headline,
        **counts,
        "not_read": not_read,
        "summary": summary["en"],
        "summary_ja": summary["ja"],
        "summary_zh": summary["zh"],
    }


def sentence(headline: str | None, counts: dict[str, int], lang: str) -> str:
    """ "revised: 9 parts changed, 6 added, 1 removed, 2 the same" in ``lang``."""
    if headline in ("new", "removed", "moved"):
        head = headline
    elif headline == "not_in_source":
        head = "no_source"
    elif counts["changed"] or counts["added"] or counts["removed"] or headline not in ("same", None):
        head = "revised"
    else:
        head = "unchanged"
    # (a law past the 1997 text: its parts have none either, which the head says already)
    shown = [(kind, n) for kind, n in counts.items() if n and not (head == "no_source" and kind == "not_in_source")]
    if not shown:
        return HEADS[head][lang]
    said = [PHRASES[kind][lang].format(n) for kind, n in shown]
    if lang == "en":  # the first count says what is counted: "9 parts changed", "1 part added"
        first = shown[0][1]
        said[0] = said[0].replace(f"{first} ", f"{first} {'part' if first == 1 else 'parts'} ", 1)
    return HEADS[head][lang] + COLON[lang] + JOIN[lang].join(said)
