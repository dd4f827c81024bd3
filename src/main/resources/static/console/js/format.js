// Display helpers: Kubernetes quantities, ages, and small DOM builders.

const SUFFIX = {
  n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

/** A resource quantity ("500m", "4Gi", "1e3") as a number; 0 when absent or unreadable. */
export function quantity(q) {
  if (q === undefined || q === null) return 0;
  if (typeof q === 'number') return q;
  const m = /^([+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?)([a-zA-Z]*)$/.exec(String(q).trim());
  if (!m || !(m[2] in SUFFIX)) return 0;
  return parseFloat(m[1]) * SUFFIX[m[2]];
}

export function bytes(n) {
  const units = ['', 'Ki', 'Mi', 'Gi', 'Ti'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${Math.round(n * 10) / 10}${units[i]}`;
}

export function cpus(n) {
  return Number.isInteger(n) ? String(n) : `${Math.round(n * 1000)}m`;
}

/** kubectl's age: 5s, 3m, 2h, 4d, from a timestamp and the clock's now. */
export function age(timestamp, now) {
  if (!timestamp || !now) return '';
  const s = Math.max(0, Math.floor((Date.parse(now) - Date.parse(timestamp)) / 1000));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.floor(s / 60)}m`;
  if (s < 172800) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

/** Element builder: h('div', {class: 'x', onclick}, child, 'text', ...). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

export function condition(obj, type) {
  return (obj.status?.conditions || []).find((c) => c.type === type);
}

/** Total requests of a Pod's containers (cpu in cores, memory in bytes, gpu). */
export function podRequests(pod) {
  const r = { cpu: 0, memory: 0, gpu: 0 };
  for (const c of pod.spec?.containers || []) {
    const req = c.resources?.requests || c.resources?.limits || {};
    r.cpu += quantity(req.cpu);
    r.memory += quantity(req.memory);
    r.gpu += quantity(req['nvidia.com/gpu']);
  }
  return r;
}

/** The phase a tile shows: Pending, Init, Running, Ready, Terminating, Failed, Succeeded. */
export function podState(pod) {
  if (pod.metadata.deletionTimestamp) return 'Terminating';
  const phase = pod.status?.phase || 'Pending';
  if (phase === 'Running') return condition(pod, 'Ready')?.status === 'True' ? 'Ready' : 'Running';
  if (phase === 'Pending' && pod.spec?.nodeName) return 'Init';
  return phase;
}
