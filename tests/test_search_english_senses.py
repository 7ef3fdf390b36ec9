"""An English word read in the sense the director's sentence gives it (issue 36, situations-en13): a
preposition the Laws print as a suffix, the director's own "me", a phrasal verb whose object stands
between the verb and its particle."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.search.english_lexicon import CONJUNCTIONS, FUNCTION_WORDS, LEXICON_FILE, read_lexicon
from laws_site.search import english_keys, translation
from laws_site.search.data import search_data
from tests.reading_parity import read_by_both

LEXICON = Path(__file__).resolve().parent.parent / "corpus" / LEXICON_FILE


def read(search_conn, query: str) -> list[str]:
    data = search_data(search_conn)
    return translation.japanese_words(data.translations, query, data.chinese, data.joined_words)


def test_during_reads_nothing_not_inside(search_conn):
    """The Laws print "during play" as the suffix 中 (プレイ中, 43A1(b)); JMdict's first senses read
    "during" as 内, "inside", which the director never said."""
    assert read(search_conn, "dummy called the director during play") == ["ダミー", "ディレクターを呼ぶ", "プレイ"]


def test_the_director_called_me_is_the_director_summoned(search_conn):
    """A director telling what happened says "called me": the Laws' ディレクターを呼ぶ (9B1(a), 11A), not
    コール, a call of the auction."""
    words = read(search_conn, "the next player followed before anyone called me")
    assert "ディレクターを呼ぶ" in words and "コール" not in words, words


def test_out_of_after_the_object_is_the_verbs_particle(search_conn):
    """ "took his cards out of the board" is take out, the Laws' 取り出す (7C ボードからハンドを取り出す, 15A1),
    not took alone (取る); right after the verb "out of" stays a preposition's, and a term holding it (out of
    turn) still wins over the verb."""
    words = read(search_conn, "after the round a player took his cards out of the board again to show a friend")
    assert "取り出す" in words and "取る" not in words, words
    assert "抜き出す" in read(search_conn, "he keeps pulling a card out of his hand")  # 74B3 カードを抜き出す
    words = read(search_conn, "he led a card out of turn")
    assert "順番外" in words and "引き出す" not in words, words
    # a friend is no 味方 (the Laws' own side, 'ally'); lead out is JMdict's leading a horse out (引き出す)
    assert "味方" not in read(search_conn, "to show a friend")
    assert "引き出す" not in read(search_conn, "declarer led the ace out of the wrong hand")


def test_a_particle_before_its_own_object_is_a_preposition(search_conn):
    """ "put his cards on the table" (68A: a hand shown) is put, 置く, not put on, JMdict's 掛ける (to wear), shown
    as also searched; "took the card off the table" is took, not take off (外す); "in" before its object says
    into, the phrasal verb's sense: "put the card in the wrong pocket" is 90B6's ポケットに入れる."""
    words = read(search_conn, "declarer just put his cards on the table and said the rest are mine")
    assert "置く" in words and "掛ける" not in words, words
    assert "掛ける" not in read(search_conn, "declarer put the card down on the table")
    assert "外す" not in read(search_conn, "he took the card off the table")
    assert "入れる" in read(search_conn, "he put the card in the wrong pocket")
    assert "戻す" in read(search_conn, "he put the cards back in the board")  # the particle before "in" still reads
    # before an object pronoun too: "put another card on it" (45E2, a fifth card) is put, no put on
    words = read(search_conn, "declarer put another card on it from dummy")
    assert "置く" in words and "掛ける" not in words, words


def test_a_verb_of_saying_before_a_clause_reads_nothing(search_conn):
    """ "said we had written down one trick too many" (79B3), "says he made ten tricks" (65D), "said the rest are
    mine" (68A) only report what the clause tells: no 言う (19A2 デノミネーションを言わないようにする, a call's own
    words) shown as also searched; "said small from dummy" (46B1(c)) is the designation's own words and keeps it."""
    for query in (
        "they came back and said we had written down one trick too many",
        "declarer says he made ten tricks",
        "declarer put his cards on the table and said the rest are mine",
        "he said that the lead was out of turn",
    ):
        assert "言う" not in read(search_conn, query), query
    assert "言う" in read(search_conn, "declarer said small from dummy")


