"""A seat, a turn or an impossible bid told as at the table, read in the Laws' words (issue 36): a director
says 右の人 or 左隣, パートナーの番, 隣のテーブル, パスしないといけない and 8レベル; the Laws print RHO and LHO (definitions: 右手の対戦相手,
左手の対戦相手), 順番 (def:順番; 番 only in an ordinal, 2番目) and 7を超えるビッド (Law 38).
laws_site/search/words.py TABLE_WORDS and BEYOND_SEVEN_RE; the offline engine reads the same rules from
the pack (tests/test_search_parity.py compares the answers)."""

from __future__ import annotations

import pytest

from laws_site.search import engine, translation
from laws_site.search.data import search_data
from laws_site.search.words import with_bid_word, with_table_words


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("右の人の番に1NTを出してしまった", "RHOの順番に1NTを出してしまった"),
        ("左隣がパスした", "LHOがパスした"),
        ("左隣の人が気付かずにビッドした", "LHOが気付かずにビッドした"),
        ("右の相手より先に出した", "RHOより先に出した"),
        ("パートナーの番なのにパスした", "パートナーの順番なのにパスした"),
        ("隣のテーブルの結果が聞こえた", "他のテーブルの結果が聞こえた"),
        ("となりのテーブルのカードが見えた", "他のテーブルのカードが見えた"),
        ("パスしないといけないのにビッドした", "パスする義務のにビッドした"),
        ("フォローしなきゃいけない", "フォローする義務"),
        ("アラートしないといけなかったのに", "アラートする義務のに"),
        ("システムを公開しないとだめ", "システムを公開する義務"),
        # a card from one's 手 is from his hand (55B2 間違ったハンドからリードし)
        ("ダミーからリードすべきところを手からリードした", "ダミーからリードすべきところをハンドからリードした"),
        ("自分の手札からカードを出した", "自分のハンドからカードを出した"),
    ],
)
def test_a_seat_or_a_turn_is_read_in_the_laws_words(typed, read):
    assert with_table_words(typed) == read


@pytest.mark.parametrize(
    "typed",
    # the Laws' own words, an ordinal, a number, a hand or a side: nothing to read otherwise
    [
        "順番外のコール",
        "2番目のカード",
        # 手 inside a word, or of the body (45C3 カードに手を伸ばす)
        "相手からアラートされた",
        "2番手から出した",
        "カードに手を伸ばした",
        "ボードの番号",
        "右手の対戦相手",
        "右手でカードを出した",
        "右側に置く",
        "訂正しなければならない",  # the Laws' own words for a duty
        "パスしないときは",
        "隣の人",  # a seat says which side: 右隣, 左隣
    ],
)
def test_other_words_are_left_as_typed(typed):
    assert with_table_words(typed) == typed


def test_a_play_before_the_player_on_the_right_reaches_law_57d(search_conn):
    """「右の人より先に」 is the Laws' 「RHOの順番で」 (57D 早まったプレイ); read as typed, 右 is a word no unit
    prints and 57D was not in the first ten (41A, 15A, 58B on cards put out)."""
    found = [r["id"] for r in engine.search(search_conn, "ディフェンダーが右の人より先にカードを出そうとした", limit=3)]
    assert "laws-2017-ja:57D" in found, found


def test_a_call_at_the_right_hand_opponents_turn_reaches_law_31a(search_conn):
    """「右の人の番に…と言った」 is a call at RHO's turn (31A 「反則者がRHOの順番にコールしたとき」): it was
    eighth, under Law 27's and 38C's passes."""
    found = [r["id"] for r in engine.search(search_conn, "右の人の番に1NTと言ってしまった 右の人はパス", limit=3)]
    assert any(unit.startswith("laws-2017-ja:31A") for unit in found), found


def test_a_result_heard_from_the_next_table_reaches_law_16d1(search_conn):
    """「隣のテーブルの結果が聞こえてしまった」 is 16D1's 「他のテーブルの…結果…を漏れ聞いたり」; 隣 is printed
    nowhere, and 90B3 (a procedural penalty for discussing a result audibly) came first."""
    found = [r["id"] for r in engine.search(search_conn, "隣のテーブルの結果が聞こえてしまった", limit=1)]
    assert found and found[0].startswith("laws-2017-ja:16D"), found


