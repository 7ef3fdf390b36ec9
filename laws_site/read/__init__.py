"""Reading laws.db for a page: SQL reads, units and permalinks, linked text, diffs, editions and their reasons."""
