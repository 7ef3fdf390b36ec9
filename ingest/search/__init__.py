"""What search reads, made at build: the glossary, the director vocabulary, expansions, labels and term tables."""
