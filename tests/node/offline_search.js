// Runs the offline search (laws_site/static/offline-search*.js) in Node for tests/test_search_parity.py:
// the engine on the search pack whose path is argv[2], the scripts' paths after it in the order they
// load (laws_site/offline/search_scripts.py); then, one JSON line per request
// on stdin, [[query, {doc, lang, limit, expand}], ...], it answers one JSON line: each query's
// answer as the server's search_page gives it (results), or {"error": message}.
"use strict";
const fs = require("fs");
const readline = require("readline");

let search;
for (const script of process.argv.slice(3)) search = require(script);
const engine = new search.Engine(JSON.parse(fs.readFileSync(process.argv[2], "utf8")));

function answer(query, options) {
  try {
    return engine.search(query, options);
  } catch (error) {
    if (error instanceof search.QueryError) return { error: error.message };
    throw error;
  }
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const asked = JSON.parse(line);
  process.stdout.write(JSON.stringify(asked.map(([query, options]) => answer(query, options))) + "\n");
});
