// Offline search, the page (templates/offline.html): the service worker answers /-/search offline
// with the offline page's HTML and the results in it; the page runs the search itself only if the
// worker did not. The engine is offline-search-text.js, -engine.js, -reading.js, -expansions.js, -citations.js, -presentation.js and -ranking.js, loaded before.
(function (root) {
  "use strict";
  const S = (root.BridgeLawsSearch = root.BridgeLawsSearch || {});
  const { K, QueryError, cleanQuery, fill, message, unitLink, Engine } = S;


  function esc(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  /** How results are named in the interface language (offline_pack.result_labels, saved with the
   * language's pages): the unit's label ("Law 61B", 第61条B項), a link's "<document>: <label>",
   * each document's short title; ids without them. */
  class Names {
    constructor(labels, engine) {
      const units = engine.pack.units;
      const usable = !!(labels && labels.labels && labels.labels.length === units.length);
      this.documents = (labels && labels.documents) || {};
      this.labels = usable ? labels.labels : [];
      this.contexts = (usable && labels.contexts) || {};
      this.index = new Map(usable ? units.map((unit, i) => [unit[1], i]) : []);
    }

    /** templates/search.html unit_label: the label, else "doc ref". */
    label(r) { return this.labels[this.index.get(r.id)] || r.doc + " " + r.ref; }

    /** A link to a unit, named with its document (unit_labels.full_label). */
    fullLabel(unit) {
      const label = this.labels[this.index.get(unit.id)];
      return label && this.documents[unit.doc] ? this.documents[unit.doc] + ": " + label : unit.doc + " " + unit.ref;
    }

    /** The title of the nearest enclosing unit with one, for a unit without a title. */
    context(id) { return this.contexts[this.index.get(id)] || null; }
  }

  /** pages/search.py group_results: one document's law, its definitions, the rest; cited, citing. */
  function groupResults(results) {
    const groups = new Map();
    for (const r of results) {
      const kind = r.match === "citation" ? "cited" : r.match === "cites" ? "citing" : r.law ? "law" : r.kind === "definition" ? "definitions" : "other";
      const key = kind === "cited" || kind === "citing" ? kind : [r.doc, kind, r.law].join("\u0001");
      if (!groups.has(key)) groups.set(key, { kind, law: r.law, doc: key === kind ? null : r.doc, results: [] });
      groups.get(key).results.push(r);
    }
    return [...groups.values()];
  }

  /** The offline page's words (its #offline-search data- attributes) and the parts of
   * templates/_search_results.html it holds (HTML with {slots}), from its HTML. */
  function pageWords(html) {
    const words = { parts: {} };
    const box = /<div id="offline-search"[^>]*>/.exec(html)[0];
    for (const m of box.matchAll(/data-([a-z-]+)="([^"]*)"/g)) words[m[1].replace(/-([a-z])/g, (_, c) => c.toUpperCase())] = unescapeAttribute(m[2]);
    for (const m of html.matchAll(/<template data-part="([\w-]+)">([\s\S]*?)<\/template>/g)) words.parts[m[1]] = m[2];
    return words;
  }

  function unescapeAttribute(text) {
    return text.replace(/&#34;|&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  }

  /** Markup for a part's slot: inserted as it is (text is escaped). */
  class Html { constructor(html) { this.html = html; } }

  /** A part with its slots filled. A word in no language (a citation: lang "") is not marked, and an empty
   * title (a note's) leaves no empty span, as the server's macros leave them (typed, word_link: {% if lang %};
   * result: {% if title %}). */
  function part(parts, name, values = {}) {
    const filled = (parts[name] || "").replace(/\{([a-z]+)\}/g, (slot, key) => {
      const value = values[key];
      return value === undefined ? slot : value instanceof Html ? value.html : esc(value);
    });
    return new Html(filled.replace(/<span lang="">([^<]*)<\/span>/g, "$1").replace(/<span lang="[^"]*"><\/span>/g, "").replace(/ lang=""/g, ""));
  }

  // what search says, in the page's sentence; a document (doc) by its title in the interface language
  const said = (parts, m, titles = {}) => part(parts, "said-" + m.name, { ...m.values, doc: titles[m.values.doc] || m.values.doc });
  const joined = (list, separator = "") => new Html(list.map((x) => x.html).join(separator));

  /** _search_results.html why(): the part chosen as the macro chooses it. */
  function whyPart(parts, why, lang, typedlang) {
    const name = !why.sign ? "why-matched" : !why.from ? "why-sentence" : why.sign === K.why.same_word_sign ? "why-same" : "why-arrow";
    // a word found through the Laws' word for a typed one: 「わざと」→「故意」 (the macro's through)
    const through = why.through || {};
    const words = why.words.map((word) => (Object.hasOwn(through, word) ? part(parts, "why-through", { typed: through[word], word, typedlang }).html : esc(word)));
    return part(parts, name, { from: why.from || "", words: new Html(words.join(" · ")), lang, typedlang });
  }

  function pageUrl(pathname, params, offset) {
    const next = new URLSearchParams(params);
    next.delete("offset");
    if (offset) next.set("offset", String(offset));
    return pathname + "?" + next.toString();
  }

  /** pages/search.py page_context: a word searched on its own, or the query exactly, keeping the filters. */
  function searchUrl(query, params, exact) {
    const form = new URLSearchParams({ q: query });
    for (const key of ["doc", "lang"]) if (params.get(key)) form.set(key, params.get(key));
    if (exact) form.set("exact", "1");
    return "/-/search?" + form.toString();
  }

  /** The interface language a page's path is read in: its /en/ or /zh/ prefix, else Japanese. */
  function interfaceOf(pathname) { return (/^\/(en|zh)(?=\/)/.exec(pathname) || [null, "ja"])[1]; }

  /** templates/search.html result_item. */
  function resultPart(p, r, group, names, titles, pathname, answer) {
    const label = names.label(r);
    const link = (u) => part(p, "link", { url: u.url, text: names.fullLabel(u) });
    const context = r.title ? null : names.context(r.id);
    const notes = [context ? part(p, "context", { title: context, lang: r.lang }) : null, group.doc ? null : part(p, "document", { title: titles[r.doc] }),
      r.why ? whyPart(p, r.why, r.lang, answer.word_langs[r.why.from] || answer.word_langs[answer.query] || "") : r.match === "any" || r.match === "most" ? part(p, "relaxed") : null,
      r.index.length ? part(p, "index", { heading: r.index[0].replace(/^index:/, "").split("/").join(" / "), lang: r.lang }) : null,
      r.reprints.length ? part(p, "reprints", { links: joined(r.reprints.map(link), ", ") }) : null,
      r.paired.length && interfaceOf(pathname) !== "ja" ? part(p, "paired", { links: joined(r.paired.map(link), ", ") }) : null,
      r.reprint_of ? part(p, "reprint-of", { link: link(r.reprint_of) }) : null];
    const snippet = joined(r.snippet.map((s) => (s.mark ? part(p, "mark", { text: s.text }) : new Html(esc(s.text)))));
    // search.html: a label naming the unit by its title (定义: 見せたカード) holds the document's words, in its language
    const at = r.title && /[^\x00-\x7f]/.test(r.title) && r.lang !== interfaceOf(pathname) ? label.indexOf(r.title) : -1;
    const shownLabel = at < 0 ? label
      : new Html(esc(label.slice(0, at)) + `<span lang="${esc(r.lang)}">` + esc(r.title) + "</span>" + esc(label.slice(at + r.title.length)));
    return part(p, "result", { url: r.url, label: shownLabel, title: r.title && !label.includes(r.title) ? r.title : "", notes: joined(notes.filter(Boolean)), snippet, lang: r.lang });
  }

  /** The guides the pack says cover the first results (laws_site/read/guides.py offered_guides): the
   * first unit's, then the next one's new ones, at most `offered`. */
  function offeredGuides(offers, results, pathname) {
    const lang = interfaceOf(pathname);
    const ids = [];
    for (const r of results.slice(0, offers.from_results)) for (const id of offers.units[r.id] || []) if (!ids.includes(id)) ids.push(id);
    return ids.slice(0, offers.offered).map((id) => ({ url: offers.guides[id].url, title: offers.guides[id].title[lang] }));
  }

  /** _search_results.html searched_words: a Japanese reading of several words, each word marked apart. */
  function searchedWords(p, word, lang) {
    const words = lang === "ja" ? word.split(" ") : [word];
    return words.length > 1 ? joined(words.map((each) => part(p, "searched-word", { word: each })), part(p, "word-joiner").html) : word;
  }

  /** presentation.quoted_inside: the query without one pair of quotation marks that holds all of it. */
  function quotedInside(query) {
    const chars = [...query];
    const inside = chars.slice(1, -1).join("").trim();
    for (const [opening, closing] of (K.search.quote_pairs || []).map((pair) => [...pair])) {
      const wrapped = chars.length > 2 && chars[0] === opening && chars[chars.length - 1] === closing;
      if (wrapped && inside && !inside.includes(opening) && !inside.includes(closing)) return inside;
    }
    return query;
  }

  /** The results part of templates/search.html, from the parts. */
  function resultsHTML(p, answer, titles, params, pathname, names, pack) {
    const out = [];
    const citation = answer.citation;
    if (citation && citation.message) {
      const links = joined(citation.nearest.map((u) => part(p, "listed-link", { url: u.url, text: names.fullLabel(u) })));
      out.push(part(p, "citation-note", { message: said(p, citation.message, titles), nearest: citation.nearest.length ? part(p, "nearest", { links }) : "" }));
    }
    const typedLang = answer.word_langs[answer.query] || "";
    const quotedQuery = quotedInside(answer.query); // the sentences quote it themselves
    const exact = part(p, "exact", { url: searchUrl(answer.query, params, true), query: quotedQuery, lang: typedLang });
    const wordLinks = (list, kind) => joined(list.map((word) => {
      const lang = answer.word_langs[word] || "";
      return part(p, "word-link", { url: searchUrl(word, params, false), word: searchedWords(p, word, lang), kind, lang });
    }), ", ");
    if (answer.did_you_mean.length) out.push(part(p, "did-you-mean", { links: wordLinks(answer.did_you_mean, "suggested"), exact }));
    if (answer.also_searched.length) {
      out.push(part(p, "also-searched", { links: wordLinks(answer.also_searched, "also"), exact: answer.expansions.length && !answer.did_you_mean.length ? exact : "" }));
    }
    const groups = groupResults(answer.results);
    if (!groups.length && !(citation && !citation.found)) {
      out.push(answer.total // a page past the last result (offset=100 of 78): one tap back to the first
        ? part(p, "past-end", { total: answer.total, query: quotedQuery, url: pageUrl(pathname, params, 0), lang: typedLang })
        : part(p, "no-results", { query: quotedQuery, lang: typedLang }));
    }
    if (!groups.length) return joined(out, "\n").html;
    const offer = answer.offset ? [] : offeredGuides(pack.guides, answer.results, pathname);
    if (offer.length) out.push(part(p, "guide-offer", { links: joined(offer.map((g) => part(p, "guide-link", g)), " · ") }));
    const last = answer.offset + answer.results.length;
    out.push(part(p, "summary", { first: answer.offset + 1, last, total: answer.total, query: quotedQuery, lang: typedLang }));
    for (const group of groups) {
      out.push(part(p, "group", { heading: part(p, "heading-" + group.kind, { law: group.law }),
        document: group.doc ? part(p, "group-document", { title: titles[group.doc] }) : "",
        items: joined(group.results.map((r) => resultPart(p, r, group, names, titles, pathname, answer))) }));
    }
    const previous = answer.offset > 0 ? part(p, "previous", { url: pageUrl(pathname, params, Math.max(0, answer.offset - answer.limit)), n: answer.limit }) : null;
    const next = answer.offset + answer.limit;
    const following = next < answer.total ? part(p, "following", { url: pageUrl(pathname, params, next), n: Math.min(answer.limit, answer.total - last) }) : null;
    if (previous || following) out.push(part(p, "pages", { previous: previous || "", following: following || "" }));
    return joined(out, "\n").html;
  }

  function countParam(params, name, fallback, low, high) {
    const value = params.get(name);
    if (value === null || value === "") return fallback;
    if (!K.search.count.test(value) || +value < low || +value > high) {
      throw new QueryError(message(name, { highest: high.toLocaleString("en") })); // limit, offset: low is the name's
    }
    return +value;
  }

  /** A value as the server's refusal quotes it (request_bounds.shown: Python's repr, cut). */
  function quoted(value) {
    const chars = [...value]; // code points, as Python counts
    const cut = chars.length <= K.search.shown_value_chars ? value : chars.slice(0, K.search.shown_value_chars).join("") + "…";
    const mark = cut.includes("'") && !cut.includes('"') ? '"' : "'";
    const escaped = cut.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t")
      .replace(/[\x00-\x1f\x7f]/g, (c) => "\\x" + c.charCodeAt(0).toString(16).padStart(2, "0"));
    return mark + (mark === "'" ? escaped.replace(/'/g, "\\'") : escaped) + mark;
  }

  /** request_bounds.repeated: a parameter the page reads once, given with different values (q=x&q=y),
   * is refused as the server refuses it, never answered with the first value. */
  function repeatedParameter(params) {
    const values = new Map();
    for (const [key, value] of params) {
      if (!(K.search.read_once || []).includes(key)) continue;
      if (!values.has(key)) values.set(key, []);
      if (!values.get(key).includes(value)) values.get(key).push(value);
    }
    for (const [parameter, given] of values) {
      if (given.length > 1) {
        return message("repeated", { parameter, count: String(given.length), values: given.slice(0, 3).map(quoted).join(", ") });
      }
    }
    return null;
  }

  /** One search as the offline page shows it: {redirect} for a single citation, else {query,
   * results (HTML), note, documents (HTML options)}; refused: true when the server answers 400. */
  const namesOf = new WeakMap(); // the saved labels -> their Names (the worker keeps one labels object per language)

  function answerSearch(engine, words, pathname, params, labels) {
    const query = cleanQuery(params.get("q") || ""); // as the server's page shows it (pages/search.py)
    let names = labels && namesOf.get(labels);
    if (!names) {
      names = new Names(labels, engine);
      if (labels) namesOf.set(labels, names);
    }
    const titles = {};
    for (const d of engine.pack.documents) titles[d.id] = names.documents[d.id] || d.title || d.id;
    const chosen = params.get("doc") || "";
    const documents = engine.pack.documents.map((d) => `<option value="${esc(d.id)}"${d.id === chosen ? " selected" : ""}>${esc(titles[d.id])}</option>`).join("");
    const shown = { query, documents, results: "", note: fill(words.note, { build: engine.pack.build.slice(0, 8) }) };
    const twice = repeatedParameter(params);
    // refused: nothing was searched, so no "searched on this device" note; a parameter given twice is not
    // read at all (the server's refusal shows no query either)
    if (twice) return { ...shown, query: "", note: "", refused: true, results: part(words.parts, "search-error", { message: said(words.parts, twice) }).html };
    if (!query && !params.get("doc") && !params.get("lang")) return shown;
    let answer;
    try {
      answer = engine.search(query, { doc: params.get("doc") || null, lang: params.get("lang") || null,
        limit: countParam(params, "limit", K.search.page_limit, 1, K.search.page_max_limit), offset: countParam(params, "offset", 0, 0, K.search.max_offset),
        expand: !params.get("exact"), interface: interfaceOf(pathname) });
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      // the query shown back as the server's refusal shows it (request_bounds.echoed: cut at what a search takes)
      const chars = [...query], most = engine.w.MAX_QUERY_CHARS;
      const echoed = chars.length <= most ? query : chars.slice(0, most).join("") + "…";
      return { ...shown, query: echoed, note: "", refused: true, results: part(words.parts, "search-error", { message: said(words.parts, error.said) }).html };
    }
    const citation = answer.citation;
    if (citation && citation.opens && citation.citations === 1 && !params.get("list") && !answer.offset) {
      return { redirect: unitLink(citation.units[0]).url + "?from_search=" + encodeURIComponent(answer.query) };
    }
    let note = shown.note;
    if (answer.split && answer.split.unknown.length) note += " " + fill(words.differs, { words: answer.split.words.join(" · ") });
    return { ...shown, query: answer.query, note, results: resultsHTML(words.parts, answer, titles, params, pathname, names, engine.pack) };
  }

  /** templates/search.html's title: a refused search says so first (the server's page answers it with a 400). */
  function pageTitle(words, shown) {
    return (shown.refused ? words.refused + ": " : "") + (shown.query ? shown.query + " – " : "") + words.title;
  }

  /** The filters unfold, as on the search page, while nothing is searched or a filter is set. */
  function filtersOpen(shown, params) { return !shown.query || Boolean(params.get("doc") || params.get("lang")); }

  /** The offline page's HTML with a search answered in it (the service worker's way). */
  function searchPageHTML(shell, engine, url, labels) {
    const box = /<div id="offline-search" hidden([^>]*)>/.exec(shell);
    if (!box) return null;
    const words = pageWords(shell);
    const shown = answerSearch(engine, words, url.pathname, url.searchParams, labels);
    if (shown.redirect) return { redirect: shown.redirect };
    const value = esc(shown.query);
    let html = shell
      .replace('<div id="offline-about">', '<div id="offline-about" hidden>')
      .replace(box[0], `<div id="offline-search" data-rendered="1"${box[1]}>`)
      .replace('<div id="offline-results"></div>', `<div id="offline-results">${shown.results}</div>`)
      .replace('<p class="offline-status offline-note" role="status"></p>', `<p class="offline-status offline-note" role="status">${esc(shown.note)}</p>`)
      .replace('<details class="search-filters">', `<details class="search-filters"${filtersOpen(shown, url.searchParams) ? " open" : ""}>`)
      .replace(/(<input type="search" id="site-search-q" name="q" value=")"/, `$1${value}"`)
      .replace(/(<input type="hidden" name="q" value=")"/, `$1${value}"`)
      .replace(/(<select name="doc"><option value="">[^<]*<\/option>)/, `$1${shown.documents}`)
      .replace(/<title>[^<]*<\/title>/, `<title>${esc(pageTitle(words, shown))}</title>`);
    const lang = url.searchParams.get("lang");
    if (lang === "ja" || lang === "zh") html = html.replace(`<option value="${lang}">`, `<option value="${lang}" selected>`);
    return shown.refused ? { html, status: 400 } : { html }; // the server refuses it with a 400 too
  }

  let enginePromise = null;

  /** The engine on the saved search pack (the service worker answers /-/offline/saved/search). */
  function loadEngine() {
    if (!enginePromise) {
      enginePromise = fetch("/-/offline/saved/search").then((response) => {
        if (!response.ok) throw new Error("not saved");
        return response.json();
      }).then((pack) => {
        const started = performance.now();
        const engine = new Engine(pack);
        engine.loadMs = performance.now() - started;
        return engine;
      });
      enginePromise.catch(() => { enginePromise = null; });
    }
    return enginePromise;
  }

  /** /<doc>/<ref> with no saved page (no such unit: every unit's page is saved): a search for the ref,
   * which opens the unit of that citation (the current Laws' 61 for /laws-1997-zh/61) or names the nearest. */
  function offerUnitSearch(unavailable, path) {
    const unit = /^\/[a-z0-9]+(?:-[a-z0-9]+)+\/(?!-\/)([^/].*)$/.exec(path);
    const offer = unavailable.querySelector(".offline-unit-search");
    if (!unit || !offer) return;
    let ref = unit[1];
    try { ref = decodeURIComponent(ref); } catch (e) { /* kept as typed */ }
    const link = offer.querySelector("a");
    link.href = link.getAttribute("href") + "?q=" + encodeURIComponent(ref);
    link.textContent = fill(link.getAttribute("data-text"), { query: ref });
    offer.hidden = false;
  }

  /** A static host (the export) has no such page (the worker's 404, the host's 404.html): "offline" would be
   * untrue, online or not - the copy is the site. Its own words replace the offline ones. */
  function sayNotInCopy(unavailable) {
    for (const said of unavailable.querySelectorAll("[data-online]")) said.textContent = said.dataset.online;
    document.title = unavailable.querySelector("h1").textContent;
  }

  /** /-/diff?ref=16b1&from=…&to=… that the copy lacks (it holds the comparisons the pages link to, as they
   * link them: not a ref typed otherwise, nor with its spacing shown): said so instead of "needs the server",
   * with the law's comparison offered. */
  function sayDiffNotSaved(unavailable, path) {
    const params = new URLSearchParams(location.search);
    const note = unavailable.querySelector(".offline-diff");
    if (!/^\/-\/diff\/?$/.test(path) || !params.get("ref") || !note) return;
    unavailable.querySelector(".error-message").hidden = true;
    note.hidden = false;
    const law = (/^(?:quote:|L)?(\d+)/.exec(params.get("ref")) || [])[1];
    if (!law || (law === params.get("ref") && !params.has("whitespace"))) return;
    const link = note.querySelector("a");
    params.set("ref", law);
    params.delete("whitespace");
    link.href = link.getAttribute("href") + "?" + params.toString();
    link.textContent = fill(link.getAttribute("data-text"), { law });
    link.hidden = false;
  }

  /** Whether the search data is being saved as the page shows: online, with a service worker that controls no
   * page yet - a static copy's first visit (export.py READY_SCRIPT reloads the page once the worker answers).
   * "Not saved yet: go online once" was untrue there for the seconds the saving takes. */
  function savingNow() {
    return navigator.onLine && !!navigator.serviceWorker && !navigator.serviceWorker.controller;
  }

  function offlinePage() {
    const about = document.getElementById("offline-about");
    const unavailable = document.getElementById("offline-unavailable");
    const searchBox = document.getElementById("offline-search");
    if (!about || !unavailable || !searchBox) return;
    const path = location.pathname.replace(/^\/(en|zh|ja)(?=\/)/, "");
    if (path === "/-/offline/page") return; // online: the page describes the offline copy
    about.hidden = true;
    if (!/^\/-\/search\/?$/.test(path)) {
      unavailable.hidden = false;
      if (unavailable.hasAttribute("data-not-in-copy")) sayNotInCopy(unavailable);
      unavailable.querySelector(".offline-url").textContent = location.pathname + location.search;
      offerUnitSearch(unavailable, path);
      sayDiffNotSaved(unavailable, path);
      return;
    }
    searchBox.hidden = false;
    const mark = () => document.documentElement.setAttribute("data-offline-rendered-at", performance.now().toFixed(1));
    if (searchBox.dataset.rendered) { mark(); return; } // the service worker answered it
    const words = pageWords(searchBox.outerHTML);
    const params = new URLSearchParams(location.search);
    const lang = interfaceOf(location.pathname);
    const labels = fetch("/-/offline/saved/" + lang + "/labels").then((r) => (r.ok ? r.json() : null)).catch(() => null);
    Promise.all([loadEngine(), labels]).then(([engine, named]) => {
      const shown = answerSearch(engine, words, location.pathname, params, named);
      if (shown.redirect) { location.replace(shown.redirect); return; }
      const form = searchBox.querySelector("form");
      form.elements.q.value = shown.query;
      const header = document.getElementById("site-search-q");
      if (header) header.value = shown.query;
      form.elements.doc.insertAdjacentHTML("beforeend", shown.documents);
      form.elements.lang.value = params.get("lang") || "";
      searchBox.querySelector("details.search-filters").open = filtersOpen(shown, params);
      document.title = pageTitle(words, shown);
      document.getElementById("offline-results").innerHTML = shown.results;
      searchBox.querySelector(".offline-note").textContent = shown.note;
      mark();
    }).catch((error) => {
      searchBox.querySelector(".offline-note").textContent = savingNow() ? words.loading : words.notSaved;
      document.documentElement.setAttribute("data-offline-search-error", String(error && error.message || error));
    });
  }

  Object.assign(S, { searchPageHTML, loadEngine });
  if (typeof document !== "undefined") {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", offlinePage);
    else offlinePage();
  }
  if (typeof module !== "undefined" && module.exports) module.exports = S;
})(typeof self !== "undefined" ? self : globalThis);
