package io.kuberaysim.sim.chaos;

import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.runtime.reconcile.Request;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Crashes asked for by fault injection and not yet carried out: the kubelet takes a Pod's crash on its next look
 * and ends the running containers with the exit code, then restarts them as the restartPolicy says.
 */
public final class ContainerCrashes {
    private final Map<String, Integer> pending = new ConcurrentHashMap<>(); // pod uid → exit code
    private volatile Consumer<Request> wake = r -> { };

    /** Called with the Pod to look at when a crash is asked for (the kubelet's queue). */
    public void onCrash(Consumer<Request> wake) {
        this.wake = wake;
    }

    /** The Pod's containers exit with {@code exitCode} as soon as the kubelet looks at it. */
    public void crash(StoredObject pod, int exitCode) {
        pending.put(pod.uid(), exitCode);
        wake.accept(new Request(pod.namespace(), pod.name()));
    }

    /** The exit code of a crash asked for the Pod (and forgets it), or null. */
    public Integer take(String podUid) {
        return pending.remove(podUid);
    }
}
