"""A new user's first RayCluster with the official Python client (`kubernetes`), against kuberay-sim.

Usage: python3 python-client-lifecycle.py KUBECONFIG MANIFEST
Creates the RayCluster in MANIFEST, waits for status.state "ready" with a watch, lists its Pods, reads the head
Pod's log, deletes the RayCluster and watches its Pods go. On the virtual clock a thread moves the clock on
(POST /sim/v1/clock/advance) while the script waits, as a user of a virtual-clock server does. Prints one line per
step; exits non-zero with the reason when a step fails.
"""
import sys
import threading

import yaml
from kubernetes import client, config, watch

GROUP, VERSION, PLURAL, NAMESPACE = "ray.io", "v1", "rayclusters", "default"


def advance_clock_until(done, api_client):
    """Moves a virtual clock on by 1 s every 50 ms until done is set; a wall clock answers 409 and is left alone."""
    while not done.wait(0.05):
        try:
            api_client.call_api("/sim/v1/clock/advance", "POST", query_params=[("seconds", "1")],
                                _preload_content=False)
        except client.ApiException as e:
            if e.status == 409:
                return
            raise


def waiting(api_client):
    done = threading.Event()
    threading.Thread(target=advance_clock_until, args=(done, api_client), daemon=True).start()
    return done


def main(kubeconfig, manifest):
    config.load_kube_config(config_file=kubeconfig)
    api_client = client.ApiClient()
    custom = client.CustomObjectsApi(api_client)
    core = client.CoreV1Api(api_client)
    with open(manifest) as f:
        body = yaml.safe_load(f)
    name = body["metadata"]["name"]

    created = custom.create_namespaced_custom_object(GROUP, VERSION, NAMESPACE, PLURAL, body)
    print("created RayCluster", name, "resourceVersion", created["metadata"]["resourceVersion"])

    done = waiting(api_client)
    state = None
    w = watch.Watch()
    for event in w.stream(custom.list_namespaced_custom_object, GROUP, VERSION, NAMESPACE, PLURAL,
                          field_selector="metadata.name=" + name, timeout_seconds=60):
        state = (event["object"].get("status") or {}).get("state")
        print("watch", event["type"], "resourceVersion", event["object"]["metadata"]["resourceVersion"],
              "state", state)
        if state == "ready":
            w.stop()
    done.set()
    if state != "ready":
        sys.exit("RayCluster %s did not become ready within 60 s (last state %s)" % (name, state))

    pods = core.list_namespaced_pod(NAMESPACE, label_selector="ray.io/cluster=" + name)
    summary = sorted((p.metadata.labels["ray.io/node-type"], p.metadata.name, p.status.phase) for p in pods.items)
    print("pods", summary)
    workers = sum(g["replicas"] for g in body["spec"]["workerGroupSpecs"])
    if len(summary) != 1 + workers or any(phase != "Running" for _, _, phase in summary):
        sys.exit("expected 1 head and %d worker Pods, all Running: %s" % (workers, summary))

    head = next(pod_name for node_type, pod_name, _ in summary if node_type == "head")
    log = core.read_namespaced_pod_log(head, NAMESPACE)
    command = [line for line in log.splitlines() if "ray start --head" in line]
    if not command:
        sys.exit("the head Pod's log does not show `ray start --head`: %r" % log)
    print("log of", head, "shows", command[0][:120])

    deleted = custom.delete_namespaced_custom_object(GROUP, VERSION, NAMESPACE, PLURAL, name)
    print("deleted RayCluster", name, deleted.get("kind"))

    remaining = {pod_name for _, pod_name, _ in summary}
    done = waiting(api_client)
    w = watch.Watch()
    for event in w.stream(core.list_namespaced_pod, NAMESPACE, label_selector="ray.io/cluster=" + name,
                          resource_version=pods.metadata.resource_version, timeout_seconds=60):
        print("watch pod", event["type"], event["object"].metadata.name)
        if event["type"] == "DELETED":
            remaining.discard(event["object"].metadata.name)
            if not remaining:
                w.stop()
    done.set()
    if remaining:
        sys.exit("Pods still there 60 s after the RayCluster was deleted: %s" % sorted(remaining))
    left = core.list_namespaced_pod(NAMESPACE, label_selector="ray.io/cluster=" + name).items
    if left:
        sys.exit("a list still shows Pods: %s" % [p.metadata.name for p in left])
    print("all Pods of", name, "are gone")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