def test_a_duty_told_as_at_the_table_reaches_the_law_naming_it(search_conn):
    """「パスしないといけないのにビッドした」 is a breach of the Laws' 「パスする義務」 (Law 37's title): read as
    typed, only パス and ビッド counted and Laws 31, 38C and 27 came first (37 was seventh)."""
    found = [r["id"] for r in engine.search(search_conn, "パスしないといけないのにビッドしてしまった", limit=1)]
    assert found and found[0].startswith("laws-2017-ja:37"), found


@pytest.mark.parametrize("typed", ["8レベルのビッドをしてしまった", "9NT", "８ハート", "10♠と言った"])
def test_a_bid_above_the_seven_level_is_read_as_law_38s_words(typed):
    """No auction has an eighth level: a director tells the irregularity by the bid (8レベル, 9NT); the Laws
    call it 7を超えるビッド (Law 38's title)."""
    assert with_bid_word(typed).endswith(" 7を超えるビッド")


@pytest.mark.parametrize("typed", ["カードが8枚しかない", "13枚", "7NTをダブル", "18C", "第8条"])
def test_counts_citations_and_real_bids_are_not_beyond_seven(typed):
    assert "7を超えるビッド" not in with_bid_word(typed)


def test_a_bid_above_the_seven_level_reaches_law_38(search_conn):
    """「8レベルのビッド」 was fourth, under 27B1(a) and 16B1(b), which print レベル."""
    found = [r["id"] for r in engine.search(search_conn, "8レベルのビッドをしてしまった", limit=1)]
    assert found and found[0].startswith("laws-2017-ja:38"), found


def test_changing_a_pass_into_a_bid_reaches_the_law_on_changes_of_call(search_conn):
    """「ビッドに変えたい」 is a change of call (corpus/vocabulary.yml: ビッドを変える, Law 25 「コールの…言い直し」);
    the sentence's パス and ビッド alone found 38C and Law 27's passes, and Law 25 was not in the first ten."""
    found = [r["id"] for r in engine.search(search_conn, "パスと言ってから考え直してビッドに変えたい", limit=3)]
    assert any(unit.startswith("laws-2017-ja:25") for unit in found), found


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("ハートがリードされた", "スートがリードされた"),
        ("スペードを持っていない", "スートのカードがない"),
        ("ダイヤモンドを持ってなかった", "スートのカードがない"),
        ("ハートがリードされたけど持っていなかった", "スートがリードされたけどカードがない"),
        ("ダミーにハートないの", "ダミーにスートのカードがないの"),  # not held, said without を持って
        ("♣をリードした", "スートをリードした"),
        ("1ハートの後にクラブを出した", "1ハートの後にスートを出した"),
    ],
)
def test_a_named_suit_in_a_sentence_is_the_laws_suit(typed, read):
    """The Laws rule a suit, never a named one (44C 「リードされたスート」, 59 「スートのカードがない」), and print the
    four names only where suits are ranked (1A, 18E): a sentence's ハート counted as the rarest, most telling word."""
    assert with_table_words(typed) == read


@pytest.mark.parametrize(
    "typed",
    # a suit searched for by itself, a bid, a katakana word holding a suit's name, a card held
    [
        "ハート",
        "スペード",
        "1ハートの後に1ダイヤ",
        "2 スペード",
        "ブリッジクラブの会員",
        "カードを持っている",
        "クラブの大会でディレクターを呼んだ",
        "システムカードを持っていない",
        "ハートのエースが見えた",
    ],
)
def test_a_suit_alone_or_in_a_bid_is_left_as_typed(typed):
    assert with_table_words(typed) == typed


