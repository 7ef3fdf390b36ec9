"""Suits and hands as a Chinese sentence says them (issue 36): a suit not held (没有黑桃, 没有这门花色), a suit held
(有这门花色) and what it unsays, more cards than a hand holds; read as the 2017 Laws print them, for translation.py's
table and read_terms.
"""

from __future__ import annotations

from dataclasses import dataclass

from ingest.search import glossary
from laws_site.search.chinese import term_key
from laws_site.search.words import SUIT_WORD, names_a_strain

# a suit said not held (手里没有黑桃了): the Laws' 「スートのカードがない」 (59 「リードを要求されたスートのカードがない」,
# 61B1, 67B1(b)); they print the suits' names only where suits are ranked (1A, 18E)
NOT_HELD = ("没有", "没")
SUIT_NOT_HELD = f"{SUIT_WORD}のカードがない"
HELD = ("有", "还有")
SUIT_DETERMINERS = ("这门", "那门", "这个", "那个", "同一门")  # 有这门花色: which suit, said with its measure word
SUIT_SAID = "花色"  # a suit said without its name (the glossary's スート)
FOLLOW_SUIT_TERM = "跟牌"  # the vocabulary's Follow Suit (スートにフォローする)
# the vocabulary's entries a discard beside a suit said held reads through (able_to_follow): its Discard (垫), whose
# Japanese also holds 44D's title 「スートにフォローできない場合」, and the Revoke it makes instead, as 61A names it:
# 「スートにフォローしないこと…はリボークになる」
DISCARD_ENTRY = "Discard"
REVOKE_ENTRY = "Revoke"
# 打 with a suit after it (先打方块: play a diamond first) is the play of a card of it, as the 1997 Laws print 打
# for play (43A1(c) 「参与打牌」 is 2017 「プレイに…参加して」; def:藏牌 「打出另外花色的牌」); 打 alone says many
# things (打暗号: give a signal; 打电话: phone) and reads nothing
PLAYING_VERBS = ("打",)
PLAY_TERM = "打牌"  # the vocabulary's Play (プレイ)


@dataclass(frozen=True)
class SuitsHeld:
    """A suit said held and what it changes in a sentence's reading (able_to_follow), for read_terms: the keys that
    say it (chinese_suits_held) and the vocabulary's words a discard beside it reads - the Discard's term, not its
    inability to follow (the Discard's Japanese printed as a title of the Laws it names: 44D's), and the Revoke's
    term added. Empty: a database without the vocabulary reads every discard as it is."""

    keys: frozenset[str] = frozenset()
    inability: frozenset[str] = frozenset()
    discard: str = ""
    revoke: str = ""


def suits_held(data) -> SuitsHeld:
    """A suit said held as this database's vocabulary and Laws say it (SuitsHeld)."""
    keys = frozenset(term_key(said) for said in chinese_suits_held([*chinese_suits(data), SUIT_SAID]))
    discard, revoke = vocabulary_entry(data, DISCARD_ENTRY), vocabulary_entry(data, REVOKE_ENTRY)
    if not discard or not revoke:
        return SuitsHeld(keys)
    titles = _titles_of(data, discard.laws)
    return SuitsHeld(keys, frozenset(word for word in discard.ja if word in titles), discard.ja[0], revoke.ja[0])


def vocabulary_entry(data, english: str):
    """The director vocabulary's entry named `english` (its en), or None."""
    return next((entry for entry in data.vocabulary.entries if entry.en == english and entry.ja), None)


def _titles_of(data, refs) -> set[str]:
    """The titles the current Laws print for these refs (44D -> スートにフォローできない場合)."""
    laws = data.registry.current_laws
    rowids = (data.rowids.get(f"{laws.id}:{ref}") for ref in refs) if laws else ()
    return {data.units[rowid][4] for rowid in rowids if rowid is not None and data.units[rowid][4]}


def chinese_suits_held(suits: list[str]) -> list[str]:
    """A suit said held in Chinese (有红心, 还有这门花色): whoever holds the suit led can follow it, the duty the
    Laws rule (44C 「可能ならスートにフォローしなければならない」) and a revoke breaks (61A 「スートにフォローしないこと
    ... はリボークになる」); said beside a discard (有这门花色却垫了别的), the discard is no inability to follow."""
    return [have + which + suit for suit in suits for have in HELD for which in ("", *SUIT_DETERMINERS)]


def chinese_suits_played(suits: list[str]) -> list[str]:
    """A suit said played (打方块, 打这门花色): PLAYING_VERBS before a suit's name or a suit said without it."""
    return [verb + which + suit for suit in suits for verb in PLAYING_VERBS for which in ("", *SUIT_DETERMINERS)]


def incorrect_number_of_cards(data) -> list[str]:
    """The vocabulary's Japanese for Law 13's incorrect number of cards (カードの過不足)."""
    entry = vocabulary_entry(data, "Incorrect Number of Cards")
    return list(entry.ja) if entry else []


def chinese_suits(data) -> dict[str, str]:
    """{a suit's Chinese name: its Japanese name} (the glossary's suits: 黑桃 スペード)."""
    return {
        said: japanese
        for entry in data.glossary.entries
        for japanese in glossary.term_forms(entry.ja)
        if names_a_strain(japanese)
        for said in glossary.term_forms(entry.zh)
    }


def chinese_suits_not_held(suits: dict[str, str]) -> list[str]:
    """A suit said not held in Chinese (没有黑桃, 没红心: the glossary's suits after NOT_HELD), which the Laws
    say as 「スートのカードがない」, as a Japanese sentence's 「スペードを持っていない」 reads (words.TABLE_WORDS)."""
    return [no + suit for suit in suits for no in NOT_HELD]


def chinese_suits_not_held_named(suits: list[str]) -> list[str]:
    """A suit said not held with which one it is (没有这门花色, 没有这个黑桃): as 没有黑桃, never 没 + a suit held
    (有这门花色) read as a thing not done: not holding a suit is no failure to follow it."""
    return [no + which + suit for suit in suits for no in NOT_HELD for which in SUIT_DETERMINERS] + [
        no + SUIT_SAID for no in NOT_HELD
    ]


def able_to_follow(read: list[tuple[str, list[str]]], held: SuitsHeld) -> list[tuple[str, list[str]]]:
    """A sentence that says the suit held (有这门花色却垫了别的: had the suit, yet discarded) says no inability to
    follow: a discard there reads ディスカード and the revoke it makes (61A), not 44D's 「スートにフォローできない場合」."""
    if not any(said in held.keys for said, _ in read):
        return read
    return [
        (
            said,
            [word for word in words if word not in held.inability] + ([held.revoke] if held.discard in words else []),
        )
        for said, words in read
    ]
