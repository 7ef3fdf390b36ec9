// Offline search, the ranking (laws_site/search/ranking.py, coverage.py, fts.py): the branches'
// hits, FTS5's MATCH and bm25 from the index's term instances, the 索引 boosts, tiers, reprints folded.
(function (root) {
  "use strict";
  const S = (root.BridgeLawsSearch = root.BridgeLawsSearch || {});
  const { K, lawAncestors, termsKey, ftsExpression, unicode61, wordsOf, remembered } = S;

  /** A key compared for equality, as search.coverage rounds it (round(x, 9)): sums added alike may differ in the last bit. */
  function roundKey(x) { return Math.round(x * 1e9) / 1e9; }
  /** The best score of [rowid, score] rows, or 1.0 when none (or it is 0): what scores are divided by. */
  function bestScore(rows) { return (rows.length ? Math.max(...rows.map((r) => r[1])) : 0.0) || 1.0; }

  /** search.coverage.bm25_clauses: a compound counted once in a sentence's bm25, as the phrase of its pieces, not again whole. */
  function bm25Clauses(clauses) {
    return clauses.map((clause) =>
      clause.filter((alt, i) => i !== 0 || !clause.slice(1).some((other) => other.replace(/ /g, "") === alt)));
  }

  Object.assign(S.Engine.prototype, {
    strictHits(branches, doc, indexBoost, relaxed) {
      const found = new Map();
      for (const branch of branches) {
        for (const [rowid, candidate] of this.runBranch(branch, doc, indexBoost, relaxed)) {
          const kept = found.get(rowid);
          if (kept === undefined || candidate[0] > kept[0]) found.set(rowid, candidate);
        }
      }
      return found;
    },

    mergeTier(merged, found, tier) {
      for (const [rowid, candidate] of found) {
        const kept = merged.get(rowid);
        if (kept === undefined || (kept[4] === tier && candidate[0] > kept[0])) merged.set(rowid, candidate.slice(0, 4).concat([tier]));
      }
    },

    addTargets(merged, targets, doc, lang, tier) {
      for (const [unit, boost] of targets) {
        const rowid = this.rowids.get(unit);
        if (rowid === undefined || !this.inFilters(this.units.get(rowid)[1], doc, lang)) continue;
        if (!merged.has(rowid)) merged.set(rowid, [0.0, null, "vocabulary", null, tier]);
        if (merged.get(rowid)[4] === tier) merged.get(rowid)[0] += boost;
      }
    },

    /** search.ranked_hits: the query's own hits (tier 0), then units only an alternative finds
     * (tier 1), corrections among them when tier 0 has fewer than FEW units; relaxed hits last. */
    rankedHits(plan, doc, lang, indexBoost, corrected, currentFirst) {
      const strict = this.strictHits(plan.branches, doc, indexBoost, false);
      let relaxed = new Map();
      const sentence = plan.relaxed && this.isSentence(plan);
      // ranking.found_whole: a note or 索引 entry holding every word speaks for its laws, ranked by coverage
      if (plan.relaxed && (sentence || ![...strict].some(([r, c]) => (c[2] === "all" || c[2] === "most") && !this.situations.evidence.has(r)))) {
        // search.ranked_hits: a reviewed Chinese variant's words count in the sentence too (罚牌 is 罚张)
        const own = (plan.alternatives || []).filter(([alt]) => alt.kind === "zh").flatMap(([, altPlan]) => altPlan.branches);
        relaxed = this.strictHits(plan.branches.concat(own), doc, indexBoost, true);
      }
      let merged = new Map();
      this.mergeTier(merged, strict, 0);
      this.addTargets(merged, plan.targets, doc, lang, 0);
      const alternatives = plan.alternatives || [];
      if (corrected && merged.size < K.expansions.few) {
        const known = new Set(alternatives.map(([alt]) => alt.text));
        for (const alt of this.corrections(plan.query, lang)) if (!known.has(alt.text)) alternatives.push([alt, this.alternativePlan(alt, lang)]);
      }
      const foundBy = new Map();
      const tiers = new Map();
      for (const [alt, altPlan] of alternatives) {
        const before = merged.size;
        // search.alternative_tier: a reviewed Chinese variant ranks with the query's own units
        const tier = alt.kind === "zh" ? 0 : 1;
        tiers.set(alt.text, tier);
        this.mergeTier(merged, this.strictHits(altPlan.branches, doc, indexBoost, false), tier);
        this.addTargets(merged, altPlan.targets, doc, lang, tier);
        foundBy.set(alt.text, merged.size - before);
      }
      const byCoverage = relaxed.size > 0 && (sentence || ![...foundBy.values()].some(Boolean));
      if (relaxed.size && !byCoverage) this.mergeTier(merged, relaxed, 2);
      else if (byCoverage) {
        // search.ranked_hits: a situation ranks by its coverage; an alternative re-spelling one word is not said searched
        for (const [text, count] of foundBy) foundBy.set(text, tiers.get(text) === 0 ? count : 0);
        merged = new Map();
        this.mergeTier(merged, new Map([...strict].filter(([, c]) => c[2] !== "index").map(([r, c]) => [r, [this.situationWeight(this.units.get(r)) * c[0], ...c.slice(1)]])), 0);
        this.mergeTier(merged, relaxed, 0);
        this.citedRuleFirst(merged, doc);
        this.addTargets(merged, this.followParts(merged, plan.targets), doc, lang, 0);
      }
      if (currentFirst) this.liftCurrent(merged, doc, lang);
      const ranking = this.foldReprints(merged, byCoverage);
      ranking.foundBy = foundBy;
      return ranking;
    },

    /** search.ranking.cited_rule_first: of two units among a sentence's first, the one whose rule the other applies
     * (the pack's situations.applied_rules) takes the place of the one applying it where they cover it exactly alike,
     * or where the other follows it as it provides (situations.provided_rules) and it covers every word the other does. */
    citedRuleFirst(merged, doc) {
      const listing = this.listingRank();
      const keys = [...merged].map(([rowid, c], place) => [c[4] || 0, -c[0], listing.get(rowid), place, rowid])
        .sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || a[3] - b[3]);
      const first = keys.slice(0, this.w.CITED_RULE_DEPTH).map((key) => key[4]);
      const rules = this.situations.appliedRules, provided = this.situations.providedRules, covers = new Map(), done = new Set();
      first.forEach((applying, place) => {
        const applied = rules.get(this.units.get(applying)[0]);
        if (!applied || done.has(applying)) return;
        for (const rule of first.slice(place + 1)) {
          const one = merged.get(applying), other = merged.get(rule), branch = one[1];
          if (done.has(rule) || !applied.includes(this.units.get(rule)[0]) || (one[4] || 0) !== (other[4] || 0) || branch !== other[1]) continue;
          // ranked by coverage alone: a unit the 索引 or the glossary points to keeps its place (and its boost)
          if (!branch || one[2] !== "any" || other[2] !== "any" || one[3] != null || other[3] != null) continue;
          if (!covers.has(branch)) {
            const clauses = branch.coverageClauses && branch.coverageClauses.length ? branch.coverageClauses : branch.clauses;
            const covered = this.coveredWords(clauses, branch.lang, doc, branch.termShares);
            covers.set(branch, [covered, this.shares(covered)]);
          }
          const asProvided = (provided.get(this.units.get(applying)[0]) || []).includes(this.units.get(rule)[0]);
          if (this.ruleInPlace(...covers.get(branch), applying, rule, asProvided)) {
            [one[0], other[0]] = [other[0], one[0]];
            done.add(applying).add(rule);
            break;
          }
        }
      });
    },

    /** search.ranking.rule_in_place: alike, or followed as the rule provides and the rule covers every word the other does. */
    ruleInPlace(covered, found, applying, rule, asProvided) {
      const share = roundKey(found.get(applying) || 0.0);
      if (share === roundKey(found.get(rule) || 0.0) && share > 0.0) return true;
      return asProvided && share > 0.0 && this.coversAll(covered.credits.get(rule) || new Map(), covered.credits.get(applying) || new Map());
    },

    /** search.ranking.follow_parts: a sentence's targets, each moved to where coverage put its law. */
    followParts(merged, targets) {
      const moved = new Map();
      for (const [unit, boost] of targets) {
        const rowid = this.rowids.get(unit);
        const to = rowid === undefined ? unit : this.units.get(this.partInPlace(merged, rowid))[0];
        moved.set(to, (moved.get(to) || 0.0) + boost);
      }
      return moved;
    },

    /** search.ranking.part_in_place: the part of a law unit ranking above it among a sentence's hits, or the unit. */
    partInPlace(hits, rowid) {
      const kept = hits.get(rowid);
      if (kept === undefined) return rowid;
      let best = rowid, bestScore = kept[0];
      for (const part of this.situations.below.get(rowid) || []) {
        const found = hits.get(part);
        if (found !== undefined && found[0] > bestScore) { best = part; bestScore = found[0]; }
      }
      return best;
    },

    runBranch(branch, doc, indexBoost, relaxed) {
      const lone = relaxed ? this.loneContentBranch(branch) : null;
      if (lone) { branch = lone; relaxed = false; }
      if (branch.sentence && !relaxed) return new Map();
      const w = this.w;
      const indexed = this.vocabularyOf[branch.lang];
      let hits;
      if (indexed && !relaxed && !this.titleCarries(indexed, branch.clauses)) {
        hits = new Map();
      } else {
        hits = this.textHits(branch, doc, relaxed);
      }
      const indexWeight = branch.via === null ? w.INDEX_WEIGHT : w.TRANSLATED_INDEX_WEIGHT;
      const pointed = new Map();
      const point = (unit, least, more) => {
        const [boost, entries] = pointed.get(unit) || [0.0, []];
        pointed.set(unit, [Math.max(boost, least), entries.concat(more)]);
      };
      if (indexBoost && branch.lang === "ja") {
        for (const [unit, [boost, entries]] of this.indexBoosts(branch.terms, relaxed)) pointed.set(unit, [indexWeight * boost, entries]);
        for (const [unit, entry] of this.seeAlsoBoosts(branch, hits)) point(unit, indexWeight, [entry]);
      }
      for (const unit of branch.pointed) point(unit, w.DEFINITION_WEIGHT, []);
      for (const [unit, [boost, entries]] of pointed) {
        let rowid = this.rowids.get(unit);
        if (rowid === undefined) continue;
        const info = this.units.get(rowid);
        if ((doc !== null && info[1] !== doc) || info[5] !== branch.lang) continue;
        if (relaxed) rowid = this.partInPlace(hits, rowid);   // a sentence: the boost goes where coverage put the law
        if (!hits.has(rowid)) hits.set(rowid, [0.0, branch, "index", null]);
        const candidate = hits.get(rowid);
        candidate[0] += boost;
        candidate[3] = entries;
      }
      if (branch.weight !== 1.0) for (const candidate of hits.values()) candidate[0] *= branch.weight;
      return hits;
    },

    /** search.ranking.lone_content_branch: one content word among light ones, searched as that word. */
    loneContentBranch(branch) {
      if (branch.lang !== "ja" || branch.clauses.length < 2) return null;
      const wanted = this.contentClauses(branch.clauses);
      if (wanted.length !== 1) return null;
      const words = new Set(wanted[0].flatMap((alt) => alt.split(" ")));
      const terms = branch.terms.filter((term) => words.has(term));
      const simple = wanted[0].length === 1 && !wanted[0][0].includes(" ");
      const highlighted = new Set(terms.concat(wanted[0].filter((alt) => !alt.includes(" "))));
      return terms.length
        ? { ...branch, terms, clauses: wanted, sentence: false, titleNeeds: simple ? new Set([wanted[0][0]]) : null, highlighted }
        : null;
    },

    titleBoost(kind) { return this.w.TITLE_BOOST + (this.w.HEADING_KINDS.includes(kind) ? this.w.HEADING_BOOST : 0.0); },

    /** Every clause has an alternative whose words are all in `words` (a title's, the index's). */
    titleCarries(words, clauses) {
      return !!words && clauses.every((clause) => clause.some((alt) => wordsOf(alt).every((x) => words.has(x))));
    },

    titleCarriedBy(branch, words) {
      if (!words || !words.size) return false;
      if (branch.titleNeeds) { for (const x of branch.titleNeeds) if (!words.has(x)) return false; return true; }
      return this.titleCarries(words, branch.clauses);
    },

    textHits(branch, doc, relaxed) {
      if (relaxed) return branch.clauses.length < 2 ? new Map() : this.sentenceHits(branch, doc);
      const rows = this.fts(ftsExpression(branch.clauses, "AND"), branch.lang, doc);
      const hits = new Map();
      if (!rows.length) return hits;
      const scale = 1.0 / bestScore(rows);
      for (const [rowid, raw] of rows) {
        let score = raw * scale;
        if (this.titleCarriedBy(branch, this.titleWords.get(rowid))) {
          const unit = this.units.get(rowid);
          score += this.titleBoost(unit[3]);
          // search.NAMED_BOOST: the title is exactly what the branch searches for
          if (branch.named && this.w.NAMED_KINDS.includes(unit[3]) && this.titleKey(unit[4], branch.lang) === branch.named) score += this.w.NAMED_BOOST;
        }
        hits.set(rowid, [score, branch, "all", null]);
      }
      if (branch.lang === "zh" && branch.clauses.length >= 3) {
        for (const [rowid, candidate] of this.allButOne(branch, doc, hits)) hits.set(rowid, candidate);
      }
      return hits;
    },

    allButOne(branch, doc, found) {
      const clauses = branch.clauses;
      const without = (i) => clauses.slice(0, i).concat(clauses.slice(i + 1));
      const expression = { op: "OR", children: clauses.map((_, i) => ftsExpression(without(i), "AND")).filter(Boolean) };
      const rows = this.fts(expression, branch.lang, doc).filter((r) => !found.has(r[0]));
      const scale = this.w.RELAXED_WEIGHT / bestScore(rows);
      const hits = new Map();
      for (const [rowid, raw] of rows) {
        let score = raw * scale;
        const title = this.titleWords.get(rowid);
        if (clauses.some((_, i) => this.titleCarries(title, without(i)))) score += this.w.RELAXED_WEIGHT * this.titleBoost(this.units.get(rowid)[3]);
        hits.set(rowid, [score, branch, "most", null]);
      }
      return hits;
    },

    /** search.coverage.sentence_hits: coverage, and a little of the content words' bm25; parts first. */
    sentenceHits(branch, doc) {
      const clauses = branch.coverageClauses && branch.coverageClauses.length ? branch.coverageClauses : branch.clauses;
      const covered = this.coveredWords(clauses, branch.lang, doc, branch.termShares);
      const shares = this.shares(covered);
      if (!shares.size) return new Map();
      const rows = this.fts(ftsExpression(bm25Clauses(clauses), "OR"), branch.lang, doc);
      const best = bestScore(rows);
      const bm25 = new Map(rows.map(([rowid, score]) => [rowid, score / best]));
      const scores = new Map([...shares].map(([rowid, share]) =>
        [rowid, this.situationWeight(this.units.get(rowid)) * (this.w.COVERAGE_WEIGHT * share + this.w.COVERAGE_BM25 * (bm25.get(rowid) || 0.0))]));
      this.partsFirst(scores, covered);
      return new Map([...scores].map(([rowid, score]) => [rowid, [score, branch, "any", null]]));
    },

    /** search.coverage.covers_all: a part covers, at least under its unit's lead-in, every word its unit covers. */
    coversAll(part, unit, named) {
      const least = this.w.CONTEXT_TEXT_CREDIT;
      return [...unit].every(([place, credit]) => credit < least || ((part.get(place) || 0.0) >= least && !(named && named.has(place))));
    },

    /** search.coverage.parts_first: a part covering a word better than its unit takes the unit's place. */
    partsFirst(scores, covered) {
      const below = this.situations.below, { credits, weights } = covered;
      const moved = new Set();
      const order = [...scores.keys()].sort((a, b) => scores.get(b) - scores.get(a));
      for (const rowid of order) {
        const parts = below.get(rowid);
        if (!parts || !parts.length || moved.has(rowid)) continue;
        const own = credits.get(rowid) || new Map();
        const heading = this.situations.headings.has(rowid);   // a title and no text, or a lead-in: its parts decide
        let chosen = null, chosenCover = 0.0, chosenPrinted = 0.0, chosenScore = 0.0;
        const alike = [];
        for (const part of parts) {
          if (moved.has(part) || !scores.has(part) || scores.get(part) >= scores.get(rowid)) continue;
          const mine = credits.get(part) || new Map();
          // a word the part prints (or the 索引 files under it), not one a commentary note mentions
          if (![...mine].some(([place, credit]) => credit >= this.w.TEXT_CREDIT && credit > (own.get(place) || 0.0))
            && !(heading && this.coversAll(mine, own, covered.namedBelow.get(part)))) continue;
          const places = [...new Set([...own.keys(), ...mine.keys()])].sort((a, b) => a - b);
          let cover = 0;
          for (const p of places) cover += weights[p] * Math.max(mine.get(p) || 0.0, own.get(p) || 0.0);
          // a part printing the sentence's words itself, before one reading them under its law's title
          let printed = 0.0;
          for (const p of covered.printed.get(part) || []) printed += weights[p];
          const score = scores.get(part);
          alike.push([part, roundKey(cover), roundKey(printed)]);
          if (chosen === null || cover > chosenCover || (cover === chosenCover
            && (printed > chosenPrinted || (printed === chosenPrinted && score > chosenScore)))) {
            chosen = part; chosenCover = cover; chosenPrinted = printed; chosenScore = score;
          }
        }
        if (chosen !== null) {
          chosen = this.ruleFirst(chosen, roundKey(chosenCover), roundKey(chosenPrinted), alike);
          const mine = scores.get(chosen);
          scores.set(chosen, scores.get(rowid));
          scores.set(rowid, mine);
          moved.add(rowid);
          // a heading's part that is a title alone (27A under 27) may still give its place to its own part (27A1)
          if (!this.situations.titlesOnly.has(chosen)) moved.add(chosen);
        }
      }
    },

    /** search.coverage.rule_first: of sibling paragraphs covering the sentence alike, the one printed first. */
    ruleFirst(chosen, cover, printed, alike) {
      const [, doc, ref] = this.units.get(chosen);
      const parent = lawAncestors(ref)[0];
      for (const [part, partCover, partPrinted] of alike) {
        if (part === chosen) return chosen;
        if (partCover !== cover || partPrinted !== printed || parent === undefined) continue;
        const unit = this.units.get(part);
        if (unit[1] === doc && lawAncestors(unit[2])[0] === parent) return part;
      }
      return chosen;
    },

    situationWeight(unit) {  // search.coverage.situation_weights
      return this.w.SITUATION_ROLE_WEIGHT[this.documents.get(unit[1]).role] * (unit[3] === "definition" ? this.w.SITUATION_DEFINITION_WEIGHT : 1.0);
    },

    contentClauses(clauses) {
      return clauses.filter((clause) => !wordsOf(clause[0]).every((x) => this.situations.light.has(x)));
    },

    /** search.coverage.idf: how telling a word is that `matching` of `total` units hold (bm25's idf, floored). */
    idf(matching, total) { return Math.max(Math.log((total - matching + 0.5) / (matching + 0.5)), this.w.COVERAGE_MIN_IDF); },

    /** search.coverage.Covered.shares: {rowid: the share of the sentence's idf the unit covers}. */
    shares(covered) {
      let total = 0.0;
      for (const weight of covered.weights) total += weight;
      const found = new Map();
      if (!total) return found;
      for (const [rowid, credits] of covered.credits) {
        let score = 0.0;
        for (const [place, credit] of credits) score += covered.weights[place] * credit;
        found.set(rowid, score / total);
      }
      return found;
    },

    /** search.coverage.covered_words: {credits: rowid -> (clause's place -> credit), weights: each clause's idf}. */
    coveredWords(clauses, lang, doc, shares) {
      const s = this.situations, w = this.w;
      const wanted = this.contentClauses(clauses);
      const covered = { credits: new Map(), weights: [], printed: new Map(), namedBelow: new Map() };
      if (wanted.length < 2) return covered;
      const searchable = this.searchable[lang] || new Set();
      // coverage.phrase_units: the laws a phrase of the vocabulary names, for each of its words the sentence holds
      const held = new Set(wanted.map((c) => c[0]));
      const inPhrases = new Map();
      if (lang === "ja") for (const [words, units] of s.phrases) if (words.every((x) => held.has(x))) for (const x of words) inPhrases.set(x, (inPhrases.get(x) || []).concat(units));
      for (const clause of wanted) {
        const rows = [...this.matchingRows(ftsExpression([clause], "AND"))];
        const own = rows.filter((r) => searchable.has(r));
        // coverage.vocabulary_named: a word covers the laws the vocabulary names for it, printed elsewhere or not
        const named = [...new Set((lang === "ja" ? s.named.get(clause[0]) || [] : []).concat(inPhrases.get(clause[0]) || []))];
        if (!own.length && !named.length) {  // a Chinese word no unit prints counts, uncovered (weights.py)
          if (lang === "zh" && clause[0].length >= w.COVERAGE_UNPRINTED_CHARS) covered.weights.push(this.idf(0, searchable.size));
          continue;
        }
        const place = covered.weights.length;
        // search.plan.term_shares: a typed term read as several words counts once
        const share = shares && shares.has(clause[0]) ? shares.get(clause[0]) : 1.0;
        covered.weights.push(this.idf(own.length || named.length, searchable.size) * share);
        const credits = new Map();
        const give = (rowid, credit) => { if (credit > (credits.get(rowid) || 0.0)) credits.set(rowid, credit); };
        const words = wordsOf(clause[0]);
        // coverage.clause_credits: a word held only inside another word (出す of 取り出す) earns BOUND_SHARE of its credit
        const boundShare = (rowid) => { const bound = this.boundWords.get(rowid); return bound && words.every((x) => bound.has(x)) ? w.BOUND_SHARE : 1.0; };
        for (const rowid of own) {
          if (!covered.printed.has(rowid)) covered.printed.set(rowid, []);
          covered.printed.get(rowid).push(place);
          const title = this.titleWords.get(rowid), titleBound = this.titleBound.get(rowid);
          const inTitle = !!title && words.every((x) => title.has(x)) && !(titleBound && words.every((x) => titleBound.has(x)));
          const share = boundShare(rowid);
          give(rowid, (inTitle ? w.TITLE_CREDIT : w.TEXT_CREDIT) * share);
          for (const below of s.below.get(rowid) || []) give(below, (inTitle ? w.CONTEXT_TITLE_CREDIT : w.CONTEXT_TEXT_CREDIT) * share);
        }
        // coverage.speaks_of: a 索引 entry speaks by its heading, never by its locators (14A2: 14, a, 2)
        const speaksOf = (rowid, found) => { if (found[1] < w.INDEX_CREDIT) return true; const title = this.titleWords.get(rowid); return !!title && clause.some((alternative) => wordsOf(alternative).every((x) => title.has(x))); };
        for (const rowid of rows) { const found = s.evidence.get(rowid); if (found && speaksOf(rowid, found)) { const credit = found[1] * boundShare(rowid); for (const t of found[0]) give(t, credit); } }
        for (const rowid of named) give(rowid, w.VOCABULARY_CREDIT);
        // coverage.covered_words: a heading the vocabulary or a 索引 entry names for the word passes it to its parts
        const indexed = [];
        for (const row of rows) { const found = s.evidence.get(row); if (found && found[1] >= w.INDEX_CREDIT && speaksOf(row, found)) indexed.push(...found[0]); }
        for (const rowid of new Set([...named, ...indexed])) {
          if (s.headings.has(rowid)) for (const below of s.below.get(rowid) || []) {
            if ((credits.get(below) || 0.0) >= w.CONTEXT_TEXT_CREDIT) continue;
            credits.set(below, w.CONTEXT_TEXT_CREDIT);
            if (!covered.namedBelow.has(below)) covered.namedBelow.set(below, new Set());
            covered.namedBelow.get(below).add(place);
          }
        }
        for (const [rowid, credit] of credits) {
          if (searchable.has(rowid) && !s.evidence.has(rowid) && (doc === null || this.units.get(rowid)[1] === doc)) {
            if (!covered.credits.has(rowid)) covered.credits.set(rowid, new Map());
            covered.credits.get(rowid).set(place, credit);
          }
        }
      }
      return covered;
    },

    // --------------------------------------------- FTS5 MATCH and bm25, from the index's term instances

    phrase(text) { return remembered(this.phraseCache, text, 2000, () => this.findPhrase(text)); },

    findPhrase(text) {
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
      return { instances, rows };
    },

    /** The rowids matching an expression (every row: any language, navigation rows too). */
    matchingRows(node) {
      if (node.phrase !== undefined) return this.phrase(node.phrase).rows;
      const sets = node.children.map((child) => this.matchingRows(child));
      if (node.op === "OR") { const out = new Set(); for (const s of sets) for (const r of s) out.add(r); return out; }
      sets.sort((a, b) => a.size - b.size);
      const out = new Set();
      for (const r of sets[0] || []) if (sets.every((s) => s.has(r))) out.add(r);
      return out;
    },

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
    },

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
    },

    indexBoosts(terms, whole) {
      const query = new Set(terms);
      const entries = [...new Set(terms.flatMap((term) => this.indexByTerm.get(term) || []))];
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
    },

    /** ranking.is_sentence: a Japanese query of SENTENCE_WORDS content words or more that no 索引 entry files together. */
    isSentence(plan) {
      const own = plan.branches.find((b) => b.via === null && b.lang === "ja");
      if (!K.scripts.kana.test(plan.query) || !own || this.contentClauses(own.clauses).length < this.w.SENTENCE_WORDS) return false;
      const words = new Set(own.terms);
      return ![...words].some((term) => (this.indexByTerm.get(term) || []).some((e) => [...words].every((t) => e.terms.has(t))));
    }
  });

  if (typeof module !== "undefined" && module.exports) module.exports = S;
})(typeof self !== "undefined" ? self : globalThis);
