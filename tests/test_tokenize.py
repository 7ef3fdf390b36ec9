"""Tokens: the same function makes index tokens and query tokens, so a query spelled one way
finds text spelled another (katakana variants, traditional Chinese)."""

import pytest

from ingest.text import tokenize


@pytest.fixture(autouse=True)
def corpus_variants():
    """The variants a build of this corpus folds with (what table `variants` holds); the tokenizer
    itself knows none until told (serving installs them from the database)."""
    previous = tokenize.variants_in_force()
    tokenize.use_variants(tokenize.read_variants())
    yield
    tokenize.use_variants(previous)


def index_token_set(text: str, lang: str) -> set[str]:
    return set(tokenize.index_tokens(text, lang).split())


def query_matches(query: str, text: str, lang: str) -> bool:
    """True if every FTS clause of the query has an alternative in the text's index tokens
    (phrase alternatives: all their words present and in order)."""
    indexed = tokenize.index_tokens(text, lang).split()

    def present(alternative: str) -> bool:
        words = alternative.split()
        return any(indexed[i : i + len(words)] == words for i in range(len(indexed)))

    clauses = tokenize.query_clauses(query, lang)
    return bool(clauses) and all(any(present(alt) for alt in clause) for clause in clauses)


# query spelling -> text spelling, both as printed in (or typed about) the corpus
VARIANT_CASES = [
    ("ディクレアラー", "ディクレアララーは自分のハンドを広げる"),
    ("ディクレアラー", "ディクレアラールが見せたカード"),
    ("ディクレアラー", "ディクレーラー側がコントラクトをメイク"),
    ("ディクレアラー", "どれが意図するカードかをディクレーターは指定"),
    ("ディクレアララー", "ディクレアラ側が取った各トリック"),
    ("ディクレアラール", "ディクレアラーの順番外のリード"),
    ("プレイヤー", "プレイヤの情報の利用"),
    ("プレイヤ", "ボードとプレイヤーの移動"),
    ("プレーヤー", "プレイヤの情報の利用"),
    ("スーツ", "リードされたスートのカードをプレイ"),
    ("スート", "希望するカードのスイートとランク"),
    ("ディフェンダ", "ディフェンダーの順番外のリード"),
    ("パートナ", "パートナー間の了解事項"),
    ("キャリオーバー", "マッチポイントペア戦のキャリーオーバー"),
    ("キャリーオーバー", "キャリオーバーの点数"),
    ("アーティフィシヤルコール", "アーティフィシャルコールのサイキック"),
    ("ビディングシート", "ビデイングシートを使う"),
    ("ブレークインテンポ", "ブレイクインテンポがあった"),
    ("デュプリケートブリッジ", "デュブリケートブリッジの規則"),
    ("リボーク", "ーリボークの訂正"),  # a stray long-vowel mark in the conversion
    ("ﾘﾎﾞｰｸ", "リボークの成立"),  # half-width katakana
]


@pytest.mark.parametrize("query, text", VARIANT_CASES, ids=[f"{q}->{t[:12]}" for q, t in VARIANT_CASES])
def test_query_spelling_finds_text_spelling(query, text):
    assert query_matches(query, text, "ja")


# words that look alike but are different words must stay apart
DISTINCT_CASES = [
    ("セッション", "セクションごとに"),
    ("スタート", "スートにフォローする"),
    ("ディーラー", "ディクレアラーのパートナー"),
    ("ダブル", "リダブルする"),
]


@pytest.mark.parametrize("query, text", DISTINCT_CASES, ids=[f"{q}-/->{t[:8]}" for q, t in DISTINCT_CASES])
def test_different_words_stay_apart(query, text):
    assert not query_matches(query, text, "ja")


FOLD_CASES = [
    ("ディクレアララー", "ディクレアラー"),
    ("アーティフィシヤル", "アーティフィシャル"),
    ("キャリオーバー", "キャリーオーバー"),
    ("トーナメント・ディレクター", "トーナメントディレクター"),
]


@pytest.mark.parametrize("a, b", FOLD_CASES, ids=[f"{a}={b}" for a, b in FOLD_CASES])
def test_fold_katakana_gives_one_spelling(a, b):
    assert tokenize.fold_katakana(a) == tokenize.fold_katakana(b)


def test_fold_leaves_kanji_and_latin_alone():
    assert tokenize.fold_katakana("順番外") == "順番外"
    assert tokenize.fold_katakana("imp") == "imp"


def test_every_listed_variant_folds_to_its_canonical_spelling():
    import yaml

    data = yaml.safe_load(tokenize.VARIANTS_FILE.read_text(encoding="utf-8"))
    for canonical, spellings in data["variants"].items():
        for spelling in spellings:
            assert tokenize.fold_katakana(spelling) == tokenize.fold_katakana(canonical), spelling


def test_japanese_normalised_forms_and_particles():
    assert tokenize.query_terms("取り消した", "ja") == ["取り消す"]
    assert tokenize.query_terms("順番外のリード", "ja") == ["順番", "外", tokenize.fold_katakana("リード")]


# Chinese: two-character terms, traditional queries, Latin words inside Chinese text
CHINESE_CASES = [
    ("藏牌", "却打出另外花色的牌张,即为藏牌。"),
    ("罚张", "两张或更多的罚张"),
    ("明手", "明手的权利"),
    ("罰張", "两张或更多的罚张"),  # traditional query, simplified text
    ("明手的權利", "明手的权利"),
    ("莊家攤牌", "庄家摊牌"),
    ("IMP", "国际比赛分(INTERNATIONAL MATCH POINT-IMP)"),
    ("77", "(参阅第77条)"),
]


