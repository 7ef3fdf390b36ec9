"""Terms a run of a Chinese sentence says apart from how the glossary and the vocabulary write them (issue 36,
item 2): across an aspect particle (抽错了叫牌卡: 抽错叫牌卡), head first (叫牌不足: 不足叫牌), and the manner
after 得 that reads in no sense of its own (摔得很重). laws_site/search/translation.py reads a run's cut through
them; the offline engine has the same rules from the pack (laws_site/offline/search_rules.py).
"""

from __future__ import annotations

from laws_site.search.chinese import MAX_WORD_CHARS, MIN_TERM_CHARS

# aspect particles a Chinese sentence puts after a verb (抽错了叫牌卡, 放错了方向): a term read across them
ASPECT_PARTICLES = frozenset("了过着")
# 得 after a verb says how it was done (摔得很重: slammed down hard; 打得差: played badly), a degree adverb maybe between:
# a one-character word after it is that manner, read in no sense of its own (重 is no 重大 "serious", 差 no 間違った
# "wrong", 好 no 良い); a term of two or more (打得慢 is one, 大声) still reads
MANNER_MARK = "得"
DEGREE_ADVERBS = frozenset(["很", "太", "真", "挺", "非常", "特别", "这么", "那么", "有点"])


def manner_words(run: str, cut: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(start, end) of each one-character word after 得 (and a degree adverb) in a run's cut: a manner."""
    found = []
    for i, (start, end) in enumerate(cut):
        if run[start:end] != MANNER_MARK:
            continue
        following = cut[i + 1 : i + 3]
        if following and run[slice(*following[0])] in DEGREE_ADVERBS:
            following = following[1:]
        if following and following[0][1] - following[0][0] == 1:
            found.append(following[0])
    return found


def across_particles(table: dict[str, list[str]], run: str, cut: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """(start, end, key) of each term of several words that the run says with an aspect particle inside
    (抽错了叫牌卡: the vocabulary's 抽错叫牌卡; 放错了方向: 放错方向): the words from a word to a later one,
    the particles between them left out; the longest is kept by read_terms as any longer term is."""
    found = []
    for i, (first_start, _) in enumerate(cut):
        if run[cut[i][0] : cut[i][1]] in ASPECT_PARTICLES:
            continue
        key, skipped = run[cut[i][0] : cut[i][1]], False
        for start, end in cut[i + 1 :]:
            word = run[start:end]
            if word in ASPECT_PARTICLES:
                skipped = True
                continue
            key += word
            if len(key) > MAX_WORD_CHARS:
                break
            if skipped and key in table:
                found.append((first_start, end, key))
    return found


def swapped_terms(table: dict[str, list[str]], run: str, cut: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """(start, end, key) of each term of two words that the run says the other way round, its head first and
    what qualifies it after as a predicate (叫牌不足, "the bid is insufficient": the glossary's 不足叫牌,
    Insufficient Bid); each word of two characters or more, so that no lone character is moved."""
    found = []
    for (start, middle), (_, end) in zip(cut, cut[1:]):
        head, quality = run[start:middle], run[middle:end]
        if min(len(head), len(quality)) >= MIN_TERM_CHARS and quality + head in table:
            found.append((start, end, quality + head))
    return found
