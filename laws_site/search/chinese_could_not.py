"""A verb's result said not reached (没看清: did not make out) and said as could not be reached (看不清: could not make
out) tell the same situation: 20A's call not clearly heard or seen (「コールがはっきり認識できない場合」) is 没看清 and
看不清 alike, 没听清 and 听不清 alike, as a director says either. A reading the glossary or the vocabulary gives 没 +
a verb + its result is the reading of the verb + 不 + the result too, where that is no word of its own."""

from __future__ import annotations

NOT_REACHED = "没"
COULD_NOT = "不"
# the results a verb is said to reach or not (看清: see clearly, 轮到: come round to, 听见, 看懂, 打完, 排好, 叠成)
REACHED = ("清", "到", "见", "懂", "完", "好", "成")


def could_not_readings(costs: dict[str, int], table: dict[str, list[str]], is_verb, term_cost: int) -> None:
    """Adds to `table` (and the cut's `costs`) the could-not form of each 没 + one-character verb + result it reads
    (没看清 -> 看不清, 没轮到 -> 轮不到), at the cost of the term it comes from; `is_verb(character)` says whether a
    character is a verb. Called before the negated readings (没 + any verb), which say no result."""
    for key in [k for k in table if len(k) == 3 and k[0] == NOT_REACHED and is_verb(k[1]) and k[2] in REACHED]:
        said = key[1] + COULD_NOT + key[2]
        if said not in table and said not in costs:
            costs[said] = costs.get(key, term_cost)
            table[said] = list(table[key])
