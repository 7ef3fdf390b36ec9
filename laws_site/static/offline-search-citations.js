// Offline search, citations (laws_site/search/engine.py's cited units, laws_site/read/units.py's nearest units): the
// units a query cites (64A1, 第16条B項1, Law 73) and the nearest ones to a citation that names none; the engine's
// methods (offline-search-engine.js).
(function (root) {
  "use strict";
  const S = (root.BridgeLawsSearch = root.BridgeLawsSearch || {});
  const { K, message, closest, squeeze, lawSpelling, regulationSpelling, noteSpelling, citationCandidates, candidateRefs, namedDocument, splitCitations, lawAncestors, unitLink } = S;

  Object.assign(S.Engine.prototype, {
    citedUnits(query, doc, lang) {
      const named = namedDocument(query, this.pack.document_names);
      const [typed, scoped] = named ? [[named[1]], named[0]] : [splitCitations(query), null];
      if (!typed) return null;
      let wanted = [];
      const primary = [];
      for (const citation of typed) {
        const pairs = scoped
          ? candidateRefs((this.documents.get(scoped) || {}).role, citation).concat([squeeze(citation)]).map((ref) => [scoped, ref])
          : citationCandidates(citation) || [];
        pairs.forEach(([scope, ref], rank) => {
          const docs = this.documents.has(scope) ? [scope] : this.pack.registry.of_role[scope] || [];
          wanted.push(...docs.map((d) => d + ":" + ref));
          if (rank === 0) primary.push(...docs.map((d) => d + ":" + ref));
        });
      }
      wanted = [...new Set(wanted)].filter((u) => this.inFilters(u.split(":")[0], doc, lang));
      const units = wanted.filter((u) => this.rowids.has(u));
      const opens = units.length > 0 && (doc !== null || lang !== null || primary.includes(units[0]));
      const result = { query, found: units.length > 0, units, opens, message: null, nearest: [], citations: typed.length };
      if (!units.length) {
        result.message = message(doc || lang ? "no_such_unit_in_filters" : "no_such_unit", { query });
        result.nearest = this.nearestUnits(typed[0], doc || scoped);
      } else if (!opens) {
        const wantedDoc = primary.length ? primary[0].split(":")[0] : null;
        const title = this.documents.has(wantedDoc) ? this.documents.get(wantedDoc).title : wantedDoc;
        result.message = message("elsewhere", { title, query, doc: wantedDoc });
      }
      return result;
    },

    nearestUnits(typed, doc) {
      const r = this.pack.registry;
      const law = lawSpelling(typed), note = noteSpelling(typed), regulation = regulationSpelling(typed);
      let place, ref;
      if (note && r.commentaries.length) [place, ref] = [doc || r.commentaries[0], note];
      else if (law && r.current_laws) [place, ref] = [doc || r.current_laws, law];
      else if (regulation && r.regulations) [place, ref] = [doc || r.regulations, regulation];
      else return [];
      const prefix = ref.startsWith("L") ? "L" : "";
      // read.units.nearest_refs: the closest spellings (the nearest only), the later units first
      const later = [...this.units.values()].filter((u) => u[1] === place).map((u) => u[2]).reverse();
      const close = closest(ref, later, true, Infinity, K.search.nearest_refs).filter((c, _, all) => c[1] === all[0][1]);
      const refs = lawAncestors(ref.replace(/^L/, "")).map((a) => prefix + a).concat(close.map((c) => c[0]));
      return [...new Set(refs)].filter((x) => this.rowids.has(place + ":" + x)).slice(0, K.search.nearest_shown)
        .map((x) => unitLink(place + ":" + x));
    },

    hit(rowid, fields) {
      const [id, doc, ref, kind, title, lang, position] = this.units.get(rowid);
      return { id, doc, ref, kind, title, lang, position, score: 0, branch: null, match: "all", index_entries: [],
        reprints: [], reprint_of: null, marks: null, ...fields };
    },

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
    },
  });

  if (typeof module !== "undefined" && module.exports) module.exports = S;
})(typeof self !== "undefined" ? self : globalThis);