def test_function_words_together_read_only_a_term_so_named(search_conn):
    """ "dummy got up" (43A2(b) 席を離れてはならない) read nothing: got and up are each function words, and a run of
    them named no term; it reads the vocabulary's Leaving the Seat, 席を離れ, and a purpose said (so that) 目的, while
    runs no glossary or vocabulary term names ("got to", "out of") still read nothing."""
    assert "席を離れ" in read(search_conn, "dummy got up and walked round behind declarer")
    assert "目的" in read(search_conn, "he asked only so that his partner would lead a spade")
    assert read(search_conn, "got to") == [] and read(search_conn, "out of") == []


def test_two_typed_words_never_read_one_written_word(search_conn):
    """ "before the hands" lost its "the" as a term's function word and joined into beforehand, JMdict's 予め,
    shown as also searched (62D1's query: before the hands went back); a key only ever written as one word
    is read from one typed word, and a term printed as several (face up, face-down lead) still reads."""
    words = read(search_conn, "it was noticed before the hands went back")
    assert "予め" not in words and "ハンド" in words, words
    assert "予め" in read(search_conn, "we agreed it beforehand")
    assert "伏せて出したリード" in read(search_conn, "a face down lead")
    assert "全員" not in read(search_conn, "every one of his cards")  # everyone


def test_same_and_winner_read_no_word_the_laws_never_use_so(search_conn):
    """same is the Laws' 同じ (27B1(a) 同じデノミネーション, 64B2 同じスート; 同様 'similar' was JMdict's); a winner
    (a card that wins a trick) is no 勝者, a person who wins, which the Laws never print: it reads nothing."""
    words = read(search_conn, "insufficient bid corrected to the lowest sufficient bid in the same suit")
    assert "同じ" in words and "同様" not in words, words
    assert "勝者" not in read(search_conn, "every card he had left was a winner")


def test_a_misunderstanding_said_as_a_verb_is_21a(search_conn):
    """21A 自分の誤解に基づいてコール: "I misunderstood" read nothing (JMdict names the noun only)."""
    assert "自分の誤解" in read(search_conn, "I misunderstood what my partner's bid meant")


def test_agreeing_is_the_laws_consent_in_english_only(search_conn):
    """68D2(b)(i) 4人のプレイヤ全員が同意しなければならない: agreed read 受け入れる, 53A's word for accepting a lead
    out of turn. An English lexicon row, not a vocabulary term, so that no Japanese query reads 同意 anew."""
    words = read(search_conn, "all four of us agreed to play it out")
    assert "同意" in words and "受け入れる" not in words, words


@pytest.mark.parametrize(
    "query",
    [
        "dummy put out the card declarer asked for",
        "the card declarer asked for and the one he got",  # the preposition ends its clause before "and"
    ],
)
def test_a_preposition_ending_its_clause_reads_with_the_object_said_before_it(search_conn, query):
    """45D1 ディクレアラーが名指していないカード: "the one declarer asked for" is declarer naming dummy's card (the
    vocabulary's "ask for a card", 46A 指定), its object said before the verb; it read ask for alone, 求める."""
    words = read(search_conn, query)
    assert "ダミーのカードを指定する" in words and "求める" not in words, words


def test_a_preposition_with_no_object_to_make_a_term_reads_as_before(search_conn):
    assert read(search_conn, "he asked for") == ["求める"]
    assert "ダミーのカードを指定する" in read(search_conn, "declarer asked for the king")  # its object after it


def test_a_particle_right_after_its_verb_reads_no_noun(search_conn):
    """ "walked round behind declarer" (43A2(b)'s dummy leaving his seat) read round as ラウンド, the Laws' round
    of boards (8B1), shown as also searched; "looked around" read 比. Right after a verb's past or participle
    the particle is the verb's, and reads nothing of its own; round as a noun still reads."""
    words = read(search_conn, "dummy got up and walked round behind declarer to watch how he was playing the hand")
    assert "ラウンド" not in words and "ダミー" in words, words
    assert "比" not in read(search_conn, "he looked around the table")
    assert "ラウンド" in read(search_conn, "we already played this board in the last round")
    assert "ラウンド" in read(search_conn, "a pair turned up late for the first round")


