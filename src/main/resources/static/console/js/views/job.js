// A RayJob: its deployment-status state machine with the current state and the path taken (read from the
// server's timeline, so it includes what happened before the page was opened), its cluster and submitter.

import { use, coalesce } from '../informer.js';
import { h } from '../format.js';
import { getJson } from '../api.js';
import { deleteObject, failRayJob, setSuspend } from '../actions.js';
import { eventsPanel } from './events.js';

// KubeRay's JobDeploymentStatus values, laid out as rows of the diagram
const LAYOUT = [
  ['New', 'Initializing', 'Running', 'Complete'],
  ['', 'Waiting', 'Retrying', 'Failed'],
  ['', 'Suspending', 'Suspended', 'ValidationFailed'],
];

export function mount(root, [namespace, name]) {
  const state = h('span', { class: 'badge' });
  const suspend = h('button', { type: 'button' });
  const fail = h('button', { type: 'button', title: 'sets sim.kuberay.io/job-result: FAILED; the next submission of '
    + 'the Ray job fails (one already submitted keeps its result)' });
  const del = h('button', { type: 'button', class: 'danger' }, 'Delete');
  const boxes = new Map();
  const diagram = h('div', { class: 'state-machine' }, LAYOUT.map((row) => h('div', { class: 'sm-row' },
    row.map((s) => {
      if (!s) return h('span', { class: 'sm-gap' });
      const b = h('span', { class: 'sm-state', 'data-state': s }, s);
      boxes.set(s, b);
      return b;
    }))));
  const pathEl = h('p', { class: 'path' });
  const details = h('dl', { class: 'details' });
  const events = eventsPanel((e) => e.involvedObject?.name === name, namespace);
  root.append(h('div', { class: 'toolbar' }, h('h1', {}, 'RayJob ', h('span', { class: 'name' }, name)), state,
    suspend, fail, del), h('section', {}, h('h2', {}, 'Deployment status'), diagram, pathEl),
  h('section', {}, h('h2', {}, 'Cluster and submitter'), details), events.el);

  let job;
  let path = [];
  let next = 0;
  const marker = `updated RayJob ${name} status deployment=`;

  suspend.addEventListener('click', () => setSuspend('RayJob', namespace, name, !job?.spec?.suspend));
  fail.addEventListener('click', () => failRayJob(namespace, name,
    job?.metadata?.annotations?.['sim.kuberay.io/job-result'] !== 'FAILED'));
  del.addEventListener('click', () => {
    if (confirm(`Delete RayJob ${namespace}/${name}?`)) deleteObject('RayJob', namespace, name);
  });

  let reading = false;
  let readAgain = false;

  /** Reads the timeline's new lines; one read at a time, so no line is counted twice. */
  async function readPath() {
    if (reading) {
      readAgain = true;
      return;
    }
    reading = true;
    try {
      for (;;) {
        const page = await getJson(`/sim/v1/timeline?since=${next}`);
        for (const line of page.lines) {
          const i = line.indexOf(marker);
          if (i >= 0) {
            const s = line.slice(i + marker.length).split(' ')[0];
            if (path[path.length - 1] !== s) path.push(s);
          }
        }
        next = page.next;
        if (page.lines.length === 0) break;
      }
    } catch (e) {
      // the timeline is an extra: the current state still shows
    } finally {
      reading = false;
    }
    render();
    if (readAgain) {
      readAgain = false;
      readPath();
    }
  }

  function render() {
    const current = job?.status?.jobDeploymentStatus || (job ? 'New' : '');
    state.textContent = job ? current : 'not found';
    state.className = `badge state-${current}`;
    const taken = path.length && path[0] !== 'New' ? ['New', ...path] : path;
    for (const [s, b] of boxes) {
      b.classList.toggle('visited', taken.includes(s));
      b.classList.toggle('current', s === current);
    }
    pathEl.textContent = taken.length ? `Path: ${taken.join(' → ')}` : '';
    if (!job) return;
    suspend.textContent = job.spec?.suspend ? 'Resume' : 'Suspend';
    fail.textContent = job.metadata.annotations?.['sim.kuberay.io/job-result'] === 'FAILED'
      ? 'Let Ray job succeed' : 'Make Ray job fail';
    const st = job.status || {};
    const clusterName = st.rayClusterName || job.spec?.clusterSelector?.['ray.io/cluster'] || '';
    const cluster = clusterName ? clusters.informer.get(namespace, clusterName) : undefined;
    const submitter = jobs.informer.get(namespace, name);
    const rows = [
      ['Job status', st.jobStatus || '-'],
      ['Job id', st.jobId || '-'],
      ['Submission mode', job.spec?.submissionMode || 'K8sJobMode'],
      ['Ray cluster', clusterName ? h('a', { href: `#/raycluster/${namespace}/${clusterName}` }, clusterName) : '-'],
      ['Cluster state', cluster ? (cluster.status?.state || 'provisioning') : (clusterName ? 'gone' : '-')],
      ['Submitter Job', submitter ? `${name}: active ${submitter.status?.active ?? 0}, succeeded `
        + `${submitter.status?.succeeded ?? 0}, failed ${submitter.status?.failed ?? 0}` : '-'],
      ['Retries', `${st.failed ?? 0} failed of backoffLimit ${job.spec?.backoffLimit ?? 0}`],
      ['Start / end', `${st.startTime || '-'} / ${st.endTime || '-'}`],
      ['Message', st.message || ''],
    ];
    details.replaceChildren(...rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
  }

  const redraw = coalesce(render);
  const rereadPath = coalesce(readPath);
  const jobsU = use('RayJob', (type, o) => {
    if (type === 'RESET' || (o && o.metadata.name === name && o.metadata.namespace === namespace)) {
      job = jobsU.informer.get(namespace, name);
      rereadPath();
    }
  });
  const clusters = use('RayCluster', redraw);
  const jobs = use('Job', redraw);
  job = jobsU.informer.get(namespace, name);
  readPath();
  return () => {
    [jobsU, clusters, jobs].forEach((u) => u.release());
    events.release();
  };
}
