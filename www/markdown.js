// A small Markdown renderer that builds DOM nodes and never parses HTML: text only ever goes
// through `textContent`, so model output such as `<img onerror=…>` shows as text. Covers what
// chat replies use: paragraphs, headings, lists, block quotes, fenced code, inline code, bold,
// italic, and http(s)/mailto links.

const el = (tag, ...children) => {
  const node = document.createElement(tag);
  for (const c of children) node.append(c);
  return node;
};

// Underscores emphasize only at word edges, as in CommonMark: `max_tokens` and `[EMAIL_1]` stay.
const INLINE = /(`+)([\s\S]*?[^`])\1(?!`)|\*\*([^*]+)\*\*|(?<![\p{L}\p{N}_])__([^_]+)__(?![\p{L}\p{N}_])|\*([^*\s][^*]*)\*|(?<![\p{L}\p{N}_])_([^_\s][^_]*)_(?![\p{L}\p{N}_])|\[([^\]]+)\]\(([^)\s]+)\)/gu;

function safeHref(href) {
  try {
    const url = new URL(href, location.href);
    return ["http:", "https:", "mailto:"].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/** Inline Markdown of `text` as DOM nodes. */
export function inline(text) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[2] !== undefined) out.push(el("code", m[2]));
    else if (m[3] ?? m[4]) out.push(el("strong", ...inline(m[3] ?? m[4])));
    else if (m[5] ?? m[6]) out.push(el("em", ...inline(m[5] ?? m[6])));
    else {
      const href = safeHref(m[8]);
      if (href) {
        const a = el("a", ...inline(m[7]));
        a.href = href;
        a.target = "_blank";
        a.rel = "noopener noreferrer nofollow";
        out.push(a);
      } else out.push(m[0]);
    }
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Block Markdown of `text` as a DocumentFragment. */
export function renderMarkdown(text) {
  const frag = document.createDocumentFragment();
  const lines = String(text).replace(/\r\n/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const fence = line.match(/^\s*(```|~~~)\s*([\w+-]*)/);
    if (fence) {
      const body = [];
      i++;
      while (i < lines.length && !lines[i].trimStart().startsWith(fence[1])) body.push(lines[i++]);
      i++;
      const code = el("code", body.join("\n"));
      if (fence[2]) code.dataset.lang = fence[2];
      frag.append(el("pre", code));
      continue;
    }
    const heading = line.match(/^(#{1,6})\s+(.*)$/);
    if (heading) {
      frag.append(el(`h${Math.min(heading[1].length + 2, 6)}`, ...inline(heading[2])));
      i++;
      continue;
    }
    if (/^\s*>/.test(line)) {
      const body = [];
      while (i < lines.length && /^\s*>/.test(lines[i])) body.push(lines[i++].replace(/^\s*>\s?/, ""));
      frag.append(el("blockquote", renderMarkdown(body.join("\n"))));
      continue;
    }
    const item = /^\s*([-*+]|\d+[.)])\s+/;
    if (item.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const list = el(ordered ? "ol" : "ul");
      while (i < lines.length && item.test(lines[i])) {
        list.append(el("li", ...inline(lines[i].replace(item, ""))));
        i++;
      }
      frag.append(list);
      continue;
    }
    if (!line.trim()) {
      i++;
      continue;
    }
    const para = [];
    while (i < lines.length && lines[i].trim() && !/^(#{1,6}\s|\s*>|\s*```|\s*~~~)/.test(lines[i]) && !item.test(lines[i])) {
      para.push(lines[i++]);
    }
    const p = el("p");
    para.forEach((l, k) => {
      if (k) p.append(el("br"));
      p.append(...inline(l));
    });
    frag.append(p);
  }
  return frag;
}