def test_a_suit_not_held_reaches_the_laws_on_a_suit_one_cannot_follow_or_lead(search_conn):
    """「クラブを持っていない」 is 59's and 61B1's 「スートのカードがない」: read as typed, クラブ was the rarest word and the
    units ranking suits (1A, 18E) or printing 持っている (57A) came first."""
    found = [
        r["id"]
        for r in engine.search(search_conn, "クラブをリードするように言われたがクラブを持っていなかった", limit=3)
    ]
    assert any(unit.startswith(("laws-2017-ja:59", "laws-2017-ja:61B", "laws-2017-ja:44")) for unit in found), found


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("ダブルと言った", "ダブルとコールした"),
        ("右の人の番に1NTと言ってしまった", "RHOの順番に1NTとコールしてしまった"),
        ("パスと言う", "パスとコールする"),
        ("3♠と言わなかった", "3♠とコールしなかった"),
        ("リダブルと言いかけた", "リダブルとコールしかけた"),
    ],
)
def test_a_call_said_is_a_call_made(typed, read):
    """The Laws make a call (31A 「RHOの順番にコールしたとき」; def:コール: a bid, double, redouble or pass) and print
    言う of speech (74C1 「違った言い方」): 「ダブルと言った」 counted 言う as a word of the situation, and units
    printing 言った (19A3, 19B3) outranked the law on the call."""
    assert with_table_words(typed) == read


@pytest.mark.parametrize("typed", ["ダブルと言われた", "ローとだけ言った", "あげますと言った", "12NTと言った"])
def test_other_things_said_are_left_as_typed(typed):
    """What another said (passive), and what is no call (ロー, a card; a level above seven is Law 38's word)."""
    assert with_table_words(typed) == typed


def test_a_call_said_after_the_auction_reaches_law_39(search_conn):
    """「…と言った」 after the last pass is Law 39's 「最後のパスの後のコール」: read as typed, 20C2 (a review after the
    last pass) came first."""
    found = [r["id"] for r in engine.search(search_conn, "最後のパスが終わってから2NTと言った", limit=1)]
    assert found and found[0].startswith("laws-2017-ja:39"), found


@pytest.mark.parametrize(
    ("typed", "read"), [("１ＮＴと言った", "1NTとコールした"), ("ﾊｰﾄを持っていない", "スートのカードがない")]
)
def test_full_width_is_read_as_the_cut_reads_it(typed, read):
    """A phone's kana keyboard types a bid in full width: the rules read the text after NFKC, as the cut does."""
    assert with_table_words(typed) == read


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("もう一度見せてと言われた", "もう一度見せてと要求された"),
        ("スペードをリードしろと言われた", "スートをリードしろと要求された"),
        ("クラブを出すようにと言った", "スートを出すようにと要求した"),
        ("全部もう一度言ってほしい", "全部もう一度言ってと要求する"),  # wished for
        ("カードを見せて欲しかった", "カードを見せてと要求する"),
    ],
)
def test_a_request_said_is_the_laws_request(typed, read):
    """The Laws print a player's request as 要求 (66A 「表向きにするよう要求できる」, 59 「リードを要求された」)."""
    assert with_table_words(typed) == read


def test_a_request_to_see_the_trick_again_reaches_law_66a(search_conn):
    """「見せてと言われた」 is 66A's request to face the cards of the current trick: read as typed, 言う counted and
    45G (cards turned before the trick is complete), 45D1 and 65A came first, 66A not in the first six."""
    found = [r["id"] for r in engine.search(search_conn, "伏せる前にトリックのカードを見せてと言われた", limit=3)]
    assert "laws-2017-ja:66A" in found, found


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("ハートないのと聞いた", "スートのカードがないのと質問した"),
        ("リボークじゃないかと聞いた", "リボークじゃないかと質問した"),
        ("リボークですかと聞かれた", "リボークですかと質問された"),
        ("スペードはないのと聞きたい", "スートのカードがないのと質問したい"),
    ],
)
def test_a_question_said_is_the_laws_question(typed, read):
    """The Laws print a player's question as 質問 (61B 「リボークの可能性について質問する権利」) and 聞く of what one
    hears: a question ending in か or の, then と聞く, reads as 質問; a suit said not held (はない) as 「スートのカードがない」."""
    assert with_table_words(typed) == read