def test_a_suit_name_after_this_or_our_is_a_place(search_conn):
    """ "this club has no appeals committee" (93A: the organizer's) read club as スート, every suit name's reading,
    shown as also searched: after this or our a suit's singular name is a body or a place and reads nothing; a card
    or a suit said with an article or a plural still reads スート."""
    words = read(search_conn, "we want to appeal the ruling but this club has no appeals committee, who decides")
    assert "スート" not in words and "上告委員会" in words, words
    assert "スート" not in read(search_conn, "the director of our club")
    assert "スート" in read(search_conn, "he led a club")
    assert "スート" in read(search_conn, "this trick he discarded clubs")


def test_could_not_follow_suit_is_an_inability_not_a_revoke(search_conn):
    """ "he could not follow suit" read "not follow suit", the vocabulary's revoke (リボーク, 61A); said with could,
    can or unable it is 44D's 'Inability to Follow Suit' (スートにフォローできない場合, a discard), in any spelling;
    "did not follow suit" stays a revoke."""
    for said in ("he could not follow suit", "he couldn't follow suit", "he cannot follow suit", "he was unable to"):
        words = read(search_conn, said + (" follow suit" if said.endswith("to") else ""))
        assert "スートにフォローできない場合" in words and "リボーク" not in words, (said, words)
    assert "リボーク" in read(search_conn, "dummy did not follow suit")


def test_the_last_round_is_no_latest_call(search_conn):
    """ "we already played this board in the last round" (15B1) read last as 最後, the Laws' latest call (18C 最後の
    ビッド), shown as also searched: before a period it names the round before, or the final one (8C 最終ラウンド);
    it reads nothing there, and a last bid is still 最後."""
    words = read(search_conn, "we already played this board in the last round")
    assert "最後" not in words and "ラウンド" in words, words
    assert "最後" not in read(search_conn, "in the last session")
    assert "最後" in read(search_conn, "he doubled the last bid")


def test_the_same_moment_is_simultaneous_and_a_call_that_stands_holds(search_conn):
    """ "bid at the same moment as I did" read 同じ + 時 (JMdict's same time, 同時, only with time): the same moment or
    instant is the Laws' 同時 (33 同時にしたコール), where Law 33 governs; "which call stands" read スタンド (a
    grandstand), the Laws' word being 成立 (25A2 そのコールが成立する)."""
    words = read(search_conn, "my left hand opponent bid at the same moment as I did, which call stands")
    assert "同時" in words and "時" not in words and "同じ" not in words, words
    assert "成立" in words and "スタンド" not in words, words
    assert "同時" in read(search_conn, "they led at the same instant")
    assert "同時" not in read(search_conn, "at that moment he led")  # a moment alone is no simultaneity


def test_doubling_ones_own_partners_bid_is_an_inadmissible_double(search_conn):
    """19A1 対戦相手がしたビッド ... だけをダブルすることができる: a double of partner's bid is 36's
    認められないダブルやリダブル (the vocabulary's spoken "doubling his partner's bid"); "doubled his own partner's
    bid" is six words to the reader (partner's: partner + s), one more than a run of five held, and read ダブル
    パートナー ビッド, a double of any bid."""
    assert read(search_conn, "he doubled his own partner's bid") == ["認められないダブルやリダブル"]
    assert "認められないダブルやリダブル" in read(search_conn, "she redoubled her partner's double")
    assert "認められないダブルやリダブル" not in read(search_conn, "he doubled his opponent's bid")


def test_a_call_not_allowed_is_no_grant_and_what_it_cost_is_damage(search_conn):
    """ "a convention that is not allowed ... and it cost us" (40B4 細則で許可されていない ... 損害を受けた場合) read
    allowed as its noun allowance, JMdict's 付与 (a grant: 12C1(b) 調整スコアの付与), and cost as 値, a price:
    allowed reads nothing now and cost the Laws' 損害 (corpus/english_lexicon_corrections.tsv)."""
    words = read(
        search_conn, "the opponents used a bidding convention that is not allowed in this event and it cost us"
    )
    assert "付与" not in words and "値" not in words and "損害" in words, words


