// The layer table: filter and sort over typed arrays, rendered as a
// virtual list — only the rows in view exist in the DOM, recycled on scroll,
// so 10^5 layers scroll as smoothly as 10.
import { h, clear, fmtMs, fmtPct } from "./dom";
import { loadSources } from "./loader";
import { distinctIds, type Model } from "./model";

const ROW_H = 26;

const cell = (cls: string) => h("span", { class: cls, attrs: { role: "gridcell" } });
const OVERSCAN = 8;

export type SortKey = "topo" | "time" | "share" | "name";

export class LayerTable {
  readonly el: HTMLElement;
  private m: Model;
  private rows: Int32Array; // visible layer indexes, filtered and sorted
  private body: HTMLDivElement;
  private spacer: HTMLDivElement;
  private pool: HTMLDivElement[] = [];
  private countEl: HTMLElement;
  private chip: HTMLElement;
  private selected = -1;
  private highlight: Set<number> | null = null;
  private lower: { name: string[]; tactic: string[] } | null = null;
  private source: string[] | null = null; // lowered Metadata + Origin, loaded on first use
  private f = { name: "", type: "", precision: "", tactic: "", source: "" };
  private sort: SortKey = "topo";
  private frame = 0;
  private heads: Partial<Record<SortKey, HTMLElement>> = {};
  onSelect: (layer: number) => void = () => {};

  constructor(m: Model) {
    this.m = m;
    this.rows = new Int32Array(0);
    const input = (id: string, placeholder: string, key: "name" | "tactic" | "source") => {
      const el = h("input", { id, class: "filter", attrs: { type: "search", placeholder, "aria-label": placeholder } });
      el.addEventListener("input", () => {
        this.f[key] = el.value.trim().toLowerCase();
        if (key === "source" && this.f.source && !this.source) {
          this.countEl.textContent = "loading layer sources…";
          loadSources(m.bi).then((src) => {
            this.source = src.map((x) => x.toLowerCase());
            this.refresh();
          }, (err: Error) => {
            this.countEl.textContent = err.message;
          });
          return;
        }
        this.refresh();
      });
      return el;
    };
    const select = (id: string, label: string, values: string[], key: "type" | "precision") => {
      const el = h("select", { id, class: "filter", attrs: { "aria-label": label } }, h("option", { text: label, attrs: { value: "" } }));
      for (const v of values) el.appendChild(h("option", { text: v, attrs: { value: v } }));
      el.addEventListener("change", () => {
        this.f[key] = el.value;
        this.refresh();
      });
      return el;
    };
    const sortSel = h("select", { id: "sort", class: "filter", attrs: { "aria-label": "Sort by" } });
    const sorts: [SortKey, string][] = [["topo", "Sort: topological order"], ["name", "Sort: name"]];
    if (m.timed) sorts.splice(1, 0, ["time", "Sort: time (slowest first)"], ["share", "Sort: share of total"]);
    for (const [k, t] of sorts) sortSel.appendChild(h("option", { text: t, attrs: { value: k } }));
    sortSel.addEventListener("change", () => {
      this.sort = sortSel.value as SortKey;
      this.refresh();
    });
    this.countEl = h("span", { class: "muted", id: "table-count" });
    this.chip = h("span", { class: "chip", id: "table-chip" });
    this.chip.hidden = true;
    const controls = h("div", { class: "table-controls" },
      input("filter-name", "Filter name", "name"),
      select("filter-type", "All types", distinctIds(m, m.typeId), "type"),
      select("filter-precision", "All precisions", distinctIds(m, m.precisionId), "precision"),
      input("filter-tactic", "Filter tactic", "tactic"),
      input("filter-source", "Filter source op / metadata", "source"),
      sortSel, this.countEl, this.chip);

    const grip = h("span", { class: "col-resize", id: "name-resize", title: "Drag (or use ← →) to resize the layer name column",
      attrs: { role: "separator", "aria-orientation": "vertical", "aria-label": "Resize the layer name column", tabindex: "0" } });
    // Sortable columns: a header button sorts by it; aria-sort says which.
    const sortHead = (key: SortKey, text: string, title: string) => h("button", { class: "sort-head", text, title,
      on: { click: () => {
        sortSel.value = key;
        sortSel.dispatchEvent(new Event("change"));
      } } });
    this.heads = {
      topo: h("span", { class: "c-pos", attrs: { role: "columnheader" } }, sortHead("topo", "#", "position in topological order; click to sort by it")),
      name: h("span", { class: "c-name", attrs: { role: "columnheader" } }, sortHead("name", "Layer name", "hover a name to see it whole; drag the edge to widen the column; click to sort by name"), grip),
    };
    if (m.timed) {
      this.heads.time = h("span", { class: "c-num", attrs: { role: "columnheader" } }, m.predicted ? sortHead("time", "Predicted", "time the cost model predicts (not measured); click to sort, slowest first")
        : sortHead("time", "Avg", "average time per inference; click to sort, slowest first"));
      this.heads.share = h("span", { class: "c-num", attrs: { role: "columnheader" } }, sortHead("share", "Share", "share of the summed layer time; click to sort, largest first"));
    }
    const head = h("div", { class: "trow thead", attrs: { role: "row" } },
      this.heads.topo, this.heads.name,
      h("span", { class: "c-type", text: "Type", attrs: { role: "columnheader" } }),
      h("span", { class: "c-prec", text: "Precision", attrs: { role: "columnheader" } }),
      h("span", { class: "c-tactic", text: "Tactic", attrs: { role: "columnheader" } }),
      this.heads.time || null, this.heads.share || null);
    this.bindResize(grip, head);
    this.spacer = h("div", { class: "tspacer" });
    this.body = h("div", { class: "tbody", id: "table-body", attrs: { role: "rowgroup", tabindex: "0", "aria-label": "Layers (arrow keys move the selection)" } }, this.spacer);
    this.body.addEventListener("scroll", () => this.schedule());
    this.body.addEventListener("click", (ev) => {
      const row = (ev.target as HTMLElement).closest(".trow") as HTMLElement | null;
      if (row && row.dataset.layer) this.onSelect(Number(row.dataset.layer));
    });
    this.body.addEventListener("keydown", (ev) => this.key(ev));
    this.el = h("div", { class: "layer-table" + (m.timed ? "" : " untimed"), attrs: { role: "grid", "aria-label": "Layer table", "aria-readonly": "true" } }, controls, head, this.body);
    this.refresh();
  }

