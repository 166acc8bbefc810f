// The inspector's table of the memories strategy "retrieval" sent this turn: for each, its
// part from words (BM25 score), its part from meaning (cosine with the question, when semantic
// recall is on), the relevance they mix into, the score it was ranked by, and the hit it was sent
// beside when it is a neighbouring turn.

const fmt = (x, digits) => (x === undefined || x === null ? "—" : x.toFixed(digits));

/** The table, or null when nothing was retrieved. `entryText(id)` gives a turn's text; `h`
 * builds elements (the inspector's). */
export function retrievedTable(report, entryText, h) {
  const items = report.retrieved ?? [];
  if (!items.length) return null;
  const byMeaning = items.filter((r) => r.cosine !== undefined && r.bm25 === undefined).length;
  return h("details", { class: "retrieved", open: true, "data-testid": "context-retrieved" },
    h("summary", {}, `Retrieved: ${items.length} ${items.length === 1 ? "memory" : "memories"}`,
      byMeaning ? ` (${byMeaning} found by meaning alone)` : ""),
    h("table", {},
      h("thead", {}, h("tr", {},
        h("th", {}, "id"), h("th", {}, "kind"),
        h("th", { title: "BM25 score of the question's words in it (— : no word in common)" }, "words (BM25)"),
        h("th", { title: "cosine of its sentence embedding with the question's (— : semantic recall off, or not embedded yet)" }, "meaning (cosine)"),
        h("th", { title: "0..1: BM25 over the question's best and the cosine from an unrelated item's level to the best, mixed" }, "relevance"),
        h("th", { title: "relevance weighted by recency and importance, plus half the score of a hit within three turns" }, "score"),
        h("th", { title: "the hit it was sent beside: a turn just before or after it, in the same sitting" }, "neighbour of"),
        h("th", {}, "tokens"), h("th", {}, "text"))),
      h("tbody", {}, items.map((r) => h("tr", { dataset: { id: r.id } },
        h("td", {}, r.id), h("td", {}, r.kind),
        h("td", { class: "num", "data-part": "bm25" }, fmt(r.bm25, 2)),
        h("td", { class: "num", "data-part": "cosine" }, fmt(r.cosine, 3)),
        h("td", { class: "num", "data-part": "relevance" }, fmt(r.relevance, 3)),
        h("td", { class: "num", "data-part": "fused" }, fmt(r.score, 4)),
        h("td", { "data-part": "neighbor-of" }, r.neighborOf ?? ""),
        h("td", { class: "num" }, String(r.tokens)),
        h("td", { class: "snippet" }, snippet(r, entryText)))))));
}

/** The start of a turn, or of the excerpt sent of it with where it was cut. */
function snippet(r, entryText) {
  if (r.kind !== "turn") return `(${r.date})`;
  const text = entryText(r.id) ?? "";
  const x = r.excerpt;
  if (!x) return text.slice(0, 80);
  return `excerpt ${x.from}–${x.to} of ${x.length}: ${text.slice(x.from, x.from + 72)}`;
}
