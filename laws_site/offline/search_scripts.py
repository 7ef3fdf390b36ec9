"""The offline search's scripts, in the order they load (each file adds to `BridgeLawsSearch`): the
offline page and the glossary's filter load them (templates, through the Jinja global
`offline_search_scripts`), the service worker imports them (static/sw.js lists the same names:
tests/test_search_scripts.py), the parity check runs them in Node."""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "static"
OFFLINE_SEARCH_SCRIPTS = (
    "offline-search-text.js",  # the text core: rules, folding, forgiving keys, citations, snippets
    "offline-search-engine.js",  # a search, planned and presented
    "offline-search-reading.js",  # a Chinese or English query read in the Laws' words
    "offline-search-expansions.js",  # readings, romaji, sounds, synonyms, corrections
    "offline-search-citations.js",  # the units a query cites
    "offline-search-presentation.js",  # a page's snippets, whys and links
    "offline-search-ranking.js",  # the ranking
    "offline-search-order.js",  # a ranking's order: current units lifted, reprints folded, the first screen
    "offline-search.js",  # the offline page
)


def script_paths() -> list[Path]:
    return [STATIC / name for name in OFFLINE_SEARCH_SCRIPTS]
