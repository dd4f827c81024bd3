// Apply YAML: an editor preloaded with the shipped manifests (http-examples/), applied through the API
// (server-side apply, or create). Every document is first sent as a dry run, so a bad one leaves
// nothing half-applied; the server's Status message shows next to the editor.

import { ApiError, getJson, send } from '../api.js';
import { h } from '../format.js';
import { collectionPath, kindFor, objectPath, KINDS } from '../resources.js';

const FIELD_MANAGER = 'kuberay-console';

/** apiVersion, kind, metadata.name and metadata.namespace of one YAML (or JSON) document, as far as found. */
export function identify(doc) {
  const trimmed = doc.trim();
  if (trimmed.startsWith('{')) {
    try {
      const o = JSON.parse(trimmed);
      return { apiVersion: o.apiVersion, kind: o.kind, name: o.metadata?.name, namespace: o.metadata?.namespace };
    } catch (e) {
      return {};
    }
  }
  const top = (key) => new RegExp(`^${key}:[ \\t]*["']?([^\\s"'#]+)`, 'm').exec(doc)?.[1];
  const id = { apiVersion: top('apiVersion'), kind: top('kind') };
  const meta = /^metadata:[ \t]*\n((?:[ \t]+.*\n?|[ \t]*\n)*)/m.exec(doc);
  if (meta) {
    const indent = /^([ \t]+)\S/m.exec(meta[1])?.[1] || '  ';
    const field = (key) => new RegExp(`^${indent}${key}:[ \\t]*["']?([^\\s"'#]+)`, 'm').exec(meta[1])?.[1];
    id.name = field('name');
    id.namespace = field('namespace');
  }
  return id;
}

function documents(text) {
  return text.split(/^---[ \t]*$/m).filter((d) => d.replace(/#.*$/gm, '').trim() !== '');
}

/** The request for one document; null when its kind is not one the console knows. */
function request(doc, create, dryRun, force) {
  const id = identify(doc);
  const k = kindFor(id.apiVersion, id.kind) || (id.kind ? null : KINDS.RayCluster);
  if (!k) return { error: `${id.apiVersion || '?'} ${id.kind} is not a kind the console can apply` };
  const ns = k.namespaced ? (id.namespace || 'default') : '';
  const q = `fieldManager=${FIELD_MANAGER}${dryRun ? '&dryRun=All' : ''}${force && !create ? '&force=true' : ''}`;
  const label = `${id.kind || 'object'} ${id.name || '(no name)'}`;
  if (create || !id.name) {
    // without a name only the server can say what is wrong: send it, and show its answer
    return { label, path: `${collectionPath(k, ns)}?${q}`, method: 'POST', type: 'application/yaml' };
  }
  return { label, path: `${objectPath(k, ns, id.name)}?${q}`, method: 'PATCH', type: 'application/apply-patch+yaml' };
}

export function mount(root) {
  const select = h('select', { 'aria-label': 'example manifest' }, h('option', { value: '' }, 'load an example…'));
  const editor = h('textarea', { id: 'yaml-editor', spellcheck: 'false', rows: '28' });
  const applyBtn = h('button', { type: 'button', id: 'apply-button' }, 'Apply');
  const createBtn = h('button', { type: 'button', id: 'create-button' }, 'Create');
  const force = h('input', { type: 'checkbox', id: 'force-conflicts' });
  const result = h('div', { id: 'apply-result', 'aria-live': 'polite' });
  root.append(h('div', { class: 'toolbar' }, h('h1', {}, 'Apply YAML'), select, applyBtn,
    h('label', { title: 'take over fields another manager set (kubectl apply --server-side --force-conflicts)' },
      force, ' force conflicts'), createBtn),
    h('div', { class: 'editor' }, editor, result));
  editor.value = sessionStorage.getItem('kuberay-sim.editor') || '';
  editor.addEventListener('input', () => sessionStorage.setItem('kuberay-sim.editor', editor.value));

  getJson('/console/examples/').then((names) => {
    for (const n of names) select.append(h('option', { value: n }, n));
  }).catch(() => {});
  select.addEventListener('change', async () => {
    if (!select.value) return;
    const res = await fetch(`/console/examples/${encodeURIComponent(select.value)}`);
    editor.value = await res.text();
    sessionStorage.setItem('kuberay-sim.editor', editor.value);
  });

  function show(lines, ok) {
    result.className = ok ? 'ok' : 'error';
    result.replaceChildren(...lines.map((l) => h('p', {}, l)));
  }

  async function run(create) {
    const docs = documents(editor.value);
    if (!docs.length) {
      show(['Nothing to apply: the editor is empty.'], false);
      return;
    }
    applyBtn.disabled = createBtn.disabled = true;
    try {
      // first every document as a dry run: one bad document means none is written
      for (const dryRun of [true, false]) {
        const done = [];
        for (const doc of docs) {
          const r = request(doc, create, dryRun, force.checked);
          if (r.error) {
            show([r.error], false);
            return;
          }
          try {
            const res = await send(r.path, { method: r.method, body: doc, contentType: r.type });
            const o = await res.json();
            done.push(`${r.label}: ${res.status === 201 ? 'created' : 'applied'} (resourceVersion `
              + `${o.metadata?.resourceVersion || '-'})`);
          } catch (e) {
            const msg = e instanceof ApiError ? e.message : String(e);
            show([`${r.label}: ${msg}`, dryRun ? 'Nothing was changed.' : ''].filter(Boolean), false);
            return;
          }
        }
        if (!dryRun) show(done, true);
      }
    } finally {
      applyBtn.disabled = createBtn.disabled = false;
    }
  }
  applyBtn.addEventListener('click', () => run(false));
  createBtn.addEventListener('click', () => run(true));
}
