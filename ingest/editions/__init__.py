"""Editions and reprints: alignment, diffs, the 1997 -> 2017 concordance, each law's history, second witnesses."""
