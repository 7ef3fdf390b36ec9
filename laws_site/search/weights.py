"""How search weighs what it finds, in one place: the server ranks with these and the offline pack
carries them by name (laws_site/offline/search_data.py). Each comment says what the weight ranks
above or below."""

from __future__ import annotations

TITLE_WEIGHT = 5.0
TEXT_WEIGHT = 1.0
INDEX_WEIGHT = 2.0  # a unit the 索引 cites from an entry with exactly the query's words: above any text or title hit
TRANSLATED_INDEX_WEIGHT = 1.0  # the same for a translation of the query (which counts GLOSSARY_WEIGHT anyway)
DEFINITION_WEIGHT = 1.0  # the definition the glossary names for the query's term
GLOSSARY_WEIGHT = 0.45  # a translation ranks below what the query itself finds (藏牌: Chinese first)
TRANSLATION_WEIGHT = 1.0  # a Chinese or English sentence read in the current Laws' words ranks with the query's own
RELAXED_WEIGHT = 0.5  # hits holding only some of the tokens rank below full matches
TITLE_BOOST = 0.6  # the title carries every word: the unit is about it, not a passing mention
HEADING_BOOST = 0.3  # ... and it is a law, an article or a definition, not one of their parts
HEADING_KINDS = ("law", "article", "definition")
NAMED_BOOST = 0.3  # the title is exactly what the branch searches for (19A 加倍 for 加倍): the unit it names
# ... for a law, an article, a definition or a section: not a heading over several laws (第6部 罚张)
# nor an item or sub-item (25B2(c) 引牌判罚 is a detail of Law 26's 引牌判罚)
NAMED_KINDS = HEADING_KINDS + ("section",)
VOCABULARY_BOOST = 1.2  # the first unit the vocabulary names for the query; later ones a little less
VOCABULARY_STEP = 0.05
REPRINT_WEIGHT = 0.5
# the interfaces whose readers want the current law before the 1997 Chinese unit a query matches word for
# word (ranking.lift_current); the Japanese interface ranks each text by its own words
CURRENT_FIRST_INTERFACES = ("zh", "en")
# a sentence no unit holds whole (laws_site/search/coverage.py): a unit covers a word in its title or its
# text, under its law part's titles or lead-ins, through a 索引 entry citing it, or a commentary note on it
TITLE_CREDIT = 1.0
TEXT_CREDIT = 0.6
CONTEXT_TITLE_CREDIT = 0.8
CONTEXT_TEXT_CREDIT = 0.4
INDEX_CREDIT = 0.8
VOCABULARY_CREDIT = 0.8  # a word the director vocabulary names laws for: as the 索引 filing it there
# a word the unit holds only bound inside another (出す of 取り出す, 目 of 12トリック目: ingest/text/bound_words.py)
# earns this share of the credit it would earn printed whole
BOUND_SHARE = 0.3
NOTE_CREDIT = 0.1  # ... each of a much-commented law's many notes mentions some word: one note's word says little
COVERAGE_MIN_IDF = 0.05  # a word in nearly every unit still counts a little
# a Chinese word of this many characters or more that no unit prints (长考: the 1997 text prints 迟疑) still
# counts, uncovered: a 1997 unit printing the sentence's other words (同伴) does not cover all of it where the
# Japanese reading (躊躇) may; a single character (吗, 呢: particles) or a Japanese word no unit prints is skipped
COVERAGE_UNPRINTED_CHARS = 2
COVERAGE_WEIGHT = 1.0
# ... and some of its bm25 (a unit that holds the words often and briefly), to tell apart units covering alike
COVERAGE_BM25 = 0.3
# ... by the role of its document: a situation is ruled by the Laws; a regulation (a factoring table whose
# title says 違う) or a commentary's page covering alike ranks below the law
SITUATION_ROLE_WEIGHT = {"laws": 1.0, "commentary": 0.7, "regulations": 0.7}
SITUATION_DEFINITION_WEIGHT = 0.7
SENTENCE_WORDS = 3  # content words from which a query is a situation, ranked by coverage even where a unit holds them all  # ... and the definition of one of its words below a provision
# of two units among a sentence's first this many covering it exactly alike, the one the other cites ranks first
# (ranking.cited_rule_first: 27B4 「本条A項1が認めるとおり」 applies 27A1's rule)
CITED_RULE_DEPTH = 10
# the results a phone shows before any scrolling (issue 36: the governing law "on the first screen", within the top
# 3): a heading a part above it already shows follows them (ranking.headings_shown_by_parts)
FIRST_SCREEN = 3
CITED_SCORE = 3.0
CITING_SCORE = 0.5
