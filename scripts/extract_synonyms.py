"""Make corpus/synonyms.csv: the SudachiDict synonym groups that hold a word the corpus uses.

SudachiDict's synonym source (src/main/text/synonyms.txt, Apache-2.0, Works Applications) has
~92,000 lines; search needs only the groups one of whose words occurs in the Japanese documents,
and of each group only what leads somewhere: its words (flag 2, "never expand", left out). The
file this writes keeps SudachiDict's group numbers, so each row can be traced back.

    .venv/bin/python -m scripts.extract_synonyms path/to/synonyms.txt --db laws.db --commit <SudachiDict commit>
"""

from __future__ import annotations

import argparse
import csv
import sqlite3
from collections import defaultdict
from pathlib import Path

from ingest.text import tokenize

ROOT = Path(__file__).resolve().parent.parent

HEADER = """# Synonyms the Laws never print, for search (ingest/search/expansions.py, kind `synonym`).
# A subset of SudachiDict's synonym dictionary, src/main/text/synonyms.txt at commit {commit}
# (https://github.com/WorksApplications/SudachiDict), Copyright (c) Works Applications Co., Ltd.,
# licensed under the Apache License, Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0).
# Changed: only groups holding a word the Japanese documents use; columns reduced to
# group number, expansion flag (0: expands, 1: is expanded to but never triggers), word, and added:
# the word's search tokens (ingest/text/tokenize.py query_terms with the pinned dictionary), so that the
# build need not tokenize them (tests/test_search_forgiving.py checks they still agree).
# Made by scripts/extract_synonyms.py; do not edit by hand.
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("synonyms", type=Path)
    parser.add_argument("--db", type=Path, default=ROOT / "laws.db")
    parser.add_argument("--commit", required=True)
    parser.add_argument("--out", type=Path, default=ROOT / "corpus" / "synonyms.csv")
    args = parser.parse_args()
    conn = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    words: set[str] = set()
    for title, text in conn.execute("select search_title, search_text from sections where lang = 'ja'"):
        words.update((title or "").split())
        words.update((text or "").split())
    groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
    with args.synonyms.open(encoding="utf-8", newline="") as handle:
        for fields in csv.reader(handle):
            if len(fields) < 9 or fields[2] == "2":
                continue
            groups[fields[0]].append((fields[2] or "0", fields[8]))
    kept = 0
    with args.out.open("w", encoding="utf-8", newline="") as out:
        out.write(HEADER.format(commit=args.commit))
        writer = csv.writer(out, lineterminator="\n")
        for group, members in groups.items():
            keys = {word: tokenize.query_terms(word, "ja") for _, word in members}
            used = [w for w in keys if keys[w] and set(keys[w]) <= words]
            if not used or len(used) == len(keys):
                continue  # nothing the corpus uses, or nothing it does not
            kept += 1
            for flag, word in dict.fromkeys(members):
                writer.writerow([group, flag, word, " ".join(keys[word])])
    print(f"{kept} groups -> {args.out}")


if __name__ == "__main__":
    main()
