// Offline search, issue 24's expansions (laws_site/search/expansions.py): readings, romaji, loanwords by sound,
// synonyms and spelling corrections of a query, each an alternative planned as a query of its own; the engine's
// methods (offline-search-engine.js).
(function (root) {
  "use strict";
  const S = (root.BridgeLawsSearch = root.BridgeLawsSearch || {});
  const { K, replaceAll, pyStrip, toKatakana, isKana, kanaKey, romajiToKana, soundKey, soundPattern, closest, squeeze, uniqueBy } = S;

  Object.assign(S.Engine.prototype, {
    /** expansions.sounds_close: the term's sound pattern has a vowel and agrees with the kana's in min_sound_likeness of its places. */
    soundsClose(heard, term) {
      const said = soundPattern(this.pack.expansions.romaji, term, false);
      const longest = Math.max([...heard].length, [...said].length);
      const likeness = longest ? 1 - S.forgiving.levenshtein(heard, said, false) / longest : 1;
      return said.includes(K.forgiving.vowel_run) && likeness >= K.expansions.min_sound_likeness;
    },

    alternatives(query, lang) {
      const e = this.pack.expansions;
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
        if (key.length >= K.expansions.min_sound_key) {
          const heard = soundPattern(e.romaji, toKatakana(kana), true);
          const close = (e.sounds[key] || []).filter((term) => this.soundsClose(heard, term));
          for (const term of close.slice(0, K.expansions.max_each)) found.push({ kind: "sound", text: term, lang: null });
        }
      }
      if (K.scripts.han.test(text) || isKana(text)) {
        for (const t of this.synonymsOf(text)) found.push({ kind: "synonym", text: t, lang: "ja" });
      }
      if (K.scripts.han.test(text)) {
        const simplified = this.toSimplified(text);
        const replaced = replaceAll(simplified, Object.keys(e.zh).sort((a, b) => [...b].length - [...a].length).map((variant) => [variant, e.zh[variant]]));
        if (replaced !== simplified) found.push({ kind: "zh", text: replaced, lang: "zh" });
      }
      const wanted = found.filter((alt) => alt.text && alt.text !== query && (lang === null || alt.lang === null || alt.lang === lang));
      return uniqueBy(wanted, (alt) => alt.text).slice(0, K.expansions.max_alternatives);
    },

    segment(key) {
      const e = this.pack.expansions;
      const chars = [...key];
      const size = chars.length;
      if (!size || size > K.expansions.max_key_chars) return "";
      const best = new Array(size + 1).fill(null);
      best[0] = [0, 0, []];
      for (let start = 0; start < size; start++) {
        if (best[start] === null) continue;
        const [pieces, weight, words] = best[start];
        for (let end = start + 1; end <= Math.min(size, start + e.longest_reading); end++) {
          const piece = chars.slice(start, end).join("");
          const options = e.readings[piece];
          let candidate;
          if (options) candidate = [pieces + 1, weight - options[0][1], words.concat([options[0][0]])];
          else if (end === start + 1 && K.expansions.particles[piece] && start > 0) candidate = [pieces + 1, weight, words.concat([K.expansions.particles[piece]])];
          else continue;
          if (best[end] === null || candidate[0] < best[end][0] || (candidate[0] === best[end][0] && candidate[1] < best[end][1])) best[end] = candidate;
        }
      }
      return best[size] === null ? "" : best[size][2].join("");
    },

    synonymsOf(text) {
      const e = this.pack.expansions;
      const terms = this.queryTerms(text, "ja");
      // the server cuts with SudachiPy, which knows words the corpus lacks (罰金, 質疑): a query that is
      // one word there is one key here, tried whole (katakana by its kana key, as Sudachi's norm ミステク)
      const squeezed = squeeze(text);
      const whole = e.synonyms[terms.join(" ")] || e.synonyms[squeezed]
        || (K.forgiving.katakana_only.test(squeezed) ? e.synonyms[kanaKey(squeezed)] : undefined);
      if (whole) return whole.slice(0, K.expansions.max_each);
      const found = [];
      terms.forEach((term, i) => {
        // expansions.synonyms: a target that is the term itself re-spells the query (＋ and プラス share a group)
        for (const target of (e.synonyms[term] || []).filter((t) => t !== term).slice(0, K.expansions.max_each)) {
          found.push(terms.length > 1 ? terms.slice(0, i).concat([target], terms.slice(i + 1)).join("") : target);
        }
      });
      return found.slice(0, K.expansions.max_each);
    },

    corrections(query, lang) {
      const e = this.pack.expansions;
      const text = pyStrip(query.normalize("NFKC"));
      const found = [];
      // the choices nearest the key, the key itself not (expansions.most_edits: how near they must be)
      const nearest = (key, choices, swaps) => {
        const most = [...key].length <= K.expansions.short_chars ? K.expansions.short_edits : K.expansions.edits;
        const close = closest(key, choices, swaps, most).filter((c) => c[1] > 0);
        const least = Math.min(...close.map((c) => c[1]));
        return close.filter((c) => c[1] === least).map((c) => c[0]);
      };
      if (/^[\x00-\x7f]*$/.test(text) && K.forgiving.ascii_words.test(text)) {
        for (const term of nearest(text.toLowerCase(), e.english, true)) found.push({ kind: "typo", text: term, lang: null });
      }
      const kana = isKana(text) ? text : romajiToKana(e.romaji, text);
      if (kana && (lang === null || lang === "ja")) {
        for (const candidate of nearest(kanaKey(kana), e.kana_words, false)) found.push({ kind: "typo", text: e.kana_word_of[candidate], lang: "ja" });
      }
      return uniqueBy(found.filter((alt) => alt.text !== query), (alt) => alt.text).slice(0, K.expansions.max_each);
    },

    alternativePlan(alt, lang) {
      const plan = this.makePlan(alt.text, lang || alt.lang);
      for (const branch of plan.branches) { branch.via = branch.via || alt.text; branch.expansion = alt.kind; }
      return plan;
    },
  });

  if (typeof module !== "undefined" && module.exports) module.exports = S;
})(typeof self !== "undefined" ? self : globalThis);
