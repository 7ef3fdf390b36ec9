// Offline search, reading (laws_site/search/translation.py, english_places.py, english_keys.py, chinese.py,
// chinese_runs.py): a Chinese or English query read in the current Laws' Japanese words, the engine's
// methods (offline-search-engine.js) that read it; the pack's `translations` table and `rules` carry the words.
(function (root) {
  "use strict";
  const S = (root.BridgeLawsSearch = root.BridgeLawsSearch || {});
  const { K, owns } = S;

  Object.assign(S.Engine.prototype, {
    /** search.chinese.ChineseWords.cut: [start, end] of the words of a run of Chinese characters, the
     * path of least total cost (the pack's `chinese` costs; an unknown character costs unknown_cost). */
    chineseWords(run) {
      const costs = this.pack.chinese, T = K.translation;
      const best = new Array(run.length + 1).fill(null);
      best[0] = [0, -1];
      for (let start = 0; start < run.length; start++) {
        if (!best[start]) continue;
        for (let end = start + 1; end <= Math.min(run.length, start + T.max_chars); end++) {
          const word = run.slice(start, end);
          const cost = owns(costs, word) ? costs[word] : end === start + 1 ? T.unknown_cost : null;
          if (cost !== null && (!best[end] || best[start][0] + cost < best[end][0])) best[end] = [best[start][0] + cost, start];
        }
      }
      const words = [];
      for (let end = run.length; end > 0; end = best[end][1]) words.push([best[end][1], end]);
      return words.reverse();
    },

    /** search.translation.read_terms: [the term as the query writes it (read), its Japanese words] of each
     * term a Chinese or English query names. */
    readTerms(query) {
      const table = this.pack.translations, T = K.translation;
      const joined = this.joinedWords || (this.joinedWords = new Set(this.pack.joined_words || []));
      const text = this.toSimplified(query.normalize("NFKC").toLowerCase());
      const found = [];
      const words = [...text.matchAll(T.english_word)];
      for (let i = 0; i < words.length; i++) {
        const byNext = this.senseByPlace(words, i) || this.handAsATime(words, i) || this.meaningAsked(words, i) || this.verbByPlace(words, i);
        const fronted = this.frontedObject(words, i);
        const [contrast, contrastEnd] = this.contrastedObject(words, i);
        const [manner, mannerEnd] = this.mannerOfAVerb(words, i);
        for (let j = i + 1; j <= Math.min(i + T.max_words, words.length); j++) {
          // translation.joined_words: a key of one written word is read from one typed word only (before the hands: no 予め)
          const said = this.spanKeys(words.slice(i, j).map((m) => m[0]));
          const hit = (contrast && j === contrastEnd ? [contrast] : manner && j === mannerEnd ? [manner] : byNext && j === i + 1 ? [byNext] : fronted && j === i + 2 ? [fronted, ...said] : said).find((c) => table[c] && (j === i + 1 || !joined.has(c)));
          if (hit) found.push([words[i].index, words[j - 1].index + words[j - 1][0].length, hit]);
        }
      }
      // translation.HONOUR_LETTERS: a card's letter in a Chinese sentence (一张A) reads as the honour term
      if (K.scripts.han.test(text) && table[T.honour_term]) {
        for (const w of words) if ([...w[0]].every((c) => T.honour_letters.includes(c))) found.push([w.index, w.index + w[0].length, T.honour_term]);
      }
      const manner = [];
      for (const run of text.matchAll(T.han_run)) {
        const cut = this.chineseWords(run[0]);
        // translation.read_terms: a Latin word right before the run's first word, the two a term (8黑桃: a bid)
        const before = words.find((w) => w.index + w[0].length === run.index);
        if (before && cut.length && table[before[0] + run[0].slice(0, cut[0][1])]) found.push([before.index, run.index + cut[0][1], before[0] + run[0].slice(0, cut[0][1])]);
        // ... and the run's last word with a Latin word right after it (黑桃A: a card)
        const after = words.find((w) => w.index === run.index + run[0].length);
        if (after && cut.length && table[run[0].slice(cut[cut.length - 1][0]) + after[0]]) found.push([run.index + cut[cut.length - 1][0], after.index + after[0].length, run[0].slice(cut[cut.length - 1][0]) + after[0]]);
        for (const [start, end] of cut) {
          const word = run[0].slice(start, end);
          if (table[word]) found.push([run.index + start, run.index + end, word]);
        }
        for (const [start, end, key] of this.acrossParticles(run[0], cut).concat(this.swappedTerms(run[0], cut))) found.push([run.index + start, run.index + end, key]);
        // chinese.manner_words: a one-character word after 得 (and a degree adverb) is a manner, read alone in no sense
        cut.forEach(([start, end], i) => {
          if (run[0].slice(start, end) !== T.manner_mark) return;
          let following = cut.slice(i + 1, i + 3);
          if (following.length && T.degree_adverbs.includes(run[0].slice(...following[0]))) following = following.slice(1);
          if (following.length && following[0][1] - following[0][0] === 1) manner.push((run.index + following[0][0]) + ":" + (run.index + following[0][1]));
        });
      }
      // translation.japanese_words: a support verb before an article reads nothing alone (made a bid: no メイク)
      const carried = new Set(manner);
      for (let i = 0; i + 1 < words.length; i++) {
        if (T.support_verbs.includes(words[i][0]) && T.articles.includes(words[i + 1][0])) carried.add(words[i].index + ":" + (words[i].index + words[i][0].length));
        // translation.ASPECT_VERBS: an aspect verb before an -ing form reads nothing (kept looking: no 保つ)
        if (T.aspect_verbs.includes(words[i][0]) && words[i + 1][0].endsWith("ing")) carried.add(words[i].index + ":" + (words[i].index + words[i][0].length));
        // english_lexicon.PERIODS: last before one names the round before or the final one (the last round: no 最後)
        if (words[i][0] === T.last && T.periods.includes(words[i + 1][0])) carried.add(words[i].index + ":" + (words[i].index + words[i][0].length));
        // translation.PLACE_DETERMINERS: a suit's singular name after one names a body or a place (this club: no スート)
        if (T.place_determiners.includes(words[i][0]) && T.singular_suits.includes(words[i + 1][0])) carried.add(words[i + 1].index + ":" + (words[i + 1].index + words[i + 1][0].length));
      }
      // english_places.verbs_of_other_objects: a verb whose sense takes certain objects reads nothing before another
      // (made the opening lead: no メイク; turned his card: no 変える); its object after determiners and numbers
      for (let i = 0; i < words.length; i++) {
        if (!owns(T.senses_by_object, words[i][0])) continue;
        let rest = words.slice(i + 1).map((w) => w[0]);
        while (rest.length && (T.object_words.includes(rest[0]) || T.number_words.includes(rest[0]))) rest = rest.slice(1);
        const stop = rest.findIndex((w) => T.function_words.includes(w));
        const said = stop < 0 ? rest : rest.slice(0, stop);
        if (said.length && !said.some((w) => T.senses_by_object[words[i][0]].includes(w))) carried.add(words[i].index + ":" + (words[i].index + words[i][0].length));
      }
      // english_places.reported_speech: a verb of saying before a clause reads nothing (said we had written down: no 言う)
      for (let i = 0; i + 1 < words.length; i++) {
        if (!T.saying_verbs.includes(words[i][0])) continue;
        const after = words.slice(i + 1, i + 5).map((w) => w[0]);
        const byNoun = T.object_words.includes(after[0]) && after.slice(2, 4).some((w) => T.clause_verbs.includes(w));
        if (T.clause_subjects.includes(after[0]) || byNoun) carried.add(words[i].index + ":" + (words[i].index + words[i][0].length));
      }
      // english_lexicon.HAVING: a term beginning no after a verb of having states a void (has no spades: no 61B)
      for (let i = 0; i + 1 < words.length; i++) {
        if (!T.having.includes(words[i][0]) || words[i + 1][0] !== T.no) continue;
        if (words.slice(Math.max(0, i - 2), i).some((w) => T.question_openers.includes(w[0]))) continue; // ask if he has no hearts: 61B3
        for (const [start, end] of found) if (start === words[i + 1].index && end > words[i + 1].index + words[i + 1][0].length) carried.add(start + ":" + end);
      }
      // english_places.unknown_phrasal_verbs: a verb's past or participle right before its particle (a form the
      // dictionary spells apart too: came back), or any verb form before an object pronoun and its particle (sorted
      // it out), the two naming no term, reads nothing alone, nor does the particle
      const irregular = this.irregularForms || (this.irregularForms = new Set(this.pack.irregular_forms || []));
      for (let i = 0; i + 1 < words.length; i++) {
        const pronoun = i + 2 < words.length && T.object_pronouns.includes(words[i + 1][0]) ? 1 : 0;
        const verb = words[i][0], particle = words[i + 1 + pronoun][0], following = words[i + 2 + pronoun];
        if (!T.adverb_particles.includes(particle) || (following && following[0] === "of")) continue;
        const regular = T.verb_endings.some((e) => verb.endsWith(e) && verb.length - e.length >= T.min_stem);
        if (!pronoun && !regular && !irregular.has(verb)) continue;
        if (!this.spanKeys([verb, particle]).some((c) => table[c])) {
          carried.add(words[i].index + ":" + (words[i].index + verb.length));
          const own = words[i + 1 + pronoun];  // the particle is the verb's: no noun of its own (walked round: no ラウンド)
          carried.add(own.index + ":" + (own.index + particle.length));
        }
      }
      // english_places.phrasal_verbs: a verb whose particle follows its object (put the card back: put back)
      const ordered = found.map((f) => [...f, null]);
      for (let i = 0; i < words.length; i++) {
        if (i > 0 && T.noun_markers.includes(words[i - 1][0])) continue;  // a noun (the hand ... over: no hand over)
        for (let j = i + 2; j < Math.min(i + T.max_words, words.length); j++) {
          const particle = words[j], following = words[j + 1];
          // "out of" after the object stays the verb's (took his cards out of the board: take out)
          const beforeOf = following && following[0] === "of";
          if (!T.phrasal_particles.includes(particle[0]) || (beforeOf && particle[0] !== T.particle_after_object_before_of)) continue;
          // a particle before the words an object begins with or an object pronoun heads a phrase of its own (put his cards on the table, put a card on it), but "in" (put the card in the wrong pocket: put in)
          if (following && (T.object_words.includes(following[0]) || T.object_pronouns.includes(following[0])) && particle[0] !== T.particle_into_an_object) break;
          const hit = this.spanKeys([words[i][0], particle[0]]).find((c) => table[c]);
          if (hit) {
            ordered.push([words[i].index, words[i].index + words[i][0].length, hit, [particle.index, particle.index + particle[0].length]]);
            break;
          }
        }
      }
      // longest first, a phrasal verb as long as its verb and particle together; the particle reads nothing
      const length = (f) => f[1] - f[0] + (f[3] ? f[3][1] - f[3][0] : 0);
      let kept = [];
      for (const f of ordered.sort((a, b) => length(b) - length(a) || a[0] - b[0] || (a[3] ? 0 : 1) - (b[3] ? 0 : 1))) {
        const spans = [[f[0], f[1]]].concat(f[3] ? [f[3]] : []);
        if (carried.has(f[0] + ":" + f[1]) || spans.some(([s, e]) => kept.some(([s2, e2]) => s < e2 && s2 < e))) continue;
        kept.push([f[0], f[1], f[2]]);
        if (f[3]) kept.push([f[3][0], f[3][1], ""]);
      }
      kept = kept.filter((k) => k[2]);
      const read = kept.sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([start, end, key]) => [(!K.scripts.han.test(text.slice(start, end)) && (text.slice(start, end).match(T.english_word) || []).join(" ")) || text.slice(start, end), table[key]]);   // translation.written
      // suits_said.able_to_follow: a suit said held (有这门花色) says no inability to follow (a discard is ディスカード
      // and the revoke it makes)
      const H = this.pack.suits_held || {keys: [], inability: []};
      const held = this.suitsHeld || (this.suitsHeld = new Set(H.keys));
      if (!read.some(([said]) => held.has(said))) return read;
      return read.map(([said, japanese]) => [said, japanese.filter((word) => !H.inability.includes(word))
        .concat(H.discard && japanese.includes(H.discard) ? [H.revoke] : [])]);
    },

    /** english_places.fronted_object: the key of the i-th word, its preposition ending the clause and an object said
     * before them (the card declarer asked for: ask for a card, no 求める), the nearest earlier word that makes a
     * term so; or null. */
    frontedObject(words, i) {
      const table = this.pack.translations, T = K.translation;
      if (i + 1 >= words.length || !T.stranded_prepositions.includes(words[i + 1][0])) return null;
      if (i + 2 < words.length && !T.conjunctions.includes(words[i + 2][0])) return null;
      for (let n = i - 1; n >= 0; n--) {
        if (T.function_words.includes(words[n][0])) continue;
        const key = this.spanKeys([words[i][0], words[i + 1][0], "a", words[n][0]]).find((k) => table[k]);
        if (key) return key;
      }
      return null;
    },

    /** english_places.contrasted_object: [the key of "<thing> not <verb> [preposition]", the index after the verb's clause]
     * for a verb ending a clause a thing is set apart from (a different card from the one declarer asked for: card not
     * asked for), or [null, 0]. */
    contrastedObject(words, i) {
      const table = this.pack.translations, T = K.translation;
      const end = i + 1 + (i + 1 < words.length && T.stranded_prepositions.includes(words[i + 1][0]) ? 1 : 0);
      if (end < words.length && !T.conjunctions.includes(words[end][0])) return [null, 0];
      let link = null;
      for (let k = i - 1; k >= Math.max(i - T.max_words, 1); k--) if (T.contrast_links.includes(words[k][0])) { link = k; break; }
      if (link === null || link < 2) return [null, 0];
      const before = words[link - 2][0], last = words[link - 1][0];
      const thing = T.contrasts.includes(before) ? last : T.contrasts.includes(last) ? before : null;
      if (thing === null || T.function_words.includes(thing)) return [null, 0];
      const key = this.spanKeys([thing, T.negation, ...words.slice(i, end).map((w) => w[0])]).find((k) => table[k]);
      return [key || null, end];
    },

    /** english_places.meaning_asked: the key of the explanation and the meaning where the i-th word is a call's meaning
     * asked about (asking what our bids meant: 20F1 説明, 40B5(a) 意味), or null. */
    meaningAsked(words, i) {
      const T = K.translation;
      if (!T.meaning_words.includes(words[i][0]) || !owns(this.pack.translations, T.meaning_asked)) return null;
      const before = words.slice(Math.max(0, i - T.max_words), i).map((w) => w[0]);
      const at = before.lastIndexOf(T.question_word);
      if (at < 0) return null;
      return before.slice(Math.max(0, at - 2), at).some((w) => T.asking_words.includes(w)) ? T.meaning_asked : null;
    },

    /** english_places.manner_of_a_verb: [the key of the adjective and the i-th word, the index after the adverb] where a
     * manner adverb follows it, degree words between (playing very slowly: slow play, 90B2), the two a term; or [null, 0]. */
    mannerOfAVerb(words, i) {
      const table = this.pack.translations, T = K.translation;
      let end = i + 1;
      while (end < words.length && T.degree_words.includes(words[end][0])) end++;
      if (T.function_words.includes(words[i][0]) || end >= words.length || end - i >= T.max_words) return [null, 0];
      const adverb = words[end][0];
      if (!adverb.endsWith(T.manner_ending) || adverb.length - T.manner_ending.length < T.min_stem) return [null, 0];
      let adjective = adverb.slice(0, -T.manner_ending.length);
      if (adjective.endsWith("i")) adjective = adjective.slice(0, -1) + "y";  // hastily: hasty
      const key = this.spanKeys([adjective, words[i][0]]).find((k) => table[k]);
      return key ? [key, end + 1] : [null, 0];
    },

    /** english_places.hand_as_a_time: the play's key where the i-th word is "hand" said as a time (after the hand, at the
     * end of the hand: プレイ, the deal being played, no ハンド), or null to read it as any word. */
    handAsATime(words, i) {
      const T = K.translation;
      if (words[i][0] !== T.hand_as_a_time || i < 2 || !T.hand_determiners.includes(words[i - 1][0])) return null;
      const before = words[i - 2][0];
      const ofAPart = before === "of" && i >= 3 && T.parts_of_a_time.includes(words[i - 3][0]);
      return (T.time_prepositions.includes(before) || ofAPart) && owns(this.pack.translations, T.hand_time_reading) ? T.hand_time_reading : null;
    },

    /** english_places.verb_by_place: the key of the i-th word's verb (to work) after a subject pronoun or an auxiliary,
     * adverbs between (it only works: 動く, no 作業), or null to read it as any word. */
    verbByPlace(words, i) {
      const T = K.translation;
      let before = i - 1;
      while (before >= 0 && T.verb_adverbs.includes(words[before][0])) before--;
      if (before < 0 || !T.verb_subjects.includes(words[before][0])) return null;
      return this.stems(words[i][0]).map((stem) => "to" + stem).find((key) => owns(this.pack.translations, key)) || null;
    },

    /** english_lexicon.stems: the key, then without each ending it may have; an ending of AFTER_E_ENDINGS only
     * after an e (decided: decide; find is no fin). */
    stems(key) {
      const T = K.translation;
      return [key].concat(T.endings.filter((e) => key.endsWith(e) && key.length - e.length >= T.min_stem
        && (!T.after_e_endings.includes(e) || key[key.length - e.length - 1] === "e")).map((e) => key.slice(0, -e.length)));
    },

    /** english_places.sense_by_place: the key the i-th word reads by its place (the right lead: correct; cards he had
     * left: remaining; on his left: left hand opponent), or null to read it as any word. */
    senseByPlace(words, i) {
      const T = K.translation, senses = owns(T.senses_by_place, words[i][0]) ? T.senses_by_place[words[i][0]] : null;
      if (!senses) return null;
      const following = i + 1 < words.length ? words[i + 1][0] : null;
      const qualifies = following !== null && !T.function_words.includes(following);
      const takesNothing = following === null || (T.function_words.includes(following) && !T.object_words.includes(following));
      const seat = takesNothing && i > 0 && T.possessives.includes(words[i - 1][0]);
      const key = seat ? senses[2] : qualifies ? senses[0] : takesNothing ? senses[1] : null;
      return key && owns(this.pack.translations, key) ? key : null;
    },

    /** chinese.across_particles: [start, end, key] of each term of several words said with an aspect
     * particle inside (抽错了叫牌卡: 抽错叫牌卡), the particles between its words left out. */
    acrossParticles(run, cut) {
      const table = this.pack.translations, T = K.translation;
      const found = [];
      for (let i = 0; i < cut.length; i++) {
        let key = run.slice(cut[i][0], cut[i][1]), skipped = false;
        if (T.aspect_particles.includes(key)) continue;
        for (const [start, end] of cut.slice(i + 1)) {
          const word = run.slice(start, end);
          if (T.aspect_particles.includes(word)) {
            skipped = true;
            continue;
          }
          key += word;
          if ([...key].length > T.max_chars) break;
          if (skipped && table[key]) found.push([cut[i][0], end, key]);
        }
      }
      return found;
    },

    /** chinese.swapped_terms: [start, end, key] of each term of two words said the other way round
     * (叫牌不足: 不足叫牌), each word of two characters or more. */
    swappedTerms(run, cut) {
      const table = this.pack.translations, T = K.translation;
      const found = [];
      for (let i = 0; i + 1 < cut.length; i++) {
        const head = run.slice(cut[i][0], cut[i][1]), quality = run.slice(cut[i + 1][0], cut[i + 1][1]);
        if (Math.min([...head].length, [...quality].length) >= T.min_term_chars && table[quality + head]) found.push([cut[i][0], cut[i + 1][1], quality + head]);
      }
      return found;
    },

    /** translation.span_keys: as typed, the last word without an ending, then the first word without one too;
     * then the same without the function words inside (changed his mind: change mind), unless one is a conjunction;
     * a single function word none (several: as typed). */
    spanKeys(words) {
      const T = K.translation;
      // english_keys.span_keys: several function words key as typed (a purpose said, a glossary or vocabulary term: got up)
      if (words.every((w) => T.function_words.includes(w))) return words.length > 1 ? [words.join("")] : [];
      // english_lexicon.NEGATING_OPENERS: a run one begins (failed to follow suit, without shuffling) reads first as "not" + the rest
      const opener = T.negating_openers.find((o) => words.length > o.length && o.every((w, k) => words[k] === w));
      const negated = opener ? this.spanKeys([T.negation, ...words.slice(opener.length)]) : [];
      // english_lexicon.INABILITY_OPENERS: ... and one an inability opener begins (could not follow suit) as "unable" + the rest
      const unable = T.inability_openers.find((o) => words.length > o.length && o.every((w, k) => words[k] === w));
      if (unable) for (const k of this.spanKeys([T.inability, ...words.slice(unable.length)])) if (!negated.includes(k)) negated.push(k);
      const stems = (key) => this.stems(key);
      const inflected = (run) => {
        const keys = stems(run.join("")), rest = run.slice(1).join("");
        if (run.length > 1) for (const first of stems(run[0]).slice(1)) for (const k of stems(first + rest)) if (!keys.includes(k)) keys.push(k);
        return keys;
      };
      const keys = negated.concat(inflected(words).filter((k) => !negated.includes(k)));
      // english_keys.content_words: a negation before a content word stays (facts not agreed is no "facts agreed")
      const content = words.filter((w, k) => !T.function_words.includes(w) || (T.negating_words.includes(w) && k + 1 < words.length && !T.function_words.includes(words[k + 1])));
      const across = words.some((w) => T.conjunctions.includes(w));  // two clauses, not one term's words
      if (content.length > 1 && content.length < words.length && content[0] === words[0] && content[content.length - 1] === words[words.length - 1] && !across) {
        for (const k of inflected(content)) if (!keys.includes(k)) keys.push(k);
      }
      if (words.length === 1) {  // english_lexicon.nouns_of: a verb the table does not name reads as its noun
        for (const key of keys.slice()) {
          for (const [verb, noun] of T.noun_endings) {
            const candidate = key.slice(0, key.length - verb.length) + noun;
            if (key.endsWith(verb) && key.length - verb.length >= T.min_stem && !keys.includes(candidate)) keys.push(candidate);
          }
        }
      }
      return keys;
    },
  });

  if (typeof module !== "undefined" && module.exports) module.exports = S;
})(typeof self !== "undefined" ? self : globalThis);
