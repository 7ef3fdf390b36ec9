"""The corpus as input: the document registry, the verbatim texts with their errata, corpus YAML read within bounds."""
