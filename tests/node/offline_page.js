// Runs the offline page's search (laws_site/static/offline-search.js searchPageHTML, the service
// worker's way) in Node for tests/test_offline_page_markup.py: the engine on the search pack whose
// path is argv[2], the scripts' paths after it in the order they load; then, one JSON line per request
// on stdin, [shell HTML, result labels, URL], it answers one JSON line: {html} or {redirect}.
"use strict";
const fs = require("fs");
const readline = require("readline");

let search;
for (const script of process.argv.slice(3)) search = require(script);
const engine = new search.Engine(JSON.parse(fs.readFileSync(process.argv[2], "utf8")));

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const [shell, labels, url] = JSON.parse(line);
  process.stdout.write(JSON.stringify(search.searchPageHTML(shell, engine, new URL(url, "http://offline"), labels)) + "\n");
});
