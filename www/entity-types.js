// The entity type checkboxes of the privacy settings, from the package's own list
// (`Redactor.types`): the common types, then the national id types folded under one line that
// counts how many are on (most users keep them all on).
import { h } from "./inspector.js";
import { entityTypeInfo } from "./settings.js";

/** Fills `container` with one checkbox per type, ticked when `on` holds it. */
export function renderEntityTypes(container, on) {
  const box = ({ type, description }) => h("label", { class: "check type", title: description },
    h("input", { type: "checkbox", name: "entityType", value: type, checked: on.includes(type) }), type);
  const types = entityTypeInfo();
  container.replaceChildren(...types.filter((t) => !t.national).map(box),
    h("details", { class: "national-types" }, h("summary", {}), ...types.filter((t) => t.national).map(box)));
  countNational(container, on);
}

/** Updates the folded line's count after the ticked types changed. */
export function countNational(container, on) {
  const national = entityTypeInfo().filter((t) => t.national).map((t) => t.type);
  const n = national.filter((t) => on.includes(t)).length;
  container.querySelector(".national-types summary").textContent = `national ids, tax and licence numbers (${n} of ${national.length} on)`;
}
