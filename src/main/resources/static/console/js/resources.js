// Where each kind lives on the REST API. The console reads and writes only these paths.

export const KINDS = {
  RayCluster: { group: 'ray.io', version: 'v1', plural: 'rayclusters', namespaced: true },
  RayJob: { group: 'ray.io', version: 'v1', plural: 'rayjobs', namespaced: true },
  RayService: { group: 'ray.io', version: 'v1', plural: 'rayservices', namespaced: true },
  Pod: { group: '', version: 'v1', plural: 'pods', namespaced: true },
  Service: { group: '', version: 'v1', plural: 'services', namespaced: true },
  Event: { group: '', version: 'v1', plural: 'events', namespaced: true },
  ConfigMap: { group: '', version: 'v1', plural: 'configmaps', namespaced: true },
  Node: { group: '', version: 'v1', plural: 'nodes', namespaced: false },
  Namespace: { group: '', version: 'v1', plural: 'namespaces', namespaced: false },
  Job: { group: 'batch', version: 'v1', plural: 'jobs', namespaced: true },
};

/** The kind whose apiVersion/kind a manifest names, or undefined. */
export function kindFor(apiVersion, kind) {
  const k = KINDS[kind];
  if (!k) return undefined;
  const gv = k.group ? `${k.group}/${k.version}` : k.version;
  return gv === apiVersion ? k : undefined;
}

function prefix(k) {
  return k.group ? `/apis/${k.group}/${k.version}` : `/api/${k.version}`;
}

/** The collection path: all namespaces when namespace is empty. */
export function collectionPath(kind, namespace) {
  const k = typeof kind === 'string' ? KINDS[kind] : kind;
  const ns = k.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${prefix(k)}${ns}/${k.plural}`;
}

export function objectPath(kind, namespace, name) {
  return `${collectionPath(kind, namespace)}/${encodeURIComponent(name)}`;
}

export function pathOf(obj) {
  return objectPath(obj.kind, obj.metadata.namespace, obj.metadata.name);
}
