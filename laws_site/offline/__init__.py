"""The pocket app's copy of the site: the packs of every page and what offline search reads."""
