// Offline search, a ranking's order (laws_site/search/ranking.py): the current units lifted above the 1997 ones they
// pair with, reprints folded into their law's result, the headings a part above them shows off the first screen.
(function (root) {
  "use strict";
  const S = (root.BridgeLawsSearch = root.BridgeLawsSearch || {});

  Object.assign(S.Engine.prototype, {
    /** ranking.lift_current: a found earlier unit gives its place to its paired current units (shown beside them). */
    liftCurrent(merged, doc, lang) {
      for (const [rowid, candidate] of [...merged]) {
        let lifted = false;
        for (const current of this.currentOf.get(this.units.get(rowid)[0]) || []) {
          const currentRowid = this.rowids.get(current);
          if (currentRowid === undefined || !this.inFilters(this.units.get(currentRowid)[1], doc, lang)) continue;
          lifted = true;
          const kept = merged.get(currentRowid);
          if (kept === undefined) merged.set(currentRowid, candidate.slice(0, 5));
          else if (candidate[4] < kept[4] || (candidate[4] === kept[4] && candidate[0] > kept[0])) [kept[0], kept[4]] = [candidate[0], candidate[4]];
        }
        if (lifted) merged.delete(rowid);
      }
    },

    /** search.data._listing_ranks: rowid -> its place by (document rank, position), made once. */
    listingRank() {
      if (!this.listing) {
        const keys = [...this.units].map(([rowid, unit]) => [rowid, this.docRank(unit[1]), unit[6]]);
        keys.sort((a, b) => a[1] - b[1] || a[2] - b[2]);
        // units sharing a pair share a place: the sort keeps them in the order they were found
        this.listing = new Map();
        keys.forEach(([rowid, rank, position], i) => {
          const previous = keys[i - 1];
          const same = previous && previous[1] === rank && previous[2] === position;
          this.listing.set(rowid, same ? this.listing.get(previous[0]) : i);
        });
      }
      return this.listing;
    },

    /** search.ranking.fold_reprints: a reprint found with its law unit joins its result; alone it ranks lower. The
     * order: by tier, score and place; ranked by coverage (`byCoverage`), the first screen as first_screen gives it. */
    foldReprints(merged, byCoverage) {
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
      const listing = this.listingRank();
      // [tier, -score, listing place, rowid]: the sort (stable) compares numbers it already holds
      const sorted = [...merged].map(([rowid, c]) => [c[4] || 0, -c[0], listing.get(rowid), rowid])
        .sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]).map((key) => key[3]);
      const order = byCoverage ? this.firstScreen(sorted, this.headingsShownByParts(merged)) : sorted;
      return {
        order,
        hits: (offset, limit) => order.slice(offset, limit === undefined ? undefined : offset + limit).map((rowid) => {
          const [score, branch, match, entries] = merged.get(rowid);
          return this.hit(rowid, { score, branch, match, index_entries: entries || [],
            reprints: reprints.get(rowid) || [], reprint_of: reprintOf.get(rowid) || null });
        }),
      };
    },

    /** search.ranking.first_screen: the first FIRST_SCREEN places to units not in `shown`; those met follow them. */
    firstScreen(order, shown) {
      if (!shown.size) return order;
      const screen = [], moved = [];
      for (let place = 0; place < order.length; place++) {
        if (screen.length === this.w.FIRST_SCREEN) return screen.concat(moved, order.slice(place));
        (shown.has(order[place]) ? moved : screen).push(order[place]);
      }
      return screen.concat(moved);
    },

    /** search.ranking.headings_shown_by_parts: the headings (a title, or a lead-in announcing the parts) ranked below one
     * of their own parts in a sentence's ranking: the part shows them, and they decide nothing it does not. */
    headingsShownByParts(merged) {
      const listing = this.listingRank(), s = this.situations, shown = new Set();
      let places = null;   // the order found breaks what ties remain: made only for a tie
      const ahead = (part, heading) => {
        const one = merged.get(part), other = merged.get(heading);
        const key = [one[4] || 0, -one[0], listing.get(part)], against = [other[4] || 0, -other[0], listing.get(heading)];
        for (let i = 0; i < key.length; i++) if (key[i] !== against[i]) return key[i] < against[i];
        if (!places) places = new Map([...merged.keys()].map((rowid, place) => [rowid, place]));
        return places.get(part) < places.get(heading);
      };
      for (const rowid of merged.keys()) {
        if (s.headings.has(rowid) && (s.below.get(rowid) || []).some((part) => merged.has(part) && ahead(part, rowid))) shown.add(rowid);
      }
      return shown;
    }
  });

  if (typeof module !== "undefined" && module.exports) module.exports = S;
})(typeof self !== "undefined" ? self : globalThis);
