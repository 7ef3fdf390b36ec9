// Offline search, the page (templates/offline.html): the service worker answers /-/search offline
// with the offline page's HTML and the results in it; the page runs the search itself only if the
// worker did not. The engine is offline-search-text.js, -engine.js and -ranking.js, loaded before.
(function (root) {
  "use strict";
  const S = (root.BridgeLawsSearch = root.BridgeLawsSearch || {});
  const { K, QueryError, fill, permalink, Engine } = S;


  const WORD_KEYS = ["note", "differs", "nearest", "noResults", "summary", "also", "some", "reprinted",
    "reprintOf", "previous", "next", "notSaved", "cited", "citing", "definitions", "law", "nearestUnits",
    "index", "didYouMean", "exact", "title"];

  function esc(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }


  /** How results are named in the interface language (offline_pack.result_labels, saved with the
   * language's pages): the unit's label ("Law 61B", 第61条B項), a link's "<document>: <label>",
   * each document's short title. Without them (an older copy), ids, as before. */
  class Names {
    constructor(labels, engine) {
      const units = engine.pack.units;
      this.usable = !!(labels && labels.labels && labels.labels.length === units.length);
      this.documents = (labels && labels.documents) || {};
      this.index = new Map();
      if (!this.usable) return;
      units.forEach((unit, i) => this.index.set(unit[1], i));
      this.labels = labels.labels;
      this.contexts = labels.contexts || {};
    }

    document(doc, fallback) { return this.documents[doc] || fallback || doc; }

    /** templates/search.html unit_label: the label, else "doc ref". */
    label(id, doc, ref) {
      const i = this.index.get(id);
      return (i !== undefined && this.labels[i]) || doc + " " + ref;
    }

    /** A link to a unit, named with its document (unit_labels.full_label). */
    fullLabel(unit) {
      const i = this.index.get(unit.id);
      return i !== undefined && this.labels[i] && this.documents[unit.doc]
        ? this.documents[unit.doc] + ": " + this.labels[i] : unit.doc + " " + unit.ref;
    }

    /** The title of the nearest enclosing unit with one, for a unit without a title. */
    context(id) {
      const i = this.index.get(id);
      return i === undefined ? null : this.contexts[i] || null;
    }
  }

  /** pages/search.py group_results: one document's law, its definitions, the rest; cited, citing. */
  function groupResults(results, titles, words) {
    const groups = new Map();
    for (const result of results) {
      let key, label;
      if (result.match === "citation") [key, label] = ["cited", words.cited];
      else if (result.match === "cites") [key, label] = ["citing", words.citing];
      else if (result.law) [key, label] = [result.doc + "\u0001law\u0001" + result.law, fill(words.law, { n: result.law })];
      else if (result.kind === "definition") [key, label] = [result.doc + "\u0001definitions", words.definitions];
      else [key, label] = [result.doc + "\u0001other", ""];
      const single = key.includes("\u0001");
      if (!groups.has(key)) groups.set(key, { doc: single ? result.doc : null, document: single ? titles[result.doc] || "" : "", label, results: [] });
      groups.get(key).results.push({ ...result, document: titles[result.doc] || "" });
    }
    return [...groups.values()];
  }

  /** The parts of templates/_search_results.html the offline page holds, by name: HTML with {slots}. */
  function partsOf(html) {
    const parts = {};
    for (const m of html.matchAll(/<template data-part="([a-z-]+)">([\s\S]*?)<\/template>/g)) parts[m[1]] = m[2];
    return parts;
  }

  /** A part with its slots filled (each value escaped). */
  function part(parts, name, values) {
    return (parts[name] || "").replace(/\{([a-z]+)\}/g, (slot, key) => (key in values ? esc(values[key]) : slot));
  }

  /** _search_results.html why(): the part chosen as the macro chooses it. */
  function whyHTML(parts, why) {
    const name = !why.sign ? "why-matched" : !why.from ? "why-sentence" : why.sign === "≈" ? "why-same" : "why-arrow";
    return part(parts, name, { from: why.from || "", words: why.words.join(" · ") });
  }

  function pageUrl(pathname, params, offset) {
    const next = new URLSearchParams(params);
    next.delete("offset");
    if (offset) next.set("offset", String(offset));
    return pathname + "?" + next.toString();
  }

  function withQuery(template, values) {
    const [before, after] = fill(template, { ...values, query: "\u0000" }).split("\u0000");
    return esc(before) + "<strong>" + esc(values.query) + "</strong>" + esc(after || "");
  }

  /** pages/search.py page_context: a word searched on its own, or the query exactly, keeping the filters. */
  function searchUrl(query, params, exact) {
    const form = new URLSearchParams({ q: query });
    for (const key of ["doc", "lang"]) if (params.get(key)) form.set(key, params.get(key));
    if (exact) form.set("exact", "1");
    return "/-/search?" + form.toString();
  }

  /** The results part of templates/search.html, as HTML. */
  function resultsHTML(words, answer, titles, params, pathname, names) {
    const out = [];
    const citation = answer.citation;
    if (citation && citation.message) {
      out.push(`<div class="citation-note" role="status"><p><strong>${esc(citation.message)}</strong></p>`);
      if (citation.nearest.length) out.push(`<p>${esc(words.nearestUnits)}</p>`);
      if (citation.nearest.length) {
        out.push(`<ul class="suggestions">${citation.nearest.map((u) => `<li><a href="${esc(u.url)}">${esc(names.fullLabel(u))}</a></li>`).join("")}</ul>`);
      }
      out.push("</div>");
    }
    const exactLink = () => `<a class="exact" href="${esc(searchUrl(answer.query, params, true))}">${esc(fill(words.exact, { query: answer.query }))}</a>`;
    const wordLinks = (list, kind) => list.map((w) => `<a${kind ? ` class="${kind}"` : ""} href="${esc(searchUrl(w, params, false))}">${esc(w)}</a>`).join(", ");
    const didYouMean = answer.did_you_mean || [];
    if (didYouMean.length) {
      out.push(`<p class="did-you-mean" role="status">${esc(words.didYouMean)} ${wordLinks(didYouMean, "")}\n  · ${exactLink()}</p>`);
    }
    if (answer.also_searched.length) {
      const exact = (answer.expansions || []).length && !didYouMean.length ? `\n  · ${exactLink()}` : "";
      out.push(`<p class="also-searched">${esc(words.also)} ${wordLinks(answer.also_searched, "also")}${exact}</p>`);
    }
    const groups = groupResults(answer.results, titles, words);
    if (!groups.length && !(citation && !citation.found)) {
      out.push(`<p class="no-results">${withQuery(words.noResults, { query: answer.query })}</p>`);
    } else if (groups.length) {
      const first = answer.offset + 1, last = answer.offset + answer.results.length;
      out.push(`<p class="search-summary">${withQuery(words.summary, { first, last, total: answer.total, query: answer.query })}</p>`);
      for (const group of groups) {
        out.push(`<section class="search-group"><h2>${group.label ? esc(group.label) + " " : ""}${group.doc ? `<span class="document">${esc(group.document)}</span>` : ""}</h2><ul class="search-results">`);
        for (const r of group.results) {
          let item = `<li><a href="${esc(r.url)}"><span class="label">${esc(names.label(r.id, r.doc, r.ref))}</span>${esc(r.title || "")}</a>`;
          const context = r.title ? null : names.context(r.id);
          if (context) item += `<span class="context">${esc(context)}</span>`;
          if (!group.doc) item += ` <span class="document">${esc(r.document)}</span>`;
          if (r.why) item += " " + whyHTML(words.parts, r.why);
          else if (r.match === "any" || r.match === "most") item += ` <span class="relaxed">${esc(words.some)}</span>`;
          if (r.index.length) item += ` <span class="via">${esc(fill(words.index, { heading: r.index[0].replace(/^index:/, "").split("/").join(" / ") }))}</span>`;
          if (r.reprints.length) item += ` <span class="reprints">${esc(words.reprinted)} ${r.reprints.map((x) => `<a href="${esc(x.url)}">${esc(names.fullLabel(x))}</a>`).join(", ")}</span>`;
          if (r.reprint_of) item += ` <span class="reprints">${esc(words.reprintOf)} <a href="${esc(r.reprint_of.url)}">${esc(names.fullLabel(r.reprint_of))}</a></span>`;
          item += `<div class="snippet">${r.snippet.map((part) => part.mark ? `<mark>${esc(part.text)}</mark>` : esc(part.text)).join("")}</div></li>`;
          out.push(item);
        }
        out.push("</ul></section>");
      }
      const shown = answer.offset + answer.results.length;
      const previous = answer.offset > 0 ? Math.max(0, answer.offset - answer.limit) : null;
      const following = answer.offset + answer.limit < answer.total ? answer.offset + answer.limit : null;
      if (previous !== null || following !== null) {
        out.push('<nav class="search-pages" aria-label="Result pages">');
        if (previous !== null) out.push(`<a rel="prev" href="${esc(pageUrl(pathname, params, previous))}">${esc(fill(words.previous, { n: answer.limit }))}</a>`);
        if (following !== null) out.push(`<a rel="next" href="${esc(pageUrl(pathname, params, following))}">${esc(fill(words.next, { n: Math.min(answer.limit, answer.total - shown) }))}</a>`);
        out.push("</nav>");
      }
    }
    return out.join("\n");
  }

  function countParam(params, name, fallback, low, high) {
    const value = params.get(name);
    if (value === null || value === "") return fallback;
    if (!/^[0-9]{1,7}$/.test(value) || +value < low || +value > high) {
      throw new QueryError(`${name} must be a whole number from ${low} to ${high.toLocaleString("en")}; got '${value.slice(0, 20)}'.`);
    }
    return +value;
  }

  /** One search as the offline page shows it: {redirect} for a single citation, else {query,
   * results (HTML), note, documents (HTML options)}. */
  const namesOf = new WeakMap(); // the saved labels -> their Names (the worker keeps one labels object per language)

  function answerSearch(engine, words, pathname, params, labels) {
    const query = params.get("q") || "";
    let names = labels && namesOf.get(labels);
    if (!names) {
      names = new Names(labels, engine);
      if (labels) namesOf.set(labels, names);
    }
    const titles = {};
    for (const d of engine.pack.documents) titles[d.id] = names.document(d.id, d.title);
    const chosen = params.get("doc") || "";
    const documents = engine.pack.documents.map((d) => `<option value="${esc(d.id)}"${d.id === chosen ? " selected" : ""}>${esc(titles[d.id])}</option>`).join("");
    const shown = { query, documents, results: "", note: fill(words.note, { build: engine.pack.build.slice(0, 8) }) };
    if (!query.trim() && !params.get("doc") && !params.get("lang")) return shown;
    let answer;
    try {
      answer = engine.search(query, { doc: params.get("doc") || null, lang: params.get("lang") || null,
        limit: countParam(params, "limit", 20, 1, 200), offset: countParam(params, "offset", 0, 0, K.search.max_offset),
        expand: !params.get("exact") });
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      return { ...shown, results: `<p class="search-error" role="alert">${esc(error.message)}</p>` };
    }
    const citation = answer.citation;
    if (citation && citation.opens && citation.citations === 1 && !params.get("list") && !answer.offset) {
      const [doc, ...ref] = citation.units[0].split(":");
      return { redirect: permalink(doc, ref.join(":")) + "?from_search=" + encodeURIComponent(answer.query) };
    }
    let note = shown.note;
    if (answer.split && answer.split.unknown.length) note += " " + fill(words.differs, { words: answer.split.words.join(" · ") });
    if (citation && !citation.found) note += " " + words.nearest;
    return { ...shown, query: answer.query, note, results: resultsHTML(words, answer, titles, params, pathname, names) };
  }

  function unescapeAttribute(text) {
    return text.replace(/&#34;|&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  }

  /** The offline page's HTML with a search answered in it (the service worker's way). */
  function searchPageHTML(shell, engine, url, labels) {
    const box = /<div id="offline-search" hidden([^>]*)>/.exec(shell);
    if (!box) return null;
    const words = {};
    for (const m of box[1].matchAll(/data-([a-z-]+)="([^"]*)"/g)) {
      words[m[1].replace(/-([a-z])/g, (_, c) => c.toUpperCase())] = unescapeAttribute(m[2]);
    }
    words.parts = partsOf(shell);
    const shown = answerSearch(engine, words, url.pathname, url.searchParams, labels);
    if (shown.redirect) return { redirect: shown.redirect };
    const value = esc(shown.query);
    let html = shell
      .replace('<div id="offline-about">', '<div id="offline-about" hidden>')
      .replace(box[0], `<div id="offline-search" data-rendered="1"${box[1]}>`)
      .replace('<div id="offline-results"></div>', `<div id="offline-results">${shown.results}</div>`)
      .replace('<p class="offline-note" role="status"></p>', `<p class="offline-note" role="status">${esc(shown.note)}</p>`)
      .replace(/(<input type="search" id="site-search-q" name="q" value=")"/, `$1${value}"`)
      .replace(/(<input type="search" name="q" value=")"/, `$1${value}"`)
      .replace(/(<select name="doc"><option value="">[^<]*<\/option>)/, `$1${shown.documents}`)
      .replace(/<title>[^<]*<\/title>/, `<title>${value ? value + " – " : ""}${esc(words.title)}</title>`);
    const lang = url.searchParams.get("lang");
    if (lang === "ja" || lang === "zh") html = html.replace(`<option value="${lang}">`, `<option value="${lang}" selected>`);
    return { html };
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
      unavailable.querySelector(".offline-url").textContent = location.pathname + location.search;
      return;
    }
    searchBox.hidden = false;
    const mark = () => document.documentElement.setAttribute("data-offline-rendered-at", performance.now().toFixed(1));
    if (searchBox.dataset.rendered) { mark(); return; } // the service worker answered it
    const words = {};
    for (const key of WORD_KEYS) words[key] = searchBox.dataset[key];
    words.parts = partsOf(searchBox.innerHTML);
    const params = new URLSearchParams(location.search);
    const lang = (/^\/(en|zh)(?=\/)/.exec(location.pathname) || [null, "ja"])[1];
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
      document.title = (shown.query ? shown.query + " – " : "") + words.title;
      document.getElementById("offline-results").innerHTML = shown.results;
      searchBox.querySelector(".offline-note").textContent = shown.note;
      mark();
    }).catch((error) => {
      searchBox.querySelector(".offline-note").textContent = words.notSaved;
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
