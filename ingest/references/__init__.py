"""References and labels: every reference resolved, re-spelt refs, human labels, reading order, citation counts."""