  /** Name column width: drag the header grip, or focus it and press ← →. */
  private bindResize(grip: HTMLElement, head: HTMLElement): void {
    const nameCell = grip.parentElement!;
    const set = (px: number) => {
      const max = Math.max(160, head.clientWidth - 300);
      const w = Math.round(Math.max(120, Math.min(max, px)));
      this.el.style.setProperty("--name-w", w + "px");
      grip.setAttribute("aria-valuenow", String(w));
    };
    let start: { x: number; w: number } | null = null;
    grip.addEventListener("pointerdown", (ev) => {
      start = { x: ev.clientX, w: nameCell.getBoundingClientRect().width };
      grip.setPointerCapture(ev.pointerId);
      ev.preventDefault();
    });
    grip.addEventListener("pointermove", (ev) => {
      if (start) set(start.w + ev.clientX - start.x);
    });
    grip.addEventListener("pointerup", () => {
      start = null;
    });
    grip.addEventListener("keydown", (ev) => {
      if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
      ev.preventDefault();
      set(nameCell.getBoundingClientRect().width + (ev.key === "ArrowRight" ? 40 : -40));
    });
  }

  /** Restricts the table to a finding's layers (null clears it). */
  setHighlight(layers: Set<number> | null, label: string): void {
    this.highlight = layers;
    clear(this.chip);
    this.chip.hidden = !layers;
    if (layers) {
      this.chip.appendChild(document.createTextNode(label + " "));
      this.chip.appendChild(h("button", { class: "linkish", text: "show all", on: { click: () => this.setHighlight(null, "") } }));
    }
    this.refresh();
  }

  /** Marks a row selected and scrolls it into view (clearing filters that hide it). */
  select(layer: number): void {
    this.selected = layer;
    let idx = this.rows.indexOf(layer);
    if (idx < 0) {
      this.clearFilters();
      idx = this.rows.indexOf(layer);
    }
    this.scrollTo(idx);
    this.render();
  }

  private scrollTo(idx: number): void {
    if (idx >= 0) {
      const top = idx * ROW_H;
      const view = this.body.clientHeight;
      if (top < this.body.scrollTop || top + ROW_H > this.body.scrollTop + view) {
        this.body.scrollTop = Math.max(0, top - view / 2);
      }
    }
  }

  /** Shows the tactic column once the model has it (setTactics). */
  tacticsLoaded(): void {
    this.lower = null;
    this.refresh();
  }

  /** Re-renders after the table was hidden (its height was 0 then). */
  refreshView(): void {
    if (this.selected >= 0) this.scrollTo(this.rows.indexOf(this.selected));
    this.render();
  }

  visibleRows(): Int32Array {
    return this.rows;
  }

  private clearFilters(): void {
    this.f = { name: "", type: "", precision: "", tactic: "", source: "" };
    for (const el of this.el.querySelectorAll<HTMLInputElement | HTMLSelectElement>(".filter")) {
      if (el.id !== "sort") el.value = "";
    }
    this.highlight = null;
    this.chip.hidden = true;
    this.refresh();
  }

