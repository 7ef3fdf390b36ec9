"""One parser per document family (pure: text in, records out), and the records they produce."""
