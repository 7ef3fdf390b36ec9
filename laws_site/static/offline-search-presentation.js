// Offline search, presenting a page (laws_site/search/presentation.py, why.py): each result's snippet, its why
// line and its links, as the server's JSON gives them; the engine's methods (offline-search-engine.js).
(function (root) {
  "use strict";
  const S = (root.BridgeLawsSearch = root.BridgeLawsSearch || {});
  const { K, lawOf, permalink, unitLink, wordsOf, matchSpans, mergeSpans, snippet, cleanQuery } = S;

  /** {word: typed} of the words a why names (a dict comprehension in why.py). */
  const keptFor = (through, words) => Object.fromEntries([...through].filter(([word]) => words.includes(word)));

  Object.assign(S.Engine.prototype, {
    present(page, query) {
      return page.map((hit) => {
        const stored = this.pack.snippets[hit.id] || ["", "", []];
        const [text, tokens, packed] = stored;
        const inText = new Set(tokens.split(" "));
        const held = this.namesHeld(hit) ? this.heldClauses(hit.branch, hit.id, inText) : null;
        let spans, wanted = new Set();
        if (hit.marks !== null) spans = mergeSpans(hit.marks);
        else {
          wanted = held ? this.heldInText(held, inText) : this.markedWords(hit.branch);   // only what its why names
          spans = matchSpans(tokens, packed, wanted);
        }
        // a heading (no text of its own): its sub-units' text, not its title twice (presentation.lead_snippet)
        const lead = this.pack.leads[hit.id];
        // the words a why names are its title's: its sub-units' text marks none of them
        const shown = lead === undefined ? snippet(text, spans, this.w.SNIPPET_CHARS) : this.leadSnippet(lead, held ? new Set() : wanted);
        return { ...this.asDict(hit, shown), why: this.why(query, hit, held, text, tokens, packed, inText) };
      });
    },

    /** presentation.lead_snippet: the sub-units' numbers, titles and texts in a row, the wanted words marked. */
    leadSnippet(lead, wanted) {
      let text = "", length = 0;
      const spans = [];
      for (const [head, unit] of lead) {
        const [own, tokens, packed] = (unit && this.pack.snippets[unit]) || ["", "", []];
        for (const [piece, marked] of [[head, false], [own, true]]) {
          if (!piece) continue;
          if (text) { text += " "; length += 1; }
          if (marked) for (const [b, e] of matchSpans(tokens, packed, wanted)) spans.push([b + length, e + length]);
          text += piece;
          length += [...piece].length;   // code points, as Python counts
        }
      }
      return snippet(text, spans, this.w.SNIPPET_CHARS);
    },

    /** why.names_held: a hit explained by the clauses it holds (found for some words, or through a translation). */
    namesHeld(hit) { return Boolean(hit.branch) && (hit.match === "any" || hit.match === "most" || Boolean(hit.branch.translated)); },

    /** presentation.marked_words: a branch's words less the light ones, unless it has no other. */
    markedWords(branch) {
      if (!branch) return new Set();
      const content = new Set([...branch.highlighted].filter((word) => !this.situations.light.has(word)));
      return content.size ? content : branch.highlighted;
    },

    /** search/why.py: the query's words a result holds, and through which expansion. */
    why(query, hit, held, text, tokens, packed, inText) {
      const branch = hit.branch, partial = hit.match === "any" || hit.match === "most";
      if (!branch) return null;
      const through = this.reachedThrough(query, branch, hit.id, text, tokens, packed, inText);
      if (through.size && branch.via === null && !partial) {   // every word held, but not every one as typed
        const words = this.heldWords(this.heldClauses(branch, hit.id, inText), text, tokens, packed, inText);
        const kept = keptFor(through, words);
        return Object.keys(kept).length ? { from: null, sign: null, words, through: kept } : null;
      }
      if (branch.via === null && !partial) return null;
      // a translation names the words the unit prints (hesitate → 躊躇, not its reading 躊躇う)
      const printed = held ? this.heldWords(held, text, tokens, packed, inText) : [];
      const words = printed.length ? printed : partial ? [] : [branch.via];
      if (!words.length) return null;
      if (branch.via === null) {
        const kept = keptFor(through, words);
        return { from: null, sign: null, words, ...(Object.keys(kept).length ? { through: kept } : {}) };
      }
      const sign = K.why.same_word_kinds.includes(branch.expansion) ? K.why.same_word_sign : K.why.expansion_sign;
      return { from: branch.sentence ? this.typedTerms(branch, held || branch.clauses) : query, sign, words };
    },

    /** why.reached_through: {a printed word: the typed word} for each clause of the query as typed held by none of
     * the typed word's spellings but by a word the Laws print for it (its neighbours: 態と -> 故意). */
    reachedThrough(query, branch, id, text, tokens, packed, inText) {
      const found = new Map();
      if (branch.via !== null || branch.translated || !packed || !packed.length) return found;
      const inTitle = this.titleWords.get(this.rowids.get(id)) || new Set();
      const unnamed = this.unnamedForms(), light = this.situations.light, chars = [...text];
      const content = branch.clauses.filter((clause) => !wordsOf(clause[0]).every((w) => light.has(w)));
      for (const clause of content) {
        const expansions = new Set(Object.hasOwn(this.neighbours.sentence, clause[0]) ? this.neighbours.sentence[clause[0]] : []);
        const own = clause.filter((alt) => !expansions.has(alt));
        if (!expansions.size || own.some((alt) => wordsOf(alt).every((w) => inText.has(w) || inTitle.has(w)))) continue;
        const wanted = new Set(clause.filter((alt) => expansions.has(alt) && wordsOf(alt).every((w) => inText.has(w)))
          .flatMap(wordsOf).filter((w) => !unnamed.has(w)));
        const typed = content.length === 1 ? query : this.typedSurface(query, clause);
        for (const [b, e] of matchSpans(tokens, packed, wanted)) {
          const word = chars.slice(b, e).join("").replace(/\n/g, " ");
          if (!found.has(word)) found.set(word, typed);
        }
      }
      return found;
    },

    /** why.typed_surface: the query's word of a clause as typed, an inflected one with the grammar after it, a
     * katakana compound as its words were typed (not its search key), else the clause's form. */
    typedSurface(query, clause) {
      const words = this.japaneseTokens(cleanQuery(query)), norm = clause[0];
      const i = words.findIndex((word) => word.norm === norm);
      if (i >= 0) {
        let typed = words[i].surface, end = words[i].end;
        const last = [...norm].slice(-1)[0] || "";
        if (K.why.inflecting_ends.includes(last) && !typed.endsWith(last)) {
          for (const after of words.slice(i + 1)) {
            if (!after.dropped || after.begin !== end) break;
            typed += after.surface;
            end = after.end;
          }
        }
        return typed;
      }
      // a katakana compound's clause: its key, then its words' forms apart (queryClauses)
      const near = Object.hasOwn(this.neighbours.sentence, norm) ? this.neighbours.sentence[norm] : [];
      const apart = clause.length > 1 && !near.includes(clause[1]) ? clause[1] : null;
      for (let a = 0; a < words.length; a++) {
        for (let b = a + 2; b <= words.length; b++) {
          if (words.slice(a, b).map((w) => w.norm).join(" ") === apart) return words.slice(a, b).map((w) => w.surface).join("");
        }
      }
      return norm;
    },

    /** why.typed_terms: the sentence's terms, as the query writes them, whose words (any spelling) the unit holds. */
    typedTerms(branch, held) {
      const words = new Set(held.flatMap((clause) => clause.flatMap(wordsOf)));
      const typed = (branch.sources || []).filter(([, searched]) => [...searched].some((w) => words.has(w))).map(([term]) => term);
      return [...new Set(typed)].join(" · ") || null;
    },

    heldClauses(branch, id, inText) {
      const inTitle = this.titleWords.get(this.rowids.get(id)) || new Set();
      return this.contentClauses(branch.clauses).filter((clause) => clause.some((alt) => wordsOf(alt).every((w) => inText.has(w) || inTitle.has(w))));
    },

    /** why.held_in_text: the held clauses' words the text prints, less particles and light words inside a phrase
     * (words.Lexicon.unnamed: no また of 「…」または「…」). */
    heldInText(held, inText) {
      const unnamed = this.unnamedForms();
      return new Set(held.flatMap((clause) => this.printedSpellings(clause, inText).flatMap(wordsOf))
        .filter((w) => inText.has(w) && !unnamed.has(w)));
    },

    /** why.printed_spellings: a clause's one-word spellings the text prints, else those it prints every word of, else all. */
    printedSpellings(clause, inText) {
      const whole = clause.filter((alt) => !alt.includes(" ") && inText.has(alt));
      if (whole.length) return whole;
      const spelt = clause.filter((alt) => wordsOf(alt).every((w) => inText.has(w)));
      return spelt.length ? spelt : clause;
    },

    heldWords(held, text, tokens, packed, inText) {
      const printed = this.shownForms()[1];
      const wanted = this.heldInText(held, inText);
      const chars = [...text];
      const found = matchSpans(tokens, packed, wanted).map(([b, e]) => chars.slice(b, e).join("").replace(/\n/g, " "));
      for (const clause of held) {
        if (!clause.some((alt) => wordsOf(alt).some((w) => inText.has(w)))) found.push(wordsOf(clause[0]).map((w) => (printed.has(w) ? printed.get(w) : w)).join(""));
      }
      return [...new Set(found)].slice(0, K.why.max_words);
    },

    /** words.Lexicon.unnamed: the forms a why never names nor a snippet marks inside a held phrase. */
    unnamedForms() {
      if (!this.unnamed) this.unnamed = new Set([...this.shownForms()[0], ...this.situations.light]);
      return this.unnamed;
    },

    /** words.Lexicon.shown_forms: the forms every surface of which is dropped, and each form's commonest surface. */
    shownForms() {
      if (!this.shown) {
        const always = new Map(), best = new Map();
        for (const [surface, [norm, dropped, cost]] of Object.entries(this.lexicon)) {
          always.set(norm, (always.has(norm) ? always.get(norm) : true) && Boolean(dropped));
          const kept = best.get(norm);
          if (!dropped && (!kept || cost < kept[0] || (cost === kept[0] && surface < kept[1]))) best.set(norm, [cost, surface]);
        }
        this.shown = [new Set([...always].filter(([, a]) => a).map(([n]) => n)), new Map([...best].map(([n, [, s]]) => [n, s]))];
      }
      return this.shown;
    },

    asDict(hit, spans) {
      const role = (this.documents.get(hit.doc) || {}).role;
      let law = null;
      if (role === "laws" || role === "commentary") law = lawOf(hit.ref);
      return { doc: hit.doc, ref: hit.ref, id: hit.id, kind: hit.kind, title: hit.title, snippet: spans,
        score: Math.round(hit.score * 10000) / 10000, law, lang: hit.lang, url: permalink(hit.doc, hit.ref),
        via: hit.branch ? hit.branch.via : null, match: hit.match, index: hit.index_entries.slice(0, K.search.index_shown),
        reprints: hit.reprints.map(unitLink), reprint_of: hit.reprint_of ? unitLink(hit.reprint_of) : null,
        paired: (this.paired.get(hit.id) || []).map(unitLink) };
    },
  });

  if (typeof module !== "undefined" && module.exports) module.exports = S;
})(typeof self !== "undefined" ? self : globalThis);
