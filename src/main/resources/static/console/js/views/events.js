// The Events of some objects, newest last, from a shared watch of all Events.

import { use, coalesce } from '../informer.js';
import { h } from '../format.js';

const SHOWN = 50;

function when(e) {
  return e.lastTimestamp || e.eventTime || e.metadata.creationTimestamp || '';
}

export function eventsPanel(matches, namespace) {
  const body = h('tbody');
  const el = h('section', { class: 'events' }, h('h2', {}, 'Events'), h('table', { class: 'live' },
    h('thead', {}, h('tr', {}, ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE', 'COUNT'].map((t) => h('th', {}, t)))),
    body));
  const render = coalesce(() => {
    const list = [...u.informer.items.values()]
      .filter((e) => e.metadata.namespace === namespace && matches(e))
      .sort((a, b) => when(a).localeCompare(when(b)))
      .slice(-SHOWN);
    body.replaceChildren(...list.map((e) => h('tr', { class: `event-${e.type}` },
      h('td', {}, when(e)), h('td', {}, e.type || ''), h('td', {}, e.reason || ''),
      h('td', {}, `${e.involvedObject?.kind || ''}/${e.involvedObject?.name || ''}`),
      h('td', {}, e.message || ''), h('td', {}, e.count ?? ''))));
  });
  const u = use('Event', (type, e) => {
    if (type === 'RESET' || type === 'ERROR' || (e && e.metadata.namespace === namespace && matches(e))) render();
  });
  if (u.informer.synced) render();
  return { el, release: () => u.release() };
}
