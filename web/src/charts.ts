// Horizontal SVG bar charts for the type and precision breakdowns.
import { h, svg, fmtMs, fmtPct, ellipsis } from "./dom";
import type { Breakdown } from "./types";

const MAX_BARS = 12;

export function barChart(id: string, title: string, rows: Breakdown[], timed: boolean): HTMLElement {
  const box = h("div", { class: "chart", id });
  box.appendChild(h("h3", { text: title }));
  if (!rows.length) {
    box.appendChild(h("p", { class: "muted", text: "No data for this breakdown." }));
    return box;
  }
  let shown = rows.slice(0, MAX_BARS);
  if (rows.length > MAX_BARS) {
    const rest = rows.slice(MAX_BARS);
    shown = shown.concat([{
      name: `${rest.length} more`,
      count: rest.reduce((a, r) => a + r.count, 0),
      time_ms: rest.reduce((a, r) => a + r.time_ms, 0),
      percentage: rest.reduce((a, r) => a + r.percentage, 0),
    }]);
  }
  const value = (r: Breakdown) => (timed ? r.time_ms : r.count);
  const max = Math.max(...shown.map(value), 1e-12);
  const rowH = 22;
  const W = 640;
  const labelW = 150;
  const barW = 230;
  const el = svg("svg", { viewBox: `0 0 ${W} ${shown.length * rowH + 4}`, width: "100%", role: "img", "aria-label": title });
  shown.forEach((r, i) => {
    const y = i * rowH + 2;
    const g = svg("g", { class: "bar-row" });
    const name = svg("text", { x: labelW - 6, y: y + 14, "text-anchor": "end", class: "bar-label" }, ellipsis(r.name, 22));
    name.appendChild(svg("title", {}, r.name));
    g.appendChild(name);
    g.appendChild(svg("rect", { x: labelW, y: y + 3, width: Math.max(1, (value(r) / max) * barW), height: rowH - 6, rx: 2, class: "bar-fill" }));
    const detail = timed ? `${fmtMs(r.time_ms)} · ${fmtPct(r.percentage)} · ${r.count} layer${r.count === 1 ? "" : "s"}` : `${r.count} layer${r.count === 1 ? "" : "s"}`;
    g.appendChild(svg("text", { x: labelW + barW + 8, y: y + 14, class: "bar-value" }, detail));
    el.appendChild(g);
  });
  box.appendChild(el);
  return box;
}
