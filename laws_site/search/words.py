"""How a Japanese query is cut into words when serving: with the build's lexicon (table search_lexicon,
ingest/search/lexicon.py), the fewest words, then the most frequent. The offline search cuts the same
way on the same lexicon (static/offline-search.js, from the costs exported here), so the phone and
the server read the same words out of the same query.

A word the lexicon lacks is cut as SudachiPy would cut what it does not know: a run of Latin letters
or of digits whole (misinformation, not m + i + s + information), a run of katakana whole, any other
character alone; punctuation and spaces are no word. Unknown words cost more than any known one.
"""

from __future__ import annotations

import math
import re
import sqlite3
import unicodedata
from dataclasses import dataclass
from functools import cached_property

from ingest.text import forgiving, kana, tokenize
from laws_site.read import queries

# what a word costs in a cut (the cheapest cut wins): a known word 100,000 less up to 1,000 for how
# often the corpus prints it; an unknown run of several characters, or one character alone, far more
WORD_COST = 100_000
FREQUENT_BONUS = 1_000
FREQUENT_COUNT_LOG = 12  # log(1 + count) at which a word gets the whole bonus
UNKNOWN_RUN_COST = 1_000_000
UNKNOWN_CHAR_COST = 2_000_000
# the characters of an unknown run of kana, one script at a time (ー in both): a word SudachiPy does not
# know (りぼーく, ためらい) is one unknown word, not single kana that happen to be words of the corpus
KANA_RUN_RES = (re.compile("[\u30a0-\u30ff]"), re.compile("[\u3041-\u309fー]"))
HIRAGANA_RE = re.compile("[\u3041-\u309f]")
# a kana query is read as its words when they account for at least this share of its letters; less is a word
# found inside letters that say nothing (せるえうえ: 上 of うえ), not what the query says
KANA_WORDS_SHARE = 0.5
# a word the Laws print in katakana typed in hiragana inside a sentence (ダミーがかーどを: a phone's kana keyboard
# before conversion) is that word, at the cost of two words: a cut into words the lexicon knows wins over it
# (あげますと is あげ + ます + と, not あげ + マスト)
HIRAGANA_WORD_RE = re.compile("[\u3041-\u3096ー]+")
KATAKANA_TYPED_COST = WORD_COST
# a query written wholly in hiragana (りぼーく, じゅんばんがいのりーど) is a reading typed before conversion:
# the reading expansions answer it (順番外のリード, "→" in its why), so it is cut as before SudachiPy's rule
# for hiragana and the katakana reading above: an unknown run whole, not the words a reading happens to hold
READING_RE = re.compile(r"[\u3041-\u3096ー\s]+")
KATAKANA_WORD_RE = tokenize.KATAKANA_WORD_RE  # a word written in katakana (キャリー, オーバー)
# a bid written as level + strain (1ハート, 1NT, 2♠, ３ダイヤ, 1S, read after NFKC) is cut into a number and
# a suit word: the query gains the Laws' word for it, ビッド. Not C or D, which spell sections (7C, 6D);
# never inside a citation (27B1, 61条A項): no letter or digit on either side
BID_RE = re.compile(
    r"(?<![0-9A-Za-z])[1-7] ?(?:ハート|ダイヤ(?:モンド)?|スペード|クラブ|ノー ?トランプ|ノートラ|NT|nt|[♠♥♦♣♤♡♢♧]|[SH])"
    r"(?![0-9A-Za-z])"
)
BID_WORD = "ビッド"
# the strains from the lowest (a bid is higher than another of its level when its strain is higher: Law 18B);
# a bid the query writes after a bid it does not supersede is what the Laws call 不十分なビッド (Law 27)
STRAINS = (
    ("クラブ", "♣", "♧"),
    ("ダイヤ", "♦", "♢"),
    ("ハート", "♥", "♡", "H"),
    ("スペード", "♠", "♤", "S"),
    ("ノー", "NT", "nt"),
)


def names_a_strain(japanese: str) -> bool:
    """Whether a Japanese word names a strain (ハート, スペードのスート, ノートランプ): it begins with one's name."""
    return any(japanese.startswith(strain[0]) for strain in STRAINS)


