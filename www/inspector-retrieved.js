// The inspector's table of the memories strategy "retrieval" sent this turn: for each, its
// part from words (BM25 score), its part from meaning (cosine with the question, when semantic
// recall is on) and the fused score they were ranked by.

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
        h("th", { title: "reciprocal-rank fusion of the two rankings, weighted by recency and importance" }, "fused"),
        h("th", {}, "tokens"), h("th", {}, "text"))),
      h("tbody", {}, items.map((r) => h("tr", { dataset: { id: r.id } },
        h("td", {}, r.id), h("td", {}, r.kind),
        h("td", { class: "num", "data-part": "bm25" }, fmt(r.bm25, 2)),
        h("td", { class: "num", "data-part": "cosine" }, fmt(r.cosine, 3)),
        h("td", { class: "num", "data-part": "fused" }, fmt(r.score, 4)),
        h("td", { class: "num" }, String(r.tokens)),
        h("td", { class: "snippet" }, r.kind === "turn" ? (entryText(r.id) ?? "").slice(0, 80) : `(${r.date})`))))));
}
