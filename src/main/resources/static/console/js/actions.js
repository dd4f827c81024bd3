// The writes the console makes, each one Kubernetes API call (errors come back as the server's Status).

import { patch, remove } from './api.js';
import { objectPath } from './resources.js';
import { act } from './ui.js';

export function deleteObject(kind, namespace, name) {
  return act(`Delete ${kind} ${name}`, () => remove(objectPath(kind, namespace, name)));
}

export function setSuspend(kind, namespace, name, suspend) {
  return act(`${suspend ? 'Suspend' : 'Resume'} ${kind} ${name}`,
    () => patch(objectPath(kind, namespace, name), { spec: { suspend } }));
}

/** Sets one worker group's replicas; the test op keeps a reordered list from scaling the wrong group. */
export function scaleGroup(namespace, name, index, groupName, replicas) {
  return act(`Scale ${name} ${groupName} to ${replicas}`, () => patch(objectPath('RayCluster', namespace, name), [
    { op: 'test', path: `/spec/workerGroupSpecs/${index}/groupName`, value: groupName },
    { op: 'replace', path: `/spec/workerGroupSpecs/${index}/replicas`, value: replicas },
  ], 'application/json-patch+json'));
}

export function cordon(name, unschedulable) {
  return act(`${unschedulable ? 'Cordon' : 'Uncordon'} Node ${name}`,
    () => patch(objectPath('Node', '', name), { spec: { unschedulable } }));
}

/** Writes the Node's Ready condition through /status, as a kubelet that stopped posting would leave it. */
export function setNodeReady(node, ready) {
  const conditions = (node.status?.conditions || []).filter((c) => c.type !== 'Ready');
  conditions.push(ready
    ? { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }
    : { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'marked NotReady from the console' });
  return act(`Mark Node ${node.metadata.name} ${ready ? 'Ready' : 'NotReady'}`,
    () => patch(`${objectPath('Node', '', node.metadata.name)}/status`, { status: { conditions } }));
}

/** The simulated Ray job of this RayJob's next submission fails (sim.kuberay.io/job-result). */
export function failRayJob(namespace, name, fail) {
  return act(`${fail ? 'Make' : 'Stop making'} RayJob ${name}'s Ray job fail`,
    () => patch(objectPath('RayJob', namespace, name),
      { metadata: { annotations: { 'sim.kuberay.io/job-result': fail ? 'FAILED' : null } } }));
}
