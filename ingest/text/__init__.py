"""The text core both sides share: tokens, kana and romaji keys, the one reference grammar and how people spell a citation."""