def test_what_a_call_means_is_its_meaning(search_conn):
    """ "what does his bid mean" read 平均 (the mean, an average: 12C4), "what my double means" 方法 (a means, a method),
    both shown as also searched: a call's meaning is the Laws' 意味 (40B5(a) コールやプレイの意味についての対戦相手の質問)."""
    words = read(search_conn, "what does his bid mean")
    assert "意味" in words and "平均" not in words, words
    words = read(search_conn, "he asked what my double means")
    assert "意味" in words and "方法" not in words, words


def test_seats_swapped_are_seats_changed(search_conn):
    """ "north and south swapped seats" (5A 席（NSEW）をセッション中に変えるにはディレクターの指示または許可を必要とする)
    read JMdict's 移す, which the Laws print only for tricks transferred (64A1 トリックを移す): swap reads 変える."""
    words = read(search_conn, "north and south swapped seats halfway through the session")
    assert "変える" in words and "移す" not in words, words


def test_disagreeing_is_not_differing(search_conn):
    """disagree read JMdict's 異なる ("to differ; to vary; to disagree"), the Laws' word for a call other than
    intended (25A1 意図と異なるコール), shown as also searched for a claim disputed; disagreement read 不一致, 13A1's
    discrepancy of cards, which a verb left unread falls back to. Both read nothing now
    (corpus/english_lexicon_corrections.tsv)."""
    words = read(search_conn, "after the claim the defenders disagreed and wanted to play on")
    assert "異なる" not in words and "不一致" not in words and "取りの宣言" in words, words
    assert "不一致" not in read(search_conn, "there was a disagreement about the claim")


READ_ALIKE = [
    "they sorted it out themselves and only called me at the end of the hand",
    "sort it out",
    "he took it back",
    "dummy called the director during play",
    "they sorted out the boards",
    "there were three passes but one was out of turn",
    "he changed his mind",
    "every card he had left was a winner",
    "he left the table",
    "the player on his left",
    "he asked so that his partner would find the right lead",
    "he had the right to ask",
    "an opponent kept looking at his own convention card",
    "he kept the card",
    "he had to pass for the rest of the auction",
    "declarer failed to follow suit and noticed it himself",
    "someone dealt the board without shuffling the cards",
    "he didn't alert and never explained",
    "he asked only so that his partner would lead a spade",
    "he deliberately played slowly in order to confuse us",
    "after the round a player took his cards out of the board again",
    "he keeps pulling a card out of his hand",
    "he led a card out of turn",
    "the card in the back of the board",
    "it was noticed before the hands went back",
    "we agreed it beforehand",
    "declarer just put his cards on the table and said the rest are mine",
    "he took the card off the table",
    "he put the card in the wrong pocket",
    "he put the cards back in the board",
    "dummy put out a different card from the one declarer asked for",
    "the card declarer asked for and the one he got",
    "he asked for",
    "a pair arrived late and turned up late again",
    "dummy got up and walked round behind declarer to watch",
    "he looked around the table",
    "a pair turned up late for the first round",
    "but this club has no appeals committee",
    "the director of our club said he led a club",
    "he could not follow suit but his partner didn't follow suit",
    "she couldn't follow suit, he cannot follow suit, they were not able to follow suit",
    "we played this board in the last round and he doubled the last bid",
    "my opponent shook his head when his partner made the opening lead",
    "declarer says he made ten tricks, he made the doubled contract, it was made",
    "declarer turned his card face down before I could see it",
    "dummy put out a different card from the one declarer asked for",
    "dummy played a card other than the one declarer named, and declarer asked for the king",
    "the call was not clearly heard, facts not agreed, follow suit",
    "my partner never got to call and the board could not be played",
    "after the hand the defender turned over declarer's cards",
    "during this hand and at the start of the hand he looked at his hand",
    "the rest of the hand, before the hands went back, after the hand",
    "he bid at the same moment as I did, which call stands, and they led at the same instant",
    "he doubled his own partner's bid and she redoubled her partner's double",
    "all four had played to the trick and then declarer put another card on it from dummy",
    "they said we had written down one trick too many, he said the rest are mine and declarer said small",
    "dummy got up, he gets up and left his seat, he got to call, out of it so that",
]


def test_the_offline_engine_reads_english_as_the_server_does(search_conn, search_pack_file):
    """offline-search-reading.js `readTerms` on the pack reads each sentence as translation.read_terms does."""
    offline, server = read_by_both(search_data(search_conn), READ_ALIKE, search_pack_file)
    assert offline == server


