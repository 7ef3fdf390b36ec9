/* The site's service worker: the whole library kept in the browser, one build at a time.
 *
 * Served at /sw.js by laws_site/pages/offline.py (and written into the static export by
 * laws_site/offline/export.py), with the build id written in below: a rebuilt site is a different
 * script, so the browser installs a new worker on the next online visit. Installing fetches this
 * build's packs (made by `bridge-laws build` with the database, laws_site/offline/make.py): the pages in
 * the reader's interface language (laws_site/offline/pack.py: line-deduplicated in shards; one pack
 * per language, /en/ and /zh/ pages translated, the law texts as printed), what offline search reads
 * (laws_site/offline/search_data.py, shared by the languages) and the static files the pages use,
 * and stores them in one cache named after the build; activating removes every other build's cache.
 * The reader's languages are those of the pages open when it installs and those the previous build's
 * copy held; a page opened online in another language saves that language's pack too.
 * A pack that cannot be fetched fails the install, once: the open page says so (offline.js), and the
 * next visit tries again; the old copy keeps working meanwhile.
 *
 * Pages: the network first (a reader online always sees the server's answer), the offline copy when
 * the network fails, or when it takes longer than NETWORK_TIMEOUT_MS and the copy holds the page (a
 * basement with one bar of signal; a page the copy lacks waits for the server). From a static host
 * (STATIC_SITE, the export) the copy first: it holds what the host serves, and it alone answers a
 * page with a query (the 索引's rows, the diffs) and search.
 * The site may live under a path (Datasette's base_url, a static host's project path): BASE, the
 * worker's scope; the packs are made at the root, so their pages' links get BASE in front here.
 * Search offline answers with /-/offline/page, where offline-search*.js run the query; any other
 * page the copy does not hold (SQL, Datasette's tables) answers with that page's "not available
 * offline" part, status 503 - never the browser's error page (a static host: "not in this copy", 404).
 * Speed offline: the packs are stored regrouped (GROUP_PAGES below): opening a page inflates one
 * small group; a language's index and the site's chrome lines, the last groups and the static files
 * stay in the worker's memory.
 */
"use strict";

const BUILD = "__BUILD__";
const BUILT_AT = "__BUILT_AT__";
const STATIC_SITE = false;
const BASE = new URL(self.registration.scope).pathname; // "/", or the path the site lives under
const FORMAT = 7; // the search pack's (laws_site/offline/search_data.py FORMAT)
const LAYOUT = 4; // how this worker stores the packs (3: per interface language, in groups of GROUP_PAGES; 4: with the results' labels)
const PREFIX = "bridge-laws-offline-";
const CACHE = PREFIX + FORMAT + "." + LAYOUT + "-" + BUILD;
const NETWORK_TIMEOUT_MS = 4000;
// a page with a query on a static host, in a language not saved yet: how long its saving is waited for
const LANGUAGE_WAIT_MS = 20000;
const LANGUAGES = ["ja", "zh", "en"];
const DEFAULT_LANGUAGE = "ja";
// keys of what is saved, not addresses on the site: offline.js and offline-search.js read them
const SAVED = "/-/offline/saved/";
const STATE_URL = SAVED + "state";
const SEARCH_URL = SAVED + "search";
const SHELL_KEY = "/-/offline/page";
const DIFF_PAGE = /^\/-\/diff\/?$/;
const SEARCH_PAGE = /^\/-\/search\/?$/;
const ASSET_RE = /(?:href|src)="(\/-\/static(?:-plugins)?\/[^"]+)"/g;
// the offline search's scripts, in the order they load (laws_site/offline/search_scripts.py)
const SEARCH_SCRIPTS = ["offline-search-text.js", "offline-search-engine.js", "offline-search-reading.js", "offline-search-expansions.js", "offline-search-citations.js", "offline-search-presentation.js", "offline-search-ranking.js", "offline-search-order.js", "offline-search.js"]
  .map((name) => "/-/static-plugins/bridge-laws/" + name);