@pytest.mark.parametrize(
    "typed", ["ビッドの意味を聞きたい", "結果が聞こえてしまった", "説明を聞いた", "ハートではない"]
)
def test_what_is_heard_or_asked_about_stays_as_typed(typed):
    """聞く without a question before と (the meaning asked about, what is heard) is left to the sentence's words."""
    assert with_table_words(typed) == typed


def test_defenders_asking_each_other_about_a_revoke_reach_law_61b3(search_conn):
    """「スペードはないのと聞いた」 between defenders is 61B3 「ディフェンダーは互いに質問することができる」: read as typed,
    聞く and スート matched nothing of 61B and 61B3 was not in the first ten (42B1, dummy's question, came first)."""
    found = [
        r["id"] for r in engine.search(search_conn, "ディフェンダーがパートナーにスペードはないのと聞いた", limit=3)
    ]
    assert "laws-2017-ja:61B3" in found, found


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("あなたのリードですよと言われた", "あなたのリードですよと教えられた"),
        ("もう終わっただと言われて", "もう終わっただと教えられて"),
        ("リボークですかと言われた", "リボークですかと質問された"),
    ],
)
def test_a_statement_heard_is_being_told(typed, read):
    """「…ですよと言われた」 is what the Laws call being told (47E1 「…の順番であるとプレイヤに間違って教えた」): read as
    言う it matched the Laws' quotative という (「…をいう」 of the definitions) everywhere."""
    assert with_table_words(typed) == read


# (ダミーが言われていないカードを出した, once here, is a card not designated: test_a_card_said_for_dummy_is_the_laws_designation)
@pytest.mark.parametrize("typed", ["失礼なことを言われた", "ディフェンダーが言われていないのに出した"])
def test_what_was_said_without_a_quoted_statement_stays_as_typed(typed):
    assert with_table_words(typed) == typed


def test_a_player_told_it_was_his_lead_reaches_law_47e1(search_conn):
    """Read as typed, 言う and 違う found 41A and 54 (opening leads) first, and 47E1 was not in the first ten."""
    found = [r["id"] for r in engine.search(search_conn, "相手にあなたのリードですよと言われて出したら違った", limit=3)]
    assert "laws-2017-ja:47E1" in found, found


def test_a_request_wished_for_reaches_law_66a(search_conn):
    """「見せてほしい」 asks for the cards of the trick as 66A's 要求: read as typed, 45G, 45D1 and 65A came first."""
    found = [r["id"] for r in engine.search(search_conn, "伏せる前にトリックのカードを見せてほしい", limit=2)]
    assert "laws-2017-ja:66A" in found, found


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("フォローできたのにしなかった", "リボークした"),
        ("フォローできるのにフォローしていない", "リボークした"),
        ("ハートを持っていたのにフォローしなかった", "リボークした"),
    ],
)
def test_a_follow_not_made_when_it_could_be_is_a_revoke(typed, read):
    assert with_table_words(typed) == read


# a player who may be void (61B1 「ディフェンダーがフォローしなかったとき」), one who could not follow (44D), a duty
@pytest.mark.parametrize("typed", ["フォローしなかった", "フォローできなかった", "フォローしないときは"])
def test_a_follow_not_made_without_saying_it_could_be_stays_as_typed(typed):
    assert with_table_words(typed) == typed


