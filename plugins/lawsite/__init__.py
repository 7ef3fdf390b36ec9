"""Shared code for the law-library pages: database reads, reference links, ref spellings.

Datasette loads every ``plugins/*.py`` file as a plugin; this package sits in a
sub-directory so it is imported by those plugins rather than registered as one.
"""