// google/brotli's decoder (vendored, static/brotli-decode.js)
const BROTLI_DECODER = "/-/static-plugins/bridge-laws/brotli-decode.js";
const EXTRA_ASSETS = [...SEARCH_SCRIPTS,
  "/-/offline/manifest.webmanifest",
  "/-/static-plugins/bridge-laws/offline.css",
  "/-/static-plugins/bridge-laws/icon-192.png",
  "/-/static-plugins/bridge-laws/icon-512.png",
];
// Stored for speed, not as downloaded: pages in groups of GROUP_PAGES neighbours, each group's lines
// with it, except the lines a CHROME_SHARE of all pages use (the site's header, footer, menus):
// those are kept once and stay in memory. Opening a page offline inflates ~40 KB, not a shard of
// 80 pages (~400 KB) and the 2 MB of lines shared between shards. ~4 MB stored per language.
const GROUP_PAGES = 8;
const CHROME_SHARE = 0.01;
const MAX_GROUPS_IN_MEMORY = 64;
const MAX_ASSET_BYTES_IN_MEMORY = 4000000;

/** A language's saved parts: index (URL -> group), chrome (lines of most pages), group/N. */
function savedUrl(lang, part) { return SAVED + lang + "/" + part; }

/** A site path ("/-/search") where the site is: under BASE. */
function at(path) { return BASE + path.replace(/^\//, ""); }

/** The site path of an address under BASE ("/prefix/-/search" -> "/-/search"). */
function sitePath(pathname) {
  return pathname.startsWith(BASE) ? "/" + pathname.slice(BASE.length) : pathname;
}

/** The interface language of a site path: its prefix (/en/, /zh/), else Japanese. */
function languageOf(pathname) {
  const match = /^\/(ja|zh|en)(?=\/|$)/.exec(pathname);
  return match ? match[1] : DEFAULT_LANGUAGE;
}

// links in pages made at the root ("/laws-2017-ja/61", "/-/static/...", offline.js's data-root) point under BASE
const ROOT_LINK = /(\s(?:href|src|action|data-root)=")\/(?![\/\\])/g;

function rebased(text) { return BASE === "/" ? text : text.replace(ROOT_LINK, "$1" + BASE); }

// the offline search engine (the same file the offline page runs): the worker answers a search
// page whole, and keeps the engine loaded between searches
importScripts(...SEARCH_SCRIPTS.map(at));
// a static export's packs are brotli files the worker inflates itself (fetchPack)
if (STATIC_SITE) importScripts(at(BROTLI_DECODER));

self.addEventListener("install", (event) => {
  event.waitUntil(install().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
    await tellClients();
  })());
});

// a page asks for its language to be saved (offline.js, when the copy lacks it)
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "save-language" && LANGUAGES.includes(data.lang)) {
    event.waitUntil(saveLanguage(data.lang).then(tellClients, () => tellClients()));
  }
});

async function tellClients() {
  const state = await readState();
  for (const client of await self.clients.matchAll({ includeUncontrolled: true })) {
    client.postMessage({ type: "offline-ready", build: BUILD, built_at: BUILT_AT,
      languages: state ? Object.keys(state.languages || {}) : [] });
  }
}

// The packs are stored gzip-compressed (CompressionStream): ~25 MB of JSON per language keeps in a
// few MB, and one shard is inflated natively when a page is asked for. Small entries stay plain.
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

/** The JSON text of one of this build's packs (search, pages-ja...). From the server: `.json.gz`,
 * which it sends brotli- or gzip-encoded as the browser accepts (the browser inflates it), or as
 * stored (inflated here: gzip's first two bytes say which). From a static host (STATIC_SITE): the
 * brotli file, half the gzip file's size, which the host sends as stored and BrotliDecode inflates
 * (a host that sends it with `Content-Encoding: br` gives the JSON itself: it starts with "{", which
 * no brotli stream of the packs does). One try: a failure fails the install. */
async function fetchPack(name) {
  const suffix = STATIC_SITE ? ".json.br" : ".json.gz";
  const response = await fetch(at("/-/offline/" + BUILD + "/" + name + suffix), { cache: "no-cache" });
  if (!response.ok) {
    await response.text().catch(() => ""); // read it: an unread body keeps the connection busy
    throw new Error("the offline pack " + name + " answered " + response.status);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes[0] === 0x7b) return new TextDecoder().decode(bytes);
  if (STATIC_SITE) return new TextDecoder().decode(BrotliDecode(new Int8Array(bytes.buffer)));
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return new TextDecoder().decode(bytes);
  const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(inflated).text();
}