# the kinds of call (def:コール 「ビッド、ダブル、リダブル、パスのいずれか」)
CALL_KINDS = ("ビッド", "ダブル", "リダブル", "パス")
INSUFFICIENT_WORD = "不十分なビッド"
# a bid of a level no auction has (8レベル, 8ハート, 9NT) is what the Laws call 7を超えるビッド (Law 38's title)
BEYOND_SEVEN_RE = re.compile(
    r"(?<![0-9A-Za-z])(?:[89]|1[0-9]) ?(?:レベル|ハート|ダイヤ(?:モンド)?|スペード|クラブ|ノー ?トランプ|ノートラ|NT|nt"
    r"|[♠♥♦♣♤♡♢♧]|[SH])(?![0-9A-Za-z])"
)
BEYOND_SEVEN_WORD = "7を超えるビッド"
# how a director names a seat or a turn at the table, said in the Laws' words: the player on one's right
# or left is the Laws' RHO or LHO (definitions: 「右手の対戦相手」「左手の対戦相手」; 31A 「RHOの順番」,
# 57D 「RHOの順番での早まったプレイ」), and 「…の番」 is the Laws' 「…の順番」 (def:順番; the Laws print
# 番 only in an ordinal, 2番目, 2番手); the next table (隣のテーブル) is the Laws' 他のテーブル (16D1; 隣 is
# printed nowhere); a duty told as at the table (パスしないといけない, フォローしなきゃ) is
# the Laws' 「…する義務」 (37 パスする義務, 44C スートにフォローする義務, 62A リボークを訂正する義務; the Laws
# print none of the colloquial forms, and their own しなければならない is left as it is); a suit the sentence
# names (ハートがリードされた, スペードを持っていない) is the Laws' スート: they rule a suit, never a named one
# (44C 「リードされたスートにフォローしなければならない」, 59 「リードを要求されたスートのカードがない」), and
# print the four names only where suits are ranked (1A, 18E); a named suit alone (ハート), or in a bid (1ハート:
# with_bid_word), stays as typed; a suit one does not hold (持っていない) is the Laws' 「スートのカードがない」
# (59; 61B1 「リードされたスートのカードがないか」; 67B1(b)), which print 持っている only of cards one does hold
# (57A1); a call said (ダブルと言った, 1NTと言って) is a call made, the Laws' 「コールする」 (def:コール 「ビッド、ダブル、
# リダブルまたはパスのいずれか」; 31A 「反則者がRHOの順番にコールしたとき」; they print 言う of speech, 74C1 「同じコール
# に違った言い方をすること」); a request said (見せてと言われた, リードしろと言われた) is the Laws' 要求 (66A 「表向きにするよう
# 要求できる」, 59 「リードを要求された」), and so is one wished for (もう一度言ってほしい, 見せてほしい); a question said (ハートないのと聞いた, リボークじゃないかと聞いた: a question
# ending in か or の, then と聞く) is the Laws' 質問 (61B 「リボークの可能性について質問する権利」, 61B3 「ディフェンダーは
# 互いに質問することができる」, 20C1 「オープニングリードかを質問する権利」), which print 聞く of what one hears or is
# told, and a statement heard (あなたのリードですよと言われた) is what the Laws call being told (47E1 「リードまたはプレイの
# 順番であるとプレイヤに間違って教えた」), not their quotative という; a suit not held said as 「スペードはない」 is 「スートのカードがない」 too. Applied in turn to a Japanese query
# before it is cut.
SEAT_PERSON = "(?:人|プレーヤー|プレイヤー|プレイヤ|相手|対戦相手)"
# a suit named inside a sentence: followed by a particle (or ない: ハートないの), not inside a katakana word
# (ブリッジクラブ) nor after a bid's level (1ハート, 2 スペード); not before の, に or で, where クラブ is as often a
# club (クラブの大会, クラブで) and a named suit a card's (ハートのエース)
NAMED_SUIT = (
    "(?<![0-9０-９ァ-ヺー])(?<![0-9０-９] )(?:ハート|スペード|ダイヤモンド|ダイヤ|クラブ|[♠♥♦♣♤♡♢♧])"
    "(?![ァ-ヺー])(?=[がをはもとやな、])"
)
SUIT_WORD = "スート"
# a call (the four calls, or a bid written as BID_RE reads it) followed by と言う in any form but the passive
# (ダブルと言われた: what another said); \1 keeps the call, the verb becomes コールする
CALL_SAID = rf"((?:パス|ダブル|リダブル|ビッド|{BID_RE.pattern}) ?)と言"
# what declarer says from dummy: ダミーから, then the words he said, up to と言う (no clause between: no 、。 or space)
DUMMY_SAID = r"ダミーから[^、。\s]+?"
TABLE_WORDS = (
    (rf"右隣?の{SEAT_PERSON}|右隣", "RHO"),
    (rf"左隣?の{SEAT_PERSON}|左隣", "LHO"),
    (r"の番(?![目手号])", "の順番"),
    (r"(?:隣|となり)の(?=テーブル)", "他の"),
    # a card led or played from one's 手 is from his hand, the Laws' ハンド (55B2 「間違ったハンドからリードし」, 57C3
    # 「ハンドまたはダミーから早まってプレイ」): they print 手 only of the body (45C3 「カードに手を伸ばす」)
    # (手 as a word of its own: not the end of a kanji word, 相手から, 2番手から)
    (r"(?<![\u3400-\u9fff])手(?:札)?(?=から)", "ハンド"),
    (
        r"し(?:ないと|なければ|なくては|なくちゃ|なきゃ)(?:いけない|いけなかった|いけません|だめ|ダメ)|しなきゃ",
        "する義務",
    ),
    (rf"{CALL_SAID}(?:っ|い|わ(?!れ))", r"\1とコールし"),
    (rf"{CALL_SAID}う", r"\1とコールする"),
    # a card said from dummy (ダミーから何でもいいと言った, ダミーからスペードのキングと言った) is the Laws' designation,
    # 指定 (46A 「ダミーからプレイするカードを指定するとき ... はっきり告げる」, 45C4(a) 「名指したり ... 指定したカード」):
    # they print 言う of speech, never of a card named for dummy
    (rf"({DUMMY_SAID})と言(?:っ|い)", r"\1と指定し"),
    (rf"({DUMMY_SAID})と言う", r"\1と指定する"),
    # ... and a card dummy was not told to play (ダミーが言われていないカードを出した) is one not designated (45D
    # 「ダミーが指定されていないカードを取り上げたとき」)
    (r"(ダミー[がは][^、。\s]*?)言われ(?:てい|て)?な(い|かった)(?=カード)", r"\1指定されていな\2"),
    # a card played while another has still to play (右の人がまだ出していないのに) is played before him, as the Laws say
    # a premature play (57A 「パートナーがプレイする前に」, 57C2 「RHOがプレイする前に」; the Laws print まだ of no
    # player yet to play): not a call (まだコールしていない: a call out of rotation, 30A, 31)
    (r"まだ(?:出|プレイ|リード)し(?:てい|て)?な(?:い|かった)のに", "プレイする前に早まって"),
    # what was learnt from something (取り消したビッドでわかったこと) is the Laws' information got from it (16C1 「取り消した
    # 行動から得られた情報」, 50E1 「ペナルティカードから得られた情報」, 55C 「反則行為から得た情報」)
    (r"(?:で|から)(?:わかった|分かった|知った|知りえた|知り得た)こと", "から得た情報"),
    # a call not heard or seen well (よく聞こえなかった) is the Laws' call not clearly recognised (20A's title
    # 「はっきり認識できないコール」; the Laws print 聞こえる only of what carries to another table, 90B3)
    (r"よく(?:聞こえ|聞き取れ|見え)な(い|かった)", r"はっきり認識できな\1"),
    # an irregularity carried on over (順番外のコールをそのまま左の人がコールして, そのままカードを出して) is accepted, as the
    # Laws read a call or play made over it (29A 「受け入れてコールする」, 25B1 「このコールに対して意識的にコールすると
    # 受け入れたことになる」, 27A1, 52B1(b) 「引き続き…プレイした場合、これを受け入れなければならない」)
    # (not play carried on, そのままプレイを続けた: no one call or play made over it)
    (r"そのまま(?![^、。\s]*?続け)(?=[^、。\s]*?(?:コール|ビッド|パス|プレイ|出し|出す|出さ|リード))", "受け入れて"),
    # not one's turn (順番じゃない人, 順番でないのに) is the Laws' out of turn, 順番外 (def:順番外; 53 順番外のリード, 31
    # 順番外のビッド): the cut drops the negation and read 順番, a turn
    (r"順番(?:じゃ|では|で)な(?:い|かった)(?:人|プレーヤー|プレイヤー)?", "順番外"),
    # 実は, "in fact", is the Laws' 実際は (71A 「自分の側が実際は勝ったトリック」): the cut read 実, a fruit or truth
    (r"(?<![\u3400-\u9fff])実は", "実際は"),
    # a request (て, an imperative ろ, ように) said or heard
    (r"(て|ろ|ように)と言われ", r"\1と要求され"),
    (r"(て|ろ|ように)と言(?:っ|い)", r"\1と要求し"),
    # a request wished for (言ってほしい, 見せてほしい)
    (r"(て|で)(?:ほし|欲し)(?:い|かった)", r"\1と要求する"),
    # a question (ending in か or の) asked or heard
    (r"([かの?])と(?:聞かれ|言われ)", r"\1と質問され"),
    (r"([かの?])と聞(?:い|き)", r"\1と質問し"),
    (r"([かの?])と聞く", r"\1と質問する"),
    # a statement heard (…ですよと言われた, …だと言われた): what another told the player
    (r"([よだすねた])と言われ", r"\1と教えられ"),
    (NAMED_SUIT, SUIT_WORD),
    # a suit not held: named (スートを持っていない, スートはない, after NAMED_SUIT) or understood (リードされたけど持っていなかった);
    # not what another object names (システムカードを持っていない)
    (rf"{SUIT_WORD}(?:を持って(?:い)?|は|が)?な(?:い|かった)", f"{SUIT_WORD}のカードがない"),
    (r"(?<![をがは])持って(?:い)?な(?:い|かった)", "カードがない"),
    # a follow not made when it could be (フォローできたのにしなかった, スートを持っていたのにフォローしなかった) is a
    # revoke (61A 「スートにフォローしないこと、または ... できるのにしないこと ... はリボークになる」): the cut drops
    # ない, which left フォロー, the duty (44C). A bare フォローしなかった stays: the Laws print it of a player who
    # may be void (61B1 「ディフェンダーがフォローしなかったとき、リードされたスートのカードがないか質問する」)
    (
        rf"(?:フォロー(?:が|は)?でき(?:る|た)のに(?:フォロー)?|(?:{SUIT_WORD}を)?持って(?:い)?(?:る|た)のにフォロー)"
        r"し(?:てい|て)?な(?:かった|い(?![とでけ]))",
        "リボークした",
    ),
)
TABLE_WORD_RES = tuple((re.compile(pattern), word) for pattern, word in TABLE_WORDS)
# a word with a light surface is light unless its content surfaces are printed this many times as often
# (間違う: 間違っ 271 times, まちがう once; 忘れる: 忘れ 3 times, わすれる once: 「アラートし忘れた」 tells the
# situation); a word printed both ways alike (過ぎる 8 and 6 times, 達, 等) stays light
LIGHT_OUTNUMBERED = 3


