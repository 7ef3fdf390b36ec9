"""How an English verb is said, read as the Laws say it (issue 36, situations-en34): a verb form the dictionary spells
apart from its verb (came: to come, went: to go, held: to hold) is a verb before its particle, as a regular -ed or -ing
is ("came over", "went off", "held up" read nothing rather than 来る, 動く or 含む); the two JMdict readings of that kind
the benchmark sentences showed, corrected to the Laws' words (corpus/english_lexicon_corrections.tsv); a chance to act
said (never got to call) is the Laws' right to act; a verb with a manner adverb (playing slowly) the term of its
adjective and noun (slow play); a call's meaning asked about (asking what our bids meant) a request for its
explanation (20F1 説明)."""

from __future__ import annotations

from laws_site.search import translation
from laws_site.search.data import search_data
from tests.reading_parity import read_by_both


def read(search_conn, query: str) -> list[str]:
    data = search_data(search_conn)
    terms = translation.read_terms(
        data.translations, query, data.chinese, data.joined_words, data.suits_held, data.irregular_forms
    )
    return [word for _, words in terms for word in words]


def test_the_dictionarys_irregular_forms_are_the_verbs(search_conn):
    forms = search_data(search_conn).irregular_forms
    assert {"came", "went", "held", "told", "took"} <= forms, sorted(forms)[:20]
    assert not forms & {"come", "go", "hold", "card", "trick", "lead"}


def test_an_irregular_form_before_its_particle_reads_nothing(search_conn):
    """went read 動く, which the Laws print only for boards moved (8A2 ボードを次のラウンドのテーブルに動かす), and
    round ラウンド, the round of boards; came 来る, held 含む ('to contain'): none of them was said."""
    words = read(search_conn, "he went round the room and then went off to get a coffee")
    assert "動く" not in words and "ラウンド" not in words, words
    assert "来る" not in read(search_conn, "the director came over to our table")
    assert not {"含む", "持つ"} & set(read(search_conn, "declarer held up his card so everyone could see it"))


def test_a_form_with_no_particle_or_a_phrasal_verb_named_still_reads(search_conn):
    assert "持つ" in read(search_conn, "declarer held a card face up just above the table")
    assert "取り消す" in read(search_conn, "he took back his bid")
    assert "戻す" in read(search_conn, "he gave back the card")


def test_coming_back_reads_nothing_and_exactly_is_the_laws_exactly(search_conn):
    """come back read 来る, which the Laws print for a turn or the director coming (20F1 順番が来るまで, 68D2(a)
    ディレクターが来るまでは); exactly read きちんと, which they never print: 正確 (7B2 正確に13枚あることを確認)."""
    words = read(
        search_conn, "they came back after the round had finished and said we had written down a trick too many"
    )
    assert "来る" not in words and "記録" in words, words
    words = read(search_conn, "we scored exactly the same as one other pair")
    assert "正確" in words and "きちんと" not in words, words


def test_a_bid_raised_is_no_action_taken(search_conn):
    """raise read 起す, the Laws' action taken or irregularity occurring (11A 行動を起こした, 72C 違反行為を起こした): a bid
    raised is neither (corpus/english_lexicon_corrections.tsv)."""
    assert "起す" not in read(search_conn, "he bid and his partner raised to four hearts")


def test_a_chance_to_act_said_is_the_laws_right_to_act(search_conn):
    """ "my partner never got to call" read コール, a call made, where 17D3 says the player skipped was deprived of his
    right to call (順番を飛ばされたプレイヤーがコールする権利を奪われた): get to + a verb reads the right the Laws print
    for the verb's word (Xする権利: 17D3, 20C1 質問する権利, 92B 上告する権利), negated or not."""
    assert {"コール", "質問", "上告"} <= search_data(search_conn).rights_to_act
    words = read(search_conn, "there were three passes but one was out of turn so my partner never got to call")
    assert "コールする権利" in words and "コール" not in words, words
    assert "上告する権利" in read(search_conn, "we did not get to appeal the ruling")
    assert "質問する権利" in read(search_conn, "he didn't get to ask about the bid")
    assert read(search_conn, "I have got to call the director") == ["ディレクターを呼ぶ"]
    assert "コールする権利" not in read(search_conn, "he got to the table late")


def test_a_verb_said_with_a_manner_adverb_reads_the_term_of_its_adjective_and_noun(search_conn):
    """ "opponents are playing very slowly" read プレイ and 遅く apart, which 74C7's tempo and 74B4 cover as well as
    90B2's 競技者の不当に遅いプレイ: a verb and its manner adverb read the term the adjective and the verb's noun name
    (slow play; a slow pass, 16B's hesitation), degree words between; with no such term, as before."""
    words = read(search_conn, "opponents are playing very slowly")
    assert "遅いプレイ" in words and "遅く" not in words, words
    assert "躊躇" in read(search_conn, "partner passed slowly")
    assert "躊躇" in read(search_conn, "he bid too slowly")
    assert read(search_conn, "he played quickly") == ["プレイ", "早く"]


def test_a_calls_meaning_asked_about_is_a_request_for_an_explanation(search_conn):
    """ "my opponent kept asking what our bids meant" read nothing of meant; asking what a call means is asking for its
    explanation (20F1 対戦相手のオークションの説明を要求できる) as well as about its meaning (40B5(a) 意味); with no asking
    said, mean reads 意味 alone, and a card meant (declarer's intent) no explanation."""
    words = read(search_conn, "my opponent kept asking what our bids meant when it was not his turn")
    assert "コールの説明" in words and "意味" in words, words
    assert "コールの説明" in read(search_conn, "he asked him what his double means")
    assert "コールの説明" not in read(search_conn, "what does his bid mean")
    assert "コールの説明" not in read(search_conn, "declarer asked for the king from dummy but meant the queen")


def test_a_bid_after_the_auction_is_a_call_after_the_final_pass(search_conn):
    """corpus/vocabulary.yml, Call after the Final Pass: the auction ends with its final pass (22A 最後のビッドの後でパスが
    順番に3回続いたとき), so a bid after the auction is 39's call (39A オークションの最後のパスの後のコールはすべて取り消す);
    "after the auction" with no bid or call before it is no such call."""
    assert "最後のパスの後のコール" in read(search_conn, "he made a bid after the auction had already ended")
    assert "最後のパスの後のコール" not in read(search_conn, "after the auction declarer asked for a review")


READ_ALIKE = [
    "he went round the room and then went off to get a coffee",
    "the director came over to our table",
    "declarer held up his card so everyone could see it",
    "declarer held a card face up just above the table",
    "he took back his bid and gave back the card",
    "they came back after the round had finished",
    "he sorted it out and walked round",
    "there were three passes but one was out of turn so my partner never got to call",
    "we did not get to appeal, he didn't get to ask, I have got to call the director",
    "opponents are playing very slowly, partner passed slowly and he bid too slowly",
    "he played quickly and hastily, she is slowly",
    "my opponent kept asking what our bids meant, he asked him what his double means, what does his bid mean",
    "declarer asked for the king from dummy but meant the queen, I asked what it meant",
]


def test_the_offline_engine_reads_irregular_forms_as_the_server_does(search_conn, search_pack_file):
    offline, server = read_by_both(search_data(search_conn), READ_ALIKE, search_pack_file)
    assert offline == server
