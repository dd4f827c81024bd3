// Overview: RayClusters, RayJobs and RayServices in every namespace, with kubectl get -o wide's columns.

import { use } from '../informer.js';
import { LiveTable } from '../table.js';
import { age, h } from '../format.js';
import { clock } from '../ui.js';

const link = (view) => (o) => `#/${view}/${encodeURIComponent(o.metadata.namespace)}/${encodeURIComponent(o.metadata.name)}`;
const ageColumn = { title: 'AGE', value: (o) => age(o.metadata.creationTimestamp, clock.now) };

const SECTIONS = [
  {
    kind: 'RayCluster',
    view: 'raycluster',
    columns: [
      { title: 'DESIRED WORKERS', value: (o) => o.status?.desiredWorkerReplicas ?? '' },
      { title: 'AVAILABLE WORKERS', value: (o) => o.status?.availableWorkerReplicas ?? '' },
      { title: 'CPUS', value: (o) => o.status?.desiredCPU ?? '' },
      { title: 'MEMORY', value: (o) => o.status?.desiredMemory ?? '' },
      { title: 'GPUS', value: (o) => o.status?.desiredGPU ?? '' },
      { title: 'STATUS', value: (o) => o.status?.state ?? '', cls: (o) => `state-${o.status?.state || 'none'}` },
      ageColumn,
      { title: 'HEAD POD IP', value: (o) => o.status?.head?.podIP ?? '' },
      { title: 'HEAD SERVICE IP', value: (o) => o.status?.head?.serviceIP ?? '' },
    ],
  },
  {
    kind: 'RayJob',
    view: 'rayjob',
    columns: [
      { title: 'JOB STATUS', value: (o) => o.status?.jobStatus ?? '' },
      { title: 'DEPLOYMENT STATUS', value: (o) => o.status?.jobDeploymentStatus ?? '',
        cls: (o) => `state-${o.status?.jobDeploymentStatus || 'none'}` },
      { title: 'RAY CLUSTER NAME', value: (o) => o.status?.rayClusterName ?? '' },
      { title: 'START TIME', value: (o) => o.status?.startTime ?? '' },
      { title: 'END TIME', value: (o) => o.status?.endTime ?? '' },
      ageColumn,
    ],
  },
  {
    kind: 'RayService',
    view: 'rayservice',
    columns: [
      { title: 'SERVICE STATUS', value: (o) => o.status?.serviceStatus ?? '' },
      { title: 'NUM SERVE ENDPOINTS', value: (o) => o.status?.numServeEndpoints ?? '' },
      ageColumn,
    ],
  },
];

export function mount(root) {
  const filter = h('input', { type: 'search', placeholder: 'filter by namespace/name', class: 'filter' });
  root.append(h('div', { class: 'toolbar' }, h('h1', {}, 'Overview'), filter));
  const uses = [];
  const tables = [];
  for (const s of SECTIONS) {
    const table = new LiveTable(s.columns, link(s.view));
    const count = h('span', { class: 'count' });
    root.append(h('section', { id: `overview-${s.kind}` }, h('h2', {}, `${s.kind}s `, count), table.el));
    tables.push(table);
    const u = use(s.kind, (type, o) => {
      if (type === 'RESET') table.reset(u.informer.items.values());
      else if (type === 'DELETED') table.remove(o);
      else if (o) table.upsert(o);
      count.textContent = `(${u.informer.items.size})`;
    });
    if (u.informer.synced) {
      table.reset(u.informer.items.values());
      count.textContent = `(${u.informer.items.size})`;
    }
    uses.push(u);
  }
  filter.addEventListener('input', () => tables.forEach((t) => t.setFilter(filter.value)));
  const tick = () => tables.forEach((t) => t.refreshAll());
  clock.listeners.add(tick);
  return () => {
    clock.listeners.delete(tick);
    uses.forEach((u) => u.release());
  };
}