// ------------------------------------------------------------ the saved state: {build, languages, search}

let stateWrites = Promise.resolve();

async function readState(cache) {
  const found = await (cache || await caches.open(CACHE)).match(STATE_URL);
  return found ? found.json() : null;
}

/** Change the saved state (one change at a time); `complete` once search and a language are saved. */
function updateState(change) {
  stateWrites = stateWrites.then(async () => {
    const cache = await caches.open(CACHE);
    const state = (await readState(cache)) || { build: BUILD, built_at: BUILT_AT, format: FORMAT, languages: {} };
    change(state);
    state.complete = !!state.search && Object.keys(state.languages).length > 0;
    state.saved_at = new Date().toISOString();
    await cache.put(STATE_URL, json(state));
    savedLanguages = state.languages;
  });
  return stateWrites;
}

let savedLanguages = null; // {lang: pages} of this build's copy, once read

async function languagesSaved() {
  if (!savedLanguages) {
    const state = await readState();
    if (!state) return {};
    savedLanguages = state.languages || {};
  }
  return savedLanguages;
}

/** The languages to save on install: the open pages', and those the previous build's copy held. */
async function wantedLanguages() {
  const wanted = new Set();
  for (const client of await self.clients.matchAll({ includeUncontrolled: true, type: "window" })) {
    wanted.add(languageOf(sitePath(new URL(client.url).pathname)));
  }
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const found = await (await caches.open(name)).match(STATE_URL);
    const state = found ? await found.json().catch(() => null) : null;
    for (const lang of Object.keys((state && state.languages) || {})) wanted.add(lang);
  }
  if (!wanted.size) wanted.add(DEFAULT_LANGUAGE);
  return [...wanted].filter((lang) => LANGUAGES.includes(lang));
}

async function install() {
  if (!BUILD) throw new Error("the server has no build id");
  const languages = await wantedLanguages();
  // the search pack and the first language at once; the others after (each is a few MB)
  await Promise.all([saveSearch(), saveLanguage(languages[0])]);
  for (const lang of languages.slice(1)) await saveLanguage(lang);
}

async function saveSearch() {
  const cache = await caches.open(CACHE);
  const state = await readState(cache);
  if (state && state.search) return;
  await cache.put(SEARCH_URL, gzipped(await fetchPack("search")));
  await updateState((s) => { s.search = true; });
}

const saving = new Map(); // lang -> promise: one download per language at a time

function saveLanguage(lang) {
  if (!saving.has(lang)) {
    const done = savePages(lang).finally(() => saving.delete(lang));
    saving.set(lang, done);
  }
  return saving.get(lang);
}

async function savePages(lang) {
  const cache = await caches.open(CACHE);
  const state = await readState(cache);
  if (state && state.languages && state.languages[lang]) return;
  const pack = JSON.parse(await fetchPack("pages-" + lang));
  const stored = regroup(pack);
  const writes = [
    cache.put(savedUrl(lang, "index"), json({ build: pack.build, lang, pages: stored.index, aliases: pack.aliases || {} })),
    cache.put(savedUrl(lang, "chrome"), json(stored.chrome)),
    // how search names its results in this language (offline_pack.result_labels)
    cache.put(savedUrl(lang, "labels"), json(pack.result_labels || null)),
  ];
  stored.groups.forEach((group, number) => writes.push(cache.put(savedUrl(lang, "group/" + number), gzipped(JSON.stringify(group)))));
  const assets = new Set(EXTRA_ASSETS.map(at)); // saved under the addresses the pages ask for
  for (const lines of [pack.common, ...pack.shards.map((shard) => shard.lines)]) {
    for (const line of lines) {
      if (!line.includes("/-/static")) continue;
      for (const match of line.matchAll(ASSET_RE)) assets.add(at(match[1].replace(/&amp;/g, "&")));
    }
  }
  const missing = [];
  for (const asset of assets) if (!(await cache.match(asset))) missing.push(asset);
  writes.push(cache.addAll(missing));
  await Promise.all(writes);
  await updateState((s) => { s.languages[lang] = Object.keys(pack.pages).length; });
}

/** The downloaded pack (shards of 80 pages + lines shared between shards: small on the wire) as it
 * is stored: {index: {key: group}, chrome: [line], groups: [{lines, pages: {key: [i]}}]}, a page's
 * line i >= 0 being chrome[i], i < 0 its group's lines[-1 - i]. */
