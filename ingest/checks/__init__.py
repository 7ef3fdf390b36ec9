"""What `bridge-laws check` reports: the text checker and its quality, source coverage, cross-reference figures."""
