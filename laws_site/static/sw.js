/* The site's service worker: the whole library kept in the browser, one build at a time.
 *
 * Served at /sw.js by laws_site/pages/offline.py, which writes the build id in below: a rebuilt site
 * is a different script, so the browser installs a new worker on the next online visit. Installing
 * fetches this build's two packs (laws_site/offline_pack.py: the pages, line-deduplicated in shards;
 * laws_site/offline_search_data.py: what offline search reads) and the static files the pages use,
 * and stores them in one cache named after the build; activating removes every other build's cache.
 *
 * Pages: the network first (a reader online always sees the server's answer), the offline copy when
 * the network fails, or when it takes longer than NETWORK_TIMEOUT_MS and the copy holds the page (a
 * basement with one bar of signal; a page the copy lacks waits for the server).
 * Search offline answers with /-/offline/page, where offline-search.js runs the query; any other
 * page the copy does not hold (SQL, Datasette's tables) answers with that page's "not available
 * offline" part, status 503 - never the browser's error page.
 */
"use strict";

const BUILD = "__BUILD__";
const BUILT_AT = "__BUILT_AT__";
const FORMAT = 3;
const PREFIX = "bridge-laws-offline-";
const CACHE = PREFIX + FORMAT + "-" + BUILD;
const NETWORK_TIMEOUT_MS = 4000;
const STATE_URL = "/-/offline/saved/state";
const INDEX_URL = "/-/offline/saved/index";
const COMMON_URL = "/-/offline/saved/common";
const SHARD_URL = "/-/offline/saved/shard/";
const SEARCH_URL = "/-/offline/saved/search";
const SHELL_KEY = "/-/offline/page";
const ASSET_RE = /(?:href|src)="(\/-\/static(?:-plugins)?\/[^"]+)"/g;
const EXTRA_ASSETS = [
  "/-/offline/manifest.webmanifest",
  "/-/static-plugins/bridge-laws/offline.css",
  "/-/static-plugins/bridge-laws/offline-search.js",
  "/-/static-plugins/bridge-laws/icon-192.png",
  "/-/static-plugins/bridge-laws/icon-512.png",
];
const MAX_SHARDS_IN_MEMORY = 12;

// the offline search engine (the same file the offline page runs): the worker answers a search
// page whole, and keeps the engine loaded between searches
importScripts("/-/static-plugins/bridge-laws/offline-search.js");

self.addEventListener("install", (event) => {
  event.waitUntil(install().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
    for (const client of await self.clients.matchAll({ includeUncontrolled: true })) {
      client.postMessage({ type: "offline-ready", build: BUILD, built_at: BUILT_AT });
    }
  })());
});

// The packs are stored gzip-compressed (CompressionStream): ~20 MB of JSON keeps in a few MB, and
// one shard is inflated natively when a page is asked for. Small entries (index, state) stay plain.
const GZIP_TYPE = "application/x-bridge-laws-gzip";

function gzipped(text) {
  const body = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Response(body, { headers: { "Content-Type": GZIP_TYPE } });
}

/** A saved entry as a plain JSON response (inflated if stored compressed), or null. */
async function savedResponse(path) {
  const cache = await caches.open(CACHE);
  const found = await cache.match(path);
  if (!found) return null;
  if (found.headers.get("Content-Type") !== GZIP_TYPE) return found;
  return new Response(found.body.pipeThrough(new DecompressionStream("gzip")),
    { headers: { "Content-Type": "application/json; charset=utf-8" } });
}

function json(data) {
  return new Response(JSON.stringify(data), { headers: { "Content-Type": "application/json; charset=utf-8" } });
}

async function install() {
  if (!BUILD) throw new Error("the server has no build id");
  const cache = await caches.open(CACHE);
  if (await cache.match(STATE_URL)) return; // this build is saved already
  const query = "?build=" + encodeURIComponent(BUILD);
  const [pagesResponse, searchResponse] = await Promise.all([
    fetch("/-/offline/pages.json" + query, { cache: "no-store" }),
    fetch("/-/offline/search.json" + query, { cache: "no-store" }),
  ]);
  if (!pagesResponse.ok || !searchResponse.ok) {
    throw new Error("the offline pack answered " + pagesResponse.status + "/" + searchResponse.status);
  }
  const pack = await pagesResponse.json();
  const writes = [
    cache.put(INDEX_URL, json({ build: pack.build, pages: pack.pages, aliases: pack.aliases || {} })),
    cache.put(COMMON_URL, gzipped(JSON.stringify(pack.common))),
    cache.put(SEARCH_URL, gzipped(await searchResponse.text())),
  ];
  pack.shards.forEach((shard, number) => writes.push(cache.put(SHARD_URL + number, gzipped(JSON.stringify(shard)))));
  const assets = new Set(EXTRA_ASSETS);
  for (const lines of [pack.common, ...pack.shards.map((shard) => shard.lines)]) {
    for (const line of lines) {
      if (!line.includes("/-/static")) continue;
      for (const match of line.matchAll(ASSET_RE)) assets.add(match[1].replace(/&amp;/g, "&"));
    }
  }
  writes.push(cache.addAll([...assets]));
  await Promise.all(writes);
  await cache.put(STATE_URL, json({
    build: BUILD, built_at: BUILT_AT, format: FORMAT, pages: Object.keys(pack.pages).length,
    complete: true, saved_at: new Date().toISOString(),
  }));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === "/sw.js" || url.pathname === "/-/offline/pages.json" || url.pathname === "/-/offline/search.json") {
    return; // the browser and install() fetch these themselves
  }
  if (url.pathname.startsWith("/-/offline/saved/")) {
    event.respondWith(savedResponse(url.pathname)
      .then((found) => found || new Response("Not saved", { status: 404 })));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(page(request, url));
    return;
  }
  event.respondWith(other(request, url));
});

