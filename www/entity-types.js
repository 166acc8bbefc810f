// The entity type checkboxes of the privacy settings: the common types, then the 21 national id
// types folded under one line that counts how many are on (most users keep them all on).
import { h } from "./inspector.js";
import { ENTITY_TYPES, NATIONAL_FROM } from "./settings.js";

/** Fills `container` with one checkbox per type, ticked when `on` holds it. */
export function renderEntityTypes(container, on) {
  const box = (t) => h("label", { class: "check type" },
    h("input", { type: "checkbox", name: "entityType", value: t, checked: on.includes(t) }), t);
  container.replaceChildren(...ENTITY_TYPES.slice(0, NATIONAL_FROM).map(box),
    h("details", { class: "national-types" }, h("summary", {}), ...ENTITY_TYPES.slice(NATIONAL_FROM).map(box)));
  countNational(container, on);
}

/** Updates the folded line's count after the ticked types changed. */
export function countNational(container, on) {
  const national = ENTITY_TYPES.slice(NATIONAL_FROM);
  const n = national.filter((t) => on.includes(t)).length;
  container.querySelector(".national-types summary").textContent = `national ids, tax and licence numbers (${n} of ${national.length} on)`;
}
