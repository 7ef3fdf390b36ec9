"""The words a Japanese text holds only inside another word: a compound's pieces (出す of 取り出す, 消す of
取り消す, indexed so that a query of either granularity matches: ingest/text/tokenize.py) and the suffix of
an ordinal and its number (目 and 12 of 12トリック目, 1枚目), the words of a katakana term written together (カード of
ペナルティカード, リード of オープニングリード). A sentence's coverage (laws_site/search/coverage.py)
counts such a word less than one the unit prints whole: 15A's 「間違ったボードから取り出したカード」 does not say
a card was played (出した), nor 62D2's 「12トリック目」 an eye (目で合図) or twelve cards (手札が12枚). Indexing no pieces made queries worse
(取って finds 取り出した), and a light 目 or 外 everywhere broke the words they suffix (順番外): so the index keeps
them, and the unit says which of its words are bound. Of the words a word suffixes, only an ordinal's are bound: 外 of
順番外, 後 of 指摘後, 中 of プレイ中 mean what the word alone means, and a counter (4枚, 4人) what a query's counter means."""

from __future__ import annotations

from sudachipy import SplitMode

from ingest.text import tokenize

SUFFIX = "接尾辞"
NUMBER = ("名詞", "数詞")
# an ordinal is a number, what is counted, and the suffix that makes it an order (12 トリック 目, 1 枚 目, 3 人 目): that
# suffix is bound; a counter right after the number (4 枚, 4 人) counts in a query's 4枚 as in the Laws
ORDINAL_PLACE = 2
NUMERAL_REACH = ORDINAL_PLACE


def bound_words(*texts: str | None) -> frozenset[str]:
    """The index words the texts (a unit's title and text) hold only bound inside another word."""
    whole: set[str] = set()
    bound: set[str] = set()
    for text in texts:
        if text:
            _read(text, whole, bound)
    return frozenset(bound - whole)


def unit_bound_words(title: str | None, text: str | None) -> tuple[frozenset[str], frozenset[str]]:
    """(bound_words(title, text), bound_words(title)), the title read once: what a unit holds only bound, and what
    its title holds only so (search_offsets.bound and title_bound)."""
    title_whole: set[str] = set()
    title_bound: set[str] = set()
    if title:
        _read(title, title_whole, title_bound)
    whole, bound = set(title_whole), set(title_bound)
    if text:
        _read(text, whole, bound)
    return frozenset(bound - whole), frozenset(title_bound - title_whole)


def _read(text: str, whole: set[str], bound: set[str]) -> None:
    tokenizer = tokenize.sudachi_tokenizer()
    for _, chunk in tokenize.text_chunks(text):
        after_number = None  # how many nouns or suffixes, written on, follow the last number (None: no number)
        number = None  # the last number's index word, whole unless an ordinal's suffix follows it
        previous_end = -1
        morphemes = list(tokenizer.tokenize(chunk, SplitMode.C))
        in_compounds = katakana_compound_pieces(morphemes)
        for place, morpheme in enumerate(morphemes):
            pos = morpheme.part_of_speech()
            written_on = morpheme.begin() == previous_end
            previous_end = morpheme.end()
            if pos[:2] == NUMBER:
                whole.update((number,) if number else ())
                after_number, number = 0, tokenize.normalised(morpheme)
                continue
            elif (
                written_on and after_number is not None and after_number < NUMERAL_REACH and pos[0] in (SUFFIX, "名詞")
            ):
                after_number += 1
            else:
                whole.update((number,) if number else ())
                after_number, number = None, None
            norm = tokenize.normalised(morpheme)
            if pos[0] in tokenize.SKIPPED_POS or not norm:
                continue
            ordinal = pos[0] == SUFFIX and after_number == ORDINAL_PLACE
            (bound if ordinal or place in in_compounds else whole).add(norm)
            if ordinal and number:
                # an ordinal's number is an order, no count: 12 of 12トリック目 is the twelfth trick, no twelve cards
                bound.add(number)
                number = None
            pieces = morpheme.split(SplitMode.A) if morpheme.end() - morpheme.begin() > 1 else ()
            for piece in pieces if len(pieces) > 1 else ():
                piece_norm = tokenize.normalised(piece)
                if piece_norm and tokenize.pos_category(piece.part_of_speech_id()) not in tokenize.SKIPPED_POS:
                    bound.add(piece_norm)
        whole.update((number,) if number else ())


def katakana_compound_pieces(morphemes) -> set[int]:
    """The places of the morphemes written together as one katakana term (ペナルティ|カード, オープニング|リード: the
    index also holds the run joined, tokenize.katakana_compounds): a term of the Laws of its own, whose pieces say
    less than each printed alone (52A 「ペナルティカードをプレイしなかった」 is no card played, 54's
    「順番外のオープニングリード」 no lead in the middle of play)."""
    is_katakana = tokenize.KATAKANA_WORD_RE.fullmatch
    runs = tokenize.adjacent_katakana(
        (place, is_katakana(morpheme.surface()) is not None, morpheme.begin(), morpheme.end())
        for place, morpheme in enumerate(morphemes)
    )
    return {place for run in runs for place in run}