@pytest.mark.parametrize("query, text", CHINESE_CASES, ids=[f"{q}->{t[:8]}" for q, t in CHINESE_CASES])
def test_chinese_query_finds_text(query, text):
    assert query_matches(query, text, "zh")


CHINESE_MISSES = [
    ("藏牌", "藏 牌"),  # the two characters apart are not the word
    ("罚张", "张罚"),
    ("imp", "important"),  # a Latin word is one token, not its letters
]


@pytest.mark.parametrize("query, text", CHINESE_MISSES, ids=[f"{q}-/->{t}" for q, t in CHINESE_MISSES])
def test_chinese_query_does_not_match_pieces(query, text):
    assert not query_matches(query, text, "zh")


def test_simplification_keeps_offsets():
    text = "莊家攤牌後"
    tokens = tokenize.chinese_tokens(text)
    assert all(text[t.begin : t.end] == t.surface for t in tokens)
    assert "庄家" in {t.norm for t in tokens}


def test_japanese_offsets_point_into_the_original_text():
    text = "ディクレアララーはプレイヤの"
    for token in tokenize.japanese_tokens(text):
        assert text[token.begin : token.end] == token.surface


@pytest.mark.parametrize(
    "query",
    ['"x', "a-b", "C++", "OR", "NEAR(a b)", "*", "col:val", "\x00", "😀", "(", ""],
    ids=["quote", "hyphen", "cplusplus", "or", "near", "star", "colon", "nul", "emoji", "paren", "empty"],
)
def test_fts_match_is_always_quoted(query):
    for lang in ("ja", "zh"):
        match = tokenize.fts_match(tokenize.query_clauses(query, lang))
        assert match is None or match.startswith(('"', "("))
        assert "\x00" not in (match or "")


def test_long_text_is_tokenized_in_chunks():
    text = "リボークの訂正。" * 8000  # ~190 KB in UTF-8: over Sudachi's 49,149-byte limit
    assert tokenize.index_tokens(text, "ja").count("リボク") >= 8000


def test_index_tokens_come_with_their_offsets_in_the_text():
    text = "不当情報の利用とキャリーオーバー。ディクレアララーは"
    tokens, packed = tokenize.index_tokens_and_offsets(text, "ja")
    offsets = tokenize.unpack_offsets(packed)
    assert tokens == tokenize.index_tokens(text, "ja") and len(tokens.split()) == len(offsets)
    spans = dict(zip(tokens.split(), offsets))
    assert text[slice(*spans["情報"])] == "情報"
    assert text[slice(*spans[tokenize.fold_katakana("ディクレアラー")])] == "ディクレアララー"
    # the joined katakana compound spans both of its pieces
    assert text[slice(*spans[tokenize.fold_katakana("キャリーオーバー")])] == "キャリーオーバー"


def test_chinese_offsets_cover_bigrams_and_characters():
    tokens, packed = tokenize.index_tokens_and_offsets("两张罰張", "zh")
    pairs = list(zip(tokens.split(), tokenize.unpack_offsets(packed)))
    assert ("罚张", (2, 4)) in pairs and ("张", (1, 2)) in pairs


def test_variants_come_from_the_table_in_force_not_from_corpus(monkeypatch):
    """Serving installs the database's variants; with none installed only the general rules fold."""
    tokenize.use_variants({})
    assert tokenize.fold_katakana("ディクレアララー") != tokenize.fold_katakana("ディクレアラー")
    monkeypatch.setattr(tokenize, "read_yaml", lambda path: pytest.fail(f"read {path} at query time"))
    tokenize.use_variants(
        {tokenize.general_katakana_fold("ディクレアララー"): tokenize.general_katakana_fold("ディクレアラー")}
    )
    assert tokenize.fold_katakana("ディクレアララー") == tokenize.fold_katakana("ディクレアラー")
    assert tokenize.query_terms("ディクレアララー", "ja") == tokenize.query_terms("ディクレアラー", "ja")


@pytest.mark.parametrize(
    "text",
    [
        "赛员虽能跟牌或可履行引牌判罚,却打出另外花色的牌张,即为藏牌。",
        "第64条 IMP 77分",
        "藏",
        "罰張與明手",
        "a",
        "",
        "夢家(dummy)出牌 12 张",
    ],
)
def test_chinese_index_spans_are_the_bigram_tokens_spans(text):
    from ingest.text.tokenize import chinese_bigram_spans, chinese_bigram_tokens

    assert chinese_bigram_spans(text) == [(t.norm, t.begin, t.end) for t in chinese_bigram_tokens(text)]


def katakana_runs_word_by_word(text: str, spans: list[tuple[str, int, int]]) -> list[list]:
    """The index's katakana runs as first written: every word's surface matched on its own."""
    is_katakana = tokenize.KATAKANA_WORD_RE.fullmatch
    return tokenize.adjacent_katakana(
        (span, is_katakana(text, span[1], span[2]) is not None, span[1], span[2]) for span in spans
    )


def test_katakana_runs_found_by_stretches_are_those_found_word_by_word():
    """Whole corpus: the runs the index joins (found inside the text's stretches of katakana) are the
    runs found by testing every word; hundreds of texts have at least one."""
    from ingest.sources.corpus import DEFAULT_CORPUS, load_sources

    texts_with_runs = 0
    for source in load_sources(DEFAULT_CORPUS):
        if source.language != "ja":
            continue
        for text in source.text.split("\n\n"):
            spans = [(token.norm, token.begin, token.end) for token in tokenize.japanese_tokens(text)]
            expected = katakana_runs_word_by_word(text, spans)
            assert tokenize._katakana_span_runs(text, spans) == expected, text[:80]
            texts_with_runs += bool(expected)
    assert texts_with_runs > 100