function regroup(pack) {
  const keys = Object.keys(pack.pages).sort();
  const uses = new Uint32Array(pack.common.length);
  for (const shard of pack.shards) {
    for (const ids of Object.values(shard.pages)) for (const i of new Set(ids)) if (i >= 0) uses[i] += 1;
  }
  const threshold = Math.max(2, Math.ceil(keys.length * CHROME_SHARE));
  const chromeIds = new Map();
  const chrome = [];
  uses.forEach((count, i) => {
    if (count >= threshold) { chromeIds.set(i, chrome.length); chrome.push(pack.common[i]); }
  });
  const index = {};
  const groups = [];
  for (let start = 0; start < keys.length; start += GROUP_PAGES) {
    const own = new Map();
    const lines = [];
    const pages = {};
    for (const key of keys.slice(start, start + GROUP_PAGES)) {
      const shard = pack.shards[pack.pages[key]];
      pages[key] = shard.pages[key].map((i) => {
        if (i >= 0 && chromeIds.has(i)) return chromeIds.get(i);
        const line = i >= 0 ? pack.common[i] : shard.lines[-1 - i];
        let mine = own.get(line);
        if (mine === undefined) { mine = lines.length; own.set(line, mine); lines.push(line); }
        return -1 - mine;
      });
      index[key] = groups.length;
    }
    groups.push({ lines, pages });
  }
  return { index, chrome, groups };
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const path = sitePath(url.pathname);
  if (path === "/sw.js" || path.startsWith("/-/offline/") && /\.json(\.gz)?$/.test(path)) {
    return; // the browser and install() fetch these themselves
  }
  if (url.pathname.startsWith(SAVED)) {
    event.respondWith(savedResponse(url.pathname)
      .then((found) => found || new Response("Not saved", { status: 404 })));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(page(request, url));
    if (!knownOffline()) event.waitUntil(saveLanguageOf(url));
    return;
  }
  event.respondWith(other(request, url));
});

