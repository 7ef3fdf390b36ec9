"""An English sentence read in the 2017 Laws' Japanese words through JMdict's pairs (issue 36, item 2):
corpus/english_lexicon.tsv, built into table search_english, read by laws_site/search/translation.py
after the glossary and the director vocabulary; function words name nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ingest.parsers.records import ParseError
from ingest.search.english_lexicon import FUNCTION_WORDS, LEXICON_FILE, read_lexicon
from laws_site.search import engine, english_keys, translation
from laws_site.search.data import search_data
from laws_site.search.plan import make_plan

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


@pytest.fixture(scope="module")
def data(laws_db_path):
    return search_data(sqlite3.connect(laws_db_path))


def words(data, query: str) -> list[str]:
    return translation.japanese_words(data.translations, query)


@pytest.mark.parametrize(
    "query, japanese",
    [
        ("defender dropped a card", "偶然落としたカード"),  # the vocabulary's "dropped card", with "a" inside
        ("she dropped it", "落とす"),  # dropped: LemmInflect's past of drop
        ("partner forgot to alert", "忘れる"),  # forgot: an irregular past
        ("declarer touched a card in dummy", "触れる"),  # touched: touch + ed
        ("dummy looked at a defender's cards", "見る"),
        ("partner hesitated then passed", "躊躇う"),  # hesitated: hesitate + d
        ("he was slow", "遅い"),
        ("slow pass", "躊躇"),  # the vocabulary's phrase for a call after a hesitation wins over slow -> 遅い
    ],
)
def test_everyday_english_words_reach_the_words_the_laws_print(data, query, japanese):
    assert japanese in words(data, query)


def test_a_function_word_is_no_abbreviation_in_a_sentence(laws_db_path, data):
    """ME (misexplanation) is "me" in "rude to me": no 間違った説明 read into it; the abbreviation
    alone, a query of its own (the vocabulary's, laws_site/search/plan.py), still reaches Law 75."""
    assert "間違った説明" not in words(data, "opponent was rude to me")
    assert engine.search(sqlite3.connect(laws_db_path), "ME", limit=1)[0]["id"] == "laws-2017-ja:75"


@pytest.mark.parametrize(
    "query, japanese",
    [
        # JMdict's "to take back (words, etc.)": the parenthesis names what the phrasal verb takes, no narrower use
        ("the defender played a card and now wants to take it back", "取り消す"),
        ("he took it back", "取り消す"),
    ],
)
def test_a_phrasal_verb_with_its_particle_apart_reads_as_the_phrasal_verb(data, query, japanese):
    assert japanese in words(data, query)


@pytest.mark.parametrize(
    "query, phrasal, between",
    [
        ("he took his bid back", "取り消す", "ビッド"),  # took ... back: take back, not 持つ and 後
        ("declarer put the card back in his hand", "戻す", "カード"),  # JMdict's "to put back"
        # write down: the Laws' 記録 (corrections, 79B3 記録されたスコア); turn over (伏せる, face down only) reads nothing since situations-en23
        ("he wrote the score down", "記録", "スコア"),
    ],
)
def test_a_phrasal_verb_with_its_object_between_reads_as_the_phrasal_verb_and_the_object(data, query, phrasal, between):
    found = words(data, query)
    assert phrasal in found and between in found and "後" not in found, found


def test_out_of_is_a_preposition_no_particle(data):
    """took ... out of the bidding box is no "take out" (出す)."""
    assert "出す" not in words(data, "I took the wrong card out of the bidding box")


def test_a_verbs_past_reads_only_the_verbs_senses(data):
    """meant is mean's past: JMdict's mean of the Laws' words is the noun 平均 (average), no verb."""
    assert "平均" not in words(data, "declarer said king but meant the queen")


@pytest.mark.parametrize(
    "query, japanese, not_read",
    [
        # stop is a later gloss of 限り ("end; finish; stop"), an entry read きり that the Laws never print
        # (their 〜限り is かぎり); the infinitive reads the verb
        ("dummy tried to stop declarer leading from the wrong hand", "止める", "限り"),
        ("insufficient bid corrected to the lowest sufficient bid", "訂正", "正しい"),  # a past: the verb, 訂正
        ("declarer took the trick", "取る", "持つ"),  # take is 取る's first gloss, 持つ's second
        ("nobody noticed until the end", "気づく", "認める"),  # notice: 気づく's first gloss, 認める's fourth
        ("they sorted it out and only called me at the end", "終了", "前"),  # end: 終了's first, 前's third
        # the Laws print フォローする: follow's verb forms keep the Laws' word, not 従う (obey)
        ("the next player followed to the lead out of turn", "フォロー", "従う"),
    ],
)
def test_a_word_reads_its_first_sense_as_the_laws_read_it(data, query, japanese, not_read):
    found = words(data, query)
    assert japanese in found and not_read not in found, found


def test_the_glossary_wins_over_the_dictionary_and_so_do_its_words_inflected(data):
    """lead is the glossary's リード, not JMdict's 率いる (to lead a group); leading and led too."""
    for query in ("lead", "declarer leading from the wrong hand", "a defender led out of turn"):
        found = words(data, query)
        # (leading from the wrong hand is the vocabulary's phrase, ディクレアラーの順番外のリード)
        assert any("リード" in word for word in found) and "率いる" not in found and "誘導" not in found, (query, found)


@pytest.mark.parametrize(
    "query",
    ["partner hesitated then passed", "defender dropped a card face up", "dummy called the director during play"],
)
def test_an_english_sentence_is_searched_in_the_laws_words_only(laws_db_path, data, query):
    """Its words are read (translation.py); the leftovers typed as they are (the, a, tried) would match
    sub-items' (a) or katakana readings and cover a unit alone: partner -> パートナー put Law 40 first."""
    plan = make_plan(data, query, None)
    assert plan.branches and all(branch.via is not None for branch in plan.branches), plan.branches
    assert [branch.sentence for branch in plan.branches] == [True]
    english = set(query.lower().split())
    for result in engine.search_page(sqlite3.connect(laws_db_path), query, limit=10, interface="en")["results"]:
        assert not english & {word.lower() for word in result["why"]["words"]}, (query, result["id"], result["why"])


@pytest.mark.parametrize(
    "query, phrases, words",
    [
        # 対戦相手 is cut 対戦 + 相手: two words of the situation, each counted, without the phrase ("opponents are playing
        # very slowly" now reads slow play, 遅いプレイ, a phrase of its own)
        ("opponents are slow", {"対戦 相手"}, {"遅い"}),
        # a particle ends a phrase: ディクレアラーの順番外のリード is ディクレアラー, 順番外, リード
        ("dummy tried to stop declarer leading from the wrong hand", {"順番 外"}, {"デクレアラ", "リド"}),
        ("防家掉了一张牌 同伴看见了", set(), {"デフエンダ"}),
    ],
)
def test_a_translated_term_printed_as_one_compound_counts_once(data, query, phrases, words):
    (branch,) = [branch for branch in make_plan(data, query, None).branches if branch.sentence]
    single = {clause[0] for clause in branch.clauses if len(clause) == 1}
    assert phrases == {word for word in single if " " in word}, branch.clauses
    pieces = {piece for phrase in phrases for piece in phrase.split()}
    assert words <= single and not pieces & single, branch.clauses


@pytest.mark.parametrize("query", ["防家掉了一张牌 同伴看见了", "NT", "penaruti kaado"])
def test_what_no_english_sentence_reads_is_still_searched_as_typed(data, query):
    """A Chinese sentence matches the 1997 Chinese text word for word; an English word the translation
    cannot read alone, or a Latin word the Japanese text prints (NT), is searched as typed."""
    assert any(branch.via is None for branch in make_plan(data, query, None).branches)


@pytest.mark.parametrize("english, unprinted", [("face", "建て前"), ("stop", "打ち切る")])
def test_a_word_the_laws_print_is_read_before_one_they_never_print(laws_db_path, data, english, unprinted):
    """JMdict's word for an English word is one the corpus prints where one of its senses names one: not
    a word the lexicon holds only as a neighbour of the Laws' words (face was 建て前, shown under "Also
    searched" and matching nothing)."""
    printed = dict(sqlite3.connect(laws_db_path).execute("select surface, count from search_lexicon"))
    assert not printed[unprinted]
    read = data.translations[english]
    assert unprinted not in read and all(printed.get(word) for word in read), read


@pytest.mark.parametrize("english, laws_word, other", [("after", "後", "過ぎ"), ("before", "前", "以前")])
def test_of_the_dictionary_words_the_laws_print_the_commonest_in_them_is_read(
    laws_db_path, data, english, laws_word, other
):
    """Both name the English word in their entry's first senses; the Laws print one far more often."""
    printed = dict(sqlite3.connect(laws_db_path).execute("select surface, count from search_lexicon"))
    assert printed[laws_word] > printed[other] > 0
    assert data.translations[english] == [laws_word]


def test_every_dictionary_word_is_one_word_of_the_lexicon(laws_db_path, data):
    """A Japanese word the lexicon would cut into pieces would search for its pieces: none is read."""
    pairs = translation.dictionary_pairs(sqlite3.connect(laws_db_path))
    assert len(pairs) > 5000
    from_dictionary = {japanese for _, japanese, *_ in pairs}
    named = {word for found in data.translations.values() for word in found}
    read = from_dictionary & named
    assert read and all(word in data.lexicon.words for word in read)


def test_the_table_is_the_file(laws_db_path):
    rows = read_lexicon(CORPUS / LEXICON_FILE)
    built = sqlite3.connect(laws_db_path).execute("select count(*) from search_english").fetchone()[0]
    assert built == len({english for english, *_ in rows}) == len(rows)


def test_the_file_names_its_source_version_and_licence():
    header = [line for line in (CORPUS / LEXICON_FILE).read_text(encoding="utf-8").splitlines() if line.startswith("#")]
    text = "\n".join(header)
    assert "JMdict" in text and "CC BY-SA" in text and "jamdict-data 1.5" in text and "LemmInflect" in text


def test_no_function_word_is_a_key_of_the_file():
    assert not [english for english, *_ in read_lexicon(CORPUS / LEXICON_FILE) if english in FUNCTION_WORDS]


@pytest.mark.parametrize(
    "line, problem",
    [
        ("Drop\t落とす\tto drop\tdrop", "english and word in lower case"),
        ("drop\t落とす\tto drop", "english<TAB>japanese<TAB>gloss<TAB>word"),
        ("drop\t\tto drop\tdrop", "english<TAB>japanese<TAB>gloss<TAB>word"),
    ],
)
def test_a_bad_line_is_a_parse_error_naming_its_line(tmp_path, line, problem):
    path = tmp_path / LEXICON_FILE
    path.write_text("# header\nslow\t遅い\tslow\tslow\n" + line + "\n", encoding="utf-8")
    with pytest.raises(ParseError) as raised:
        read_lexicon(path)
    assert raised.value.line == 3 and problem in str(raised.value) and str(path) in str(raised.value)


def test_a_phrase_naming_one_suit_reads_the_same_for_any_suit(data):
    """The vocabulary's "no spades" (the question of Law 61B) is also asked as "no hearts"."""
    spades = words(data, "partner, no spades?")
    assert "リボークに関する質問" in spades
    assert words(data, "partner, no hearts?") == spades


def test_a_verb_form_of_a_noun_term_reads_the_verb_not_the_noun(data):
    """turned, turning are the verb turn's (JMdict "to turn": 変える), not the glossary's Turn, 順番 ("his
    turn"), which dropping the ending read: "a pair turned up late" was read as a turn to call. The noun
    stays the noun, and a term that is the word's own loanword keeps its verb forms (passed: パス)."""
    assert data.translations["turned"] == data.translations["turning"] == ["変える"]
    assert "順番" not in words(data, "he turned the card face up")
    assert "順番" in words(data, "it was his turn")
    assert "パス" in words(data, "partner passed") and "ダブル" in words(data, "he doubled")
    assert "取りの宣言" in words(data, "declarer claimed")


@pytest.mark.parametrize(
    "query, verb",
    [
        ("the north pair showed up after the start", "見え"),
        ("they sorted out the boards", "比"),
        ("he turned up", "変える"),
        ("they sorted it out themselves", "比"),
        ("can they sort it out", "比"),
    ],
)
def test_a_verb_before_its_particle_naming_no_term_reads_nothing(data, query, verb):
    """ "showed up", "sorted out", "turned up" mean other than show, sort, turn: no term names the phrasal
    verb, and the verb alone read a wrong sense (turned: 変える, sorted: 比, "a sort")."""
    assert verb not in words(data, query), words(data, query)


@pytest.mark.parametrize(
    "query, japanese",
    [
        ("he picked up his cards", "取る"),
        ("declarer gave up a trick", "取られの宣言"),
        ("declarer played on", "プレイ"),
    ],
)
def test_a_phrasal_verb_a_term_names_still_reads_and_on_begins_a_phrase(data, query, japanese):
    assert japanese in words(data, query), words(data, query)


@pytest.mark.parametrize(
    "query",
    [
        "a pair arrived late for the first round",  # the vocabulary's "arriving late" said in the past
        "he always arrives late",
        "a pair turned up late for the first round",  # its "turning up late": a phrasal verb's past
        "they showed up late",
    ],
)
def test_a_term_beginning_with_a_verbs_ing_form_reads_in_any_form_of_the_verb(data, query):
    """Late Arrival is spoken "arriving late", "turning up late": a director says the verb in the past, and
    the term read nothing of it (arrived: 来る; turned up: nothing, a phrasal verb no term names)."""
    assert "指定開始時間後の競技者の到着" in words(data, query), words(data, query)


def test_a_dictionary_phrase_is_keyed_by_the_forms_the_dictionary_lists_only(data):
    """JMdict's "asking for" (指名, 'nomination') gives "asked for" no 指名: only a glossary or vocabulary
    term is keyed by its verb's stem (the dictionary lists the forms it has: ask for, 求める)."""
    assert words(data, "he asked for help") == words(data, "he asked for") + words(data, "help")
    assert "指名" not in words(data, "he asked for help")
    assert english_keys.verb_keys("arriving late") == ["arrivlate"]
    assert english_keys.verb_keys("opening") == [] and english_keys.verb_keys("having none") == []
