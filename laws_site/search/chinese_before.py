"""A verb said not done (没叫裁判: did not call the director) is, in a director's account, what was done before it
(没叫裁判自己就接着打: played on before calling), and the Laws rule that as an act "before" (11A
「ディレクターを呼ぶ前に非反則側のどちらかが何か行動を起こした場合」, 9B1(c) 「ディレクターを呼ぶ前に」): 没 + the
verb reads the verb + 前 first, where the Laws print the verb's last word before 前, and the verb itself after."""

from __future__ import annotations

import sqlite3

from ingest.text import tokenize

BEFORE = "前"
NOT_YET = ("没", "没有", "还没")
VERB_ENDINGS = tuple("うくぐすつぬぶむる")  # a verb's dictionary form (呼ぶ, 為る), no noun (コール: no コール前)


def words_before(conn: sqlite3.Connection, current_laws: str) -> frozenset[str]:
    """The index's words the current Laws print right before 前 (呼ぶ of 呼ぶ前に, 為る of コールする前に)."""
    found = set()
    for (text,) in conn.execute("select coalesce(search_text, '') from sections where doc = ?", [current_laws]):
        words = text.split()
        found.update(word for word, following in zip(words, words[1:]) if following == BEFORE)
    return frozenset(found)


def before_readings(
    conn: sqlite3.Connection,
    current_laws: str,
    costs: dict[str, int],
    table: dict[str, list[str]],
    telling,
    unknown_cost: int,
) -> None:
    """没 + a term whose reading is a verb the Laws print before 前: one word, as costly as the two, reading the
    verb + 前 first (没叫裁判: ディレクターを呼ぶ前, ディレクターを呼ぶ). A word already read negated keeps that; a
    rare verb's stays two words (costlier than `unknown_cost`, the cut's cost of a character no word holds)."""
    before = words_before(conn, current_laws)
    for word in [key for key in table if key in costs and tokenize.HAN_RE.search(key) and len(key) > 1]:
        verbs = [
            japanese
            for japanese in table[word]
            if japanese.endswith(VERB_ENDINGS) and telling.terms(japanese) and telling.terms(japanese)[-1] in before
        ]
        if not verbs:
            continue
        for negation in NOT_YET:
            joined = costs.get(negation, unknown_cost) + costs[word]
            if negation + word not in costs and joined < unknown_cost:
                costs[negation + word] = joined
                table[negation + word] = [verbs[0] + BEFORE, *table[word]]
