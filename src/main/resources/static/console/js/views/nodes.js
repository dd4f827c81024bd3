// Nodes: allocatable CPU, memory and GPUs against what the Pods bound to each request, the Pods on it,
// and the Pods no node can take (with the scheduler's FailedScheduling reason). Node faults from here.

import { use, coalesce } from '../informer.js';
import { bytes, condition, cpus, h, podRequests, quantity } from '../format.js';
import { cordon, deleteObject, setNodeReady } from '../actions.js';

const MAX_UNSCHEDULABLE_SHOWN = 200;

function bar(label) {
  const fill = h('span', { class: 'fill' });
  const text = h('span', { class: 'bar-text' });
  return { el: h('div', { class: 'bar', 'data-resource': label }, h('span', { class: 'bar-label' }, label),
    h('span', { class: 'track' }, fill), text), fill, text };
}

function setBar(b, used, total, fmt) {
  const pct = total > 0 ? Math.min(100, (used / total) * 100) : 0;
  b.fill.style.width = `${pct}%`;
  b.fill.classList.toggle('full', total > 0 && used >= total);
  b.text.textContent = `${fmt(used)} / ${fmt(total)}`;
}

export function mount(root) {
  const grid = h('div', { class: 'nodes' });
  const unschedBody = h('tbody');
  const unschedCount = h('span', { class: 'count' });
  root.append(h('div', { class: 'toolbar' }, h('h1', {}, 'Nodes')), grid,
    h('section', { id: 'unschedulable' }, h('h2', {}, 'Unschedulable Pods ', unschedCount), h('table', { class: 'live' },
      h('thead', {}, h('tr', {}, ['NAMESPACE', 'POD', 'REASON'].map((t) => h('th', {}, t)))), unschedBody)));
  const cards = new Map();

  function card(node) {
    const name = node.metadata.name;
    let c = cards.get(name);
    if (c) return c;
    const status = h('span', { class: 'badge' });
    const cordonBtn = h('button', { type: 'button' });
    const readyBtn = h('button', { type: 'button' });
    const del = h('button', { type: 'button', class: 'danger' }, 'Delete');
    const podList = h('ul', { class: 'pod-list' });
    const podsSummary = h('summary');
    const details = h('details', {}, podsSummary, podList);
    c = { status, cordonBtn, readyBtn, cpu: bar('CPU'), memory: bar('memory'), gpu: bar('GPU'), podList, podsSummary,
      details, node };
    c.el = h('section', { class: 'card node', 'data-node': name },
      h('h2', {}, name, ' ', status), c.cpu.el, c.memory.el, c.gpu.el, details,
      h('div', { class: 'actions' }, cordonBtn, readyBtn, del));
    cordonBtn.addEventListener('click', () => cordon(name, !c.node.spec?.unschedulable));
    readyBtn.addEventListener('click', () => setNodeReady(c.node, condition(c.node, 'Ready')?.status !== 'True'));
    del.addEventListener('click', () => {
      if (confirm(`Delete Node ${name}? Its Pods fail with NodeLost.`)) deleteObject('Node', '', name);
    });
    details.addEventListener('toggle', () => renderNode(name));
    cards.set(name, c);
    return c;
  }

  // What each Pod adds to its node (or that it is unschedulable), kept per event so that a burst of Pod
  // changes costs one small update each instead of a pass over every Pod.
  const contributions = new Map(); // pod key → {node, cpu, memory, gpu} | {unschedulable: pod}
  const perNode = new Map(); // node name → {cpu, memory, gpu, pods: Set of pod keys}
  const unschedulable = new Map(); // pod key → pod
  const dirtyNodes = new Set();
  let nodesChanged = true;
  let unschedulableChanged = true;

  function totals(nodeName) {
    let t = perNode.get(nodeName);
    if (!t) perNode.set(nodeName, (t = { cpu: 0, memory: 0, gpu: 0, pods: new Set() }));
    return t;
  }

  function forget(key) {
    const c = contributions.get(key);
    if (!c) return;
    contributions.delete(key);
    if (c.node) {
      const t = totals(c.node);
      t.cpu -= c.cpu;
      t.memory -= c.memory;
      t.gpu -= c.gpu;
      t.pods.delete(key);
      dirtyNodes.add(c.node);
    } else if (unschedulable.delete(key)) {
      unschedulableChanged = true;
    }
  }

  function count(key, p) {
    const phase = p.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') return;
    if (p.spec?.nodeName) {
      const r = podRequests(p);
      const t = totals(p.spec.nodeName);
      t.cpu += r.cpu;
      t.memory += r.memory;
      t.gpu += r.gpu;
      t.pods.add(key);
      contributions.set(key, { node: p.spec.nodeName, ...r });
      dirtyNodes.add(p.spec.nodeName);
    } else if (condition(p, 'PodScheduled')?.status === 'False') {
      unschedulable.set(key, p);
      contributions.set(key, { unschedulable: true });
      unschedulableChanged = true;
    }
  }

  function recountAll() {
    contributions.clear();
    perNode.clear();
    unschedulable.clear();
    for (const [key, p] of pods.informer.items) count(key, p);
    nodesChanged = unschedulableChanged = true;
  }

  function renderNode(name) {
    const node = nodes.informer.items.get(name);
    const c = cards.get(name);
    if (!node || !c) return;
    c.node = node;
    const t = perNode.get(name) || { cpu: 0, memory: 0, gpu: 0, pods: new Set() };
    const alloc = node.status?.allocatable || {};
    setBar(c.cpu, t.cpu, quantity(alloc.cpu), cpus);
    setBar(c.memory, t.memory, quantity(alloc.memory), bytes);
    setBar(c.gpu, t.gpu, quantity(alloc['nvidia.com/gpu']), (n) => String(n));
    c.gpu.el.hidden = !quantity(alloc['nvidia.com/gpu']);
    const ready = condition(node, 'Ready')?.status === 'True';
    c.status.textContent = `${ready ? 'Ready' : 'NotReady'}${node.spec?.unschedulable ? ',SchedulingDisabled' : ''}`;
    c.status.className = `badge ${ready ? 'state-ready' : 'state-failed'}`;
    c.cordonBtn.textContent = node.spec?.unschedulable ? 'Uncordon' : 'Cordon';
    c.readyBtn.textContent = ready ? 'Mark NotReady' : 'Mark Ready';
    c.podsSummary.textContent = `${t.pods.size} Pods`;
    if (c.details.open) c.podList.replaceChildren(...[...t.pods].sort().map((k) => h('li', {}, k)));
  }

  const render = coalesce(() => {
    if (nodesChanged) {
      nodesChanged = false;
      for (const [name, c] of cards) {
        if (!nodes.informer.items.has(name)) {
          c.el.remove();
          cards.delete(name);
        }
      }
      const names = [...nodes.informer.items.keys()].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
      grid.replaceChildren(...names.map((name) => card(nodes.informer.items.get(name)).el));
      names.forEach(renderNode);
    } else {
      dirtyNodes.forEach(renderNode);
    }
    dirtyNodes.clear();
    if (unschedulableChanged) {
      unschedulableChanged = false;
      unschedCount.textContent = `(${unschedulable.size})`;
      unschedBody.replaceChildren(...[...unschedulable.values()].slice(0, MAX_UNSCHEDULABLE_SHOWN).map((p) => h('tr', {},
        h('td', {}, p.metadata.namespace), h('td', {}, p.metadata.name),
        h('td', {}, condition(p, 'PodScheduled')?.message || condition(p, 'PodScheduled')?.reason || ''))));
    }
  });

  function onPod(type, p) {
    if (type === 'RESET') recountAll();
    else if (type === 'ERROR' || !p) return;
    else {
      const key = `${p.metadata.namespace}/${p.metadata.name}`;
      forget(key);
      if (type !== 'DELETED') count(key, p);
    }
    render();
  }

  function onNode(type, n) {
    if (type === 'RESET' || type === 'ADDED' || type === 'DELETED') nodesChanged = true;
    else if (n) dirtyNodes.add(n.metadata.name);
    render();
  }

  const nodes = use('Node', onNode);
  const pods = use('Pod', onPod);
  if (pods.informer.synced) recountAll();
  render();
  return () => {
    nodes.release();
    pods.release();
  };
}