# the neighbours' sources a query of the one word does not read: a SudachiDict synonym searches the whole
# query as an alternative (expansions.py); another form of a printed word (間違い for 間違える) would widen it;
# a spoken word of the director vocabulary alone is answered by its entry (plan.make_plan)
ALONE_EXPANDED = ("synonym", "form", "vocabulary")


def with_table_words(text: str) -> str:
    """The query with what is told as at the table in the Laws' words (TABLE_WORDS): a seat or a turn (右の人,
    左隣, パートナーの番: RHO, LHO, パートナーの順番), the next table (他のテーブル), a duty (パスする義務), a
    named suit (スート), a suit not held (スートのカードがない), a call said (コールする), a request (要求する), a
    question (質問する), a statement heard (教えられる), a follow not made when it could be (リボーク). Read after NFKC, as the cut
    reads it: a phone's kana keyboard types a bid in full width (１ＮＴと言った)."""
    text = unicodedata.normalize("NFKC", text)
    for pattern, word in TABLE_WORD_RES:
        text = pattern.sub(word, text)
    return text


def with_bid_word(text: str) -> str:
    """The query with ビッド added when it writes a bid (BID_RE), 不十分なビッド when a bid it writes
    does not supersede the one written before it (1ハートの後に1ダイヤ), 7を超えるビッド when it writes a
    bid above the seven level (BEYOND_SEVEN_RE); otherwise the query."""
    normal = unicodedata.normalize("NFKC", text)
    bids = [bid_rank(match.group()) for match in BID_RE.finditer(normal)]
    beyond = BEYOND_SEVEN_RE.search(normal) is not None
    if not bids and not beyond:
        return text
    insufficient = any(later <= earlier for earlier, later in zip(bids, bids[1:]))
    return (
        f"{text} {BID_WORD}"
        + (f" {INSUFFICIENT_WORD}" if insufficient else "")
        + (f" {BEYOND_SEVEN_WORD}" if beyond else "")
    )


