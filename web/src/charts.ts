// Compact HTML bar lists for the type and precision breakdowns: text stays
// at its real size in a narrow column (an SVG would scale it down).
import { h, fmtMs, fmtPct } from "./dom";
import type { Breakdown } from "./types";

export function barChart(id: string, title: string, rows: Breakdown[], timed: boolean, maxBars = 12): HTMLElement {
  const box = h("div", { class: "chart", id, attrs: { role: "figure", "aria-label": title } });
  box.appendChild(h("h3", { text: title }));
  if (!rows.length) {
    box.appendChild(h("p", { class: "muted", text: "No data for this breakdown." }));
    return box;
  }
  let shown = rows.slice(0, maxBars);
  if (rows.length > maxBars) {
    const rest = rows.slice(maxBars);
    shown = shown.concat([{
      name: `${rest.length} more`,
      count: rest.reduce((a, r) => a + r.count, 0),
      time_ms: rest.reduce((a, r) => a + r.time_ms, 0),
      percentage: rest.reduce((a, r) => a + r.percentage, 0),
    }]);
  }
  const value = (r: Breakdown) => (timed ? r.time_ms : r.count);
  const max = Math.max(...shown.map(value), 1e-12);
  const list = h("div", { class: "bars" });
  for (const r of shown) {
    const fill = h("span", { class: "bar-fill" });
    fill.style.width = Math.max(0.5, (100 * value(r)) / max) + "%";
    const detail = timed ? `${fmtPct(r.percentage)} · ${fmtMs(r.time_ms / 1, 3)} · ${r.count}` : `${r.count} layer${r.count === 1 ? "" : "s"}`;
    list.appendChild(h("div", { class: "bar-row", title: `${r.name}: ${timed ? fmtMs(r.time_ms) + ", " + fmtPct(r.percentage) + ", " : ""}${r.count} layer${r.count === 1 ? "" : "s"}` },
      h("span", { class: "bar-label", text: r.name }), h("span", { class: "bar-track" }, fill), h("span", { class: "bar-value", text: detail })));
  }
  box.appendChild(list);
  return box;
}