def test_a_follow_not_made_when_it_could_be_reaches_the_revoke_laws(search_conn):
    """Read as typed, ない dropped, 「フォローできたのにしなかった」 was the duty to follow: def:スートにフォローする,
    44C and 44 first, no law on the revoke (61-64) in the first three."""
    found = [r for r in engine.search(search_conn, "フォローできたのにしなかった", limit=3)]
    assert found[0]["doc"] == "laws-2017-ja" and found[0]["law"] in {"61", "62", "63", "64"}, [r["id"] for r in found]


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        # a card said from dummy is designated (46A ダミーからプレイするカードを指定するとき)
        ("ディクレアラーがダミーから何でもいいと言った", "ディクレアラーがダミーから何でもいいと指定した"),
        ("ダミーからスペードのキングと言ったけど", "ダミーからスペードのキングと指定したけど"),
        ("ダミーからローと言う", "ダミーからローと指定する"),
        # ... and a card dummy was not told to play is one not designated (45D 指定されていないカード)
        ("ダミーが言われていないカードを出した", "ダミーが指定されていないカードを出した"),
        ("ダミーは言われてなかったカードを置いた", "ダミーは指定されていなかったカードを置いた"),
    ],
)
def test_a_card_said_for_dummy_is_the_laws_designation(typed, read):
    assert with_table_words(typed) == read


@pytest.mark.parametrize(
    "typed",
    [
        "ディクレアラーがローとだけ言った",  # no dummy said: whose card is named the sentence does not say
        "ダミーから取って、ローと言った",  # a clause between: the words said are not from dummy
        "ダミーが何か言った",  # dummy speaking (43A1(c)): nothing said from dummy
        "ダミーが言われていないのに出した",  # no card named
    ],
)
def test_other_things_said_of_dummy_are_left_as_typed(typed):
    assert with_table_words(typed) == typed


@pytest.mark.parametrize(
    ("typed", "law"),
    [
        ("ディクレアラーがダミーから何でもいいと言った", "46"),  # 46B5 「何でもよい」 ... プレイを指定した場合
        ("ダミーが言われていないカードを出した", "45"),  # 45D1 ディクレアラーが名指していないカード
    ],
)
def test_a_card_said_for_dummy_reaches_the_law_on_designation(search_conn, typed, law):
    found = [r for r in engine.search(search_conn, typed, limit=1)]
    assert found[0]["doc"] == "laws-2017-ja" and found[0]["law"] == law, [r["id"] for r in found]


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("パートナーがまだ出していないのにリードした", "パートナーがプレイする前に早まってリードした"),
        ("右の人がまだプレイしてないのに出した", "RHOがプレイする前に早まって出した"),
        ("まだリードしていなかったのに", "プレイする前に早まって"),
    ],
)
def test_a_card_played_while_another_has_still_to_play_is_premature(typed, read):
    """57A 「パートナーがプレイする前に」, 57C2 「RHOがプレイする前に」, 57's title 早まったリードやプレイ."""
    assert with_table_words(typed) == read


@pytest.mark.parametrize(
    "typed",
    [
        "右の人がまだコールしていないのに先にパスと言ってしまった",  # a call out of rotation (30A), not a premature play
        "まだ全員出していないのに",  # no one named who is yet to play
        "まだハンドはボードに戻していない",
    ],
)
def test_other_things_not_yet_done_are_left_as_typed(typed):
    assert with_table_words(typed) == typed.replace("右の人", "RHO").replace("と言って", "とコールして")


def test_declarer_playing_before_the_defender_on_his_right_reaches_law_57(search_conn):
    """57C3 ディクレアラーがハンドまたはダミーから早まってプレイ ... すると ... 取り消すことはできない."""
    typed = "右のディフェンダーがまだ出していないのにディクレアラーが自分の手からカードを出した 引っ込めていいか"
    found = [r for r in engine.search(search_conn, typed, limit=3)]
    assert any(r["doc"] == "laws-2017-ja" and r["law"] == "57" for r in found), [r["id"] for r in found]


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        # 16C1 「取り消した行動から得られた情報」, 55C 「反則行為から得た情報」
        ("取り消したビッドでわかったことは使っていいの", "取り消したビッドから得た情報は使っていいの"),
        ("相手の説明から知ったこと", "相手の説明から得た情報"),
        # 20A's title 「はっきり認識できないコール」
        ("相手のコールがよく聞こえなかった", "相手のコールがはっきり認識できなかった"),
        ("ビッドカードがよく見えない", "ビッドカードがはっきり認識できない"),
    ],
)
def test_what_was_learnt_or_not_heard_well_is_read_in_the_laws_words(typed, read):
    assert with_table_words(typed) == read