def bid_rank(bid: str) -> int:
    """Where a bid (BID_RE's match) stands in the auction's order: level first, then strain (STRAINS)."""
    strain = next(rank for rank, names in reversed(list(enumerate(STRAINS))) if any(n in bid for n in names))
    return int(bid.lstrip()[0]) * len(STRAINS) + strain


def word_cost(count: int) -> int:
    """A known word's cost: the commoner, the cheaper (an integer, so that the phone's cut is the same)."""
    return WORD_COST - round(FREQUENT_BONUS * min(1.0, math.log1p(count) / FREQUENT_COUNT_LOG))


@dataclass(frozen=True)
class Word:
    surface: str
    norm: str
    begin: int
    end: int
    dropped: bool  # a particle or an auxiliary: not a word a query must match
    known: bool


class Lexicon:
    """The build's words: surface -> (normalised form, dropped, cost); `light`, the normalised forms
    that carry no situation of their own (ingest/search/lexicon.py); `neighbours`, for a word the corpus
    never prints, the words it prints for it (ingest/search/neighbours.py: 躊躇い -> 躊躇), read in a
    sentence; `word_neighbours`, those read for a query of that one word: only a word without SudachiDict
    synonyms has them (a synonym is searched as an alternative of the whole query: expansions.py)."""

    def __init__(
        self,
        words: dict[str, tuple[str, bool, int]],
        light: frozenset[str] = frozenset(),
        neighbours: dict[str, tuple[str, ...]] | None = None,
        word_neighbours: dict[str, tuple[str, ...]] | None = None,
    ):
        self.words = words
        self.light = light
        self.neighbours = neighbours or {}
        self.word_neighbours = word_neighbours or {}
        self.longest = max(map(len, words), default=1)
        self.han = frozenset(c for word in words for c in word if tokenize.HAN_RE.match(c))

    @classmethod
    def from_conn(cls, conn: sqlite3.Connection) -> "Lexicon":
        if not queries.table_exists(conn, "search_lexicon"):
            return cls({})
        rows = conn.execute("select surface, norm, dropped, light, count from search_lexicon").fetchall()
        light = light_words(rows)
        words = {
            surface: (norm, bool(dropped) or lone_kana_stem(surface, norm, bool(is_light), light), word_cost(count))
            for surface, norm, dropped, is_light, count in rows
        }
        neighbours: dict[str, tuple[str, ...]] = {}
        with_synonyms: set[str] = set()
        if queries.table_exists(conn, "search_neighbours"):
            for word, neighbour, source in conn.execute(
                "select word, neighbour, source from search_neighbours order by word, rank"
            ):
                neighbours[word] = neighbours.get(word, ()) + (neighbour,)
                if source in ALONE_EXPANDED:
                    with_synonyms.add(word)
        alone = {word: found for word, found in neighbours.items() if word not in with_synonyms}
        return cls(words, light, neighbours, alone)

    def cut(self, text: str) -> list[Word]:
        """The query's words, cheapest cut first: fewest words, then the most frequent."""
        chars = unicodedata.normalize("NFKC", text)
        size = len(chars)
        run_end = _latin_runs(chars)
        best: list[tuple | None] = [None] * (size + 1)  # (cost, previous position, word)
        best[0] = (0, -1, None)
        in_sentence = READING_RE.fullmatch(chars) is None
        # in a sentence an unknown run of hiragana ends where a word of the lexicon starts (テーブルにつきそうな
        # ところまで: つき + そう + な ..., not つ + one unknown word きそうなところまで)
        stops = self._word_starts(chars) if in_sentence else frozenset()
        for i in range(size):
            if best[i] is None:
                continue
            base = best[i][0]

            def relax(j: int, cost: int, word) -> None:
                if best[j] is None or best[j][0] > base + cost:
                    best[j] = (base + cost, i, word)

            starts_word = False
            for j in range(i + 1, min(size, i + self.longest) + 1):
                if j - 1 in run_end and run_end[j - 1] != j:
                    continue  # it would end inside a Latin or digit run
                surface = chars[i:j]
                entry = self.words.get(surface)
                if entry:
                    starts_word = True
                    relax(j, entry[2], Word(surface, entry[0], i, j, entry[1], True))
                elif in_sentence and j - i > 1 and HIRAGANA_WORD_RE.fullmatch(surface):
                    entry = self.words.get(kana.hiragana_to_katakana(surface))
                    if entry and not entry[1]:
                        starts_word = True
                        relax(j, entry[2] + KATAKANA_TYPED_COST, Word(surface, entry[0], i, j, False, True))
            char = chars[i]
            if _no_word(char):
                relax(i + 1, 0, None)
                continue
            if in_sentence and starts_word and HIRAGANA_RE.match(char):
                continue  # SudachiPy's rule: hiragana is an unknown word only where no known word starts
            j = run_end.get(i) or _kana_run_end(chars, i, stops)
            relax(j, UNKNOWN_RUN_COST if j - i > 1 else UNKNOWN_CHAR_COST, self._unknown(chars, i, j))
            if j - i > 1 and i not in run_end:
                relax(i + 1, UNKNOWN_CHAR_COST, self._unknown(chars, i, i + 1))
        words = []
        at = size
        while at > 0 and best[at] is not None:
            _, previous, word = best[at]
            if word is not None:
                words.append(word)
            at = previous
        return [word for word in reversed(words) if word.norm]

    def _word_starts(self, chars: str) -> frozenset[int]:
        """The places of a text where a word of the lexicon starts."""
        return frozenset(
            i
            for i in range(len(chars))
            if any(chars[i:j] in self.words for j in range(i + 1, min(len(chars), i + self.longest) + 1))
        )

    def _unknown(self, chars: str, begin: int, end: int) -> Word:
        surface = chars[begin:end]
        return Word(surface, tokenize.fold_katakana(tokenize.fold(surface)), begin, end, False, False)

    def query_terms(self, text: str) -> list[str]:
        """The words a query must match, in order, without repeats (tokenize.query_terms' rule)."""
        words = self.cut(tokenize.clean_query(text))
        terms = [w.norm for w in words if not w.dropped] or [w.norm for w in words]
        return list(dict.fromkeys(terms))

    def query_clauses(self, text: str) -> list[tuple[str, ...]]:
        """tokenize.query_clauses on this cut: a katakana compound matches joined or as a phrase; a
        word the corpus never prints matches the words it prints for it (its neighbours)."""
        terms = self.query_terms(text)
        wanted = set(terms)
        words = [w for w in self.cut(tokenize.clean_query(text)) if w.norm in wanted]
        runs = _katakana_runs(words)
        covered = {id(w) for run in runs for w in run}
        single = [w for w in words if id(w) not in covered]
        # a sentence reads its words' neighbours; a query of one word and light ones (クレームした) reads the word's
        content = len(runs) + len({w.norm for w in single if w.norm not in self.light})
        table = self.neighbours if content > 1 else self.word_neighbours
        clauses: list[tuple[str, ...]] = []
        for run in runs:
            # a katakana word the corpus never prints reads as the words it prints for it too (コンシード)
            joined = tokenize.fold_katakana("".join(w.norm for w in run))
            clauses.append(tuple(dict.fromkeys((joined, " ".join(w.norm for w in run), *table.get(joined, ())))))
        clauses += [(w.norm, *table.get(w.norm, ())) for w in single]
        return list(dict.fromkeys(clauses)) or [(term,) for term in terms]

    def reads_kana_as_words(self, text: str) -> bool:
        """Whether a query typed in kana only holds words to search for: a content word (not a particle or an
        auxiliary, not a light word) of two letters or more, and words that account for at least KANA_WORDS_SHARE
        of its letters: words of two letters or more, and the grammar after a word (パスしないといけないのにビッド
        してしまった: all but the two し). A nonsense query read as single letters and grammar (うずすね, さもが: す and
        さ read as する between particles; けむた, なはれ: auxiliaries only; ごてお: ご, お read as 御) found hundreds
        of units by those words, as if they were what it said; one read as a word found inside letters that say
        nothing (the five vowels typed in order: あ, い, お alone; せるえうえ: an auxiliary and a stem before any word; 上 of うえ, 2 of 5
        letters) found 54. A query with kanji, Latin letters or digits is read as before, and a kana word the
        lexicon does not know (ほげほげ) is a word as typed."""
        cleaned = unicodedata.normalize("NFKC", tokenize.clean_query(text))
        if not forgiving.is_kana(cleaned):
            return True
        words = self.cut(cleaned)
        if not any(not w.dropped and w.norm not in self.light and w.end - w.begin > 1 for w in words):
            return False
        accounted, after_a_word = 0, False
        for word in words:
            size = word.end - word.begin
            if word.dropped:
                accounted += size if after_a_word else 0  # grammar before any word says nothing
            else:
                after_a_word = True
                accounted += size if size > 1 else 0  # a letter read alone as a word (あ, い, お) says nothing
        return accounted >= KANA_WORDS_SHARE * len(cleaned.replace(" ", ""))

    def lone_word(self, text: str) -> str | None:
        """The one content word of a query that adds only light or grammatical words to it, as typed
        (クレームした -> クレーム, アベレージプラスはどんな時 -> アベレージプラス); None for any other query, and for a word typed in hiragana (じゅんばんがい:
        a reading, which the reading expansions answer)."""
        words = self.cut(tokenize.clean_query(text))
        content = [w for w in words if not w.dropped and w.norm not in self.light]
        # a katakana compound is one word (アベレージプラスはどんな時: アベレージ + プラス), as in query_clauses
        runs = _katakana_runs(content)
        in_runs = {id(w) for run in runs for w in run}
        pieces = [[w] for w in content if id(w) not in in_runs] + runs
        if len(pieces) != 1 or len(words) < 2:
            return None
        surface = "".join(w.surface for w in pieces[0])
        return surface if tokenize.KATAKANA_RE.search(surface) or tokenize.HAN_RE.search(surface) else None

    def reads_as_japanese(self, text: str) -> bool:
        """Whether Japanese may have written the query: it has kana, or every kanji of it is in some
        word of the lexicon. A kanji no Japanese word holds (庄, 罚, 吗, 时) marks Chinese: read as Japanese,
        its other kanji one by one (家, 小, 心, 方) would match noise."""
        return bool(tokenize.KANA_RE.search(text)) or all(c in self.han for c in tokenize.HAN_RE.findall(text))

    @cached_property
    def shown_forms(self) -> tuple[frozenset[str], dict[str, str]]:
        """(the forms a query drops wherever they stand: every surface of them is a particle or an auxiliary;
        {form: the surface the corpus prints it as most often}): why a result was found names words as they
        are printed (コール, not the search form コル; not the な inside 明白な躊躇)."""
        grammatical: dict[str, bool] = {}
        printed: dict[str, tuple[int, str]] = {}
        for surface, (norm, dropped, cost) in self.words.items():
            grammatical[norm] = grammatical.get(norm, True) and dropped
            if not dropped and (norm not in printed or (cost, surface) < printed[norm]):
                printed[norm] = (cost, surface)
        return (
            frozenset(norm for norm, always in grammatical.items() if always),
            {norm: surface for norm, (_, surface) in printed.items()},
        )

    @cached_property
    def unnamed(self) -> frozenset[str]:
        """The forms a why never names nor a snippet marks inside a held phrase: the grammatical ones (shown_forms) and
        the light ones - また of a neighbour phrase's 「…」または「…」 is no word the unit was found by."""
        return self.shown_forms[0] | self.light

    def key(self, text: str) -> str:
        """A whole query compared with a glossary term: its words' forms, space-joined."""
        return " ".join(w.norm for w in self.cut(text))