def test_a_gloss_narrowed_to_playing_cards_is_the_laws_word(search_conn):
    """JMdict glosses シャッフル "shuffle (of playing cards, etc.)": a parenthesis narrowing a gloss to
    playing cards is the Laws' own use, not one the lexicon leaves out ("card (information, filing)"); its
    forms (shuffling) then read as the vocabulary's shuffle, the Laws' シャフル (6A, 6D2)."""
    assert "シャフル" in read(search_conn, "he dealt the board after shuffling the cards")
    assert "シャフルしない" in read(search_conn, "someone dealt the board without shuffling the cards")  # 6D2
    rows = {english: japanese for english, japanese, _, _ in read_lexicon(LEXICON)}
    assert rows["shuffle"] == "シャッフル" and "deuce" not in rows  # "deuce (tennis, cards, dice, etc.)": tennis first


def test_not_following_suit_is_a_revoke(search_conn):
    """61A: スートにフォローしないこと ... はリボークになる; "did not follow suit" read フォロー, the Laws' word
    for following, the opposite of what happened."""
    words = read(search_conn, "dummy did not follow suit and nobody noticed")
    assert "リボーク" in words and "フォロー" not in words, words


def test_no_term_is_read_across_a_conjunction(search_conn):
    """ "three passes but one was out of turn": its words without the function words (passes ... out) read as
    "pass out", the vocabulary's 全員がパス (a hand passed out), over two clauses; the term is out of turn."""
    words = read(search_conn, "there were three passes but one was out of turn")
    assert "全員がパス" not in words and "順番外" in words, words
    assert "意図したコール" in read(search_conn, "he changed his mind")  # a possessive inside a term is still left out
    assert CONJUNCTIONS <= FUNCTION_WORDS


def test_a_word_reads_only_what_search_can_find(search_conn):
    """A one-word English row reads a word the corpus prints in some form, or one with printed neighbours:
    "rest" read 休み, which nothing prints, and was only shown as what it was searched as."""
    printed = {norm for norm, count in search_conn.execute("select norm, count from search_lexicon") if count}
    norms = dict(search_conn.execute("select surface, norm from search_lexicon"))
    near = {word for (word,) in search_conn.execute("select distinct word from search_neighbours")}
    rows = read_lexicon(LEXICON)
    unfound = [(e, j) for e, j, _, _ in rows if " " not in e and norms.get(j) not in printed and j not in near]
    assert not unfound, unfound[:10]
    assert dict((e, j) for e, j, _, _ in rows)["rest"] != "休み"


@pytest.mark.parametrize(
    "query, word, laws_word",
    [
        ("every card he had left was a winner", "left", "残り"),  # 71B 残りのカード: nothing taken after it
        ("he left the table", "left", "離れる"),  # an object after it: leave
        ("the player on his left", "left", "左手の対戦相手"),  # a possessive's side: the seat
        ("on my right", "right", "右手の対戦相手"),
        ("so that his partner would find the right lead", "right", "正しい"),  # qualifies lead: correct
        ("he had the right to ask", "right", "権利"),  # its own reading
        ("he had to pass for the rest of the auction", "rest", "残り"),  # 37A オークションの残りの期間中
    ],
)
def test_left_and_right_read_by_their_place(search_conn, query, word, laws_word):
    """ "left" read 離れる (leave) and "right" 権利 (a right) wherever they stood, shown as also searched."""
    data = search_data(search_conn)
    assert laws_word in dict(translation.read_terms(data.translations, query, data.chinese))[word]


def test_an_aspect_verb_before_an_ing_form_reads_nothing(search_conn):
    """ "kept looking", "keeps pulling": keep tells how long, not 保つ ("to preserve"); "kept the card" keeps it."""
    assert "保つ" not in read(search_conn, "an opponent kept looking at his own convention card")
    assert "保つ" not in read(search_conn, "he keeps pulling a card out of his hand")
    assert "保つ" in read(search_conn, "he kept the card")


def test_stopping_to_think_is_a_hesitation(search_conn):
    """73D2 躊躇したり（シングルトンをプレイする前に躊躇するなど）: "stopped to think" read 止める, to stop a thing."""
    words = read(search_conn, "the defender stopped to think before playing his singleton")
    assert "躊躇" in words and "止める" not in words, words


