"""The offline engine's reading of a query beside the server's: what offline-search-reading.js answers on the built
pack (in Node) and what search reads (translation.query_terms), for the tests that hold the two alike."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

from laws_site.offline.search_scripts import script_paths
from laws_site.search import translation

CUT_IN_NODE = """
let search;
for (const script of process.argv.slice(1)) search = require(script);  // node -e: the scripts follow node
const engine = new search.Engine(JSON.parse(require("fs").readFileSync(0, "utf8")));
const runs = JSON.parse(process.env.RUNS);
process.stdout.write(JSON.stringify(runs.map((run) => engine.chineseWords(run))));
"""
READ_IN_NODE = CUT_IN_NODE.replace("engine.chineseWords(run)", "engine.readTerms(run)")


def in_node(script: str, runs: list[str], search_pack_file) -> list:
    """What the offline engine answers for each of `runs` (`script` reads RUNS), on the built pack."""
    node = shutil.which("node")
    assert node, "node is not installed (the offline engine runs in Node)"
    answer = subprocess.run(
        [node, "-e", script, *map(str, script_paths())],
        input=search_pack_file.read_bytes(),
        env={**os.environ, "RUNS": json.dumps(runs, ensure_ascii=False)},
        capture_output=True,
        check=True,
    )
    return json.loads(answer.stdout)


def read_by_both(data, queries: list[str], search_pack_file) -> tuple[list, list]:
    """(the offline engine's readTerms, the server's query_terms) of each query, as lists to compare."""
    server = [[list(term) for term in translation.query_terms(data, query)] for query in queries]
    return in_node(READ_IN_NODE, queries, search_pack_file), server