@pytest.mark.parametrize("typed", ["わかったことを話した", "よく聞こえた", "結果が聞こえなかった"])
def test_other_things_learnt_or_heard_are_left_as_typed(typed):
    assert with_table_words(typed) == typed


@pytest.mark.parametrize(
    ("typed", "law"),
    [("相手が取り消したビッドでわかったことはこっちは使っていいの", "16"), ("相手のコールがよく聞こえなかった", "20")],
)
def test_what_was_learnt_or_not_heard_well_reaches_its_law(search_conn, typed, law):
    found = [r for r in engine.search(search_conn, typed, limit=1)]
    assert found[0]["doc"] == "laws-2017-ja" and found[0]["law"] == law, [r["id"] for r in found]


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        # def:順番外; 53 順番外のリード
        ("順番じゃない人がリードした", "順番外がリードした"),
        ("順番でないのにダブルと言った", "順番外のにダブルとコールした"),
        # 29A 「受け入れてコールする」, 27A1 「このプレイヤーがコールすると受け入れたことになる」
        ("順番外のコールをそのまま左の人がコールして進めた", "順番外のコールを受け入れてLHOがコールして進めた"),
        ("気づかずにそのままカードを出してしまった", "気づかずに受け入れてカードを出してしまった"),
    ],
)
def test_a_turn_not_ones_own_and_an_irregularity_played_over_read_in_the_laws_words(typed, read):
    assert with_table_words(typed) == read


@pytest.mark.parametrize(
    "typed",
    [
        "順番が来る前に",
        "ペナルティカードはそのまま置いておく",
        "そのまま、ディレクターを呼んだ",
        "4人でそのままプレイを続けた",
    ],
)
def test_other_turns_and_other_things_left_as_they_were_stay_as_typed(typed):
    assert with_table_words(typed) == typed


def test_a_lead_out_of_turn_played_over_reaches_law_53_or_60(search_conn):
    """53A 違法なリードの次の順番のハンドからプレイが行われると、正しいリードになる; 60A1."""
    typed = "順番じゃない人がリードしたのに次の人が気づかずにそのままカードを出してしまった"
    found = [r for r in engine.search(search_conn, typed, limit=3)]
    assert any(r["doc"] == "laws-2017-ja" and r["law"] in {"53", "60"} for r in found), [r["id"] for r in found]


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("コンシードしたけど実は取っていたトリックだった", "コンシードしたけど実際は取っていたトリックだった"),
        ("果実は", "果実は"),
    ],
)
def test_in_fact_is_the_laws_in_fact(typed, read):
    """71A 「自分の側が実際は勝ったトリック」; 実 inside a kanji word is left as it is."""
    assert with_table_words(typed) == read


def test_a_concession_of_a_trick_in_fact_won_reaches_law_71_higher(search_conn):
    found = [r["id"] for r in engine.search(search_conn, "コンシードしたけど実は取っていたトリックだった", limit=5)]
    assert "laws-2017-ja:71A" in found, found


@pytest.mark.parametrize(
    ("query", "said", "read"),
    [
        # 29A / 31: 没轮到 (Out of Rotation, 順番外) said as 轮不到, "it had not come round to him"
        ("还轮不到他 他就叫了一红心", "轮不到", "順番外"),
        # 20A 「コールがはっきり認識できない場合」: 没看清 said as 看不清, "could not make out"; 清 is no 明らか
        ("我看不清他叫的是什么", "看不清", "はっきり認識できないコール"),
    ],
)
def test_a_result_said_as_could_not_reads_as_said_not_reached(search_conn, query, said, read):
    """Chinese says a result not reached (没看清) or one that could not be (看不清) of the same situation: the
    vocabulary's reading of the one is the other's (laws_site/search/chinese_could_not.py), offline too."""
    data = search_data(search_conn)
    found = dict(translation.read_terms(data.translations, query, data.chinese))
    assert found.get(said) == [read] and "明らか" not in str(found), found
