// DOM helpers. Every piece of text from the data goes through textContent
// (via `text` or string children) — never innerHTML — so a layer name such
// as "<img onerror=...>" is shown, not parsed.

type Child = Node | string | number | null | undefined | false;

export interface Props {
  class?: string;
  id?: string;
  title?: string;
  text?: string;
  attrs?: Record<string, string>;
  on?: Record<string, (ev: Event) => void>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props?: Props | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props) {
    if (props.class) el.className = props.class;
    if (props.id) el.id = props.id;
    if (props.title) el.title = props.title;
    if (props.text !== undefined) el.textContent = props.text;
    if (props.attrs) for (const k in props.attrs) el.setAttribute(k, props.attrs[k]);
    if (props.on) for (const k in props.on) el.addEventListener(k, props.on[k]);
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
}

const SVG = "http://www.w3.org/2000/svg";

export function svg(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const k in attrs) el.setAttribute(k, String(attrs[k]));
  if (text !== undefined) el.textContent = text;
  return el;
}

export function clear(el: Node): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

export function fmtMs(v: number | null | undefined, digits = 3): string {
  if (v === null || v === undefined || !isFinite(v)) return "—";
  if (v !== 0 && Math.abs(v) < 0.001) return v.toExponential(2) + " ms";
  return v.toFixed(digits) + " ms";
}

export function fmtPct(v: number | null | undefined): string {
  if (v === null || v === undefined || !isFinite(v)) return "—";
  return v.toFixed(v < 10 ? 2 : 1) + "%";
}

export function fmtInt(v: number | null | undefined): string {
  if (v === null || v === undefined) return "—";
  return v.toLocaleString("en-US");
}

export function badge(text: string, kind: string): HTMLSpanElement {
  return h("span", { class: "badge badge-" + kind.replace(/[^a-z0-9_-]/gi, ""), text });
}

/** Shortens very long names for labels; the full text stays in a title. */
export function ellipsis(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max - 1) + "…";
}

/** Sizes a canvas to w×h CSS pixels at the device pixel ratio and returns
 *  its context, scaled so drawing uses CSS pixels. */
export function sizeCanvas(cv: HTMLCanvasElement, w: number, hgt: number): CanvasRenderingContext2D {
  const dpr = window.devicePixelRatio || 1;
  cv.width = Math.round(w * dpr);
  cv.height = Math.round(hgt * dpr);
  cv.style.width = w + "px";
  cv.style.height = hgt + "px";
  const g = cv.getContext("2d")!;
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  return g;
}

/** The current value of a CSS custom property of the page (the theme's
 *  colours follow prefers-color-scheme), or fallback when unset. */
export function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** Longest word keepTokens holds on one line: a longer one (a path, a
 *  fused layer's name) could not fit a card's column and may wrap. */
export const KEEP_TOKEN_MAX = 32;

/** Keeps the words of root's text that a browser would break inside —
 *  numbers, flags, file names, shapes ("--int8)", "1×64×56×56",
 *  "0.0614 ms") — on one line: each such word of up to KEEP_TOKEN_MAX
 *  characters is wrapped in a span.keep (white-space: nowrap). Browsers
 *  break after a hyphen and, with overflow-wrap, anywhere; the words
 *  between spaces stay breakable, so prose still wraps. Text stays text
 *  (textContent is unchanged). */
export function keepTokens(root: Element): void {
  const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let n = w.nextNode(); n; n = w.nextNode()) {
    const p = (n as Text).parentElement;
    if (p && !p.closest(".keep, pre, svg, .markdown") && /[-/.:×=0-9_]\S|\S[-/.:×=0-9_]/.test(n.textContent || "")) nodes.push(n as Text);
  }
  for (const n of nodes) {
    const parts = (n.textContent || "").split(/(\s+)/);
    const frag = document.createDocumentFragment();
    for (const part of parts) {
      if (!part) continue;
      if (/^\s+$/.test(part) || part.length > KEEP_TOKEN_MAX || !/[-/.:×=0-9_]/.test(part)) frag.appendChild(document.createTextNode(part));
      else frag.appendChild(h("span", { class: "keep", text: part }));
    }
    n.replaceWith(frag);
  }
}