def test_now_reads_nothing(search_conn):
    """ "only noticed it now": now says when, as then does (FUNCTION_WORDS), not 今 'the present', which the Laws print
    in 20B's 今までのコール (the calls so far)."""
    assert "今" not in read(search_conn, "he put his card down the wrong way and only noticed it now")
    assert "今" not in read(search_conn, "what do I do now")


def test_calling_for_a_card_is_designating_one(search_conn):
    """46A ダミーからプレイするカードを指定する: "declarer called for a card" read コール, a call of the auction."""
    words = read(search_conn, "declarer called for a card that is not in dummy")
    assert "ダミーのカードを指定する" in words and "コール" not in words, words


def test_get_and_instead_read_nothing(search_conn):
    """ "what score do we get", "got to call": get is the light verb of having, not 受ける 'to receive' (shown as
    also searched); "instead of calling you" read 寧ろ, 'rather'. Both are function words now (FUNCTION_WORDS)."""
    words = read(search_conn, "the board could not be played, what score do we get")
    assert "受ける" not in words and "スコア" in words, words
    assert "受ける" not in read(search_conn, "my partner never got to call")
    assert "寧ろ" not in read(search_conn, "all four of us agreed to play it out instead of calling you")


@pytest.mark.parametrize(
    "query, typed, laws_words",
    [
        # 61A スートにフォローしないこと ... はリボークになる: "failed to" says what "not" says (the vocabulary's not follow suit)
        ("declarer failed to follow suit and noticed it himself", "failed to follow suit", ["リボーク"]),
        ("someone dealt the board without shuffling the cards", "without shuffling", ["シャフルしない"]),  # 6D2
        ("he never alerted my double", "never alerted", ["アラートしない"]),
        ("he didn't alert", "didn t alert", ["アラートしない"]),
    ],
)
def test_a_thing_said_not_done_reads_the_laws_negation(search_conn, query, typed, laws_words):
    """ "failed to follow suit" read フォロー, "without shuffling" シャフル: the thing done, the opposite of what
    happened; a negating opener reads as "not", and "not" + a noun + する the Laws' negated word (フォローしない,
    one word in index and query: ingest/text/word_forms.py)."""
    data = search_data(search_conn)
    assert dict(translation.read_terms(data.translations, query, data.chinese)).get(typed) == laws_words


@pytest.mark.parametrize(
    "query, typed, laws_words",
    [
        ("he asked only so that his partner would find the right lead", "so that", ["目的"]),  # 20G1
        ("he played slowly in order to confuse us", "in order to", ["目的"]),  # 74C7 混乱させる目的で; not 合法的
        ("he did it on purpose", "on purpose", ["故意"]),  # 72B1 故意に; not 態と
        ("he deliberately played slowly", "deliberately", ["故意"]),  # not 改めて 'anew'
    ],
)
def test_a_purpose_said_is_the_laws_purpose(search_conn, query, typed, laws_words):
    """The Laws print what an act was for as 目的 (20G1 パートナーの利益だけを目的とする質問) and an act done on
    purpose as 故意: "so that", made of function words, read nothing, "in order to" read 合法的 (in order: legal)."""
    data = search_data(search_conn)
    assert dict(translation.read_terms(data.translations, query, data.chinese)).get(typed) == laws_words
    assert english_keys.span_keys(["so"]) == [] and english_keys.span_keys(["that"]) == []


def test_opening_the_bidding_is_a_bid(search_conn):
    """ "he opened one spade" tells the auction's first bid (def:ビッド); open read 広げる, the Laws' word for
    declarer spreading his hand (54A), which was shown as also searched."""
    words = read(search_conn, "he opened one spade before the dealer had called")
    assert "ビッド" in words and "広げる" not in words, words


def test_without_alone_reads_nothing(search_conn):
    """ "without noticing", "without being told": without read 無し (the なし of 62B2 調整なしで) wherever it stood,
    shown as also searched; what it negates still reads the Laws' negation (without shuffling: シャフルしない)."""
    assert "無し" not in read(search_conn, "LHO bid over the insufficient bid without noticing")
    assert "無し" not in read(search_conn, "dummy pushed a card forward without being told")
    assert "シャフルしない" in read(search_conn, "someone dealt the board without shuffling the cards")


