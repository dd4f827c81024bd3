// list+watch caches of one kind across all namespaces, shared by the views that need them.
// A kind is watched only while a view uses it: browsers open at most six HTTP/1.1 connections to one
// server, and each watch holds one, so the console keeps at most four streams open at a time.

import { ApiError, getJson, watchStream } from './api.js';
import { collectionPath } from './resources.js';

const RETRY_MS = 2000;

export class Informer {
  constructor(kind) {
    this.kind = kind;
    this.items = new Map();
    this.listeners = new Set();
    this.synced = false;
    this.refs = 0;
    this.abort = null;
    this.error = null;
  }

  static key(o) {
    return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name;
  }

  get(namespace, name) {
    return this.items.get(namespace ? `${namespace}/${name}` : name);
  }

  subscribe(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  emit(type, obj, old) {
    for (const fn of this.listeners) {
      try {
        fn(type, obj, old);
      } catch (e) {
        console.error(e);
      }
    }
  }

  start() {
    this.abort = new AbortController();
    this.run(this.abort.signal);
  }

  stop() {
    if (this.abort) this.abort.abort();
    this.abort = null;
    this.synced = false;
  }

  async run(signal) {
    const path = collectionPath(this.kind, '');
    while (!signal.aborted) {
      try {
        const list = await getJson(path, { signal });
        const kind = this.kind;
        this.items = new Map();
        for (const o of list.items) {
          o.kind = kind;
          this.items.set(Informer.key(o), o);
        }
        this.synced = true;
        this.error = null;
        this.emit('RESET');
        let rv = list.metadata.resourceVersion;
        // watch until the history no longer has our resourceVersion (410), then list again
        for (;;) {
          let expired = false;
          await watchStream(`${path}?watch=true&allowWatchBookmarks=true&resourceVersion=${rv}`, (ev) => {
            if (ev.type === 'ERROR') {
              expired = true;
              return;
            }
            const o = ev.object;
            rv = o.metadata.resourceVersion;
            if (ev.type === 'BOOKMARK') return;
            o.kind = kind;
            const key = Informer.key(o);
            const old = this.items.get(key);
            if (ev.type === 'DELETED') this.items.delete(key);
            else this.items.set(key, o);
            this.emit(ev.type, o, old);
          }, signal);
          if (expired || signal.aborted) break;
        }
      } catch (e) {
        if (signal.aborted) return;
        this.error = e instanceof ApiError ? e.message : String(e);
        this.emit('ERROR');
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
  }
}

const informers = new Map();

/** The shared informer of a kind, started on the first use; release() stops it after the last. */
export function use(kind, listener) {
  let inf = informers.get(kind);
  if (!inf) {
    inf = new Informer(kind);
    informers.set(kind, inf);
  }
  if (inf.refs++ === 0) inf.start();
  const unsubscribe = listener ? inf.subscribe(listener) : () => {};
  let released = false;
  return {
    informer: inf,
    release() {
      if (released) return;
      released = true;
      unsubscribe();
      if (--inf.refs === 0) inf.stop();
    },
  };
}

/** Calls fn at most once per animation frame however many events arrive: views redraw in batches. */
export function coalesce(fn) {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      fn();
    });
  };
}
