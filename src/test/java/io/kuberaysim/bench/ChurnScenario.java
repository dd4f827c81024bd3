package io.kuberaysim.bench;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.runtime.clock.Clock;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * Scenario 6: create/delete churn on a long-running server. {@code connections} keep-alive connections each create
 * RayClusters and delete them again {@link #LIVE_PER_CONNECTION} creates later, back to back, against one server
 * with the controllers on and the wall clock (so Events age), for {@code churnRuns} consecutive runs; after each run
 * (and the removal of its last clusters) the live heap after a full GC, the objects stored and the age of the
 * oldest Event. With {@code kuberay-sim.event-ttl} the heap must level off
 * (runs within 20 % of each other); with {@code 0} (Events kept for ever) it is the figure from before the TTL.
 */
final class ChurnScenario {
    /**
     * Clusters each connection keeps alive: it deletes the one it created this many creates ago, so the operator,
     * scheduler and kubelet get to work on every cluster (Pods, Services and their Events) before it goes.
     */
    static final int LIVE_PER_CONNECTION = 100;

    private ChurnScenario() {
    }

    private static String name(int round, int worker, long i) {
        return "churn-" + round + "-" + worker + "-" + i;
    }

    record Run(double requestsPerSecond, long failures, String firstFailure, double heapMiB, int events,
               int objects, double oldestEventSeconds) {
    }

    static void run(BenchConfig cfg, Report report) {
        for (String ttl : cfg.churnEventTtls()) {
            runWithTtl(cfg, report, ttl);
        }
    }

    private static void runWithTtl(BenchConfig cfg, Report report, String ttl) {
        String label = "0".equals(ttl) ? "event-ttl 0 (Events kept)" : "event-ttl " + ttl;
        List<Run> runs = new ArrayList<>();
        try (SimServer server = SimServer.start(true, "kuberay-sim.clock=wall", "kuberay-sim.event-ttl=" + ttl)) {
            ObjectStore store = server.bean(ObjectStore.class);
            Clock clock = server.bean(Clock.class);
            for (int r = 0; r < cfg.churnRuns(); r++) {
                int round = r;
                LoadGenerator.Result result = LoadGenerator.run(server.port, cfg.connections(), cfg.churn(),
                        (w, seq) -> {
                            long i = seq / 2;
                            if (seq % 2 == 0) {
                                return new HttpConnection.Request("POST", RayClusters.COLLECTION, "application/json",
                                        RayClusters.created(name(round, w, i)));
                            }
                            return i < LIVE_PER_CONNECTION ? HttpConnection.Request.get("/version")
                                    : new HttpConnection.Request("DELETE", RayClusters.COLLECTION + "/"
                                            + name(round, w, i - LIVE_PER_CONNECTION), null, null);
                        });
                RayClusters.removeCreated(server.registry()); // the last clusters of each connection
                settle(store);
                runs.add(measure(result, store, clock));
            }
        }
        for (int r = 0; r < runs.size(); r++) {
            Run run = runs.get(r);
            String prefix = String.format(Locale.ROOT, "%s, run %d: ", label, r + 1);
            report.add("churn", prefix + "live heap after GC", run.heapMiB(), "MiB", null, null);
            report.add("churn", prefix + "create+delete", run.requestsPerSecond(), "req/s", null, null);
            report.add("churn", prefix + "Events stored", run.events(), "objects", null, null);
            report.add("churn", prefix + "objects stored", run.objects(), "objects", null, null);
            if (!"0".equals(ttl)) {
                double limit = Duration.parse("PT" + ttl.toUpperCase(Locale.ROOT)).toSeconds() + 5;
                report.add("churn", prefix + "oldest Event (since its last write)", run.oldestEventSeconds(), "s",
                        "≤ TTL + 5 s", run.oldestEventSeconds() <= limit);
            }
            if (run.failures() > 0) {
                report.note(prefix + run.failures() + " failed requests, first: " + run.firstFailure());
            }
        }
        double max = runs.stream().mapToDouble(Run::heapMiB).max().orElse(Double.NaN);
        double min = runs.stream().mapToDouble(Run::heapMiB).min().orElse(Double.NaN);
        boolean expiring = !"0".equals(ttl);
        report.add("churn", label + ": live heap, largest / smallest run", max / min, "ratio",
                expiring ? "≤ 1.2" : null, expiring ? max / min <= 1.2 : null);
    }

    /** Waits (up to a minute) for the garbage collector to remove the Pods and Services of the deleted clusters. */
    private static void settle(ObjectStore store) {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (System.nanoTime() < deadline && (!store.list(ResourceTypes.PODS, null).items().isEmpty()
                || !store.list(ResourceTypes.SERVICES, null).items().isEmpty())) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static Run measure(LoadGenerator.Result result, ObjectStore store, Clock clock) {
        System.gc();
        System.gc();
        double heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (double) (1 << 20);
        TreeMap<String, Integer> stored = new TreeMap<>();
        int objects = 0;
        for (ResourceType t : ResourceTypes.ALL_TYPES) {
            int n = store.list(t, null).items().size();
            stored.put(t.plural(), n);
            objects += n;
        }
        Instant now = clock.now();
        double oldest = 0;
        for (StoredObject e : store.list(ResourceTypes.EVENTS, null).items()) {
            String last = Json.text(e.object(), "lastTimestamp");
            if (last == null) {
                last = Json.text(e.object(), "metadata", "creationTimestamp");
            }
            oldest = Math.max(oldest, Duration.between(Instant.parse(last), now).toMillis() / 1000.0);
        }
        return new Run(result.perSecond(), result.failures(), result.firstFailure(), heap,
                stored.get(ResourceTypes.EVENTS.plural()), objects, oldest);
    }
}