def test_taking_advantage_is_using_information(search_conn):
    """16A1 情報を利用できる, 73C1 不当な情報を利用しないよう: "took advantage of knowing it" read 取る 'to take' and
    利益 'profit' (12B1's gain from an infraction), both shown as also searched."""
    words = read(search_conn, "after his bid was cancelled his partner took advantage of knowing it")
    assert "情報を利用" in words and "取る" not in words and "利益" not in words, words


def test_a_head_shaken_or_a_reach_across_reads_no_chief_or_arrival(search_conn):
    """ "shook his head" (73B1: a mannerism) read head as 主任, which the Laws print only in 主任ディレクター (93A, the
    chief director), shook read 動く (8A2: boards moved to the next table), and "reached across" read 着く, which they print only for a seat taken (5B 正しい席に着く): both
    showed as also searched; neither reads now (corpus/english_lexicon_corrections.tsv), the head director still does."""
    words = read(search_conn, "my opponent shook his head when his partner led")
    assert "主任" not in words and "動く" not in words, words  # shake: 動く, 8A2's boards moved (動かす)
    assert "着く" not in read(search_conn, "the defender reached across the table")
    assert "主任ディレクター" in read(search_conn, "we asked the head director")


def test_turned_over_says_no_way_up(search_conn):
    """ "turned over declarer's cards" (7B3, 90B5: cards looked at after the hand) read 伏せる, JMdict's 'to turn over
    (face down)', the Laws' turning face down (66A); the Laws say the way a card turns (41C 表向きにして), turn over
    does not: turned over reads nothing, neither its verb alone (変える, a call changed) nor its particle ("over" right
    after a verb's past is a phrasal verb's particle); turned face down still reads 伏せる."""
    words = read(search_conn, "the defender reached across and turned over declarer's cards to see what he had")
    assert "伏せる" not in words and "変える" not in words and "カード" in words, words
    assert "伏せる" in read(search_conn, "he turned his card face down")


def test_has_no_spades_states_a_void_no_question_asked(search_conn):
    """ "the defender has no spades" read the vocabulary's spoken "no spades", the question about a possible revoke
    (61B リボークの可能性について質問する権利), shown as also searched: after a verb of having it states a void (59
    スートのカードがない), and reads the suit alone; "no spades, partner?" asked, or asking if he has no hearts, is still 61B's question."""
    words = read(search_conn, "declarer demanded a spade lead but the defender has no spades")
    assert "リボークに関する質問" not in words and "スート" in words, words
    assert "リボークに関する質問" in read(search_conn, "no spades, partner?")
    assert "リボークに関する質問" in read(search_conn, "can a defender ask his partner if he has no hearts")


def test_a_verb_reads_its_sense_only_with_an_object_the_laws_give_it(search_conn):
    """ "made the opening lead" read メイク, the Laws' making of a contract (77 コントラクトをメイクしたとき), and "turned
    his card face down" 変える, to change: there the object says the verb only carries the act (SENSES_BY_OBJECT)."""
    words = read(search_conn, "my opponent shook his head when his partner made the opening lead")
    assert "メイク" not in words and "オープニングリード" in words, words
    assert "メイク" in read(search_conn, "declarer says he made ten tricks")  # a count of tricks made: 77
    assert "メイク" in read(search_conn, "he made the doubled contract")
    assert "メイク" in read(search_conn, "the contract was made")  # no object after it
    words = read(search_conn, "declarer turned his card face down before I could see it")
    assert "変える" not in words and "伏せる" in words, words


def test_a_thing_set_apart_from_what_a_clause_names_is_one_it_was_not_done_to(search_conn):
    """ "a different card from the one declarer asked for" read 46A's designation (ダミーのカードを指定する), the card
    asked for; 45D1 rules the other one: ディクレアラーが名指していないカード (45D 指定されていないカード)."""
    missed = "ダミーが指定されていないカードを取り上げたとき"
    words = read(search_conn, "dummy put out a different card from the one declarer asked for")
    assert missed in words and "ダミーのカードを指定する" not in words and "求める" not in words, words
    assert missed in read(search_conn, "dummy played a card other than the one declarer named")
    words = read(search_conn, "the card declarer asked for")  # no contrast: the designation
    assert "ダミーのカードを指定する" in words and missed not in words, words
    assert missed not in read(search_conn, "a different card from the one declarer asked for was led")  # clause goes on