def light_words(rows) -> frozenset[str]:
    """The normalised forms a query does not count as content: those with a light surface (kana できる,
    いる, なる: a word serving another), unless the corpus prints the word as content LIGHT_OUTNUMBERED
    times as often. 間違う, printed 間違っ 134 times, is content though a kana spelling まちがう is light
    once; 出来る (できる 241 times against 出来る 33) stays light. rows: (surface, norm, dropped, light, count)."""
    light: dict[str, int] = {}
    content: dict[str, int] = {}
    for _, norm, _, is_light, count in rows:
        tally = light if is_light else content
        tally[norm] = tally.get(norm, 0) + count
    # a word the corpus never prints as content is light by its spelling alone (のせいで: せい, kana, printed nowhere)
    return frozenset(
        norm for norm, times in light.items() if not content.get(norm) or content[norm] < LIGHT_OUTNUMBERED * times
    )


def lone_kana_stem(surface: str, norm: str, surface_light: bool, light: frozenset[str]) -> bool:
    """Whether a query drops a word written as one kana that the dictionary reads as a stem or an affix (a
    light surface: え and う of 得る, く of 来る, み of 見る) of a word the corpus prints as content: in a
    sentence such a kana is a piece of a word the lexicon lacks (もらえる cut も + ら + え + る, あなた), never the
    word itself, and read as 得る it covered 86B2's 得られた. A light word's kana (し, い: する, いる) is left as it is."""
    return surface_light and len(surface) == 1 and bool(HIRAGANA_RE.match(surface)) and norm not in light


