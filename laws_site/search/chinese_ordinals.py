"""An ordinal a director says with 第 (第二次 the second time, 第五张 the fifth card, 第十二墩 the twelfth trick),
read as the Laws print an ordinal: in digits with the counter and 目 (64B2 「2回目以降のリボーク」, 45E1 「5枚目の
カード」, 45D2 「トリックの1枚目のカード」, 62D 「12トリック目のリボーク」). Without this 第五张 read as the count 5枚
(five cards) and 第二次 as nothing at all."""

from __future__ import annotations

from laws_site.search.chinese import COUNTED_NUMBERS, COUNTS

ORDINAL_MARK = "第"
ORDINAL_SUFFIX = "目"
# from one (第一张 is the first card, 45D2), then chinese.py's counts (two to fourteen)
ORDINAL_NUMBERS = ("一", *COUNTED_NUMBERS)
ORDINAL_VALUES = (1, *COUNTS)
# the counters the Laws print an ordinal with: cards (枚目), tricks (トリック目), times (回目: 次 "time")
ORDINAL_COUNTERS = {"张": "枚", "墩": "トリック", "次": "回"}


def chinese_ordinals() -> dict[str, str]:
    """{an ordinal as a director says it (第五张): as the Laws print it (5枚目)}."""
    return {
        ORDINAL_MARK + number + measure: f"{value}{counter}{ORDINAL_SUFFIX}"
        for number, value in zip(ORDINAL_NUMBERS, ORDINAL_VALUES)
        for measure, counter in ORDINAL_COUNTERS.items()
    }
