// Offline search: laws_site/search/engine.py re-run in the browser on the build's search pack
// (laws_site/offline/search_data.py), so that offline answers agree with the server's. Read
// search.py beside it: the functions have the same names and do the same things in the same order
// (citations first; then branches for the query, its glossary translations and its director
// vocabulary; FTS5's bm25 computed from the index's own term instances; the 索引 and glossary
// boosts; reprints folded under their law; snippets from the stored token offsets).
// What differs: the query is split into words with the corpus's own words (the pack's `lexicon`,
// Sudachi's split of the whole corpus) instead of SudachiPy; a citation nobody holds lists its
// enclosing units only (the server adds close spellings). The page says so.
// The same file runs in Node (module.exports) for benchmarks/offline.py.
(function (root) {
  "use strict";

  class QueryError extends Error {}

  // ---------------------------------------------------------------- the rules, from the pack
  // Every table, pattern, weight and message comes from the Python that defines it
  // (laws_site/offline/search_rules.py, the pack's `rules`): this file holds none of its own.

  let K = null; // the rules of the pack in use, patterns compiled
  const compiled = new WeakMap();

  function rx(spec, more = "") { return new RegExp(spec[0], spec[1] + more); }
  function steps(list) { return list.map(([source, flags, to]) => [new RegExp(source, flags + "g"), to]); }

  function useRules(rules) {
    if (!compiled.has(rules)) {
      const s = rules.scripts, k = rules.kana, f = rules.forgiving, p = rules.spelling, keys = rules.keys;
      compiled.set(rules, {
        rules, kana: rx(s.kana), katakana: rx(s.katakana), han: rx(s.han), word: rx(s.word), katakanaWord: rx(s.katakana_word, "y"),
        tokenClean: rx(s.token_clean, "g"), runs: rx(s.latin_or_han_run, "g"),
        small: k.small, large: k.large, eRowI: rx(k.e_row_i, "g"), longVowels: rx(k.long_vowel_marks, "g"), vowelOf: k.vowel_of,
        kanaOnly: rx(f.kana_only), katakanaOnly: rx(f.katakana_only), romaji: rx(f.romaji), asciiWords: rx(f.ascii_words),
        vowelKana: f.vowel_kana, longAfter: f.long_after, keyDropped: f.key_dropped, sameSound: f.same_sound,
        english: steps(f.english), romajiRules: steps(f.romaji_rules), shared: steps(f.shared),
        x: rules.expansions, lawWords: steps(p.ja_law_words), looseLawRef: rx(p.loose_law_ref), regNumbers: rx(p.reg_numbers),
        appendix: rx(p.appendix), noteLabel: rx(p.note_label), lawWord: rx(p.law_word), separated: rx(p.separated_numbers),
        docId: rx(p.doc_id), separators: rx(p.citation_separators), lawSeparators: rx(p.law_separators, "g"), p,
        wbfRef: rx(rules.refs.wbf_ref), lawNumber: rx(rules.refs.law_number), refs: rules.refs,
        englishLetters: rx(keys.english_letters, "g"), innerHyphen: rx(keys.inner_hyphen, "g"), footnoteMark: rx(keys.footnote_mark),
        nonWord: rx(keys.non_word, "g"), glossaryForms: rx(keys.glossary_forms, "g"), search: rules.search,
        operators: new Set(rules.search.fts_operators), words: rules.words, safe: rules.permalink_safe,
        katakanaWhole: new RegExp("^(?:" + s.katakana_word[0] + ")$", s.katakana_word[1]), kanaRuns: rules.words.kana_runs.map((spec) => rx(spec)),
      });
    }
    K = compiled.get(rules);
  }

  function fill(template, values) {
    let text = template || "";
    for (const [key, value] of Object.entries(values)) text = text.split("{" + key + "}").join(value);
    return text;
  }
  function message(name, values = {}) { return fill(K.search.messages[name], values); }

  // ---------------------------------------------------------------- text (ingest/text/tokenize.py, kana.py)

  function pyStrip(text) { return text.replace(/^\s+|\s+$/g, ""); }
  function translate(text, from, to) { return [...text].map((c) => { const i = from.indexOf(c); return i >= 0 ? to[i] : c; }).join(""); }
  function generalKatakanaFold(word) {
    return translate(word.normalize("NFKC"), K.small, K.large).replace(K.eRowI, "$1ー").replace(K.longVowels, "");
  }
  function fold(token) { return token.replace(K.tokenClean, "").toLowerCase(); }
  function cleanQuery(query) {
    let out = "";
    for (const c of query || "") {
      if (/\p{Cc}/u.test(c)) out += " ";
      else if (!/\p{Cf}/u.test(c)) out += c;
    }
    return out.split(/\s+/).filter(Boolean).join(" ");
  }
  function escapeRegExp(text) { return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  // --------------------------------------------- issue 24's keys (ingest/text/forgiving.py)

  function shiftKana(text, ranges, by) {
    return [...text].map((c) => { const code = c.codePointAt(0); return ranges.some(([low, high]) => code >= low && code <= high) ? String.fromCodePoint(code + by) : c; }).join("");
  }
  function toKatakana(text) { return shiftKana(text.normalize("NFKC"), [[0x3041, 0x3096], [0x309d, 0x309e]], 0x60); }   // jaconv.hira2kata
  function toHiragana(text) { return shiftKana(text, [[0x30a1, 0x30f6], [0x30fd, 0x30fe]], -0x60); }
  function isKana(text) { return K.kanaOnly.test(pyStrip(text.normalize("NFKC"))); }

  function kanaKey(text) {
    const out = [];
    let previous = null;
    for (let c of toKatakana(text.replace(/\s+/g, ""))) {
      c = K.sameSound[c] || c;
      if (K.keyDropped.includes(c)) continue;
      c = translate(c, K.small, K.large);
      const vowel = K.vowelKana[c];
      if (vowel && previous && K.longAfter[vowel].includes(previous)) continue;
      out.push(c);
      previous = K.vowelOf[c] || null;
    }
    return out.join("");
  }

  function replaceAll(text, pairs) { for (const [from, to] of pairs) text = text.split(from).join(to); return text; }
  function alphabetToKana(tables, text) {   // jaconv.alphabet2kana, its tables from the pack
    text = text.toLowerCase();
    if (text.endsWith("h") && text.length >= 2) text = text.slice(0, -1) + "う";
    text = [...replaceAll(text, tables.to_kana)].map((c) => tables.hep2kana[c] || c).join("");
    return [...text].map((c) => (tables.consonants.includes(c) ? "っ" : c)).join("");
  }
  function kanaToAlphabet(tables, text) {   // jaconv.kana2alphabet
    text = [...replaceAll(text, tables.to_romaji)].map((c) => tables.kana2hep[c] || c).join("");
    while (text.includes("っ")) {
      const chars = [...text];
      const at = chars.indexOf("っ");
      if (chars.length <= at + 1) return chars.slice(0, -1).join("") + "xtsu";
      chars[at] = at === 0 || chars[at + 1] === "っ" ? "xtsu" : chars[at + 1];
      text = chars.join("");
    }
    return text;
  }
  function romajiToKana(tables, text) {
    text = pyStrip(text.normalize("NFKC")).toLowerCase();
    if (!text || !K.romaji.test(text)) return null;
    const kana = text.replace(/-/g, "ー").replace(/'/g, "").split(/\s+/).filter(Boolean).map((w) => alphabetToKana(tables, w)).join("").replace(/n/g, "ん");
    return isKana(kana) ? kana : null;
  }
  function soundKey(tables, text, japanese) {
    let words;
    if (japanese) {
      const kana = toKatakana(text);
      if (!K.katakanaOnly.test(kana)) return "";
      let spelled = kanaToAlphabet(tables, toHiragana(kana.replace(/・/g, ""))).replace(/-/g, "");
      for (const [pattern, to] of K.romajiRules) spelled = spelled.replace(pattern, to);
      words = [spelled];
    } else {
      const spelled = text.normalize("NFKC").toLowerCase();
      if (!K.asciiWords.test(pyStrip(spelled))) return "";
      words = (spelled.match(/[a-z]+/g) || []).map((w) => { for (const [pattern, to] of K.english) w = w.replace(pattern, to); return w; });
    }
    let joined = words.join("");
    for (const [pattern, to] of K.shared) joined = joined.replace(pattern, to);
    return joined.replace(/[aeiou]/g, "").replace(/(.)\1+/g, "$1");
  }

  function levenshtein(a, b, swaps) {   // OSA when swaps (a swap of neighbours counts one edit), as rapidfuzz
    a = [...a]; b = [...b];
    const d = a.map(() => new Array(b.length + 1).fill(0)).concat([new Array(b.length + 1).fill(0)]);
    for (let i = 0; i <= a.length; i++) d[i][0] = i;
    for (let j = 0; j <= b.length; j++) d[0][j] = j;
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (swaps && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
    return d[a.length][b.length];
  }
  /** rapidfuzz.process.extract(query, choices, scorer, score_cutoff=limit, limit=5). */
  function closest(query, choices, swaps, limit) {
    const found = [];
    choices.forEach((choice, i) => {
      if (Math.abs([...choice].length - [...query].length) > limit) return;
      const distance = levenshtein(query, choice, swaps);
      if (distance <= limit) found.push([distance, i, choice]);
    });
    return found.sort((x, y) => x[0] - y[0] || x[1] - y[1]).slice(0, 5).map(([distance, , choice]) => [choice, distance]);
  }

  // ---------------------------------------------------------------- citations (ingest/text/spelling.py, refs.py)

  function squeeze(typed) { return typed.normalize("NFKC").replace(/\s+/g, ""); }
  function formatLawRef(...parts) {
    let out = "";
    for (let i = 0; i < parts.length && parts[i] !== null && parts[i] !== undefined; i++) out += K.refs.level_formats[i].replace("{}", parts[i]);
    return out;
  }
  function lawSpelling(typed) {
    if (K.separated.test(pyStrip(pyStrip(typed.normalize("NFKC")).replace(K.lawWord, "")))) return null;
    let text = squeeze(typed).replace(K.lawWord, "");
    for (const [pattern, to] of K.lawWords) text = text.replace(pattern, to);
    const m = K.looseLawRef.exec(text.replace(K.lawSeparators, ""));
    if (!m) return null;
    const [, law, section, item, sub, subsub] = m;
    if ((item && !section) || (sub && !item) || (subsub && !sub)) return null;
    return formatLawRef(law, section ? section.toUpperCase() : null, item || null, sub ? sub.toLowerCase() : null, subsub ? subsub.toLowerCase() : null);
  }
  function regulationSpelling(typed) {
    const text = squeeze(typed);
    const appendix = K.appendix.exec(text);
    if (appendix) return "appendix-" + parseInt(appendix[1], 10);
    const m = K.regNumbers.exec(text.replace(/_/g, "-"));
    return m ? m.slice(1).filter(Boolean).join("-") : null;
  }
  function noteSpelling(typed) {
    const text = squeeze(typed);
    if (!K.noteLabel.test(text)) return null;
    const law = lawSpelling(text.slice(1));
    return law ? "L" + law : null;
  }
  function citationCandidates(typed) {
    typed = pyStrip(typed);
    if (!typed || [...typed].length > K.p.max_citation_chars) return null;
    const explicit = K.docId.exec(pyStrip(typed.normalize("NFKC")));
    if (explicit) return [[explicit[1], explicit[2]]];
    const note = noteSpelling(typed);
    if (note) return [["commentary", note], ["laws", note.slice(1)], ["commentary", "quote:" + note.slice(1)]];
    const candidates = [];
    const law = lawSpelling(typed);
    if (law) candidates.push(["laws", law], ["commentary", "L" + law], ["commentary", "quote:" + law]);
    const regulation = regulationSpelling(typed);
    if (regulation && (!law || regulation === law)) candidates.push(["regulations", regulation]);
    return candidates.length ? candidates : null;
  }
  function candidateRefs(role, typed) {
    const law = lawSpelling(typed);
    const candidates = [role === "regulations" ? regulationSpelling(typed) : null].concat(law ? [law, "L" + law, "quote:" + law] : [], [noteSpelling(typed)]);
    return [...new Set(candidates)].filter((c) => c && c !== typed);
  }
  function namedDocument(typed, names) {
    const text = squeeze(typed);
    for (const name of Object.keys(names).sort((a, b) => [...b].length - [...a].length)) {
      if (text.startsWith(name) && text.length > name.length) {
        let rest = text.slice(name.length);
        while (rest && K.p.name_joiners.includes(rest[0])) rest = rest.slice(1);
        if (rest && K.p.citation_starts.includes(rest[0])) return [names[name], rest];
      }
    }
    return null;
  }
  function splitCitations(typed) {
    typed = pyStrip(typed.normalize("NFKC"));
    if (citationCandidates(typed)) return [typed];
    const parts = typed.split(K.separators).filter(Boolean);
    return parts.length > 1 && parts.every((p) => citationCandidates(p)) ? parts : null;
  }
  function lawAncestors(ref) {
    const m = K.wbfRef.exec(ref);
    if (!m || (m[3] && !m[2]) || (m[4] && !m[3]) || (m[5] && !m[4])) return [];
    const parts = m.slice(1).map((p) => (p === undefined ? null : p));
    const out = [];
    for (let n = parts.filter((p) => p !== null).length - 1; n > 0; n--) out.push(formatLawRef(...parts.slice(0, n)));
    return out;
  }
  function lawOf(ref) {
    const m = K.lawNumber.exec(ref);
    return m && m[1].length <= K.refs.law_number_digits ? String(parseInt(m[1], 10)) : null;
  }

  // ---------------------------------------------------------------- the engine

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
      this.searchable = {};
      for (const rowid of pack.searchable) {
        const lang = this.units.get(rowid)[5];
        (this.searchable[lang] = this.searchable[lang] || new Set()).add(rowid);
      }
      this.titleWords = new LazySets(pack.title_words);
      this.reprinted = new Map(Object.entries(pack.reprinted).map(([r, u]) => [+r, u]));
      this.variants = pack.variants;
      const alternatives = Object.keys(this.variants).sort((a, b) => b.length - a.length);
      this.variantPrefix = alternatives.length
        ? new RegExp("^(" + alternatives.map(escapeRegExp).join("|") + ")(?=[\u30a1-\u30fa])") : null;
      // every token of the search columns, per language: a word no unit holds cannot match
      this.vocabularyOf = {};
      // (as the FTS index's terms per language, plus `more`, less `less`, asked word by word: a query
      // asks for a few words, so the phone never builds the sets; older packs: the list itself)
      for (const [lang, words] of Object.entries(pack.indexed_words)) {
        this.vocabularyOf[lang] = Array.isArray(words) ? new Set(words)
          : new IndexedWords(lang, words, pack.fts.postings, this.units);
      }
      this.indexByTerm = new Map();
      this.indexEntries = pack.index_entries.map(([ref, terms, targets]) => ({ ref, terms: new Set(terms), targets }));
      for (const entry of this.indexEntries) {
        for (const term of entry.terms) {
          if (!this.indexByTerm.has(term)) this.indexByTerm.set(term, []);
          this.indexByTerm.get(term).push(entry);
        }
      }
      // the 索引's "see" entries by their sorted tokens: [the see entry's ref, the units to boost] (older packs: none)
      this.seeAlso = new Map((pack.see_also || []).map(([terms, ref, targets]) => [termsKey(terms), [ref, targets]]));
      const fts = pack.fts;
      this.ftsRows = fts.rows;
      this.avgdl = fts.tokens / fts.rows;
      this.sizes = new Map(Object.entries(fts.sizes).map(([r, n]) => [+r, n]));
      this.postings = fts.postings;
      this.lexicon = pack.lexicon;
      this.neighbours = pack.neighbours || { sentence: {}, word: {} };
      this.maxSurface = Math.max(1, ...Object.keys(pack.lexicon).map((s) => [...s].length));
      this.t2s = pack.t2s;
      this.docOrder = new Map(pack.documents.map((d) => [d.id, d.rank]));
      this.phraseCache = new Map();
      // a sentence's coverage (search/coverage.py): light words, the parts below each unit, the evidence
      const s = pack.situations;
      this.situations = { light: new Set(s.light), below: new Map(Object.entries(s.below).map(([r, b]) => [+r, b])),
        evidence: new Map(Object.entries(s.evidence).map(([r, e]) => [+r, e])) };
    }

    // --------------------------------------------- tokens (ingest/text/tokenize.py)

    foldKatakana(word) {
      if (!K.katakana.test(word)) return word;
      let folded = generalKatakanaFold(word);
      if (Object.prototype.hasOwnProperty.call(this.variants, folded)) return this.variants[folded];
      if (this.variantPrefix) folded = folded.replace(this.variantPrefix, (m, p) => this.variants[p]);
      return folded;
    }

    toSimplified(text) {
      if (!K.han.test(text)) return text;
      let out = "";
      for (const c of text) out += this.t2s[c] || c;
      return out;
    }

    /** Japanese words of a text: the fewest words of the corpus's lexicon (then the most frequent),
     * unknown katakana runs whole, punctuation and spaces left out. A run of Latin letters, or of
     * digits, is one word, as SudachiPy keeps it (misinformation, not m + i + s + information; l54d
     * is l + 54 + d): the lexicon names it only if it holds the whole run. */
    japaneseTokens(text) {
      const s = [...text.normalize("NFKC")];
      const n = s.length;
      const runEnd = latinRuns(s);
      const best = new Array(n + 1).fill(null);
      best[0] = { cost: 0, prev: -1, token: null };
      const lexicon = this.lexicon, maxLen = this.maxSurface;
      for (let i = 0; i < n; i++) {
        if (!best[i]) continue;
        const base = best[i].cost;
        const relax = (j, cost, token) => {
          if (!best[j] || best[j].cost > base + cost) best[j] = { cost: base + cost, prev: i, token };
        };
        let surface = "";
        for (let j = i + 1; j <= Math.min(n, i + maxLen); j++) {
          surface += s[j - 1];
          if (runEnd[j - 1] !== undefined && runEnd[j - 1] !== j) continue; // it would end inside a Latin or digit run
          const entry = lexicon[surface];
          if (entry) relax(j, entry[2], { surface, norm: entry[0], dropped: entry[1], begin: i, end: j });
        }
        const c = s[i];
        if (/[\s\p{P}\p{S}]/u.test(c) && c !== "ー") { relax(i + 1, 0, null); continue; }
        let j = i + 1;
        if (runEnd[i] !== undefined) {
          j = runEnd[i];
        } else {
          const script = K.kanaRuns.find((run) => run.test(c));
          while (script && j < n && script.test(s[j])) j++;
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
      const runs = K.runs;
      const chars = [...simplified];
      const joined = chars.join("");
      for (const m of joined.matchAll(runs)) {
        const start = [...joined.slice(0, m.index)].length;
        const run = [...m[0]];
        if (!K.han.test(run[0])) {
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
      const clauses = [];
      const covered = new Set();
      for (const run of katakanaRuns(tokens)) {
        clauses.push([this.foldKatakana(run.map((t) => t.norm).join("")), run.map((t) => t.norm).join(" ")]);
        run.forEach((t) => covered.add(t));
      }
      const single = tokens.filter((t) => !covered.has(t));
      const table = clauses.length + new Set(single.map((t) => t.norm)).size > 1 ? this.neighbours.sentence : this.neighbours.word;
      for (const t of single) clauses.push([t.norm, ...(table[t.norm] || [])]);
      const unique = [];
      const seen = new Set();
      for (const clause of clauses) {
        const key = clause.join("\u0001");
        if (!seen.has(key)) { seen.add(key); unique.push(clause); }
      }
      return unique.length ? unique : terms.map((t) => [t]);
    }

    /** (terms, clauses) of a text in a language, cut as the server cuts it (the same lexicon and rules). */
    queryTokens(text, lang) {
      const terms = this.queryTerms(text, lang).filter((t) => K.word.test(t)).slice(0, this.w.MAX_TERMS);
      const clauses = this.queryClauses(text, lang).filter((c) => K.word.test(c.join(" ")));
      return [terms, terms.length ? clauses.slice(0, this.w.MAX_TERMS) : []];
    }

    // --------------------------------------------- lookups (ingest/search/glossary.py, ingest/search/vocabulary.py)

    glossaryLookup(query) {
      query = cleanQuery(query);
      if (!query) return [];
      const g = this.pack.glossary;
      const found = [];
      if (/[A-Za-z]/.test(query)) found.push(...(g.by_en[englishKey(query)] || []));
      const jaKey = this.japaneseTokens(query).map((t) => t.norm).join(" ");
      found.push(...(g.by_ja[jaKey] || []));
      found.push(...(g.by_zh[this.toSimplified(query)] || []));
      return [...new Set(found)].map((i) => g.entries[i]);
    }

    vocabularyMatches(query) {
      const key = this.searchKey(query);
      return key ? (this.pack.vocabulary.by_key[key] || []) : [];
    }

    /** search.translation.japanese_words: the Japanese words of the terms a Chinese or English query names. */
    japaneseWords(query) {
      const table = this.pack.translations, T = this.pack.rules.translation;
      const text = this.toSimplified(query.normalize("NFKC").toLowerCase());
      const found = [];
      const words = [...text.matchAll(/[a-z0-9]+/g)];
      for (let i = 0; i < words.length; i++) {
        for (let j = i + 1; j <= Math.min(i + T.max_words, words.length); j++) {
          const key = words.slice(i, j).map((m) => m[0]).join("");
          const candidates = [key].concat(T.endings.filter((e) => key.endsWith(e) && key.length - e.length >= 3).map((e) => key.slice(0, -e.length)));
          const hit = candidates.find((c) => table[c]);
          if (hit) found.push([words[i].index, words[j - 1].index + words[j - 1][0].length, hit]);
        }
      }
      for (const run of text.matchAll(/[\u3400-\u9fff\uf900-\ufaff]+/g)) {
        const runEnd = run.index + run[0].length;
        for (let start = run.index; start < runEnd; start++) {
          for (let end = start + 2; end <= Math.min(start + T.max_chars, runEnd); end++) {
            if (table[text.slice(start, end)]) found.push([start, end, text.slice(start, end)]);
          }
        }
      }
      const kept = [];
      for (const f of found.sort((a, b) => (a[0] - a[1]) - (b[0] - b[1]) || a[0] - b[0])) {
        if (kept.every(([s, e]) => f[1] <= s || f[0] >= e)) kept.push(f);
      }
      const japanese = [];
      for (const [, , key] of kept.sort((a, b) => a[0] - b[0] || a[1] - b[1])) for (const word of table[key]) if (!japanese.includes(word)) japanese.push(word);
      return japanese;
    }

    searchKey(term) {
      const folded = this.foldKatakana(term.normalize("NFKC").toLowerCase());
      return folded.replace(K.innerHyphen, "").replace(/\s+/g, "");
    }

    // --------------------------------------------- issue 24's expansions (laws_site/search/expansions.py)

    expansionData() {
      if (this._expansions !== undefined) return this._expansions;
      const e = this.pack.expansions || { readings: {}, sounds: {}, synonyms: {}, zh: {}, romaji: null };
      e.longest = Math.max(0, ...Object.keys(e.readings).map((k) => [...k].length));
      e.kanaWords = []; e.kanaWordOf = {};
      for (const key of Object.keys(e.readings).sort()) {
        const term = e.readings[key][0][0];
        if ([...key].length >= 3 && K.katakanaOnly.test(term)) { e.kanaWords.push(key); e.kanaWordOf[key] = term; }
      }
      e.english = [...new Set(Object.values(e.sounds).flat())].sort();
      e.zhKeys = Object.keys(e.zh).sort((a, b) => [...b].length - [...a].length || (a < b ? -1 : a > b ? 1 : 0));
      this._expansions = e;
      return e;
    }

    alternatives(query, lang) {
      const e = this.expansionData();
      if (!e.romaji) return [];
      const found = [];
      const text = pyStrip(query.normalize("NFKC"));
      let kana = null;
      if (isKana(text)) {
        kana = text;
        found.push({ kind: "reading", text: this.segment(kanaKey(text)) || toKatakana(text), lang: "ja" });
      } else {
        const romaji = romajiToKana(e.romaji, text);
        if (romaji) { kana = romaji; found.push({ kind: "romaji", text: this.segment(kanaKey(romaji)), lang: "ja" }); }
      }
      if (kana) {
        const key = soundKey(e.romaji, toKatakana(kana), true);
        if (key.length >= K.x.min_sound_key) for (const term of (e.sounds[key] || []).slice(0, 2)) found.push({ kind: "sound", text: term, lang: null });
      }
      if (K.han.test(text) || isKana(text)) {
        for (const t of this.synonymsOf(text)) found.push({ kind: "synonym", text: t, lang: "ja" });
      }
      if (K.han.test(text)) {
        const simplified = this.toSimplified(text);
        let replaced = simplified;
        for (const variant of e.zhKeys) if (replaced.includes(variant)) replaced = replaced.split(variant).join(e.zh[variant]);
        if (replaced !== simplified) found.push({ kind: "zh", text: replaced, lang: "zh" });
      }
      const kept = [], seen = new Set([query]);
      for (const alt of found) {
        if (alt.text && !seen.has(alt.text) && (lang === null || alt.lang === null || alt.lang === lang)) { seen.add(alt.text); kept.push(alt); }
      }
      return kept.slice(0, K.x.max_alternatives);
    }

    segment(key) {
      const e = this.expansionData();
      const chars = [...key];
      const size = chars.length;
      if (!size || size > K.x.max_key_chars) return "";
      const best = new Array(size + 1).fill(null);
      best[0] = [0, 0, []];
      for (let start = 0; start < size; start++) {
        if (best[start] === null) continue;
        const [pieces, weight, words] = best[start];
        for (let end = start + 1; end <= Math.min(size, start + e.longest); end++) {
          const piece = chars.slice(start, end).join("");
          const options = e.readings[piece];
          let candidate;
          if (options) candidate = [pieces + 1, weight - options[0][1], words.concat([options[0][0]])];
          else if (end === start + 1 && K.x.particles[piece] && start > 0) candidate = [pieces + 1, weight, words.concat([K.x.particles[piece]])];
          else continue;
          if (best[end] === null || candidate[0] < best[end][0] || (candidate[0] === best[end][0] && candidate[1] < best[end][1])) best[end] = candidate;
        }
      }
      return best[size] === null ? "" : best[size][2].join("");
    }

    synonymsOf(text) {
      const e = this.expansionData();
      const terms = this.queryTerms(text, "ja");
      // the server cuts with SudachiPy, which knows words the corpus lacks (罰金, 質疑): a query that is
      // one word there is one key here, tried whole (katakana by its kana key, as Sudachi's norm ミステク)
      const squeezed = text.normalize("NFKC").replace(/\s+/g, "");
      const whole = e.synonyms[terms.join(" ")] || e.synonyms[squeezed]
        || (K.katakanaOnly.test(squeezed) ? e.synonyms[kanaKey(squeezed)] : undefined);
      if (whole) return whole.slice(0, 2);
      const found = [];
      terms.forEach((term, i) => {
        for (const target of (e.synonyms[term] || []).slice(0, 2)) {
          found.push(terms.length > 1 ? terms.slice(0, i).concat([target], terms.slice(i + 1)).join("") : target);
        }
      });
      return found.slice(0, 2);
    }

    corrections(query, lang) {
      const e = this.expansionData();
      if (!e.romaji) return [];
      const text = pyStrip(query.normalize("NFKC"));
      const found = [];
      const nearestOf = (close) => Math.min(...close.map((c) => c[1]));
      if (/^[\x00-\x7f]*$/.test(text) && K.asciiWords.test(text)) {
        const lowered = text.toLowerCase();
        const close = closest(lowered, e.english, true, [...lowered].length <= 4 ? 1 : 2).filter((c) => c[1] > 0);
        const nearest = nearestOf(close);
        for (const [term, distance] of close) if (distance === nearest) found.push({ kind: "typo", text: term, lang: null });
      }
      const kana = isKana(text) ? text : romajiToKana(e.romaji, text);
      if (kana && (lang === null || lang === "ja")) {
        const key = kanaKey(kana);
        const close = closest(key, e.kanaWords, false, [...key].length <= 4 ? 1 : 2).filter((c) => c[1] > 0);
        const nearest = nearestOf(close);
        for (const [candidate, distance] of close) if (distance === nearest) found.push({ kind: "typo", text: e.kanaWordOf[candidate], lang: "ja" });
      }
      const seen = new Set(), kept = [];
      for (const alt of found) if (!seen.has(alt.text) && alt.text !== query) { seen.add(alt.text); kept.push(alt); }
      return kept.slice(0, 2);
    }

    alternativePlan(alt, lang) {
      const plan = this.makePlan(alt.text, lang || alt.lang);
      for (const branch of plan.branches) { branch.via = branch.via || alt.text; branch.expansion = alt.kind; }
      return plan;
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
      if (query.split(" ").every((w) => K.operators.has(w))) throw new QueryError(this.nothingToSearch(query));
      const citation = this.citedUnits(query, doc, lang);
      const expand = options.expand !== false;
      let alsoSearched = [], total, page, split = null, expansions = [];
      if (citation && citation.found) {
        const hits = this.citationHits(citation.units, doc, lang);
        total = hits.length;
        page = hits.slice(offset, offset + limit);
      } else {
        const plan = this.makePlan(query, lang);
        plan.alternatives = expand && !citation ? this.alternatives(query, lang).map((alt) => [alt, this.alternativePlan(alt, lang)]) : [];
        if (!plan.branches.length && !citation && !plan.alternatives.some(([, p]) => p.branches.length)
            && !(expand && this.corrections(query, lang).length)) throw new QueryError(this.nothingToSearch(query));
        plan.relaxed = citation === null;
        plan.query = query;
        const ranking = this.rankedHits(plan, doc, lang, options.indexBoost !== false, expand && !citation);
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
      return { query, total, offset, limit, results: this.present(page),
        also_searched: [...new Set(alsoSearched.concat(also))],
        did_you_mean: found.filter((e) => e.kind === "typo").map((e) => e.text),
        expansions: found, exact: !expand, citation, split };
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
      const chars = [...query];
      const shown = chars.length <= 40 ? query : chars.slice(0, 40).join("") + "…";
      if (query.split(" ").every((w) => K.operators.has(w))) {
        return message("only_operators", { shown });
      }
      return message("nothing", { shown });
    }

    inFilters(unitDoc, doc, lang) {
      return (doc === null || unitDoc === doc) && (lang === null || (this.documents.get(unitDoc) || {}).language === lang);
    }

    docsOfRole(role) {
      const r = this.pack.registry;
      if (role === "laws") return r.laws;
      if (role === "commentary") return r.commentaries;
      if (role === "regulations") return r.regulations ? [r.regulations] : [];
      return [];
    }

    citedUnits(query, doc, lang) {
      const named = namedDocument(query, this.pack.document_names || {});
      const [typed, scoped] = named ? [[named[1]], named[0]] : [splitCitations(query), null];
      if (!typed) return null;
      let wanted = [];
      const primary = [];
      for (const citation of typed) {
        const pairs = scoped
          ? candidateRefs((this.documents.get(scoped) || {}).role, citation).concat([squeeze(citation)]).map((ref) => [scoped, ref])
          : citationCandidates(citation) || [];
        pairs.forEach(([scope, ref], rank) => {
          const docs = this.documents.has(scope) ? [scope] : this.docsOfRole(scope);
          wanted.push(...docs.map((d) => d + ":" + ref));
          if (rank === 0) primary.push(...docs.map((d) => d + ":" + ref));
        });
      }
      wanted = [...new Set(wanted)].filter((u) => this.inFilters(u.split(":")[0], doc, lang));
      const units = wanted.filter((u) => this.rowids.has(u));
      const opens = units.length > 0 && (doc !== null || lang !== null || primary.includes(units[0]));
      const result = { query, found: units.length > 0, units, opens, message: null, nearest: [], citations: typed.length };
      if (!units.length) {
        result.message = `No such unit${doc || lang ? " in the document or language chosen" : ""}: ${query}.`;
        result.nearest = this.nearestUnits(typed[0], doc || scoped);
      } else if (!opens) {
        const wantedDoc = primary.length ? primary[0].split(":")[0] : null;
        const title = this.documents.has(wantedDoc) ? this.documents.get(wantedDoc).title : wantedDoc;
        result.message = `No such unit in ${title}: ${query}. The same number exists elsewhere:`;
      }
      return result;
    }

    nearestUnits(typed, doc) {
      const r = this.pack.registry;
      const law = lawSpelling(typed), note = noteSpelling(typed), regulation = regulationSpelling(typed);
      let place, ref;
      if (note && r.commentaries.length) [place, ref] = [doc || r.commentaries[0], note];
      else if (law && r.current_laws) [place, ref] = [doc || r.current_laws, law];
      else if (regulation && r.regulations) [place, ref] = [doc || r.regulations, regulation];
      else return [];
      const prefix = ref.startsWith("L") ? "L" : "";
      const refs = lawAncestors(ref.replace(/^L/, "")).map((a) => prefix + a);
      return [...new Set(refs)].filter((x) => this.rowids.has(place + ":" + x)).slice(0, 6)
        .map((x) => ({ id: place + ":" + x, doc: place, ref: x, url: permalink(place, x) }));
    }

    hit(rowid, fields) {
      const [id, doc, ref, kind, title, lang, position] = this.units.get(rowid);
      return { id, doc, ref, kind, title, lang, position, score: 0, branch: null, match: "all", index_entries: [],
        reprints: [], reprint_of: null, marks: null, ...fields };
    }

    citationHits(units, doc, lang) {
      const cited = new Set(units);
      const ordered = units.filter((u) => this.rowids.has(u))
        .map((u, rank) => this.hit(this.rowids.get(u), { score: this.w.CITED_SCORE - rank / 100, match: "citation" }));
      const citing = new Map();
      for (const unit of units) {
        const found = this.pack.cited_by[unit] || [];
        for (let i = 0; i < found.length; i += 3) {
          const source = found[i];
          const rowid = this.rowids.get(source);
          if (cited.has(source) || rowid === undefined || !this.inFilters(this.units.get(rowid)[1], doc, lang)) continue;
          if (!citing.has(source)) citing.set(source, this.hit(rowid, { score: this.w.CITING_SCORE, match: "cites", marks: [] }));
          citing.get(source).marks.push([found[i + 1], found[i + 2]]);
        }
      }
      const citedBy = [...citing.values()].sort((a, b) => this.docRank(a.doc) - this.docRank(b.doc) || a.position - b.position);
      return ordered.concat(citedBy);
    }

    docRank(doc) { return this.docOrder.has(doc) ? this.docOrder.get(doc) : this.docOrder.size; }

    makeBranch(text, lang, via = null, weight = 1.0) {
      const [terms, clauses] = this.queryTokens(text, lang);
      const simple = clauses.every((c) => c.length === 1 && !c[0].includes(" "));
      const highlighted = new Set(terms);
      for (const clause of clauses) for (const alt of clause) if (!alt.includes(" ")) highlighted.add(alt);
      return { lang, terms, clauses, via, weight, pointed: new Set(), titleNeeds: simple ? new Set(clauses.map((c) => c[0])) : null, highlighted,
        named: this.titleKey(text, lang) };
    }

    /** search.title_key: a title or a query compared as written (NAMED_BOOST). */
    titleKey(text, lang) {
      if (!text) return "";
      text = text.normalize("NFKC").toLowerCase();
      if (lang === "zh") text = this.toSimplified(text);
      return text.replace(K.footnoteMark, "").replace(K.nonWord, "");
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
      const direct = !lang && K.kana.test(query) ? ["ja"] : languages;
      for (const language of direct) add(this.makeBranch(query, language));
      for (const entry of this.glossaryLookup(query)) {
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
      for (const [index, fields] of this.vocabularyMatches(query)) {
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
      if (languages.includes("ja") && !K.kana.test(query) && !targets.size && !this.glossaryLookup(query).length) {
        // search.plan: a Chinese or English sentence in the current Laws' Japanese words (search/translation.py)
        const words = this.japaneseWords(query).join(" ");
        if (words) { const branch = this.makeBranch(words, "ja", words, w.TRANSLATION_WEIGHT); branch.sentence = true; add(branch); }
      }
      const own = new Set(branches.filter((b) => b.via === null).map((b) => b.lang + "\u0001" + b.terms.join("\u0002")));
      const also = [...new Set(branches.filter((b) => b.via && !own.has(b.lang + "\u0001" + b.terms.join("\u0002"))).map((b) => b.via))];
      // how the query was cut into words here, and the words the corpus does not know (where a
      // dictionary - the server's SudachiPy - may cut otherwise)
      const ja = branches.find((b) => b.via === null && b.lang === "ja");
      const unknown = ja ? this.japaneseTokens(query).filter((t) => t.unknown && /[\u3040-\u30ff\u3400-\u9fff]/.test(t.surface)).map((t) => t.surface) : [];
      return { branches, targets, alsoSearched: also, relaxed: true, split: ja ? { words: ja.terms, unknown } : null };
    }

    strictHits(branches, doc, indexBoost, relaxed) {
      const found = new Map();
      for (const branch of branches) {
        for (const [rowid, candidate] of this.runBranch(branch, doc, indexBoost, relaxed)) {
          const kept = found.get(rowid);
          if (kept === undefined || candidate[0] > kept[0]) found.set(rowid, candidate);
        }
      }
      return found;
    }

    mergeTier(merged, found, tier) {
      for (const [rowid, candidate] of found) {
        const kept = merged.get(rowid);
        if (kept === undefined || (kept[4] === tier && candidate[0] > kept[0])) merged.set(rowid, candidate.slice(0, 4).concat([tier]));
      }
    }

    addTargets(merged, targets, doc, lang, tier) {
      for (const [unit, boost] of targets) {
        const rowid = this.rowids.get(unit);
        if (rowid === undefined || !this.inFilters(this.units.get(rowid)[1], doc, lang)) continue;
        if (!merged.has(rowid)) merged.set(rowid, [0.0, null, "vocabulary", null, tier]);
        if (merged.get(rowid)[4] === tier) merged.get(rowid)[0] += boost;
      }
    }

    /** search.ranked_hits: the query's own hits (tier 0), then units only an alternative finds
     * (tier 1), corrections among them when tier 0 has fewer than FEW units; relaxed hits last. */
    rankedHits(plan, doc, lang, indexBoost, corrected = false) {
      const strict = this.strictHits(plan.branches, doc, indexBoost, false);
      let relaxed = new Map();
      if (plan.relaxed && ![...strict.values()].some((c) => c[2] === "all" || c[2] === "most")) {
        relaxed = this.strictHits(plan.branches, doc, indexBoost, true);
      }
      let merged = new Map();
      this.mergeTier(merged, strict, 0);
      this.addTargets(merged, plan.targets, doc, lang, 0);
      const alternatives = plan.alternatives || [];
      if (corrected && merged.size < K.x.few) {
        const known = new Set(alternatives.map(([alt]) => alt.text));
        for (const alt of this.corrections(plan.query, lang)) if (!known.has(alt.text)) alternatives.push([alt, this.alternativePlan(alt, lang)]);
      }
      const foundBy = new Map();
      for (const [alt, altPlan] of alternatives) {
        const before = merged.size;
        // search.alternative_tier: a reviewed Chinese variant ranks with the query's own units
        const tier = alt.kind === "zh" ? 0 : 1;
        this.mergeTier(merged, this.strictHits(altPlan.branches, doc, indexBoost, false), tier);
        this.addTargets(merged, altPlan.targets, doc, lang, tier);
        foundBy.set(alt.text, merged.size - before);
      }
      if (relaxed.size && [...foundBy.values()].some(Boolean)) this.mergeTier(merged, relaxed, 2);
      else if (relaxed.size) {
        merged = new Map();
        this.mergeTier(merged, new Map([...strict].filter(([, c]) => c[2] !== "index")), 0);
        this.mergeTier(merged, relaxed, 0);
        this.addTargets(merged, plan.targets, doc, lang, 0);
      }
      const ranking = this.foldReprints(merged);
      ranking.foundBy = foundBy;
      return ranking;
    }

    runBranch(branch, doc, indexBoost, relaxed) {
      if (branch.sentence && !relaxed) return new Map();
      const w = this.w;
      const indexed = this.vocabularyOf[branch.lang];
      let hits;
      if (indexed && !relaxed && !branch.clauses.every((clause) => clause.some((alt) => alt.split(" ").filter(Boolean).every((x) => indexed.has(x))))) {
        hits = new Map();
      } else {
        hits = this.textHits(branch, doc, relaxed);
      }
      const indexWeight = branch.via === null ? w.INDEX_WEIGHT : w.TRANSLATED_INDEX_WEIGHT;
      const pointed = new Map();
      if (indexBoost && branch.lang === "ja") {
        for (const [unit, [boost, entries]] of this.indexBoosts(branch.terms, relaxed)) pointed.set(unit, [indexWeight * boost, entries]);
        for (const [unit, entry] of this.seeAlsoBoosts(branch, hits)) {
          const [boost, entries] = pointed.get(unit) || [0.0, []];
          pointed.set(unit, [Math.max(boost, indexWeight), entries.concat([entry])]);
        }
      }
      for (const unit of branch.pointed) {
        const [boost, entries] = pointed.get(unit) || [0.0, []];
        pointed.set(unit, [Math.max(boost, w.DEFINITION_WEIGHT), entries]);
      }
      for (const [unit, [boost, entries]] of pointed) {
        const rowid = this.rowids.get(unit);
        if (rowid === undefined) continue;
        const info = this.units.get(rowid);
        if ((doc !== null && info[1] !== doc) || info[5] !== branch.lang) continue;
        if (!hits.has(rowid)) hits.set(rowid, [0.0, branch, "index", null]);
        const candidate = hits.get(rowid);
        candidate[0] += boost;
        candidate[3] = entries;
      }
      if (branch.weight !== 1.0) for (const candidate of hits.values()) candidate[0] *= branch.weight;
      return hits;
    }

    titleBoost(kind) { return this.w.TITLE_BOOST + (this.w.HEADING_KINDS.includes(kind) ? this.w.HEADING_BOOST : 0.0); }

    titleCarries(words, clauses) {
      return !!words && clauses.every((clause) => clause.some((alt) => alt.split(" ").filter(Boolean).every((x) => words.has(x))));
    }

    titleCarriedBy(branch, words) {
      if (!words || !words.size) return false;
      if (branch.titleNeeds) { for (const x of branch.titleNeeds) if (!words.has(x)) return false; return true; }
      return this.titleCarries(words, branch.clauses);
    }

    textHits(branch, doc, relaxed) {
      if (relaxed && branch.clauses.length < 2) return new Map();
      if (relaxed) return this.sentenceHits(branch, doc);
      const [operator, matchKind, weight] = relaxed ? ["OR", "any", this.w.RELAXED_WEIGHT] : ["AND", "all", 1.0];
      const rows = this.fts(ftsExpression(branch.clauses, operator), branch.lang, doc);
      const hits = new Map();
      if (!rows.length) return hits;
      const scale = weight / (Math.max(...rows.map((r) => r[1])) || 1.0);
      for (const [rowid, raw] of rows) {
        let score = raw * scale;
        if (!relaxed && this.titleCarriedBy(branch, this.titleWords.get(rowid))) {
          const unit = this.units.get(rowid);
          score += this.titleBoost(unit[3]);
          // search.NAMED_BOOST: the title is exactly what the branch searches for (a newer search.py; 0 in older packs)
          if (branch.named && (this.w.HEADING_KINDS.includes(unit[3]) || unit[3] === "section")
              && this.titleKey(unit[4], branch.lang) === branch.named) score += this.w.NAMED_BOOST || 0;
        }
        hits.set(rowid, [score, branch, matchKind, null]);
      }
      if (!relaxed && branch.lang === "zh" && branch.clauses.length >= 3) {
        for (const [rowid, candidate] of this.allButOne(branch, doc, hits)) hits.set(rowid, candidate);
      }
      return hits;
    }

    allButOne(branch, doc, found) {
      const clauses = branch.clauses;
      const without = (i) => clauses.slice(0, i).concat(clauses.slice(i + 1));
      const expression = { op: "OR", children: clauses.map((_, i) => ftsExpression(without(i), "AND")).filter(Boolean) };
      const rows = this.fts(expression, branch.lang, doc).filter((r) => !found.has(r[0]));
      const scale = this.w.RELAXED_WEIGHT / (rows.length ? Math.max(...rows.map((r) => r[1])) || 1.0 : 1.0);
      const hits = new Map();
      for (const [rowid, raw] of rows) {
        let score = raw * scale;
        const title = this.titleWords.get(rowid);
        if (clauses.some((_, i) => this.titleCarries(title, without(i)))) score += this.w.RELAXED_WEIGHT * this.titleBoost(this.units.get(rowid)[3]);
        hits.set(rowid, [score, branch, "most", null]);
      }
      return hits;
    }

    /** search.coverage.sentence_hits: coverage, and a little of the content words' bm25. */
    sentenceHits(branch, doc) {
      const covered = this.coverage(branch.clauses, branch.lang, doc);
      if (!covered.size) return new Map();
      const rows = this.fts(ftsExpression(branch.clauses, "OR"), branch.lang, doc);
      const best = rows.reduce((m, r) => Math.max(m, r[1]), 0.0) || 1.0;
      const bm25 = new Map(rows.map(([rowid, score]) => [rowid, score / best]));
      return new Map([...covered].map(([rowid, share]) =>
        [rowid, [this.w.COVERAGE_WEIGHT * share + this.w.COVERAGE_BM25 * (bm25.get(rowid) || 0.0), branch, "any", null]]));
    }

    contentClauses(clauses) {
      return clauses.filter((clause) => !clause[0].split(" ").filter(Boolean).every((x) => this.situations.light.has(x)));
    }

    /** search.coverage.coverage: {rowid: the share of the sentence's idf the unit covers}. */
    coverage(clauses, lang, doc) {
      const s = this.situations, w = this.w;
      const wanted = this.contentClauses(clauses);
      const scores = new Map();
      if (wanted.length < 2) return scores;
      const searchable = this.searchable[lang] || new Set();
      let total = 0.0;
      for (const clause of wanted) {
        const rows = [...this.matchingRows(ftsExpression([clause], "AND"))];
        const own = rows.filter((r) => searchable.has(r));
        if (!own.length) continue;
        const weight = Math.max(Math.log((searchable.size - own.length + 0.5) / (own.length + 0.5)), w.COVERAGE_MIN_IDF);
        total += weight;
        const credits = new Map();
        const give = (rowid, credit) => { if (credit > (credits.get(rowid) || 0.0)) credits.set(rowid, credit); };
        const words = clause[0].split(" ").filter(Boolean);
        for (const rowid of own) {
          const title = this.titleWords.get(rowid);
          const inTitle = !!title && words.every((x) => title.has(x));
          give(rowid, inTitle ? w.TITLE_CREDIT : w.TEXT_CREDIT);
          for (const below of s.below.get(rowid) || []) give(below, inTitle ? w.CONTEXT_TITLE_CREDIT : w.CONTEXT_TEXT_CREDIT);
        }
        for (const rowid of rows) { const found = s.evidence.get(rowid); if (found) for (const t of found[0]) give(t, found[1]); }
        for (const [rowid, credit] of credits) {
          if (searchable.has(rowid) && !s.evidence.has(rowid) && (doc === null || this.units.get(rowid)[1] === doc)) {
            scores.set(rowid, (scores.get(rowid) || 0.0) + weight * credit);
          }
        }
      }
      if (!total) return new Map();
      for (const [rowid, score] of scores) scores.set(rowid, score / total);
      return scores;
    }

    // --------------------------------------------- FTS5 MATCH and bm25, from the index's term instances

    phrase(text) {
      let found = this.phraseCache.get(text);
      if (found) return found;
      const terms = unicode61(text);
      const instances = []; // [rowid, column, offset] of the phrase's first token
      if (terms.length) {
        const first = this.postings[terms[0]] || [];
        const rest = terms.slice(1).map((t) => {
          const set = new Set();
          const list = this.postings[t] || [];
          for (let i = 0; i < list.length; i += 3) set.add(list[i] + ":" + list[i + 1] + ":" + list[i + 2]);
          return set;
        });
        for (let i = 0; i < first.length; i += 3) {
          const [rowid, column, offset] = [first[i], first[i + 1], first[i + 2]];
          if (rest.every((set, k) => set.has(rowid + ":" + column + ":" + (offset + k + 1)))) instances.push(rowid, column, offset);
        }
      }
      const rows = new Set();
      for (let i = 0; i < instances.length; i += 3) rows.add(instances[i]);
      found = { instances, rows };
      if (this.phraseCache.size > 2000) this.phraseCache.clear();
      this.phraseCache.set(text, found);
      return found;
    }

    /** The rowids matching an expression (every row: any language, navigation rows too). */
    matchingRows(node) {
      if (node.phrase !== undefined) return this.phrase(node.phrase).rows;
      const sets = node.children.map((child) => this.matchingRows(child));
      if (node.op === "OR") { const out = new Set(); for (const s of sets) for (const r of s) out.add(r); return out; }
      sets.sort((a, b) => a.size - b.size);
      const out = new Set();
      for (const r of sets[0] || []) if (sets.every((s) => s.has(r))) out.add(r);
      return out;
    }

    /** [[rowid, -bm25], ...] of the rows matching `expression`, in the language (and document),
     * navigation rows left out - as search._fts reads them from SQLite. */
    fts(expression, lang, doc) {
      if (!expression) return [];
      const phrases = [];
      const collect = (node) => { if (node.phrase !== undefined) phrases.push(node.phrase); else node.children.forEach(collect); };
      collect(expression);
      const rows = this.matchingRows(expression);
      const searchable = this.searchable[lang] || new Set();
      const weights = [this.w.TITLE_WEIGHT, this.w.TEXT_WEIGHT];
      const k1 = 1.2, b = 0.75, N = this.ftsRows;
      const idf = phrases.map((p) => {
        const nHit = this.phrase(p).rows.size;
        const value = Math.log((N - nHit + 0.5) / (nHit + 0.5));
        return value <= 0.0 ? 1e-6 : value;
      });
      const kept = [...rows].filter((r) => searchable.has(r) && (doc === null || this.units.get(r)[1] === doc));
      const keptSet = new Set(kept);
      const freq = new Map(kept.map((r) => [r, new Float64Array(phrases.length)]));
      phrases.forEach((p, i) => {
        const instances = this.phrase(p).instances;
        for (let k = 0; k < instances.length; k += 3) {
          if (keptSet.has(instances[k])) freq.get(instances[k])[i] += weights[instances[k + 1]];
        }
      });
      return kept.map((rowid) => {
        const f = freq.get(rowid);
        const D = this.sizes.get(rowid) || 0;
        let score = 0.0;
        for (let i = 0; i < phrases.length; i++) {
          score += idf[i] * ((f[i] * (k1 + 1.0)) / (f[i] + k1 * (1 - b + b * D / this.avgdl)));
        }
        return [rowid, score];
      });
    }

    /** search.see_also_boosts: the units a 索引 "see" entry with exactly the branch's words leads to
     * (合意 -> see パートナー間の了解事項 -> Law 40), and the units inside them whose title carries the words. */
    seeAlsoBoosts(branch, hits) {
      const found = this.seeAlso.get(termsKey(branch.terms));
      const boosted = new Map();
      if (!found) return boosted;
      const [entry, targets] = found;
      for (const target of targets) boosted.set(target, entry);
      const wanted = new Set(targets);
      for (const rowid of hits.keys()) {
        const [unitId, doc, ref] = this.units.get(rowid);
        if (!boosted.has(unitId) && lawAncestors(ref).some((above) => wanted.has(doc + ":" + above))
            && this.titleCarriedBy(branch, this.titleWords.get(rowid))) boosted.set(unitId, entry);
      }
      return boosted;
    }

    indexBoosts(terms, whole) {
      const query = new Set(terms);
      const entries = [];
      const seen = new Set();
      for (const term of terms) for (const e of this.indexByTerm.get(term) || []) if (!seen.has(e)) { seen.add(e); entries.push(e); }
      const boosts = new Map();
      for (const entry of entries) {
        let common = 0;
        for (const t of query) if (entry.terms.has(t)) common++;
        if (!common || !(common === query.size || (!whole && common === entry.terms.size))) continue;
        const boost = common / Math.max(query.size, entry.terms.size);
        for (const target of entry.targets) {
          const [best, refs] = boosts.get(target) || [0.0, []];
          boosts.set(target, [Math.max(best, boost), refs.concat([entry.ref])]);
        }
      }
      return boosts;
    }

    foldReprints(merged) {
      const reprints = new Map(), reprintOf = new Map();
      for (const rowid of [...merged.keys()].filter((r) => this.reprinted.has(r))) {
        const lawUnit = this.reprinted.get(rowid);
        const lawRowid = this.rowids.get(lawUnit);
        if (lawRowid !== undefined && merged.has(lawRowid)) {
          if (!reprints.has(lawRowid)) reprints.set(lawRowid, []);
          reprints.get(lawRowid).push(this.units.get(rowid)[0]);
          merged.delete(rowid);
        } else {
          merged.get(rowid)[0] *= this.w.REPRINT_WEIGHT;
          reprintOf.set(rowid, lawUnit);
        }
      }
      const order = [...merged.keys()].sort((a, b) => (merged.get(a)[4] || 0) - (merged.get(b)[4] || 0)
        || merged.get(b)[0] - merged.get(a)[0]
        || this.docRank(this.units.get(a)[1]) - this.docRank(this.units.get(b)[1])
        || this.units.get(a)[6] - this.units.get(b)[6]);
      return {
        order,
        hits: (offset, limit) => order.slice(offset, limit === undefined ? undefined : offset + limit).map((rowid) => {
          const [score, branch, match, entries] = merged.get(rowid);
          return this.hit(rowid, { score, branch, match, index_entries: entries || [],
            reprints: reprints.get(rowid) || [], reprint_of: reprintOf.get(rowid) || null });
        }),
      };
    }

    // --------------------------------------------- presenting a page

    present(page) {
      return page.map((hit) => {
        const stored = this.pack.snippets[hit.id] || ["", "", []];
        const [text, tokens, packed] = stored;
        let spans;
        if (hit.marks !== null) spans = mergeSpans(hit.marks.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]));
        else spans = matchSpans(tokens, packed, hit.branch ? hit.branch.highlighted : new Set());
        return this.asDict(hit, snippet(text, spans, this.w.SNIPPET_CHARS));
      });
    }

    asDict(hit, spans) {
      const link = (unit) => { const [doc, ...ref] = unit.split(":"); return { id: unit, doc, ref: ref.join(":"), url: permalink(doc, ref.join(":")) }; };
      const role = (this.documents.get(hit.doc) || {}).role;
      let law = null;
      if (role === "laws" || role === "commentary") law = lawOf(hit.ref);
      return { doc: hit.doc, ref: hit.ref, id: hit.id, kind: hit.kind, title: hit.title, snippet: spans,
        score: Math.round(hit.score * 10000) / 10000, law, lang: hit.lang, url: permalink(hit.doc, hit.ref),
        via: hit.branch ? hit.branch.via : null, match: hit.match, index: hit.index_entries.slice(0, 5),
        reprints: hit.reprints.map(link), reprint_of: hit.reprint_of ? link(hit.reprint_of) : null };
    }
  }

  /** For each character of a run of Latin letters, or of digits: where its run ends (index after it). */
  function latinRuns(chars) {
    const kind = (c) => (/\p{N}/u.test(c) ? "digit" : /\p{L}/u.test(c) && !K.kana.test(c) && !K.han.test(c) ? "letter" : null);
    const ends = [];
    for (let i = 0; i < chars.length;) {
      const k = kind(chars[i]);
      let j = i + 1;
      if (k) while (j < chars.length && kind(chars[j]) === k) j++;
      if (k) for (let at = i; at < j; at++) ends[at] = j;
      i = j;
    }
    return ends;
  }

  /** laws_site/read/units.py permalink: /<doc>/<ref>, the ref percent-encoded as Python's
   * quote(ref, safe="()-,:~") does (letters, digits and _.-~()-,: kept). */
  function permalink(doc, ref) {
    let out = "";
    for (const byte of new TextEncoder().encode(ref)) {
      const c = String.fromCharCode(byte);
      out += byte < 128 && (/[A-Za-z0-9_.\-~]/.test(c) || K.safe.includes(c)) ? c : "%" + byte.toString(16).toUpperCase().padStart(2, "0");
    }
    return "/" + doc + "/" + out;
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
      if (this.less.has(word) || !Object.prototype.hasOwnProperty.call(this.postings, word)) return false;
      let found = this.known.get(word);
      if (found === undefined) {
        const list = this.postings[word];
        found = false;
        for (let i = 0; i < list.length && !found; i += 3) found = this.units.get(list[i])[5] === this.lang;
        this.known.set(word, found);
      }
      return found;
    }
  }

  /** rowid -> Set of words, made on first use (most units are never asked). */
  class LazySets {
    constructor(source) { this.source = source; this.made = new Map(); }
    get(rowid) {
      let found = this.made.get(rowid);
      if (found === undefined) {
        const words = this.source[rowid];
        found = words ? new Set(words.split(" ")) : null;
        this.made.set(rowid, found);
      }
      return found || undefined;
    }
  }

  function termsKey(terms) { return [...new Set(terms)].sort().join("\u0001"); }

  function sameList(a, b) { return a.length === b.length && a.every((x, i) => x === b[i]); }

  function englishKey(term) {
    let letters = term.toLowerCase().replace(K.englishLetters, "");
    if (letters.length > 3 && letters.endsWith("s") && !letters.endsWith("ss")) letters = letters.slice(0, -1);
    return letters;
  }

  function katakanaRuns(tokens) {
    const word = K.katakanaWhole;
    const runs = [];
    let run = [];
    for (const token of tokens) {
      if (word.test(token.surface) && run.length && run[run.length - 1].end === token.begin) { run.push(token); continue; }
      if (run.length > 1) runs.push(run);
      run = word.test(token.surface) ? [token] : [];
    }
    if (run.length > 1) runs.push(run);
    return runs;
  }

  /** search.tokenize.fts_match as a tree: AND/OR of clauses, a clause an OR of phrases. */
  function ftsExpression(clauses, operator) {
    const children = [];
    for (const clause of clauses) {
      const phrases = clause.filter((alt) => alt && alt.trim()).map((alt) => ({ phrase: alt }));
      if (phrases.length) children.push(phrases.length === 1 ? phrases[0] : { op: "OR", children: phrases });
    }
    return children.length ? { op: operator, children } : null;
  }

  /** FTS5's unicode61 tokenizer (remove_diacritics 2) on a query phrase: lower case, runs of letters,
   * digits and marks; Latin diacritics removed. */
  function unicode61(text) {
    const out = [];
    for (const m of text.matchAll(/[\p{L}\p{N}\p{Co}\p{M}]+/gu)) {
      let token = "";
      for (const c of m[0].toLowerCase()) {
        token += c.codePointAt(0) < 0x2000 ? c.normalize("NFD").replace(/\p{M}/gu, "") : c;
      }
      if (token) out.push(token);
    }
    return out;
  }

  function matchSpans(tokens, packed, wanted) {
    if (!wanted.size || !tokens) return [];
    const words = tokens.split(" ");
    const spans = [];
    let begin = 0;
    for (let i = 0; i < words.length && 2 * i + 1 < packed.length; i++) {
      begin += packed[2 * i];
      if (wanted.has(words[i])) spans.push([begin, begin + packed[2 * i + 1]]);
    }
    spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const unique = spans.filter((s, i) => i === 0 || s[0] !== spans[i - 1][0] || s[1] !== spans[i - 1][1]);
    return mergeSpans(unique);
  }

  function mergeSpans(spans) {
    const merged = [];
    for (const [begin, end] of spans) {
      const last = merged[merged.length - 1];
      if (last && begin <= last[1]) last[1] = Math.max(end, last[1]);
      else merged.push([begin, end]);
    }
    return merged;
  }

  function snippet(text, spans, width) {
    const chars = [...text];
    const slice = (a, b) => chars.slice(a, b).join("");
    const start = spans.length ? Math.max(0, spans[0][0] - Math.floor(width / 3)) : 0;
    const end = Math.min(chars.length, start + width);
    const parts = [];
    let plain = start > 0 ? "…" : "", cursor = start;
    for (const [begin, finish] of spans) {
      if (begin < cursor || finish > end) continue;
      plain += slice(cursor, begin);
      if (plain) parts.push({ text: plain.replace(/\n/g, " "), mark: false });
      parts.push({ text: slice(begin, finish).replace(/\n/g, " "), mark: true });
      plain = ""; cursor = finish;
    }
    plain += slice(cursor, end) + (end < chars.length ? "…" : "");
    if (plain) parts.push({ text: plain.replace(/\n/g, " "), mark: false });
    return parts;
  }

  // ---------------------------------------------------------------- the offline page (templates/offline.html)
  // The service worker answers /-/search offline with the offline page's HTML and these results in it
  // (its engine stays loaded between searches); the page itself runs them only if the worker did not.

  const WORD_KEYS = ["note", "differs", "nearest", "noResults", "summary", "also", "via", "some", "reprinted",
    "reprintOf", "previous", "next", "notSaved", "cited", "citing", "definitions", "law", "nearestUnits",
    "index", "didYouMean", "exact", "title"];

  function esc(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  function fill(template, values) {
    let text = template || "";
    for (const [key, value] of Object.entries(values)) text = text.split("{" + key + "}").join(value);
    return text;
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
          if (r.via) item += ` <span class="via">${esc(fill(words.via, { word: r.via }))}</span>`;
          if (r.match === "any" || r.match === "most") item += ` <span class="relaxed">${esc(words.some)}</span>`;
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

  const api = { Engine, QueryError, useRules, permalink, searchPageHTML, splitCitations, citationCandidates, lawSpelling, regulationSpelling, noteSpelling, cleanQuery,
    forgiving: { kanaKey, romajiToKana, soundKey, levenshtein } };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  root.BridgeLawsSearch = api;
  api.loadEngine = loadEngine;
  if (typeof document !== "undefined") {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", offlinePage);
    else offlinePage();
  }
})(typeof self !== "undefined" ? self : this);