def _katakana_runs(words: list[Word]) -> list[list[Word]]:
    return tokenize.adjacent_katakana(
        (word, KATAKANA_WORD_RE.fullmatch(word.surface) is not None, word.begin, word.end) for word in words
    )


def _no_word(char: str) -> bool:
    """Punctuation, symbols and spaces are no word (the long-vowel mark is a letter)."""
    return char != "ー" and (char.isspace() or unicodedata.category(char)[0] in "PS")


def _kana_run_end(chars: str, i: int, stops: frozenset[int] = frozenset()) -> int:
    """Where the run of kana of one script starting at i ends (i + 1 for any other character); a run of
    hiragana ends before any of `stops`."""
    script = next((run for run in KANA_RUN_RES if run.match(chars[i])), None)
    hiragana = script is KANA_RUN_RES[1]
    j = i + 1
    while script is not None and j < len(chars) and script.match(chars[j]) and not (hiragana and j in stops):
        j += 1
    return j


def _letter_kind(char: str) -> str | None:
    category = unicodedata.category(char)[0]
    if category == "N":
        return "digit"
    if category == "L" and not tokenize.KANA_RE.match(char) and not tokenize.HAN_RE.match(char):
        return "letter"
    return None


def _latin_runs(chars: str) -> dict[int, int]:
    """For each character of a run of Latin letters, or of digits: where its run ends."""
    ends: dict[int, int] = {}
    i = 0
    while i < len(chars):
        kind = _letter_kind(chars[i])
        j = i + 1
        if kind:
            while j < len(chars) and _letter_kind(chars[j]) == kind:
                j += 1
            ends.update(dict.fromkeys(range(i, j), j))
        i = j
    return ends
