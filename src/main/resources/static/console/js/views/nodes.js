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
    details.addEventListener('toggle', render);
    cards.set(name, c);
    return c;
  }

  const render = coalesce(() => {
    const byNode = new Map();
    const unschedulable = [];
    for (const p of pods.informer.items.values()) {
      const phase = p.status?.phase;
      if (phase === 'Succeeded' || phase === 'Failed') continue;
      if (p.spec?.nodeName) {
        let list = byNode.get(p.spec.nodeName);
        if (!list) byNode.set(p.spec.nodeName, (list = []));
        list.push(p);
      } else {
        const sc = condition(p, 'PodScheduled');
        if (sc?.status === 'False') unschedulable.push(p);
      }
    }
    const names = [...nodes.informer.items.keys()].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    for (const [name, c] of cards) {
      if (!nodes.informer.items.has(name)) {
        c.el.remove();
        cards.delete(name);
      }
    }
    let previous = null;
    for (const name of names) {
      const node = nodes.informer.items.get(name);
      const c = card(node);
      c.node = node;
      if (c.el.previousSibling !== previous || c.el.parentNode !== grid) grid.insertBefore(c.el, previous ? previous.nextSibling : grid.firstChild);
      previous = c.el;
      const list = byNode.get(name) || [];
      const used = { cpu: 0, memory: 0, gpu: 0 };
      for (const p of list) {
        const r = podRequests(p);
        used.cpu += r.cpu;
        used.memory += r.memory;
        used.gpu += r.gpu;
      }
      const alloc = node.status?.allocatable || {};
      setBar(c.cpu, used.cpu, quantity(alloc.cpu), cpus);
      setBar(c.memory, used.memory, quantity(alloc.memory), bytes);
      setBar(c.gpu, used.gpu, quantity(alloc['nvidia.com/gpu']), (n) => String(n));
      c.gpu.el.hidden = !quantity(alloc['nvidia.com/gpu']);
      const ready = condition(node, 'Ready')?.status === 'True';
      const s = `${ready ? 'Ready' : 'NotReady'}${node.spec?.unschedulable ? ',SchedulingDisabled' : ''}`;
      c.status.textContent = s;
      c.status.className = `badge ${ready ? 'state-ready' : 'state-failed'}`;
      c.cordonBtn.textContent = node.spec?.unschedulable ? 'Uncordon' : 'Cordon';
      c.readyBtn.textContent = ready ? 'Mark NotReady' : 'Mark Ready';
      c.podsSummary.textContent = `${list.length} Pods`;
      if (c.details.open) {
        c.podList.replaceChildren(...list.map((p) => h('li', {}, `${p.metadata.namespace}/${p.metadata.name}`)));
      }
    }
    unschedCount.textContent = `(${unschedulable.length})`;
    unschedBody.replaceChildren(...unschedulable.slice(0, MAX_UNSCHEDULABLE_SHOWN).map((p) => h('tr', {},
      h('td', {}, p.metadata.namespace), h('td', {}, p.metadata.name),
      h('td', {}, condition(p, 'PodScheduled')?.message || condition(p, 'PodScheduled')?.reason || ''))));
  });
  const nodes = use('Node', render);
  const pods = use('Pod', render);
  render();
  return () => {
    nodes.release();
    pods.release();
  };
}
