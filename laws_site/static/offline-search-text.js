// Offline search, its text core (ingest/text/ in Python): the pack's rules compiled, kana and
// Chinese folding, issue 24's forgiving keys, the citation spellings, FTS5's tokenizer and snippets.
// Every table, pattern and message comes from the pack's `rules` (laws_site/offline/search_rules.py).
(function (root) {
  "use strict";
  const S = (root.BridgeLawsSearch = root.BridgeLawsSearch || {});

  class QueryError extends Error { constructor(said) { super(said.text); this.said = said; } } // said: message()

  // ---------------------------------------------------------------- the rules, from the pack

  const K = {}; // the rules of the pack in use, patterns compiled (one object: the other files hold it)
  let rulesInUse = null;

  /** The rules with every pattern compiled where it stands ({pattern, flags}, and "to" for a
   * substitution: [RegExp, replacement]); everything else as it comes. */
  function compiled(value) {
    if (Array.isArray(value)) return value.map(compiled);
    if (!value || typeof value !== "object") return value;
    if (typeof value.pattern === "string") {
      const pattern = new RegExp(value.pattern, value.flags);
      return "to" in value ? [pattern, value.to] : pattern;
    }
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, compiled(inner)]));
  }
  /** str.replace of each (text, replacement) in turn. */
  function replaceAll(text, pairs) { for (const [from, to] of pairs) text = text.split(from).join(to); return text; }
  /** re.sub of each (pattern, replacement) in turn, as the Python's substitution lists read. */
  function applySteps(list, text) { return list.reduce((out, [pattern, to]) => out.replace(pattern, to), text); }

  function useRules(rules) {
    if (rulesInUse === rules) return;
    rulesInUse = rules;
    for (const key of Object.keys(K)) delete K[key];
    Object.assign(K, compiled(rules));
  }

  function fill(template, values) { return replaceAll(template || "", Object.entries(values).map(([key, value]) => ["{" + key + "}", value])); }
  // what search says, by name (query.MESSAGES; the page shows its own sentence for it: query.page_sentences)
  function message(name, values = {}) { return { name, values, text: fill(K.search.messages[name], values) }; }

  // ---------------------------------------------------------------- text (ingest/text/tokenize.py, kana.py)

  function pyStrip(text) { return text.replace(/^\s+|\s+$/g, ""); }
  function translate(text, from, to) { return [...text].map((c) => { const i = from.indexOf(c); return i >= 0 ? to[i] : c; }).join(""); }
  function generalKatakanaFold(word) {
    return translate(word.normalize("NFKC"), K.kana.small, K.kana.large).replace(K.kana.e_row_i, "$1ー").replace(K.kana.long_vowel_marks, "");
  }
  function fold(token) { return token.replace(K.scripts.token_clean, "").toLowerCase(); }
  function cleanQuery(query) {
    let out = "";
    for (const c of query || "") {
      if (/\p{Cc}/u.test(c)) out += " ";
      else if (!/\p{Cf}/u.test(c)) out += c;
    }
    return out.split(/\s+/).filter(Boolean).join(" ");
  }

  // --------------------------------------------- issue 24's keys (ingest/text/forgiving.py)

  function toKatakana(text) { return translate(text.normalize("NFKC"), K.kana.hiragana, K.kana.katakana); }   // jaconv.hira2kata
  function toHiragana(text) { return translate(text, K.kana.katakana, K.kana.hiragana); }
  function isKana(text) { return K.forgiving.kana_only.test(pyStrip(text.normalize("NFKC"))); }

  function kanaKey(text) {
    const out = [];
    let previous = null;
    for (let c of toKatakana(text.replace(/\s+/g, ""))) {
      c = K.forgiving.same_sound[c] || c;
      if (K.forgiving.key_dropped.includes(c)) continue;
      c = translate(c, K.kana.small, K.kana.large);
      const vowel = K.forgiving.vowel_kana[c];
      if (vowel && previous && K.forgiving.long_after[vowel].includes(previous)) continue;
      out.push(c);
      previous = K.kana.vowel_of[c] || null;
    }
    return out.join("");
  }

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
    if (!text || !K.forgiving.romaji.test(text)) return null;
    const kana = text.replace(/-/g, "ー").replace(/'/g, "").split(/\s+/).filter(Boolean).map((w) => alphabetToKana(tables, w)).join("").replace(/n/g, "ん");
    return isKana(kana) ? kana : null;
  }
  function soundSpelled(tables, text, japanese) {   // forgiving._spelled
    if (japanese) {
      const kana = toKatakana(text);
      if (!K.forgiving.katakana_only.test(kana)) return "";
      return applySteps(K.forgiving.romaji_rules, kanaToAlphabet(tables, toHiragana(kana.replace(/・/g, ""))).replace(/-/g, ""));
    }
    const spelled = text.normalize("NFKC").toLowerCase();
    if (!K.forgiving.ascii_words.test(pyStrip(spelled))) return "";
    return (spelled.match(K.forgiving.english_words) || []).map((w) => applySteps(K.forgiving.english, w)).join("");
  }
  function soundKey(tables, text, japanese) {
    return applySteps(K.forgiving.shared, soundSpelled(tables, text, japanese));
  }
  function soundPattern(tables, text, japanese) {   // forgiving.sound_pattern: vowels kept as V where they fall
    let spelled = soundSpelled(tables, text, japanese);
    if (spelled && japanese) spelled = applySteps(K.forgiving.added_vowels, spelled);
    return applySteps(K.forgiving.pattern, spelled);
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
  /** rapidfuzz.process.extract(query, choices, scorer, score_cutoff=limit, limit=count). */
  function closest(query, choices, swaps, limit, count = 5) {
    const found = [];
    choices.forEach((choice, i) => {
      if (Math.abs([...choice].length - [...query].length) > limit) return;
      const distance = levenshtein(query, choice, swaps);
      if (distance <= limit) found.push([distance, i, choice]);
    });
    return found.sort((x, y) => x[0] - y[0] || x[1] - y[1]).slice(0, count).map(([distance, , choice]) => [choice, distance]);
  }

  // ---------------------------------------------------------------- citations (ingest/text/spelling.py, refs.py)

  function squeeze(typed) { return typed.normalize("NFKC").replace(K.spelling.spaces, ""); }
  function formatLawRef(...parts) {
    let out = "";
    for (let i = 0; i < parts.length && parts[i] !== null && parts[i] !== undefined; i++) out += K.refs.level_formats[i].replace("{}", parts[i]);
    return out;
  }
  /** [law, section, item, sub, subsub] with a level below one that is missing (40B2(ii): its (ii) hangs
   * from no sub-item), which names no unit (refs.parse_law_ref, spelling.law_spelling). */
  function skipsALevel(levels) { return levels.some((level, i) => i > 1 && level && !levels[i - 1]); }
  function lawSpelling(typed) {
    if (K.spelling.separated_numbers.test(pyStrip(pyStrip(typed.normalize("NFKC")).replace(K.spelling.law_word, "")))) return null;
    let text = squeeze(typed).replace(K.spelling.law_word, "");
    text = applySteps(K.spelling.ja_law_words, text);
    const m = K.spelling.loose_law_ref.exec(text.replace(K.spelling.law_separators, ""));
    if (!m) return null;
    const [, law, section, item, sub, subsub] = m;
    if (skipsALevel(m.slice(1))) return null;
    return formatLawRef(law, section ? section.toUpperCase() : null, item || null, sub ? sub.toLowerCase() : null, subsub ? subsub.toLowerCase() : null);
  }
  function regulationSpelling(typed) {
    const text = squeeze(typed);
    const appendix = K.spelling.appendix.exec(text);
    if (appendix) {
      const [, number, table, paragraph, item, sub] = appendix;
      if (table) return `appendix-${parseInt(number, 10)}-table-${parseInt(table, 10)}`;
      const levels = [parseInt(number, 10)].concat(paragraph ? [parseInt(paragraph, 10)] : [], [item, sub].filter(Boolean).map((p) => p.toLowerCase()));
      return "appendix-" + levels.join("-");
    }
    const m = K.spelling.reg_numbers.exec(text.replace(/_/g, "-"));
    return m ? m.slice(1).filter(Boolean).join("-") : null;
  }
  function noteSpelling(typed) {
    const text = squeeze(typed);
    if (!K.spelling.note_label.test(text)) return null;
    const law = lawSpelling(text.slice(1));
    return law ? "L" + law : null;
  }
  function citationCandidates(typed) {
    typed = pyStrip(typed);
    if (!typed || [...typed].length > K.spelling.max_citation_chars) return null;
    const explicit = K.spelling.doc_id.exec(pyStrip(typed.normalize("NFKC")));
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
        while (rest && K.spelling.name_joiners.includes(rest[0])) rest = rest.slice(1);
        if (rest && K.spelling.citation_starts.includes(rest[0])) return [names[name], rest];
      }
    }
    return null;
  }
  function splitCitations(typed) {
    typed = typed.normalize("NFKC").replace(K.spelling.citation_ends, "");
    if (citationCandidates(typed)) return [typed];
    const parts = typed.split(K.spelling.citation_separators).filter(Boolean);
    return parts.length > 1 && parts.every((p) => citationCandidates(p)) ? parts : null;
  }
  function lawAncestors(ref) {
    const m = K.refs.wbf_ref.exec(ref);
    if (!m || skipsALevel(m.slice(1))) return [];
    const parts = m.slice(1).map((p) => (p === undefined ? null : p));
    const out = [];
    for (let n = parts.filter((p) => p !== null).length - 1; n > 0; n--) out.push(formatLawRef(...parts.slice(0, n)));
    return out;
  }
  function lawOf(ref) {
    const m = K.refs.law_number.exec(ref);
    return m && m[1].length <= K.refs.law_number_digits ? String(parseInt(m[1], 10)) : null;
  }

  /** For each character of a run of Latin letters, or of digits: where its run ends (index after it). */
  function latinRuns(chars) {
    const kind = (c) => (/\p{N}/u.test(c) ? "digit" : /\p{L}/u.test(c) && !K.scripts.kana.test(c) && !K.scripts.han.test(c) ? "letter" : null);
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
      out += byte < 128 && (/[A-Za-z0-9_.\-~]/.test(c) || K.permalink_safe.includes(c)) ? c : "%" + byte.toString(16).toUpperCase().padStart(2, "0");
    }
    return "/" + doc + "/" + out;
  }
  /** A unit's id ("doc:ref") as a link: {id, doc, ref, url}. */
  function unitLink(unit) {
    const [doc, ...rest] = unit.split(":");
    const ref = rest.join(":");
    return { id: unit, doc, ref, url: permalink(doc, ref) };
  }

  function wordsOf(alternative) { return alternative.split(" ").filter(Boolean); }
  function termsKey(terms) { return [...new Set(terms)].sort().join("\u0001"); }

  function sameList(a, b) { return a.length === b.length && a.every((x, i) => x === b[i]); }
  /** The items in order, each first one of its key only (dict.fromkeys). */
  function uniqueBy(items, key) {
    const seen = new Set();
    return items.filter((item) => {
      const found = key(item);
      if (seen.has(found)) return false;
      seen.add(found);
      return true;
    });
  }
  function owns(table, key) { return Object.prototype.hasOwnProperty.call(table, key); }
  /** The value cached under key, made and kept (the cache emptied past `most` entries) when missing. */
  function remembered(cache, key, most, make) {
    let found = cache.get(key);
    if (found === undefined) {
      if (cache.size > most) cache.clear();
      cache.set(key, (found = make()));
    }
    return found;
  }

  function englishKey(term) { return applySteps(K.keys.english_key, term.toLowerCase()); }

  function katakanaRuns(tokens) {
    const word = K.scripts.katakana_word;
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
    return mergeSpans(spans);
  }

  /** The spans in order, overlapping ones (and repeats) merged. */
  function mergeSpans(spans) {
    const merged = [];
    for (const [begin, end] of spans.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1])) {
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

  S.forgiving = { kanaKey, romajiToKana, soundKey, soundPattern, levenshtein };
  Object.assign(S, { K, QueryError, useRules, compiled, applySteps, replaceAll, fill, message, pyStrip, generalKatakanaFold, fold, cleanQuery, toKatakana, isKana, kanaKey, romajiToKana, soundKey, soundPattern, closest, squeeze, lawSpelling, regulationSpelling, noteSpelling, citationCandidates, candidateRefs, namedDocument, splitCitations, lawAncestors, lawOf, latinRuns, permalink, unitLink, wordsOf, termsKey, sameList, uniqueBy, owns, remembered, englishKey, katakanaRuns, ftsExpression, unicode61, matchSpans, mergeSpans, snippet });
  if (typeof module !== "undefined" && module.exports) module.exports = S;
})(typeof self !== "undefined" ? self : globalThis);
