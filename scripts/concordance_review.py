"""What a reading of the edition concordance changed: each 1997 -> 2017 pair the build's rule had made
(basis content/number) in one build, and what the reading recorded in corpus/concordance.yml made of it in
another, both over the same corpus texts. Issue 37's note takes its review counts from here:

    cp -r corpus /tmp/before && git show adec05e:corpus/concordance.yml > /tmp/before/concordance.yml
    bridge-laws build --no-offline --corpus /tmp/before --db /tmp/before.db
    python scripts/concordance_review.py /tmp/before.db laws.db

(adec05e: the concordance before issue 37's reading; its rule made 99 same, 97 reworded and 101 new pairs
in Laws 1-52.) A 1997 unit's pair is followed by its 1997 ref, a 2017 unit the rule called new by its 2017
ref; the rule's pairs past the point where the 1997 text stops (52B...) had no text to read and are counted
apart.
"""

from __future__ import annotations

import sqlite3
import sys
from collections import Counter

LAST_LAW_READ = 52  # corpus/concordance.yml provisions.reviewed.laws: "1-52"


def read_only(path: str) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def rule_pairs(conn: sqlite3.Connection) -> list[tuple]:
    return conn.execute(
        """select from_ref, to_ref, relation from provision_pairs
           where basis != 'reviewed' and coalesce(from_law, to_law) <= ? order by position""",
        (LAST_LAW_READ,),
    ).fetchall()


def outcomes(before: sqlite3.Connection, after: sqlite3.Connection) -> tuple[Counter, list[tuple]]:
    """(rule's relation, relation as read) -> count; the pairs still not read."""
    by_old: dict[str, list[tuple]] = {}
    by_new: dict[str, list[tuple]] = {}
    for old, new, relation, basis, source in after.execute(
        "select from_ref, to_ref, relation, basis, source_ref from provision_pairs"
    ):
        if old:
            by_old.setdefault(old, []).append((new, relation, basis, source))
        if new:
            by_new.setdefault(new, []).append((old, relation, basis, source))
    counted: Counter = Counter()
    unread = []
    for old, new, relation in rule_pairs(before):
        if relation == "not_in_source":
            counted[(relation, "no 1997 text to read")] += 1
            continue
        now = by_old[old] if old else by_new[new]
        if any(basis != "reviewed" for _ref, _relation, basis, _source in now):
            unread.append((old, new))
        if old:
            same_target = [row for row in now if row[0] == new]
            read_as = same_target[0][1] if same_target else "/".join(sorted({row[1] for row in now})) + " elsewhere"
        else:
            read_as = now[0][1] + (" (its 1997 source named)" if now[0][3] else "")
        counted[(relation, read_as)] += 1
    return counted, unread


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    before, after = (read_only(path) for path in argv)
    counted, unread = outcomes(before, after)
    rule = Counter(relation for _old, _new, relation in rule_pairs(before))
    print(f"pairs the build's rule had made, Laws 1-{LAST_LAW_READ}: {dict(rule)}")
    readable = sum(n for (was, _now), n in counted.items() if was != "not_in_source")
    print(f"re-read: {readable}; still not read: {len(unread)}")
    for (was, now), n in sorted(counted.items()):
        print(f"  {was:13} -> {now:34} {n:4}{'  (stands)' if was == now else ''}")
    changed = sum(n for (was, now), n in counted.items() if was != now and was != "not_in_source")
    print(f"relations changed by the reading: {changed}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
