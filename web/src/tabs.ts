// Tab strips with the ARIA tabs pattern: role=tablist/tab/tabpanel,
// aria-selected, roving tabindex and arrow keys.
import { h } from "./dom";

/** Moves focus (and activation) along a tablist with ← → Home End. */
export function arrowTabs(ev: KeyboardEvent, list: HTMLElement): void {
  const tabs = Array.from(list.querySelectorAll<HTMLElement>('[role="tab"]'));
  const at = tabs.indexOf(document.activeElement as HTMLElement);
  if (at < 0) return;
  let next = -1;
  if (ev.key === "ArrowRight") next = (at + 1) % tabs.length;
  else if (ev.key === "ArrowLeft") next = (at - 1 + tabs.length) % tabs.length;
  else if (ev.key === "Home") next = 0;
  else if (ev.key === "End") next = tabs.length - 1;
  if (next < 0) return;
  ev.preventDefault();
  tabs[next].focus();
  tabs[next].click();
}

/** The explorer's views (graph, table, ...): one shown at a time. */
export class ViewTabs {
  readonly el: HTMLElement;
  private list: HTMLElement;
  private panels = new Map<string, { tab: HTMLElement; panel: HTMLElement; onShow?: () => void }>();
  current = "";

  constructor() {
    this.list = h("div", { class: "tabs view-tabs", id: "view-tabs", attrs: { role: "tablist", "aria-label": "Views" } });
    this.list.addEventListener("keydown", (ev) => arrowTabs(ev, this.list));
    this.el = h("div", { class: "views" }, this.list);
  }

  add(id: string, label: string, content: HTMLElement, onShow?: () => void): void {
    const tab = h("button", { class: "tab", id: "view-tab-" + id, text: label,
      attrs: { role: "tab", "aria-selected": "false", "aria-controls": "view-" + id, tabindex: "-1" }, on: { click: () => this.show(id) } });
    const panel = h("div", { class: "view", id: "view-" + id, attrs: { role: "tabpanel", "aria-labelledby": "view-tab-" + id } }, content);
    panel.hidden = true;
    this.list.appendChild(tab);
    this.el.appendChild(panel);
    this.panels.set(id, { tab, panel, onShow });
  }

  show(id: string): void {
    if (!this.panels.has(id)) return;
    this.current = id;
    for (const [k, p] of this.panels) {
      const on = k === id;
      p.panel.hidden = !on;
      p.tab.classList.toggle("active", on);
      p.tab.setAttribute("aria-selected", on ? "true" : "false");
      p.tab.tabIndex = on ? 0 : -1;
    }
    this.panels.get(id)!.onShow?.();
  }
}
