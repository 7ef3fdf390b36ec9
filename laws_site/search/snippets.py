"""Snippets: a window of a unit's own text around the first match, the matches marked, placed from
the token offsets the build stored (table search_offsets) so that no result is tokenized again."""

from __future__ import annotations

from ingest.search.leads import SNIPPET_CHARS  # the build fills a heading's lead to it


def snippet(text: str, spans: list[tuple[int, int]]) -> list[dict]:
    """A window of the original text around the first match as [{"text", "mark"}] spans: the
    marked ones are the matches. Templates and the CLI render them; nothing here is markup."""
    start = max(0, spans[0][0] - SNIPPET_CHARS // 3) if spans else 0
    end = min(len(text), start + SNIPPET_CHARS)
    parts: list[dict] = []
    plain, cursor = ("…" if start > 0 else ""), start
    for begin, finish in spans:
        if begin < cursor or finish > end:
            continue
        plain += text[cursor:begin]
        if plain:
            parts.append({"text": plain.replace("\n", " "), "mark": False})
        parts.append({"text": text[begin:finish].replace("\n", " "), "mark": True})
        plain, cursor = "", finish
    plain += text[cursor:end] + ("…" if end < len(text) else "")
    if plain:
        parts.append({"text": plain.replace("\n", " "), "mark": False})
    return parts


def snippet_text(spans: list[dict], before: str = "", after: str = "") -> str:
    """The snippet as plain text, the marked spans wrapped in `before`/`after` (the CLI's 【】)."""
    return "".join(before + s["text"] + after if s["mark"] else s["text"] for s in spans)


def match_spans(tokens: str, offsets, wanted: set[str]) -> list[tuple[int, int]]:
    """Where the wanted tokens lie, from the stored tokens and their offsets (a flat array as
    stored, or (begin, end) pairs), merged and in order."""
    if not wanted:
        return []
    if offsets and not isinstance(offsets[0], tuple):
        return padded_spans(" " + tokens + " ", offsets, wanted)
    spans = {span for token, span in zip(tokens.split(), offsets) if token in wanted}
    return merge_spans(sorted(spans))


def padded_spans(padded: str, offsets, wanted) -> list[tuple[int, int]]:
    """match_spans on tokens with a space before and after and their flat offsets array: find
    " word " in the token string and count the spaces before it (both in C), no list made."""
    if not wanted:
        return []
    spans = set()
    for word in wanted:
        needle = " " + word + " "
        at = padded.find(needle)
        i = counted = 0
        while at >= 0:
            i += padded.count(" ", counted, at)  # tokens before this one (counted on from the last)
            counted = at
            spans.add((offsets[2 * i], offsets[2 * i + 1]))
            at = padded.find(needle, at + 1)
    return merge_spans(sorted(spans))


def merge_spans(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for begin, end in spans:
        if merged and begin <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((begin, end))
    return merged
