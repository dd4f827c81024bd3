// Timeline: every write of the control plane in order, in the demo's wording, read from /sim/v1/timeline
// (formatted by the server, as the demo prints it), filterable, newest at the bottom, following live.

import { getJson } from '../api.js';
import { h } from '../format.js';
import { clock } from '../ui.js';

const POLL_MS = 1000;
const KEPT = 5000;

export function mount(root) {
  const filter = h('input', { type: 'search', placeholder: 'filter: object name or words', class: 'filter' });
  const follow = h('input', { type: 'checkbox', checked: true });
  const count = h('span', { class: 'count' });
  const list = h('div', { class: 'timeline', id: 'timeline-lines' });
  root.append(h('div', { class: 'toolbar' }, h('h1', {}, 'Timeline'), filter,
    h('label', {}, follow, ' follow'), count), list);
  let next = 0;
  let busy = false;
  let dropped = 0;

  function matches(text) {
    const f = filter.value.trim().toLowerCase();
    return !f || f.split(/\s+/).every((w) => text.toLowerCase().includes(w));
  }

  async function poll() {
    if (busy) return;
    busy = true;
    try {
      for (;;) {
        const page = await getJson(`/sim/v1/timeline?since=${next}`);
        if (page.first > next) dropped += page.first - next;
        next = page.next;
        if (!page.lines.length) break;
        const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
        const frag = document.createDocumentFragment();
        for (const line of page.lines) {
          const el = h('div', { class: 'line' }, line);
          el.hidden = !matches(line);
          frag.append(el);
        }
        list.append(frag);
        while (list.childElementCount > KEPT) list.firstElementChild.remove();
        if (follow.checked && atBottom) list.scrollTop = list.scrollHeight;
      }
      count.textContent = `${next} lines${dropped ? ` (${dropped} older ones no longer kept)` : ''}`;
    } catch (e) {
      count.textContent = e.message;
    } finally {
      busy = false;
    }
  }

  filter.addEventListener('input', () => {
    for (const el of list.children) el.hidden = !matches(el.textContent);
  });
  follow.addEventListener('change', () => {
    if (follow.checked) list.scrollTop = list.scrollHeight;
  });
  const timer = setInterval(poll, POLL_MS);
  clock.listeners.add(poll);
  poll();
  return () => {
    clearInterval(timer);
    clock.listeners.delete(poll);
  };
}
