package io.kuberaysim.apiserver.storage;

import io.kuberaysim.controller.runtime.clock.Cancellable;
import io.kuberaysim.controller.runtime.clock.ControlLoop;

import java.time.Duration;

/**
 * Compacts etcd's history as kube-apiserver's compactor does: every interval, up to the revision seen one interval
 * earlier, so a client that lost its watch can resume from any revision of the last interval while etcd's history
 * stays bounded. Every replica runs one; a revision another replica compacted already is skipped by etcd.
 */
public final class EtcdCompactor implements AutoCloseable {
    private final EtcdObjectStore store;
    private final ControlLoop loop;
    private final Duration interval;
    private long seenLastTime;
    private volatile Cancellable next;
    private volatile boolean closed;

    /** @param interval 0 or negative: never compact */
    public EtcdCompactor(EtcdObjectStore store, ControlLoop loop, Duration interval) {
        this.store = store;
        this.loop = loop;
        this.interval = interval;
    }

    public void start() {
        if (!interval.isZero() && !interval.isNegative()) {
            next = loop.schedule(interval, this::tick);
        }
    }

    private void tick() {
        if (closed) {
            return;
        }
        long target = seenLastTime;
        seenLastTime = store.revision();
        if (target > 0) {
            store.compact(target); // asynchronous: the control loop never waits for etcd
        }
        next = loop.schedule(interval, this::tick);
    }

    @Override
    public void close() {
        closed = true;
        Cancellable n = next;
        if (n != null) {
            n.cancel();
        }
    }
}