  private key(ev: KeyboardEvent): void {
    if (ev.key !== "ArrowDown" && ev.key !== "ArrowUp") return;
    ev.preventDefault();
    const idx = this.rows.indexOf(this.selected);
    const next = Math.min(this.rows.length - 1, Math.max(0, idx + (ev.key === "ArrowDown" ? 1 : -1)));
    if (next >= 0 && next < this.rows.length) this.onSelect(this.rows[next]);
  }

  private lowered() {
    if (!this.lower) {
      const m = this.m;
      const name = new Array<string>(m.n);
      const tactic = new Array<string>(m.n);
      for (let i = 0; i < m.n; i++) {
        name[i] = m.names[i].toLowerCase();
        tactic[i] = m.tactic[i].toLowerCase();
      }
      this.lower = { name, tactic };
    }
    return this.lower;
  }

  /** Recomputes the visible rows: linear filter, then one sort. */
  private refresh(): void {
    const m = this.m;
    const f = this.f;
    const needText = f.name || f.tactic;
    const low = needText ? this.lowered() : null;
    const source = f.source ? this.source : null;
    if (f.source && !source) return; // refreshed again once the sources have loaded
    const out = new Int32Array(m.n);
    let k = 0;
    for (let p = 0; p < m.n; p++) {
      const i = m.order[p];
      if (this.highlight && !this.highlight.has(i)) continue;
      if (f.type && m.type[i] !== f.type) continue;
      if (f.precision && m.precision[i] !== f.precision) continue;
      if (low) {
        if (f.name && low.name[i].indexOf(f.name) < 0) continue;
        if (f.tactic && low.tactic[i].indexOf(f.tactic) < 0) continue;
      }
      if (source && source[i].indexOf(f.source) < 0) continue;
      out[k++] = i;
    }
    const rows = out.slice(0, k);
    if (this.sort === "time" || this.sort === "share") {
      const key = this.sort === "time" ? m.avg : m.pct;
      rows.sort((a, b) => (key[b] || 0) - (key[a] || 0) || m.pos[a] - m.pos[b]);
    } else if (this.sort === "name") {
      const arr = Array.from(rows);
      arr.sort((a, b) => (m.names[a] < m.names[b] ? -1 : m.names[a] > m.names[b] ? 1 : a - b));
      rows.set(arr);
    }
    this.rows = rows;
    for (const k in this.heads) {
      const el = this.heads[k as SortKey]!;
      if (k === this.sort) el.setAttribute("aria-sort", k === "time" || k === "share" ? "descending" : "ascending");
      else el.removeAttribute("aria-sort");
    }
    this.countEl.textContent = `${k.toLocaleString("en-US")} of ${m.n.toLocaleString("en-US")} layers`;
    this.spacer.style.height = k * ROW_H + "px";
    this.render();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** Draws the rows in view into a recycled pool of row elements. */
  private render(): void {
    const m = this.m;
    const view = this.body.clientHeight || 500;
    const first = Math.max(0, Math.floor(this.body.scrollTop / ROW_H) - OVERSCAN);
    const last = Math.min(this.rows.length, Math.ceil((this.body.scrollTop + view) / ROW_H) + OVERSCAN);
    const need = last - first;
    while (this.pool.length < need) {
      const row = h("div", { class: "trow", attrs: { role: "row" } },
        cell("c-pos"), cell("c-name"), cell("c-type"), cell("c-prec"), cell("c-tactic"));
      if (m.timed) {
        row.appendChild(cell("c-num"));
        row.appendChild(h("span", { class: "c-num c-share", attrs: { role: "gridcell" } }, h("span", { class: "bar" }), h("span", { class: "val" })));
      }
      this.pool.push(row);
      this.body.appendChild(row);
    }
    for (let j = 0; j < this.pool.length; j++) {
      const row = this.pool[j];
      if (j >= need) {
        row.hidden = true;
        continue;
      }
      const i = this.rows[first + j];
      row.hidden = false;
      row.style.transform = `translateY(${(first + j) * ROW_H}px)`;
      row.dataset.layer = String(i);
      row.classList.toggle("selected", i === this.selected);
      row.setAttribute("aria-selected", i === this.selected ? "true" : "false");
      const c = row.children;
      c[0].textContent = String(m.pos[i]);
      c[1].textContent = m.names[i];
      (c[1] as HTMLElement).title = m.names[i];
      c[2].textContent = m.type[i];
      c[3].textContent = m.precision[i];
      c[4].textContent = m.tactic[i];
      (c[4] as HTMLElement).title = m.tactic[i];
      if (m.timed) {
        c[5].textContent = fmtMs(m.avg[i], 4);
        const share = m.pct[i];
        (c[6].children[0] as HTMLElement).style.width = Math.min(100, isFinite(share) ? share : 0) + "%";
        c[6].children[1].textContent = fmtPct(share);
      }
    }
  }
}
