// The settings panel: fills the form from the settings, shows what applies to them (the
// tokenizer URL or file field, the privacy options, semantic recall with strategy "retrieval",
// the offline banner, the share link) and turns the form's changes into settings, handing each
// change to the page.
import { renderEntityTypes, countNational } from "./entity-types.js";
import { PRESETS, TOKENIZERS, applyPreset, fitReserve, isOffline, loadKey, presetOf, saveKey, toQuery } from "./settings.js";

const $ = (sel) => document.querySelector(sel);

export function fillForm(form, state) {
  const s = state.settings;
  form.elements.preset.replaceChildren(...Object.entries(PRESETS).map(([k, p]) => new Option(p.label, k)), new Option("Custom", "custom"));
  form.elements.tokenizer.replaceChildren(...Object.entries(TOKENIZERS).map(([k, t]) => new Option(t.label, k)));
  for (const el of form.elements) {
    if (!el.name || !(el.name in s)) continue;
    if (el.type === "checkbox") el.checked = !!s[el.name];
    else if (el.type !== "file") el.value = s[el.name];
  }
  form.elements.key.value = state.key;
  form.elements.rememberKey.checked = loadKey().remember;
  form.elements.budgetOut.value = s.budget;
  renderEntityTypes($(".entity-types"), s.entityTypes);
  syncVisibility(state);
}

export function syncVisibility(state) {
  const s = state.settings;
  $(".tokenizer-url").hidden = s.tokenizer !== "url";
  $(".tokenizer-file").hidden = s.tokenizer !== "file";
  $(".entity-types").hidden = !s.redact;
  $(".ner-model").hidden = !s.redact;
  $(".ner-status").hidden = !s.redact || !s.nerModel;
  $(".semantic").hidden = s.strategy !== "retrieval";
  $("#offline-banner").hidden = !isOffline(s);
  $("#model-badge").textContent = isOffline(s) ? "offline demo model · no key, no network" : `${s.model} @ ${s.endpoint}`;
  $("#model-badge").classList.toggle("offline", isOffline(s));
  const q = toQuery(s);
  $("#share-link").href = `${location.pathname}${q ? `?${q}` : ""}`;
  $("#share-link").textContent = `${location.origin}${location.pathname}${q ? `?${q}` : ""}`;
}

/**
 * Listens to the form: `applyChange(name)` applies a changed setting, `loadTokenizerFile(file)`
 * reads a chosen tokenizer.json, `rerender()` redraws the chat (Markdown on or off).
 */
export function wireSettingsForm(form, state, { applyChange, loadTokenizerFile, rerender, notice }) {
  form.addEventListener("input", (ev) => {
    if (ev.target.name === "budget") form.elements.budgetOut.value = ev.target.value;
  });
  form.addEventListener("submit", (ev) => ev.preventDefault());
  form.addEventListener("change", async (ev) => {
    const el = ev.target;
    const s = state.settings;
    if (el.name === "key" || el.name === "rememberKey") {
      state.key = form.elements.key.value.trim();
      saveKey(state.key, form.elements.rememberKey.checked);
      return applyChange("key");
    }
    if (el.name === "tokenizerFile") return loadTokenizerFile(el.files[0]);
    if (el.name === "entityType") {
      s.entityTypes = [...form.querySelectorAll("input[name=entityType]:checked")].map((c) => c.value);
      countNational($(".entity-types"), s.entityTypes);
      return applyChange("entityType");
    }
    if (el.name === "preset") {
      Object.assign(s, applyPreset(el.value), { preset: el.value });
      fillForm(form, state);
      return applyChange("preset");
    }
    if (!(el.name in s)) return;
    s[el.name] = el.type === "checkbox" ? el.checked : el.type === "number" || el.type === "range" ? Number(el.value) : el.value;
    if (el.name === "endpoint" || el.name === "model") {
      s.preset = presetOf(s);
      form.elements.preset.value = s.preset;
    }
    if (el.name === "markdown") rerender();
    if (el.name === "budget" || el.name === "reserve") {
      const fitted = fitReserve(s);
      if (fitted) {
        form.elements.reserve.value = s.reserve;
        notice(fitted, "warn");
      }
    }
    return applyChange(el.name);
  });
}