def test_a_term_keeps_its_negation_among_its_content_words(search_conn):
    """A term's key without its function words dropped "not" too: "follow suit" also read リボーク (the vocabulary's
    "not follow suit"), "facts agreed" 85's disputed facts; a sentence saying the negation still reads them."""
    assert read(search_conn, "follow suit") == ["フォロー"]
    assert "争われている事実に関する裁定" not in read(search_conn, "the facts agreed")
    assert "争われている事実に関する裁定" in read(search_conn, "the facts not agreed")
    assert "はっきり認識できないコール" in read(search_conn, "the call was not clearly heard")
    assert "リボーク" in read(search_conn, "dummy did not follow suit")
    # a negation before a function word goes with it: "never got to call" says a chance not given, no call not made
    assert "コールしない" not in read(search_conn, "my partner never got to call")


def test_watching_declarer_from_behind_is_observing_no_after(search_conn):
    """ "walked round behind declarer to watch" (43A2(b) ディクレアラーのプレイを観察する目的で席を離れてはならない) read
    behind as 後, which the Laws print only for after in time (41D 表向きにされた後), and watch as 見る while watching read
    観察; observe read 認める, the Laws' allowing (13A2 スコアすることを認める). corpus/english_lexicon_corrections.tsv."""
    words = read(search_conn, "dummy walked round behind declarer to watch his play")
    assert "観察" in words and "後" not in words and "見る" not in words, words
    assert "認める" not in read(search_conn, "he wanted to observe the play"), "observe"
    assert "後" in read(search_conn, "after the auction")


def test_the_hand_said_as_a_time_is_the_play(search_conn):
    """ "after the hand", "at the end of the hand" say when: the deal being played, which the Laws print as プレイ
    (7B3 プレイ中もプレイ後も他のプレイヤのカードに一切触れるべきではない, 66D プレイ終了後), not ハンド, a player's cards
    (7B1 ハンドを取り出す), which both showed as also searched. A hand held, and hands put back, stay ハンド."""
    words = read(search_conn, "after the hand the defender turned over declarer's cards")
    assert "プレイ" in words and "ハンド" not in words, words
    assert "引き継ぐ" not in words, words  # hand over: a word after "the" is a noun (NOUN_MARKERS), no verb
    words = read(search_conn, "they only called me at the end of the hand")
    assert "プレイ" in words and "ハンド" not in words, words
    assert "ハンド" in read(search_conn, "he looked at the hand he held")
    assert "ハンド" in read(search_conn, "it was noticed before the hands went back")


def test_played_cards_gathered_up_are_their_order_disturbed(search_conn):
    """ "gathered up his played cards" (65D プレイしたカードの順序を乱さないようにする, 66D カードを混ぜている) read nothing of
    gather up, which JMdict gives no word the Laws print: the vocabulary names it (Disturbing the Order of Played Cards)."""
    words = read(search_conn, "the defender has already gathered up his played cards")
    assert "順序を乱さない" in words and "カードを混ぜる" in words, words
    assert "順序を乱さない" not in read(search_conn, "the defender played a card"), "played alone"


@pytest.mark.parametrize(
    "query, laws_word, wrong",
    [
        ("the director gave us an adjusted score", "与える", "取る"),  # 12C2(a) 人為的調整スコアを与える
        ("which side was at fault", "責任", "非"),  # 12C2(a) 直接責任のある競技者
        ("we had written down one trick too many", "記録", "書き記す"),  # 79B3 記録されたスコア
        ("he was writing down the score", "記録", "書記"),
        ("the other side was at fault", "側", "裏"),  # 11A 他方の側
    ],
)
def test_a_score_given_written_down_or_a_side_at_fault_reads_the_laws_word(search_conn, query, laws_word, wrong):
    """JMdict's first senses read give as 取る (to take), fault as 非 (printed only as the prefix of 非反則側),
    write down as 書き記す (no unit prints it), other side as 裏 (the back of a card): the Laws give a score
    (与える), name a side at fault by its responsibility (責任), record a score (記録) and say 他方の側
    (corpus/english_lexicon_corrections.tsv)."""
    words = read(search_conn, query)
    assert laws_word in words and wrong not in words, words
