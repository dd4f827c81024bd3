// A RayService: its active and pending clusters, which one the serve Service selects, and the Serve
// applications' statuses on each.

import { use, coalesce } from '../informer.js';
import { h } from '../format.js';
import { deleteObject } from '../actions.js';
import { eventsPanel } from './events.js';

export function mount(root, [namespace, name]) {
  const state = h('span', { class: 'badge' });
  const del = h('button', { type: 'button', class: 'danger' }, 'Delete');
  const clustersEl = h('div', { class: 'columns' });
  const servicesEl = h('tbody');
  const events = eventsPanel((e) => e.involvedObject?.name === name, namespace);
  root.append(h('div', { class: 'toolbar' }, h('h1', {}, 'RayService ', h('span', { class: 'name' }, name)), state, del),
    clustersEl,
    h('section', {}, h('h2', {}, 'Services'), h('table', { class: 'live' },
      h('thead', {}, h('tr', {}, ['NAME', 'SELECTS CLUSTER', 'CLUSTER-IP', 'PORTS'].map((t) => h('th', {}, t)))),
      servicesEl)),
    events.el);
  del.addEventListener('click', () => {
    if (confirm(`Delete RayService ${namespace}/${name}?`)) deleteObject('RayService', namespace, name);
  });

  function clusterCard(role, st, served) {
    const cname = st?.rayClusterName;
    const cluster = cname ? clusters.informer.get(namespace, cname) : undefined;
    const apps = Object.entries(st?.applicationStatuses || {});
    return h('section', { class: `card ${served ? 'served' : ''}`, 'data-role': role },
      h('h2', {}, `${role} cluster`),
      cname ? h('p', {}, h('a', { href: `#/raycluster/${namespace}/${cname}` }, cname), ' · ',
        cluster ? (cluster.status?.state || 'provisioning') : 'not created yet',
        served ? h('span', { class: 'badge state-ready' }, 'serve Service points here') : '') : h('p', {}, 'none'),
      apps.length ? h('table', { class: 'live' },
        h('thead', {}, h('tr', {}, ['APPLICATION', 'STATUS', 'DEPLOYMENTS'].map((t) => h('th', {}, t)))),
        h('tbody', {}, apps.map(([app, a]) => h('tr', {}, h('td', {}, app || 'default'),
          h('td', { class: `app-${a.status}` }, a.status || ''),
          h('td', {}, Object.entries(a.serveDeploymentStatuses || {}).map(([d, ds]) => `${d}: ${ds.status}`).join(', ')))))) : '');
  }

  const render = coalesce(() => {
    const svc = rayServices.informer.get(namespace, name);
    const st = svc?.status || {};
    state.textContent = svc ? (st.serviceStatus || 'pending') : 'not found';
    const serveName = svc?.spec?.serveService?.metadata?.name || `${name}-serve-svc`;
    const serve = services.informer.get(namespace, serveName);
    const served = serve?.spec?.selector?.['ray.io/cluster'];
    clustersEl.replaceChildren(
      clusterCard('active', st.activeServiceStatus, served && served === st.activeServiceStatus?.rayClusterName),
      clusterCard('pending', st.pendingServiceStatus, served && served === st.pendingServiceStatus?.rayClusterName));
    const rows = [];
    for (const s of services.informer.items.values()) {
      if (s.metadata.namespace !== namespace || !s.metadata.ownerReferences?.some((r) => r.name === name)) continue;
      rows.push(h('tr', {}, h('td', {}, s.metadata.name), h('td', {}, s.spec?.selector?.['ray.io/cluster'] || ''),
        h('td', {}, s.spec?.clusterIP || ''), h('td', {}, (s.spec?.ports || []).map((p) => `${p.name || ''}:${p.port}`).join(' '))));
    }
    servicesEl.replaceChildren(...rows);
  });
  const rayServices = use('RayService', render);
  const clusters = use('RayCluster', render);
  const services = use('Service', render);
  render();
  return () => {
    [rayServices, clusters, services].forEach((u) => u.release());
    events.release();
  };
}
