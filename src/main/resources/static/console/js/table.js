// A table kept in step with an informer: one row per object, sorted by namespace/name, updated in place
// (only the cells whose text changed), so thousands of rows cost nothing per event but their own row.

import { h } from './format.js';

export class LiveTable {
  /**
   * @param columns [{title, value: (obj) => string, cls?: (obj) => string}]
   * @param href    (obj) => link of the name cell
   */
  constructor(columns, href) {
    this.columns = columns;
    this.href = href;
    this.rows = new Map();
    this.keys = [];
    this.filter = '';
    this.body = h('tbody');
    this.empty = h('p', { class: 'empty' }, 'none');
    this.el = h('div', { class: 'table-wrap' },
      h('table', { class: 'live' },
        h('thead', {}, h('tr', {}, h('th', {}, 'NAMESPACE'), h('th', {}, 'NAME'),
          columns.map((c) => h('th', {}, c.title)))),
        this.body),
      this.empty);
  }

  reset(objects) {
    this.rows.clear();
    this.keys = [];
    this.body.replaceChildren();
    for (const o of objects) this.upsert(o);
  }

  static key(o) {
    return `${o.metadata.namespace || ''}/${o.metadata.name}`;
  }

  upsert(o) {
    const key = LiveTable.key(o);
    let row = this.rows.get(key);
    if (!row) {
      const cells = this.columns.map(() => h('td'));
      const tr = h('tr', { 'data-name': o.metadata.name, 'data-namespace': o.metadata.namespace || '' },
        h('td', {}, o.metadata.namespace || ''),
        h('td', {}, h('a', { href: this.href(o) }, o.metadata.name)), cells);
      row = { tr, cells, obj: o };
      this.rows.set(key, row);
      const i = lowerBound(this.keys, key);
      this.keys.splice(i, 0, key);
      const next = this.keys[i + 1];
      this.body.insertBefore(tr, next ? this.rows.get(next).tr : null);
      this.applyFilter(key, row);
    }
    row.obj = o;
    this.fill(row);
    this.empty.hidden = this.rows.size > 0;
  }

  remove(o) {
    const key = LiveTable.key(o);
    const row = this.rows.get(key);
    if (!row) return;
    row.tr.remove();
    this.rows.delete(key);
    this.keys.splice(lowerBound(this.keys, key), 1);
    this.empty.hidden = this.rows.size > 0;
  }

  fill(row) {
    this.columns.forEach((c, i) => {
      const text = String(c.value(row.obj) ?? '');
      const cell = row.cells[i];
      if (cell.textContent !== text) cell.textContent = text;
      if (c.cls) {
        const cls = c.cls(row.obj) || '';
        if (cell.className !== cls) cell.className = cls;
      }
    });
  }

  /** Recomputes every cell (for columns that move with the clock, such as AGE). */
  refreshAll() {
    for (const row of this.rows.values()) this.fill(row);
  }

  setFilter(text) {
    this.filter = text.toLowerCase();
    for (const [key, row] of this.rows) this.applyFilter(key, row);
  }

  applyFilter(key, row) {
    row.tr.hidden = this.filter !== '' && !key.toLowerCase().includes(this.filter);
  }
}

function lowerBound(sorted, key) {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