/** Online, a page in a language this build's copy lacks: save that language too (in the background). */
async function saveLanguageOf(url) {
  const lang = languageOf(sitePath(url.pathname));
  const saved = await languagesSaved();
  if (!Object.keys(saved).length || saved[lang]) return; // not installed yet, or saved already
  try {
    await saveLanguage(lang);
  } finally {
    await tellClients();
  }
}

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
  const asked = STATIC_SITE && url.search && (await savedWithQuery(url));
  if (asked === "saved") {
    const copy = await fromCopy(url); // this language saved: its pages as the host would send them
    if (copy) return copy;
    // a comparison the copy lacks: the host would send the bare form, its query unseen; say so instead
    if (DIFF_PAGE.test(sitePath(url.pathname).replace(/^\/(en|zh|ja)(?=\/)/, ""))) return offlinePage(url);
  } else if (asked === "other") {
    // this language is still being saved: a saved language's copy answers the query (the host would drop it)
    return (await fromCopy(url)) || offlinePage(url);
  }
  const network = fetch(request);
  network.catch(() => {}); // a late failure after the copy answered is nobody's business
  try {
    const answer = await withTimeout(network, NETWORK_TIMEOUT_MS);
    if (!STATIC_SITE || answer.status !== 404 || !(await answeringLanguage(url))) return answer;
    await savedSoon(languageOf(sitePath(url.pathname))); // the host's one 404.html is Japanese: the copy answers, in the address's language
    return offlinePage(url);
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

/** A static host answers every address without its query (the comparison's bare form, the 索引 without its
 * row): only the copy answers the page asked. "saved" when the page's language is saved; else, once a
 * language is, that one is saved first (waited for at most LANGUAGE_WAIT_MS: "saved"), or "other" while it
 * still downloads; null before the first visit has saved anything (the page reloads once it has). */
async function savedWithQuery(url) {
  const lang = languageOf(sitePath(url.pathname));
  const saved = await languagesSaved();
  if (saved[lang]) return "saved";
  // the host's search page runs the search itself (from the search pack, saved with the first language)
  if (!Object.keys(saved).length || SEARCH_PAGE.test(sitePath(url.pathname).replace(/^\/(en|zh|ja)(?=\/)/, ""))) return null;
  return (await savedSoon(lang)) ? "saved" : "other";
}

/** A language saved, waited for at most LANGUAGE_WAIT_MS: whether it is. */
const savedSoon = (lang) => withTimeout(saveLanguage(lang), LANGUAGE_WAIT_MS).then(() => true, () => false);

async function other(request, url) {
  if (knownOffline()) return (await savedAsset(request, url)) || unavailable(url);
  const network = fetch(request);
  network.catch(() => {}); // a late failure after the copy answered is nobody's business
  try {
    return await withTimeout(network, NETWORK_TIMEOUT_MS);
  } catch (error) {
    const found = await savedAsset(request, url);
    if (found) return found;
    try {
      return await network;
    } catch (failed) {
      return unavailable(url);
    }
  }
}

// static files offline: from memory after the first time (a stylesheet blocks the page's first paint)
const assets = new Map(); // path + query -> {body: ArrayBuffer, headers}
let assetBytes = 0;

async function savedAsset(request, url) {
  const key = url.pathname + url.search;
  let kept = assets.get(key);
  if (!kept) {
    const cache = await caches.open(CACHE);
    // a static file saved under another ?v= (a script's data-engine, the manifest's icons) is this
    // build's too: the build id covers the static files
    const found = await cache.match(key) || await cache.match(request, { ignoreVary: true, ignoreSearch: true });
    if (!found) return null;
    kept = { body: await found.arrayBuffer(), headers: [...found.headers] };
    if (assetBytes + kept.body.byteLength <= MAX_ASSET_BYTES_IN_MEMORY) {
      assets.set(key, kept);
      assetBytes += kept.body.byteLength;
    }
  }
  return new Response(kept.body, { headers: kept.headers });
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

/** One spelling of a URL for the pack, without BASE and its language prefix (offline_pack.py page_key). */
function pageKey(url) {
  const decode = (text) => { try { return decodeURIComponent(text); } catch (e) { return text; } };
  const query = url.search.replace(/^\?/, "").split("&").filter((p) => p && !p.startsWith("from_search=")).join("&");
  const path = (decode(sitePath(url.pathname)) || "/").replace(/^\/(ja|zh|en)(?=\/|$)/, "") || "/";
  return path + (query ? "?" + decode(query.replace(/\+/g, " ")) : "");
}

const packs = new Map(); // lang -> promise of {index, chrome}
const groups = new Map(); // "lang/number" -> group, the most recently used last

async function savedJSON(path) {
  const found = await savedResponse(path);
  return found ? found.json() : null;
}

function loadPack(lang) {
  if (!packs.has(lang)) {
    const loading = Promise.all([savedJSON(savedUrl(lang, "index")), savedJSON(savedUrl(lang, "chrome"))])
      .then(([index, chrome]) => (index && chrome ? { index, chrome } : null));
    packs.set(lang, loading);
    loading.then((pack) => { if (!pack) packs.delete(lang); }, () => packs.delete(lang));
  }
  return packs.get(lang);
}

async function packedPage(lang, key) {
  const pack = await loadPack(lang);
  if (!pack) return null;
  if (pack.index.pages[key] === undefined && pack.index.aliases[key] !== undefined) key = pack.index.aliases[key];
  const number = pack.index.pages[key];
  if (number === undefined) return null;
  const name = lang + "/" + number;
  let group = groups.get(name);
  if (group) {
    groups.delete(name); // most recently used last
  } else {
    group = await savedJSON(savedUrl(lang, "group/" + number));
    if (!group) return null;
    if (groups.size >= MAX_GROUPS_IN_MEMORY) groups.delete(groups.keys().next().value);
  }
  groups.set(name, group);
  const chrome = pack.chrome;
  return group.pages[key].map((i) => (i >= 0 ? chrome[i] : group.lines[-1 - i])).join("\n");
}

let engine = null;
const labelsOf = new Map(); // lang -> promise of offline_pack.result_labels, or null

function resultLabels(lang) {
  if (!labelsOf.has(lang)) labelsOf.set(lang, savedJSON(savedUrl(lang, "labels")).catch(() => null));
  return labelsOf.get(lang);
}

async function searchEngine() {
  if (!engine) {
    const pack = await savedJSON(SEARCH_URL);
    if (!pack) throw new Error("the search data is not saved");
    engine = new self.BridgeLawsSearch.Engine(pack);
  }
  return engine;
}

function html(body, status) {
  return new Response(rebased(body), { status: status || 200, headers: { "Content-Type": "text/html; charset=utf-8",
    "X-Offline-Build": BUILD } });
}

/** The language whose pages answer a URL offline: its own if saved, else one that is (the page in
 * another interface is better than none). */
async function answeringLanguage(url) {
  const wanted = languageOf(sitePath(url.pathname));
  const saved = await languagesSaved();
  if (saved[wanted]) return wanted;
  return [DEFAULT_LANGUAGE, ...LANGUAGES].find((lang) => saved[lang]) || null;
}

/** The saved copy of a page (a trailing slash, a 索引 row alias), or null. */
async function savedPage(url) {
  loadPack(languageOf(sitePath(url.pathname))); // its index and chrome read while the saved state is
  const lang = await answeringLanguage(url);
  if (!lang) return null;
  const key = pageKey(url);
  for (const candidate of new Set([key, key.replace(/\/(?=$|\?)/, "") || "/"])) {
    const found = await packedPage(lang, candidate);
    if (found) return html(found);
  }
  return null;
}

// a page in /en/ or /zh/ keeps its links in its language (ui_lang.py localize_links does it online)
const LINK_TAG = /<(?:a|form|area)\s[^>]*>/gi;
const LOCAL_URL = /(\s(?:href|action)=")(\/(?![/\\])(?!-\/static)(?!(?:en|zh|ja)(?:\/|"|\?))[^"]*)"/g;

function localized(path, lang) {
  if (lang === DEFAULT_LANGUAGE) return path;
  return path === "/" ? "/" + lang + "/" : "/" + lang + path;
}

function localizeLinks(text, lang) {
  if (lang === DEFAULT_LANGUAGE) return text;
  return text.replace(LINK_TAG, (tag) => (tag.includes("hreflang=") ? tag : tag.replace(LOCAL_URL,
    (all, before, path) => before + (/\.(json|csv|db|js|css|png|ico|txt|xml)$/.test(path.split(/[?#]/)[0])
      ? path : localized(path, lang)) + '"')));
}

/** What the copy answers for a URL: its page, or a search answered on this device; else null. */
async function fromCopy(url) {
  const copy = await savedPage(url);
  if (copy) return copy;
  const lang = await answeringLanguage(url);
  const shell = lang ? await packedPage(lang, SHELL_KEY) : null;
  const searching = /^\/-\/search\/?$/.test(sitePath(url.pathname).replace(/^\/(en|zh|ja)(?=\/)/, ""));
  if (!shell || !searching) return null;
  // the search answered as the site's page, the search as typed in the page's address
  const asked = new URL(sitePath(url.pathname) + url.search, self.location.origin);
  try {
    const answered = self.BridgeLawsSearch.searchPageHTML(shell, await searchEngine(), asked, await resultLabels(lang));
    if (answered && answered.redirect) {
      return Response.redirect(new URL(at(localized(answered.redirect, lang)), url).href, 302);
    }
    if (answered) return html(localizeLinks(answered.html, lang), answered.status);
  } catch (error) {
    // the page runs the search itself (and says so if the search data is missing)
  }
  return html(shell);
}

async function offlinePage(url) {
  const answered = await fromCopy(url);
  if (answered) return answered;
  const lang = await answeringLanguage(url);
  const shell = lang ? await packedPage(lang, SHELL_KEY) : null;
  // a static host serves what the copy holds (each language's pack the same pages): a page the copy lacks is
  // not on the site - 404, not a passing outage (503); marked so for its words (export.py marks 404.html so)
  const missing = '<div id="offline-unavailable" hidden data-not-in-copy>';
  if (shell && STATIC_SITE) return html(shell.replace('<div id="offline-unavailable" hidden>', missing), 404);
  if (shell) return html(shell, 503);
  return html("<!DOCTYPE html><meta charset=utf-8><meta name=viewport content='width=device-width'>" +
    "<title>Offline</title><h1>Offline</h1><p>There is no connection, and the offline copy of this site " +
    "is not saved yet: open the site once with a connection and wait until the page says it is ready.</p>" +
    "<p><a href='/'>Home</a></p>", 503);
}
