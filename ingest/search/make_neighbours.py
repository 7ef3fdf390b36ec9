"""Make corpus/neighbours.tsv: for Japanese words the corpus never prints, the corpus words nearest in
meaning (issue 36, item 1: 躊躇い -> 躊躇, 落とす -> ...), from word vectors, at build time only.

The vectors are chiVe's (Works Applications, Apache-2.0) as GiNZA's `ja-ginza` package ships them
(MIT; 20,000 vectors of 300 dimensions, 480,443 keys: SudachiPy's normalised forms, most frequent
first; a key past the 20,000th shares the vector of the kept word nearest to it). Search reads the
table this writes, never the model: install the model in a virtual environment of its own (it pins
another SudachiPy than the project's), build laws.db, then run

    python3 -m venv .venv-neighbours && .venv-neighbours/bin/pip install ja-ginza==5.3.0
    .venv/bin/bridge-laws build --no-offline
    .venv-neighbours/bin/python -m ingest.search.make_neighbours --db laws.db

A key is a content word (noun, verb, adjective, adverb, adjectival noun; no proper noun) that SudachiPy
reads as one word with that normalised form, written in kana and kanji, that no Japanese unit prints;
its neighbours are the content words of the corpus (table search_lexicon: neither dropped nor light)
whose vectors' cosine with its vector is at least --min-similarity, the nearest --per-word. The same
model, corpus and options give the same file.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sqlite3
from importlib.metadata import version
from pathlib import Path

import numpy
from spacy.vocab import Vocab
from sudachipy import Dictionary, SplitMode

ROOT = Path(__file__).resolve().parents[2]
KEY_RE = re.compile(r"[\u3041-\u309f\u30a1-\u30ff\u3400-\u9fffー々]{2,8}")
TARGET_RE = re.compile(r"[\u3041-\u309f\u30a1-\u30ff\u3400-\u9fffー々]{1,8}")
KEPT_VECTORS = 20_000  # the model's keys past these share the vector of the kept word nearest to them
BLOCK = 1024  # vectors compared at once
CONTENT_POS = {("名詞", "普通名詞"), ("動詞", "一般"), ("形容詞", "一般"), ("副詞", ""), ("形状詞", "一般")}
HEADER = """# Corpus words nearest in meaning to words the corpus never prints, for search (issue 36, item 1):
# a situation told in everyday words (ためらい, 落とした) reaches the words the Laws print.
# Made by python -m ingest.search.make_neighbours from the word vectors of chiVe (https://github.com/WorksApplications/chiVe,
# Copyright (c) Works Applications Co., Ltd., Apache License 2.0) as shipped in GiNZA's ja-ginza {version}
# (https://github.com/megagonlabs/ginza, MIT License); keys are SudachiPy normalised forms.
# Options: --min-similarity {similarity} --per-word {per_word} --max-rank {max_rank}. Do not edit by hand.
# word	neighbour	cosine
"""


def vectors_dir() -> Path:
    spec = importlib.util.find_spec("ja_ginza")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("ja_ginza is not installed (pip install ja-ginza==5.3.0)")
    package = Path(next(iter(spec.submodule_search_locations)))
    return next(package.glob("ja_ginza-*/vocab"))


def corpus_words(conn: sqlite3.Connection) -> tuple[set[str], set[str]]:
    """(content words of the corpus's lexicon, every token the Japanese units print). A word the lexicon
    holds only as a key of this file (count 0: ingest/search/lexicon.py's other_words) is no corpus
    word: else each run would drop the keys the previous one wrote."""
    rows = conn.execute("select norm, dropped, light, count from search_lexicon").fetchall()
    content = {norm for norm, _, _, count in rows if count}
    content -= {norm for norm, dropped, light, _ in rows if dropped or light}
    printed: set[str] = set()
    for title, text in conn.execute("select search_title, search_text from sections where lang = 'ja'"):
        printed.update((title or "").split())
        printed.update((text or "").split())
    return content, printed


def is_key(word: str, tokenizer) -> bool:
    """A content word SudachiPy reads whole, with this normalised form."""
    if not KEY_RE.fullmatch(word):
        return False
    morphemes = tokenizer.tokenize(word, SplitMode.C)
    if len(morphemes) != 1 or morphemes[0].normalized_form() != word:
        return False
    pos = morphemes[0].part_of_speech()
    return (pos[0], pos[1]) in CONTENT_POS or (pos[0] == "副詞" and ("副詞", "") in CONTENT_POS)


def neighbours(
    vocab: Vocab, key_ranks: dict[str, int], keys: list[str], targets: list[str], similarity: float, per_word: int
):
    """(key, neighbour, cosine) for each key, nearest first; each distinct vector compared once, in
    blocks (one matrix product each). A key past the KEPT_VECTORS has no vector of its own (the model
    gave it its nearest kept word's: 躊躇い -> 躊躇, but also 従軍 -> 混血児): its neighbours are
    trusted only where they share a character with it."""
    table = vocab.vectors
    unit = table.data / (numpy.linalg.norm(table.data, axis=1, keepdims=True) + 1e-12)
    target_unit = unit[numpy.array([table.key2row[vocab.strings[t]] for t in targets])]
    key_rows = {key: table.key2row[vocab.strings[key]] for key in keys}
    rows = sorted(set(key_rows.values()))
    nearest: dict[int, list[tuple[int, float]]] = {}
    for start in range(0, len(rows), BLOCK):
        block = rows[start : start + BLOCK]
        cosines = unit[numpy.array(block)] @ target_unit.T
        for row, found in zip(block, cosines):
            order = numpy.argsort(-found, kind="stable")[:per_word]
            nearest[row] = [(int(i), float(found[i])) for i in order if found[i] >= similarity]
    for key in keys:
        for i, cosine in nearest[key_rows[key]]:
            if key_ranks[key] < KEPT_VECTORS or set(key) & set(targets[i]):
                yield key, targets[i], round(cosine, 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / "laws.db")
    parser.add_argument("--out", type=Path, default=ROOT / "corpus" / "neighbours.tsv")
    parser.add_argument("--min-similarity", type=float, default=0.65)
    parser.add_argument("--per-word", type=int, default=2)
    parser.add_argument("--max-rank", type=int, default=30_000, help="keys among the model's most frequent only")
    args = parser.parse_args()
    conn = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    content, printed = corpus_words(conn)
    vocab = Vocab().from_disk(vectors_dir())
    has_vector = {vocab.strings[key]: rank for rank, key in enumerate(vocab.vectors.key2row) if rank < args.max_rank}
    tokenizer = Dictionary().create()
    targets = sorted(
        word
        for word in content
        if TARGET_RE.fullmatch(word) and word in vocab.strings and vocab.strings[word] in vocab.vectors.key2row
    )
    keys = [word for word in has_vector if word not in printed and word not in content and is_key(word, tokenizer)]

    rows = list(neighbours(vocab, has_vector, keys, targets, args.min_similarity, args.per_word))
    with args.out.open("w", encoding="utf-8") as out:
        out.write(
            HEADER.format(
                version=version("ja-ginza"),
                similarity=args.min_similarity,
                per_word=args.per_word,
                max_rank=args.max_rank,
            )
        )
        for key, neighbour, cosine in rows:
            out.write(f"{key}\t{neighbour}\t{cosine}\n")
    print(f"{len({r[0] for r in rows})} words, {len(rows)} neighbours ({len(keys)} keys tried, {len(targets)} targets)")


if __name__ == "__main__":
    main()
