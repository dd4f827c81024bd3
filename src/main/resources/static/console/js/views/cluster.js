// A RayCluster: Pod tiles per group (coloured by state, with their node), Services, conditions, Events,
// and the actions on it: scale a group, suspend/resume, delete the cluster or one of its Pods.

import { use, coalesce } from '../informer.js';
import { h, podState, age } from '../format.js';
import { clock } from '../ui.js';
import { deleteObject, scaleGroup, setSuspend } from '../actions.js';
import { eventsPanel } from './events.js';

export function mount(root, [namespace, name]) {
  const title = h('h1', {}, 'RayCluster ', h('span', { class: 'name' }, name));
  const state = h('span', { class: 'badge' });
  const suspend = h('button', { type: 'button' });
  const del = h('button', { type: 'button', class: 'danger' }, 'Delete');
  const summary = h('p', { class: 'summary' });
  const groupsEl = h('div', { class: 'groups' });
  const servicesEl = h('tbody');
  const conditionsEl = h('tbody');
  const events = eventsPanel((e) => e.involvedObject?.name === name
    || (e.involvedObject?.kind === 'Pod' && e.involvedObject.name.startsWith(`${name}-`)), namespace);
  root.append(
    h('div', { class: 'toolbar' }, title, state, suspend, del),
    summary,
    h('section', {}, h('h2', {}, 'Pods'), groupsEl),
    h('div', { class: 'columns' },
      h('section', {}, h('h2', {}, 'Services'), h('table', { class: 'live' },
        h('thead', {}, h('tr', {}, ['NAME', 'TYPE', 'CLUSTER-IP', 'PORTS', 'SELECTS'].map((t) => h('th', {}, t)))),
        servicesEl)),
      h('section', {}, h('h2', {}, 'Conditions'), h('table', { class: 'live' },
        h('thead', {}, h('tr', {}, ['TYPE', 'STATUS', 'REASON', 'MESSAGE'].map((t) => h('th', {}, t)))),
        conditionsEl))),
    events.el);

  const groups = new Map(); // group name → {el, tiles, header, input}
  const tiles = new Map(); // pod name → {el, group}
  let cluster;

  suspend.addEventListener('click', () => setSuspend('RayCluster', namespace, name, !cluster?.spec?.suspend));
  del.addEventListener('click', () => {
    if (confirm(`Delete RayCluster ${namespace}/${name}?`)) deleteObject('RayCluster', namespace, name);
  });

  function group(gname) {
    let g = groups.get(gname);
    if (g) return g;
    const tilesEl = h('div', { class: 'tiles' });
    const header = h('span', { class: 'group-info' });
    const input = h('input', { type: 'number', min: '0', class: 'replicas', 'aria-label': `${gname} replicas` });
    const scale = h('button', { type: 'button' }, 'Scale');
    const controls = h('span', { class: 'scale', hidden: true }, input, scale);
    scale.addEventListener('click', () => {
      const specs = cluster?.spec?.workerGroupSpecs || [];
      const i = specs.findIndex((s) => s.groupName === gname);
      if (i >= 0) scaleGroup(namespace, name, i, gname, Number(input.value));
    });
    const el = h('div', { class: 'group', 'data-group': gname },
      h('h3', {}, gname === 'headgroup' ? 'head' : gname, ' ', header, controls), tilesEl);
    g = { el, tilesEl, header, input, controls };
    groups.set(gname, g);
    if (gname === 'headgroup') groupsEl.prepend(el);
    else groupsEl.append(el);
    return g;
  }

  function renderCluster() {
    if (!cluster) {
      state.textContent = 'not found';
      return;
    }
    const st = cluster.status || {};
    state.textContent = st.state || 'provisioning';
    state.className = `badge state-${st.state || 'none'}`;
    suspend.textContent = cluster.spec?.suspend ? 'Resume' : 'Suspend';
    summary.textContent = `namespace ${namespace} · workers ready ${st.readyWorkerReplicas ?? 0}`
      + `/${st.desiredWorkerReplicas ?? 0} · CPUs ${st.desiredCPU ?? '-'} · memory ${st.desiredMemory ?? '-'}`
      + ` · GPUs ${st.desiredGPU ?? '-'} · age ${age(cluster.metadata.creationTimestamp, clock.now)}`;
    group('headgroup');
    for (const spec of cluster.spec?.workerGroupSpecs || []) {
      const g = group(spec.groupName);
      g.header.textContent = `replicas ${spec.replicas ?? 0} (min ${spec.minReplicas ?? 0}, max ${spec.maxReplicas ?? '∞'})`;
      g.controls.hidden = false;
      if (document.activeElement !== g.input) g.input.value = spec.replicas ?? 0;
    }
    conditionsEl.replaceChildren(...(st.conditions || []).map((c) => h('tr', {},
      h('td', {}, c.type), h('td', {}, c.status), h('td', {}, c.reason || ''), h('td', {}, c.message || ''))));
  }

  function podTile(pod) {
    const pname = pod.metadata.name;
    const labels = pod.metadata.labels || {};
    if (labels['ray.io/cluster'] !== name || pod.metadata.namespace !== namespace) return;
    const gname = labels['ray.io/node-type'] === 'head' ? 'headgroup' : (labels['ray.io/group'] || 'other');
    let t = tiles.get(pname);
    if (!t) {
      const nameEl = h('span', { class: 'pod-name' }, pname.startsWith(`${name}-`) ? pname.slice(name.length + 1) : pname);
      const stateEl = h('span', { class: 'pod-state' });
      const nodeEl = h('span', { class: 'pod-node' });
      const remove = h('button', { type: 'button', class: 'delete', title: `delete Pod ${pname}` }, '×');
      remove.addEventListener('click', () => deleteObject('Pod', namespace, pname));
      const el = h('div', { class: 'tile', 'data-pod': pname, title: pname }, nameEl, remove, stateEl, nodeEl);
      t = { el, stateEl, nodeEl };
      tiles.set(pname, t);
      const tilesEl = group(gname).tilesEl;
      const after = [...tilesEl.children].find((c) => c.dataset.pod.localeCompare(pname, undefined, { numeric: true }) > 0);
      tilesEl.insertBefore(el, after || null);
    }
    const s = podState(pod);
    t.el.className = `tile pod-${s}`;
    t.el.dataset.state = s;
    t.el.dataset.phase = pod.status?.phase || 'Pending';
    t.stateEl.textContent = s;
    t.nodeEl.textContent = pod.spec?.nodeName || 'unscheduled';
  }

  function renderServices(informer) {
    const rows = [];
    for (const s of informer.items.values()) {
      if (s.metadata.namespace !== namespace || s.metadata.labels?.['ray.io/cluster'] !== name) continue;
      rows.push(h('tr', { 'data-service': s.metadata.name }, h('td', {}, s.metadata.name), h('td', {}, s.spec?.type || ''),
        h('td', {}, s.spec?.clusterIP || ''),
        h('td', {}, (s.spec?.ports || []).map((p) => `${p.name || ''}:${p.port}`).join(' ')),
        h('td', {}, Object.entries(s.spec?.selector || {}).map(([k, v]) => `${k}=${v}`).join(', '))));
    }
    servicesEl.replaceChildren(...rows);
  }

  const clusters = use('RayCluster', (type, o) => {
    if (type === 'RESET' || (o && o.metadata.name === name && o.metadata.namespace === namespace)) {
      cluster = clusters.informer.get(namespace, name);
      renderCluster();
    }
  });
  const pods = use('Pod', (type, o) => {
    if (type === 'RESET') {
      tiles.forEach((t) => t.el.remove());
      tiles.clear();
      for (const p of pods.informer.items.values()) podTile(p);
    } else if (type === 'DELETED') {
      const t = tiles.get(o.metadata.name);
      if (t && o.metadata.namespace === namespace) {
        t.el.remove();
        tiles.delete(o.metadata.name);
      }
    } else if (o) podTile(o);
  });
  const redrawServices = coalesce(() => renderServices(services.informer));
  const services = use('Service', redrawServices);
  const tick = () => cluster && renderCluster();
  clock.listeners.add(tick);
  cluster = clusters.informer.get(namespace, name);
  renderCluster();
  if (pods.informer.synced) pods.informer.items.forEach(podTile);
  if (services.informer.synced) redrawServices();
  return () => {
    clock.listeners.delete(tick);
    [clusters, pods, services].forEach((u) => u.release());
    events.release();
  };
}
