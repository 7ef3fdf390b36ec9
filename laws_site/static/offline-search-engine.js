// Offline search, the engine (laws_site/search/engine.py, plan.py, citations.py, expansions.py,
// presentation.py): a search as search_page answers it, on the build's search pack
// (laws_site/offline/search_data.py). Its other methods: reading a Chinese or English query
// (offline-search-reading.js), expansions, citations, presenting a page (offline-search-expansions.js, -citations.js,
// -presentation.js) and the ranking (offline-search-ranking.js).
(function (root) {
  "use strict";
  const S = (root.BridgeLawsSearch = root.BridgeLawsSearch || {});
  const { K, QueryError, useRules, compiled, applySteps, replaceAll, message, pyStrip, generalKatakanaFold, fold, cleanQuery, toKatakana, isKana, kanaKey, romajiToKana, soundKey, soundPattern, closest, squeeze, lawSpelling, regulationSpelling, noteSpelling, citationCandidates, candidateRefs, namedDocument, splitCitations, lawAncestors, lawOf, latinRuns, permalink, unitLink, termsKey, wordsOf, sameList, uniqueBy, owns, remembered, englishKey, katakanaRuns, matchSpans, mergeSpans, snippet } = S;

  // ---------------------------------------------------------------- the engine

  /** A pack's object keyed by rowid (JSON's keys are strings) as a Map keyed by the number. */
  function byRowid(object) { return new Map(Object.entries(object).map(([rowid, value]) => [+rowid, value])); }
  /** The query's words are all FTS5 operators (AND, OR, ...): nothing is left to search for. */
  function onlyOperators(query) { return query.split(" ").every((word) => K.search.fts_operators.includes(word)); }

  class Engine {
    constructor(pack) {
      this.pack = pack;
      useRules(pack.rules);
      const w = pack.weights;
      this.w = w;
      this.units = new Map();      // rowid -> [id, doc, ref, kind, title, lang, position]
      this.rowids = new Map();     // id -> rowid
      for (const [rowid, ...unit] of pack.units) {
        this.units.set(rowid, unit);
        this.rowids.set(unit[0], rowid);
      }
      this.documents = new Map(pack.documents.map((d) => [d.id, d]));
      this.searchable = Object.fromEntries(Object.entries(pack.searchable).map(([lang, rowids]) => [lang, new Set(rowids)]));
      this.titleWords = new LazySets(pack.title_words);
      this.boundWords = new LazySets(pack.bound_words);  // data.bound_words: held only inside another word
      this.titleBound = new LazySets(pack.title_bound || {});  // data.title_bound: ... by the title, which does not name it
      this.reprinted = byRowid(pack.reprinted);
      this.paired = new Map(Object.entries(pack.paired));
      this.currentOf = new Map(); // data.current_of: an earlier unit -> the current units paired with it
      for (const [current, earlier] of this.paired) for (const e of earlier) this.currentOf.set(e, (this.currentOf.get(e) || []).concat([current]));
      this.variants = pack.variants;
      this.variantPrefix = compiled(pack.variant_prefix);
      // every token of the search columns, per language: a word no unit holds cannot match (asked word
      // by word of the FTS index's terms, plus `more`, less `less`: the phone never builds the sets)
      this.vocabularyOf = {};
      for (const [lang, words] of Object.entries(pack.indexed_words)) this.vocabularyOf[lang] = new IndexedWords(lang, words, pack.fts.postings, this.units);
      const indexEntries = pack.index_entries.map(([ref, terms, targets]) => ({ ref, terms: new Set(terms), targets }));
      this.indexByTerm = new Map(Object.entries(pack.index_by_term).map(([term, found]) => [term, found.map((i) => indexEntries[i])]));
      // the 索引's "see" entries by their sorted tokens: [the see entry's ref, the units to boost]
      this.seeAlso = new Map(pack.see_also.map(([terms, ref, targets]) => [termsKey(terms), [ref, targets]]));
      const fts = pack.fts;
      this.ftsRows = fts.rows;
      this.avgdl = fts.tokens / fts.rows;
      this.sizes = byRowid(fts.sizes);
      this.postings = fts.postings;
      this.lexicon = pack.lexicon;
      this.neighbours = pack.neighbours;
      this.maxSurface = pack.lexicon_longest;
      this.han = new Set(Object.keys(pack.lexicon).flatMap((word) => [...word].filter((c) => K.scripts.han.test(c))));
      this.t2s = pack.t2s;
      this.docOrder = new Map(pack.documents.map((d) => [d.id, d.rank]));
      this.phraseCache = new Map();
      this.cutCache = new Map();
      // a sentence's coverage (search/coverage.py): light words, the parts below each unit, the evidence
      const s = pack.situations;
      this.situations = { light: new Set(s.light), below: byRowid(s.below), headings: new Set(s.headings), titlesOnly: new Set(s.titles_only), evidence: byRowid(s.evidence),
        named: new Map(Object.entries(s.named)), phrases: s.phrases, appliedRules: new Map(Object.entries(s.applied_rules || {})),
        providedRules: new Map(Object.entries(s.provided_rules || {})) };
    }

    // --------------------------------------------- tokens (ingest/text/tokenize.py)

    foldKatakana(word) {
      if (!K.scripts.katakana.test(word)) return word;
      let folded = generalKatakanaFold(word);
      if (owns(this.variants, folded)) return this.variants[folded];
      if (this.variantPrefix) folded = folded.replace(this.variantPrefix, (m, p) => this.variants[p]);
      return folded;
    }

    toSimplified(text) {
      if (!K.scripts.han.test(text)) return text;
      let out = "";
      for (const c of text) out += this.t2s[c] || c;
      return out;
    }

    /** Japanese words of a text: the fewest words of the corpus's lexicon (then the most frequent),
     * unknown katakana runs whole, punctuation and spaces left out. A run of Latin letters, or of
     * digits, is one word, as SudachiPy keeps it (misinformation, not m + i + s + information; l54d
     * is l + 54 + d): the lexicon names it only if it holds the whole run. Cut once per text: a query
     * is cut for its terms, clauses, glossary key and unknown words (the callers only read the tokens). */
    japaneseTokens(text) { return remembered(this.cutCache, text, 200, () => this.cutJapanese(text)); }

    cutJapanese(text) {
      const s = [...text.normalize("NFKC")];
      const n = s.length;
      const runEnd = latinRuns(s);
      const best = new Array(n + 1).fill(null);
      best[0] = { cost: 0, prev: -1, token: null };
      const lexicon = this.lexicon, maxLen = this.maxSurface;
      const inSentence = !K.words.reading.test(s.join("")); // a query wholly in hiragana is a reading (words.READING_RE)
      // words.Lexicon.cut: in a sentence an unknown run of hiragana ends where a word of the lexicon starts
      const stops = new Set();
      if (inSentence) {
        for (let i = 0; i < n; i++) {
          let surface = "";
          for (let j = i + 1; j <= Math.min(n, i + maxLen); j++) {
            surface += s[j - 1];
            if (lexicon[surface]) { stops.add(i); break; }
          }
        }
      }
      for (let i = 0; i < n; i++) {
        if (!best[i]) continue;
        const base = best[i].cost;
        const relax = (j, cost, token) => {
          if (!best[j] || best[j].cost > base + cost) best[j] = { cost: base + cost, prev: i, token };
        };
        let surface = "";
        let startsWord = false;
        for (let j = i + 1; j <= Math.min(n, i + maxLen); j++) {
          surface += s[j - 1];
          if (runEnd[j - 1] !== undefined && runEnd[j - 1] !== j) continue; // it would end inside a Latin or digit run
          const entry = lexicon[surface];
          if (entry) { startsWord = true; relax(j, entry[2], { surface, norm: entry[0], dropped: entry[1], begin: i, end: j }); }
          else if (inSentence && j - i > 1 && K.words.hiragana_word.test(surface)) {
            // a word printed in katakana typed in hiragana (りーど): words.Lexicon.cut
            const printed = lexicon[toKatakana(surface)];
            if (printed && !printed[1]) {
              startsWord = true;
              relax(j, printed[2] + K.words.katakana_typed, { surface, norm: printed[0], dropped: 0, begin: i, end: j });
            }
          }
        }
        const c = s[i];
        if (/[\s\p{P}\p{S}]/u.test(c) && c !== "ー") { relax(i + 1, 0, null); continue; }
        if (inSentence && startsWord && K.words.hiragana.test(c)) continue; // SudachiPy's rule: hiragana is unknown only where no known word starts
        let j = i + 1;
        if (runEnd[i] !== undefined) {
          j = runEnd[i];
        } else {
          const script = K.words.kana_runs.find((run) => run.test(c));
          const hiragana = script === K.words.kana_runs[1];
          while (script && j < n && script.test(s[j]) && !(hiragana && stops.has(j))) j++;
        }
        const run = s.slice(i, j).join("");
        const costs = K.words;
        relax(j, j - i > 1 ? costs.unknown_run : costs.unknown_char, { surface: run, norm: null, dropped: 0, begin: i, end: j });
        if (j - i > 1 && runEnd[i] === undefined) relax(i + 1, costs.unknown_char, { surface: c, norm: null, dropped: 0, begin: i, end: i + 1 });
      }
      const tokens = [];
      for (let at = n; at > 0 && best[at];) {
        const step = best[at];
        if (step.token) tokens.push(step.token);
        at = step.prev;
      }
      tokens.reverse();
      return tokens.map((t) => ({ ...t, unknown: t.norm === null, norm: t.norm !== null ? t.norm : this.foldKatakana(fold(t.surface)) }))
        .filter((t) => t.norm);
    }

    chineseTokens(text) {
      const tokens = [];
      const simplified = this.toSimplified(text);
      const runs = K.scripts.latin_or_han_run;
      const chars = [...simplified];
      const joined = chars.join("");
      for (const m of joined.matchAll(runs)) {
        const start = [...joined.slice(0, m.index)].length;
        const run = [...m[0]];
        if (!K.scripts.han.test(run[0])) {
          tokens.push({ norm: fold(m[0]), begin: start, end: start + run.length, pos: "word" });
          continue;
        }
        run.forEach((c, i) => {
          tokens.push({ norm: c, begin: start + i, end: start + i + 1, pos: "char" });
          if (i + 1 < run.length) tokens.push({ norm: c + run[i + 1], begin: start + i, end: start + i + 2, pos: "bigram" });
        });
      }
      return tokens;
    }

    queryTerms(query, lang) {
      query = cleanQuery(query);
      if (!query) return [];
      let terms;
      if (lang === "zh") {
        const tokens = this.chineseTokens(query);
        terms = tokens.filter((t) => t.pos !== "char" || !tokens.some((b) => b.pos === "bigram" && b.begin <= t.begin && t.begin < b.end))
          .map((t) => t.norm);
      } else {
        const tokens = this.japaneseTokens(query);
        terms = tokens.filter((t) => !t.dropped).map((t) => t.norm);
        if (!terms.length) terms = tokens.map((t) => t.norm);
      }
      return [...new Set(terms)];
    }

    queryClauses(query, lang) {
      const terms = this.queryTerms(query, lang);
      if (lang === "zh") return terms.map((t) => [t]);
      const wanted = new Set(terms);
      const tokens = this.japaneseTokens(cleanQuery(query)).filter((t) => wanted.has(t.norm));
      const runs = katakanaRuns(tokens);
      const covered = new Set(runs.flat());
      const single = tokens.filter((t) => !covered.has(t));
      const content = runs.length + new Set(single.filter((t) => !this.situations.light.has(t.norm)).map((t) => t.norm)).size;
      const table = content > 1 ? this.neighbours.sentence : this.neighbours.word;   // クレームした: the word's
      const clauses = [];
      for (const run of runs) {   // a katakana word the corpus never prints reads as the words it prints for it too
        const joined = this.foldKatakana(run.map((t) => t.norm).join(""));
        clauses.push([...new Set([joined, run.map((t) => t.norm).join(" "), ...(table[joined] || [])])]);
      }
      for (const t of single) clauses.push([t.norm, ...(table[t.norm] || [])]);
      const unique = uniqueBy(clauses, (clause) => clause.join("\u0001"));
      return unique.length ? unique : terms.map((t) => [t]);
    }

    /** words.with_bid_word: a bid written as level + strain (1ハート, 1NT) is a ビッド; a bid not above the one
     * written before it, 不十分なビッド (STRAINS: the strains from the lowest); a level above seven, 7を超えるビッド. */
    withBidWord(text) {
      const W = K.words;
      const rank = (bid) => {
        let strain = 0;
        W.strains.forEach((names, i) => { if (names.some((n) => bid.includes(n))) strain = i; });
        return parseInt(bid.trimStart()[0], 10) * W.strains.length + strain;
      };
      const normal = text.normalize("NFKC");
      const bids = [...normal.matchAll(W.bid)].map((m) => rank(m[0]));
      const beyond = W.beyond_seven.test(normal);
      if (!bids.length && !beyond) return text;
      const insufficient = bids.slice(1).some((later, i) => later <= bids[i]);
      return `${text} ${W.bid_word}` + (insufficient ? ` ${W.insufficient_word}` : "") + (beyond ? ` ${W.beyond_seven_word}` : "");
    }

    /** (terms, clauses) of a text in a language, cut as the server cuts it (the same lexicon and rules). */
    queryTokens(text, lang) {
      if (lang === "ja") text = this.withBidWord(applySteps(K.words.table_words, text.normalize("NFKC")));   // words.with_table_words
      const terms = this.queryTerms(text, lang).filter((t) => K.scripts.word.test(t)).slice(0, this.w.MAX_TERMS);
      const clauses = this.queryClauses(text, lang).filter((c) => K.scripts.word.test(c.join(" ")));
      return [terms, terms.length ? clauses.slice(0, this.w.MAX_TERMS) : []];
    }

    // --------------------------------------------- lookups (ingest/search/glossary.py, ingest/search/vocabulary.py)

    glossaryLookup(query) {
      query = cleanQuery(query);
      if (!query) return [];
      const g = this.pack.glossary;
      const found = [];
      // an English term has no Chinese or Japanese characters (glossary.Glossary.lookup)
      if (K.keys.latin_letter.test(query) && !K.scripts.han.test(query) && !K.scripts.kana.test(query)) found.push(...(g.by_en[englishKey(query)] || []));
      const jaKey = this.japaneseTokens(query).map((t) => t.norm).join(" ");
      found.push(...(g.by_ja[jaKey] || []));
      found.push(...(g.by_zh[this.toSimplified(query)] || []));
      return [...new Set(found)].map((i) => g.entries[i]);
    }

    /** words.Lexicon.reads_kana_as_words: a kana-only query holds a content word (not dropped, not light) of two
     * letters or more, and its words of two letters or more and the grammar after a word account for at least
     * kana_words_share of its letters; any other query reads as words. */
    readsKanaAsWords(query) {
      const cleaned = cleanQuery(query).normalize("NFKC");
      if (!isKana(cleaned)) return true;
      const words = this.japaneseTokens(cleaned);
      if (!words.some((t) => !t.dropped && !this.situations.light.has(t.norm) && t.end - t.begin > 1)) return false;
      let accounted = 0, afterAWord = false;
      for (const t of words) {
        const size = t.end - t.begin;
        if (t.dropped) accounted += afterAWord ? size : 0;
        else { afterAWord = true; accounted += size > 1 ? size : 0; }
      }
      return accounted >= K.words.kana_words_share * [...cleaned.replace(/ /g, "")].length;
    }

    /** search.plan.lookup_text: the query, or its one content word when the rest are light (クレームした). */
    lookupText(query) {
      if (this.glossaryLookup(query).length || this.vocabularyMatches(query).length || !K.scripts.kana.test(query)) return query;
      const words = this.japaneseTokens(cleanQuery(query));
      const content = words.filter((t) => !t.dropped && !this.situations.light.has(t.norm));
      const runs = katakanaRuns(content), inRuns = new Set(runs.flat());   // a katakana compound is one word
      const pieces = content.filter((t) => !inRuns.has(t)).map((t) => [t]).concat(runs);
      if (pieces.length !== 1 || words.length < 2) return query;
      const surface = pieces[0].map((t) => t.surface).join("");  // not a word typed in hiragana: a reading (words.Lexicon.lone_word)
      return K.scripts.katakana.test(surface) || K.scripts.han.test(surface) ? surface : query;
    }

    vocabularyMatches(query) {
      const key = this.searchKey(query);
      return key ? (this.pack.vocabulary.by_key[key] || []) : [];
    }

    searchKey(term) {
      const folded = this.foldKatakana(term.normalize("NFKC").toLowerCase());
      return folded.replace(K.keys.inner_hyphen, "").replace(/\s+/g, "");
    }

    // --------------------------------------------- search_page

    search(rawQuery, options = {}) {
      const doc = options.doc || null, lang = options.lang || null;
      const limit = options.limit === undefined ? 20 : options.limit;
      const offset = options.offset || 0;
      const query = this.checkQuery(rawQuery);
      if (lang !== null && lang !== "ja" && lang !== "zh") throw new QueryError(message("unknown_language", { lang }));
      if (doc !== null && !this.documents.has(doc)) {
        throw new QueryError(message("unknown_document", { doc, documents: [...this.documents.keys()].join(", ") }));
      }
      if (!(Number.isInteger(limit) && limit >= 1 && limit <= K.search.max_limit)) throw new QueryError(message("limit", { highest: K.search.max_limit }));
      if (!(Number.isInteger(offset) && offset >= 0 && offset <= K.search.max_offset)) throw new QueryError(message("offset", { highest: K.search.max_offset.toLocaleString("en") }));
      if (onlyOperators(query)) throw new QueryError(this.nothingToSearch(query));
      const citation = this.citedUnits(query, doc, lang);
      const expand = options.expand !== false;
      let alsoSearched = [], total, page, split = null, expansions = [], plan = null;
      if (citation && citation.found) {
        const hits = this.citationHits(citation.units, doc, lang);
        total = hits.length;
        page = hits.slice(offset, offset + limit);
      } else {
        plan = this.makePlan(query, lang);
        // engine.query_alternatives: no Japanese synonyms for a query that reads as Chinese
        const chinese = !lang && !this.readsAsJapanese(query);
        plan.alternatives = expand && !citation ? this.alternatives(query, lang).filter((alt) => !(chinese && alt.kind === "synonym"))
          .map((alt) => [alt, this.alternativePlan(alt, lang)]) : [];
        if (!plan.branches.length && !citation && !plan.alternatives.some(([, p]) => p.branches.length)
            && !(expand && this.corrections(query, lang).length)) throw new QueryError(this.nothingToSearch(query));
        plan.relaxed = citation === null;
        plan.query = query;
        const currentFirst = K.search.current_first_interfaces.includes(options.interface || "ja");
        const ranking = this.rankedHits(plan, doc, lang, options.indexBoost !== false, expand && !citation, currentFirst);
        alsoSearched = plan.alsoSearched;
        // corrections joined plan.alternatives while ranking, when the query itself found few units
        expansions = plan.alternatives.map(([alt]) => ({ kind: alt.kind, text: alt.text, found: ranking.foundBy.get(alt.text) || 0 }));
        total = ranking.order.length;
        page = ranking.hits(offset, limit);
        split = plan.split;
      }
      // search_page: what else was searched and found, apart from the spelling corrections
      const found = expansions.filter((e) => e.found);
      const also = found.filter((e) => e.kind !== "typo").map((e) => e.text);
      const alsoSearchedAll = [...new Set(alsoSearched.concat(also))];
      const didYouMean = found.filter((e) => e.kind === "typo").map((e) => e.text);
      return { query, total, offset, limit, results: this.present(page, query),
        also_searched: alsoSearchedAll, did_you_mean: didYouMean,
        word_langs: this.wordLanguages(query, plan, alsoSearchedAll.concat(didYouMean), citation !== null),
        expansions: found, exact: !expand, citation, split };
    }

    /** presentation.word_languages: the language the query and each word shown beside the results is written in. */
    wordLanguages(query, plan, words, cited) {
      const readAs = new Map();
      for (const branch of plan ? plan.branches : []) if (branch.via && !readAs.has(branch.via)) readAs.set(branch.via, branch.lang);
      for (const [alt, altPlan] of plan ? plan.alternatives : []) {
        if (altPlan.branches.length && !readAs.has(alt.text)) readAs.set(alt.text, altPlan.branches[0].lang);
      }
      readAs.set(query, this.readsAsJapanese(query) ? "ja" : "zh");
      const listed = this.pack.vocabulary.spoken_langs || {}; // the vocabulary's language for its spoken forms
      const guessed = (word) => K.scripts.kana.test(word) ? "ja" : K.scripts.latin_word.test(word) ? "en" : readAs.get(word) ?? null;
      const writtenIn = (word) => listed[this.searchKey(word)] || guessed(word);
      const languages = Object.fromEntries([query, ...words].map((word) => [word, writtenIn(word)]));
      if (cited) languages[query] = null; // a citation (64A1) is in no language
      return languages;
    }

    checkQuery(query) {
      const cleaned = cleanQuery(query);
      if (!cleaned) throw new QueryError(message("empty"));
      const length = [...cleaned].length;
      if (length > this.w.MAX_QUERY_CHARS) {
        throw new QueryError(message("too_long", { length: length.toLocaleString("en"), limit: this.w.MAX_QUERY_CHARS }));
      }
      return cleaned;
    }

    nothingToSearch(query) {
      const chars = [...query], most = K.search.shown_chars;
      const shown = chars.length <= most ? query : chars.slice(0, most).join("") + "…";
      return message(onlyOperators(query) ? "only_operators" : "nothing", { shown });
    }

    inFilters(unitDoc, doc, lang) {
      return (doc === null || unitDoc === doc) && (lang === null || (this.documents.get(unitDoc) || {}).language === lang);
    }

    docRank(doc) { return this.docOrder.has(doc) ? this.docOrder.get(doc) : this.docOrder.size; }

    makeBranch(text, lang, via = null, weight = 1.0, read = null) {
      const [terms, found] = this.queryTokens(text, lang);
      const clauses = read ? this.withNeighbours(this.compoundClauses(read, found)) : found;
      const simple = clauses.every((c) => c.length === 1 && !c[0].includes(" "));
      const highlighted = new Set(terms);
      for (const clause of clauses) for (const alt of clause) if (!alt.includes(" ")) highlighted.add(alt);
      // plan.make_branch: a Chinese sentence covers its words, not the bigrams across two of them
      const coverageClauses = lang === "zh" && terms.length
        ? this.chineseClauses(text).filter((c) => K.scripts.word.test(c.join(" "))).slice(0, this.w.MAX_TERMS) : [];
      return { lang, terms, clauses, via, weight, pointed: new Set(), titleNeeds: simple ? new Set(clauses.map((c) => c[0])) : null, highlighted,
        named: this.titleKey(text, lang), coverageClauses };
    }

    /** search.chinese.ChineseWords.clauses: the cut's words as the index holds them (是不是: 是不 不 不是), then Latin words. */
    chineseClauses(query) {
      const text = this.toSimplified(query.normalize("NFKC").toLowerCase());
      const found = [];
      for (const run of text.matchAll(K.translation.han_run)) {
        for (const [start, end] of this.chineseWords(run[0])) {
          const word = run[0].slice(start, end), pieces = [word.slice(0, 2)];
          for (let i = 1; i < word.length - 1; i++) pieces.push(word[i], word.slice(i, i + 2));
          found.push([word.length < 2 ? word : pieces.join(" ")]);
        }
      }
      for (const token of this.chineseTokens(text)) if (token.pos === "word") found.push([token.norm]);
      return uniqueBy(found, (c) => c[0]);
    }

    /** search.plan.with_neighbours: a translated word the Laws never print matches their words for it, even alone. */
    withNeighbours(clauses) {
      const table = this.neighbours.sentence;
      return clauses.map((c) => (c.length === 1 && owns(table, c[0]) ? [c[0], ...table[c[0]]] : c));
    }

    /** search.plan.compound_clauses: a translated term's words printed together (対戦相手) are one phrase. */
    compoundClauses(read, clauses) {
      const phrases = [], pieces = new Set(), alone = new Set();
      for (const term of read) {
        let run = [];
        for (const word of [...this.japaneseTokens(term), null]) {
          if (word && !word.dropped && (!run.length || run[run.length - 1].end === word.begin)) { run.push(word); continue; }
          const phrase = run.length >= 2 && !run.every((t) => K.scripts.katakana_word.test(t.surface));
          if (phrase) phrases.push([run.map((t) => t.norm).join(" ")]);
          for (const t of run) (phrase ? pieces : alone).add(t.norm);
          run = word && !word.dropped ? [word] : [];
        }
      }
      const kept = clauses.filter((c) => !(c.length === 1 && pieces.has(c[0]) && !alone.has(c[0])));
      return uniqueBy(phrases.concat(kept), (c) => c.join("\u0001"));
    }

    /** search.title_key: a title or a query compared as written (NAMED_BOOST). */
    titleKey(text, lang) {
      if (!text) return "";
      text = text.normalize("NFKC").toLowerCase();
      if (lang === "zh") text = this.toSimplified(text);
      return text.replace(K.keys.footnote_mark, "").replace(K.keys.non_word, "");
    }

    makePlan(query, lang) {
      const w = this.w;
      const languages = lang ? [lang] : ["ja", "zh"];
      const branches = [];
      const add = (branch) => {
        if (!branch.terms.length) return null;
        for (const existing of branches) {
          if (existing.lang === branch.lang && sameList(existing.terms, branch.terms)) return existing;
        }
        branches.push(branch);
        return branch;
      };
      let direct = !lang && K.scripts.kana.test(query) ? ["ja"] : languages;
      if (!lang && !this.readsAsJapanese(query)) direct = ["zh"];   // words.Lexicon.reads_as_japanese
      for (const language of direct) {
        if (language === "ja" && !this.readsKanaAsWords(query)) continue;   // plan.make_plan: kana read as almost nothing typed
        add(this.makeBranch(query, language));
      }
      const lookedUp = this.lookupText(query);
      for (const entry of this.glossaryLookup(lookedUp)) {
        for (const language of languages) {
          for (const form of entry.forms[language]) {
            const branch = add(this.makeBranch(form, language, form, w.GLOSSARY_WEIGHT));
            const unit = entry.units[language];
            const ref = language === "ja" ? entry.ja_ref : entry.zh_ref;
            if (branch && unit && ref && ref.startsWith("def:")) branch.pointed.add(unit);
          }
        }
      }
      const targets = new Map();
      const registry = this.pack.registry;
      for (const [index, fields] of this.vocabularyMatches(lookedUp)) {
        const entry = this.pack.vocabulary.entries[index];
        for (const [language, words] of [["ja", entry.ja.concat(entry.ja_regs)], ["zh", entry.zh]]) {
          if (languages.includes(language)) for (const word of words) add(this.makeBranch(word, language, word, w.GLOSSARY_WEIGHT));
        }
        if (fields.length === 1 && fields[0] === "zh") continue;
        let rank = 0;
        for (const [document, refs] of [[registry.current_laws, entry.laws], [registry.regulations, entry.regs]]) {
          for (const ref of document ? refs : []) {
            const boost = Math.max(w.VOCABULARY_BOOST - w.VOCABULARY_STEP * rank, w.VOCABULARY_BOOST / 2);
            const unit = document + ":" + ref;
            targets.set(unit, Math.max(targets.get(unit) || 0, boost));
            rank += 1;
          }
        }
      }
      if (languages.includes("ja") && !K.scripts.kana.test(query) && !targets.size && !this.glossaryLookup(query).length) {
        // search.plan: a Chinese or English sentence in the current Laws' Japanese words (search/translation.py)
        const termsRead = this.readTerms(query);
        const read = [...new Set(termsRead.flatMap(([, japanese]) => japanese))], words = read.join(" ");
        // an English sentence read in the Laws' words is not also searched as typed (search.plan)
        if (words && !K.scripts.han.test(query)) branches.splice(0, branches.length, ...branches.filter((b) => b.via !== null));
        if (words) {
          const branch = this.makeBranch(words, "ja", words, w.TRANSLATION_WEIGHT, read);
          // an English query of one word (hesitate) is searched as that word, not by a sentence's coverage, and so is
          // one of one word besides function words (he hesitated): coverage needs two
          const typed = query.toLowerCase().match(K.translation.english_word) || [];
          branch.sentence = read.length > 1 || typed.filter((x) => !K.translation.function_words.includes(x)).length !== 1;
          branch.translated = true;
          // search.plan.term_sources: the query's own terms, for why a result was found
          branch.sources = termsRead.map(([typed, japanese]) => [typed, new Set(japanese.flatMap((word) => this.queryTokens(word, "ja")[0]))]);
          // search.plan.term_shares: an English term read as several words counts once (a Chinese word's are chinese.py's)
          if (!K.scripts.han.test(query)) branch.termShares = this.termShares(branch.clauses, branch.sources);
          add(branch);
        }
      }
      const own = new Set(branches.filter((b) => b.via === null).map((b) => b.lang + "\u0001" + b.terms.join("\u0002")));
      const also = [...new Set(branches.filter((b) => b.via && !own.has(b.lang + "\u0001" + b.terms.join("\u0002"))).map((b) => b.via))];
      // how the query was cut into words here, and the words the corpus does not know (where a
      // dictionary - the server's SudachiPy - may cut otherwise)
      const ja = branches.find((b) => b.via === null && b.lang === "ja");
      const unknown = ja ? this.japaneseTokens(query).filter((t) => t.unknown && /[\u3040-\u30ff\u3400-\u9fff]/.test(t.surface)).map((t) => t.surface) : [];
      return { branches, targets, alsoSearched: also, split: ja ? { words: ja.terms, unknown } : null };
    }

    /** search.plan.term_shares: {a clause's first word: 1 / the number of clauses its typed term was read as}. */
    termShares(clauses, sources) {
      const reads = (clause, words) => clause.some((alternative) => alternative.split(" ").some((x) => words.has(x)));
      const counts = sources.map(([, words]) => clauses.filter((clause) => reads(clause, words)).length);
      const found = new Map();
      for (const clause of clauses) {
        const shares = sources.map(([, words], i) => (counts[i] && reads(clause, words) ? 1.0 / counts[i] : 0)).filter((x) => x > 0);
        if (shares.length) found.set(clause[0], Math.max(...shares));
      }
      return found;
    }

    readsAsJapanese(text) { return K.scripts.kana.test(text) || [...text].every((c) => !K.scripts.han.test(c) || this.han.has(c)); }

  }

  /** One language's indexed words, answered from the FTS postings: a term with a row in the language,
   * plus the search tokens the FTS tokenizer split (`more`), less the terms it made of them (`less`). */
  class IndexedWords {
    constructor(lang, words, postings, units) {
      this.lang = lang; this.more = new Set(words.more); this.less = new Set(words.less);
      this.postings = postings; this.units = units; this.known = new Map();
    }
    has(word) {
      if (this.more.has(word)) return true;
      if (this.less.has(word) || !owns(this.postings, word)) return false;
      return remembered(this.known, word, Infinity, () => {
        const list = this.postings[word];
        for (let i = 0; i < list.length; i += 3) if (this.units.get(list[i])[5] === this.lang) return true;
        return false;
      });
    }
  }

  /** rowid -> Set of words, made on first use (most units are never asked). */
  class LazySets {
    constructor(source) { this.source = source; this.made = new Map(); }
    get(rowid) {
      const words = remembered(this.made, rowid, Infinity, () => (this.source[rowid] ? new Set(this.source[rowid].split(" ")) : null));
      return words || undefined;
    }
  }

  Object.assign(S, { Engine });
  if (typeof module !== "undefined" && module.exports) module.exports = S;
})(typeof self !== "undefined" ? self : globalThis);
