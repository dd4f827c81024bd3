// Entry point: routing between views (by the URL's hash), the clock bar and the message area.

import { getJson, post } from './api.js';
import { clock, message } from './ui.js';
import * as overview from './views/overview.js';
import * as cluster from './views/cluster.js';
import * as job from './views/job.js';
import * as service from './views/service.js';
import * as nodes from './views/nodes.js';
import * as timeline from './views/timeline.js';
import * as apply from './views/apply.js';

const VIEWS = { overview, raycluster: cluster, rayjob: job, rayservice: service, nodes, timeline, apply };
const CLOCK_POLL_MS = 1000;

let unmount = null;

function route() {
  const [, name = 'overview', ...params] = (location.hash || '#/overview').split('/');
  const view = VIEWS[name] || overview;
  if (unmount) unmount();
  const main = document.getElementById('view');
  main.replaceChildren();
  main.dataset.view = name;
  for (const a of document.querySelectorAll('#nav a')) {
    a.classList.toggle('active', a.dataset.view === name);
  }
  unmount = view.mount(main, params.map(decodeURIComponent)) || null;
}

function showClock(c) {
  Object.assign(clock, c);
  document.getElementById('clock-mode').textContent = c.mode;
  document.getElementById('clock-now').textContent = `${c.now} (+${c.elapsedSeconds.toFixed(1)} s)`;
  document.getElementById('clock-controls').hidden = c.mode !== 'virtual';
  for (const fn of clock.listeners) fn();
}

async function refreshClock() {
  try {
    showClock(await getJson('/sim/v1/clock'));
  } catch (e) {
    document.getElementById('clock-now').textContent = e.message;
  }
}

async function moveClock(path) {
  const buttons = document.querySelectorAll('#clock-controls button');
  buttons.forEach((b) => { b.disabled = true; });
  try {
    showClock(await post(path));
  } catch (e) {
    message(`Clock: ${e.message}`);
  } finally {
    buttons.forEach((b) => { b.disabled = false; });
  }
}

document.querySelectorAll('[data-advance]').forEach((b) => b.addEventListener('click',
  () => moveClock(`/sim/v1/clock/advance?seconds=${b.dataset.advance}`)));
document.getElementById('clock-settle').addEventListener('click', () => moveClock('/sim/v1/clock/settle'));
window.addEventListener('hashchange', route);
setInterval(refreshClock, CLOCK_POLL_MS);
refreshClock();
route();