function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    promise.then((value) => { clearTimeout(timer); resolve(value); },
      (error) => { clearTimeout(timer); reject(error); });
  });
}

// the browser knows it has no network: no point in asking it (offline pages then come at once)
function knownOffline() { return self.navigator && self.navigator.onLine === false; }

async function page(request, url) {
  if (knownOffline()) return offlinePage(url);
  const network = fetch(request);
  network.catch(() => {}); // a late failure after the copy answered is nobody's business
  try {
    return await withTimeout(network, NETWORK_TIMEOUT_MS);
  } catch (error) {
    // slow or failed: the saved copy of this page if there is one; else a slow server is still
    // better than a "not available offline" page, so keep waiting for it
    const copy = await savedPage(url);
    if (copy) return copy;
    try {
      return await network;
    } catch (failed) {
      return offlinePage(url);
    }
  }
}

async function other(request, url) {
  const saved = async () => {
    const cache = await caches.open(CACHE);
    return await cache.match(request, { ignoreVary: true }) || await cache.match(url.pathname + url.search);
  };
  if (knownOffline()) return (await saved()) || unavailable(url);
  const network = fetch(request);
  network.catch(() => {}); // a late failure after the copy answered is nobody's business
  try {
    return await withTimeout(network, NETWORK_TIMEOUT_MS);
  } catch (error) {
    const found = await saved();
    if (found) return found;
    try {
      return await network;
    } catch (failed) {
      return unavailable(url);
    }
  }
}

function unavailable(url) {
  if (/\.json$/.test(url.pathname) || url.searchParams.has("sql")) {
    return new Response(JSON.stringify({ ok: false, status: 503, title: "Offline",
      error: "You are offline, and JSON answers need the server." }),
    { status: 503, headers: { "Content-Type": "application/json; charset=utf-8" } });
  }
  return new Response("", { status: 503 });
}

// ------------------------------------------------------------ pages from the pack

/** One spelling of a URL for the pack (laws_site/offline_pack.py page_key does the same). */
function pageKey(url) {
  const decode = (text) => { try { return decodeURIComponent(text); } catch (e) { return text; } };
  const query = url.search.replace(/^\?/, "").split("&").filter((p) => p && !p.startsWith("from_search=")).join("&");
  return (decode(url.pathname) || "/") + (query ? "?" + decode(query.replace(/\+/g, " ")) : "");
}

let loaded = null; // {index, common}
const shards = new Map();

async function savedJSON(path) {
  const found = await savedResponse(path);
  return found ? found.json() : null;
}

async function packedPage(key) {
  if (!loaded) {
    const [index, common] = await Promise.all([savedJSON(INDEX_URL), savedJSON(COMMON_URL)]);
    if (!index || !common) return null;
    loaded = { index, common };
  }
  if (loaded.index.pages[key] === undefined && loaded.index.aliases[key] !== undefined) key = loaded.index.aliases[key];
  const number = loaded.index.pages[key];
  if (number === undefined) return null;
  let shard = shards.get(number);
  if (!shard) {
    shard = await savedJSON(SHARD_URL + number);
    if (!shard) return null;
    if (shards.size >= MAX_SHARDS_IN_MEMORY) shards.delete(shards.keys().next().value);
    shards.set(number, shard);
  }
  const common = loaded.common;
  return shard.pages[key].map((i) => (i >= 0 ? common[i] : shard.lines[-1 - i])).join("\n");
}

let engine = null;

async function searchEngine() {
  if (!engine) {
    const pack = await savedJSON(SEARCH_URL);
    if (!pack) throw new Error("the search data is not saved");
    engine = new self.BridgeLawsSearch.Engine(pack);
  }
  return engine;
}

function html(body, status) {
  return new Response(body, { status: status || 200, headers: { "Content-Type": "text/html; charset=utf-8",
    "X-Offline-Build": BUILD } });
}

/** The saved copy of a page (any interface-language prefix, a trailing slash, a 索引 row alias), or null. */
async function savedPage(url) {
  const key = pageKey(url);
  // the interface languages' prefixes (/en/, /zh/): the offline copy holds the default chrome
  const bare = key.replace(/^\/(en|zh|ja)(?=\/|$)/, "") || "/";
  for (const candidate of [key, bare, bare.replace(/\/(?=$|\?)/, "")]) {
    const found = await packedPage(candidate);
    if (found) return html(found);
  }
  return null;
}

async function offlinePage(url) {
  const copy = await savedPage(url);
  if (copy) return copy;
  const shell = await packedPage(SHELL_KEY);
  const searching = /^\/-\/search\/?$/.test(url.pathname.replace(/^\/(en|zh|ja)(?=\/)/, ""));
  if (shell && searching) {
    try {
      const answered = self.BridgeLawsSearch.searchPageHTML(shell, await searchEngine(), url);
      if (answered && answered.redirect) return Response.redirect(new URL(answered.redirect, url).href, 302);
      if (answered) return html(answered.html);
    } catch (error) {
      // the page runs the search itself (and says so if the search data is missing)
    }
    return html(shell);
  }
  if (shell) return html(shell, 503);
  return html("<!DOCTYPE html><meta charset=utf-8><meta name=viewport content='width=device-width'>" +
    "<title>Offline</title><h1>Offline</h1><p>There is no connection, and the offline copy of this site " +
    "is not saved yet: open the site once with a connection and wait until the page says it is ready.</p>" +
    "<p><a href='/'>Home</a></p>", 503);
}
