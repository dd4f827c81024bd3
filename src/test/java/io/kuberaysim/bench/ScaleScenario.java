package io.kuberaysim.bench;

import io.kuberaysim.KuberaySimApplication;
import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.node.ObjectNode;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Scenario 2: N RayClusters of 1 head + 3 workers (KubeRay's scale-test shape) created and all {@code ready},
 * in process on the virtual clock with the whole control plane as users run it (controllers on, no port).
 * Wall time from the first create to the last cluster ready, the CPU time the process and the control loop spent in
 * it (on a shared machine the CPU time is the steadier figure), objects stored, heap after GC, and the heap one
 * more stored object of each kind costs.
 */
final class ScaleScenario {
    private static final Duration LIMIT = Duration.ofHours(1);
    /** Pods (and CPU cores, and 4 Gi of memory each) per node of the enlarged pool. */
    private static final int NODE_PODS = 256;

    private ScaleScenario() {
    }

    /**
     * One size's outcome; {@code objects}: the stored objects by kind, kept past the control plane's end for
     * {@link #heapByKind} (empty when not needed).
     */
    record Outcome(int clusters, double seconds, Map<String, Integer> stored, long heapBytes, Instant virtualTime,
                   long writes, double cpuSeconds, double loopCpuSeconds, Map<String, Double> cpuByThreads,
                   Map<String, List<StoredObject>> objects, ClassHistogram before) {
        Outcome(int clusters, double seconds, Map<String, Integer> stored, long heapBytes, Instant virtualTime,
                long writes) {
            this(clusters, seconds, stored, heapBytes, virtualTime, writes, 0, 0, Map.of(), new HashMap<>(), null);
        }
    }

    /**
     * {@code scaleHistogram=true}: which classes the run's heap is made of (class histograms before the creates,
     * at the end with the control plane running, and with only the stored objects kept), as notes.
     */
    private static boolean histograms() {
        return Boolean.getBoolean("bench.scaleHistogram");
    }

    private static final int HISTOGRAM_CLASSES = 20;

    /**
     * {@code scaleHeapByKind=false}: no heap per stored object by kind (two full collections per kind, minutes
     * at 100,000 clusters), for runs that compare CPU and wall time only.
     */
    private static boolean heapByKind() {
        return !"false".equals(System.getProperty("bench.scaleHeapByKind"));
    }

    /** Targets by size: issue 20's for 10,000 and 100,000 clusters. */
    private static String wallTarget(int n) {
        return n == 10_000 ? "≤ 15" : n == 100_000 ? "≤ 300" : null;
    }

    private static Boolean wallMet(int n, double seconds) {
        return n == 10_000 ? (Boolean) (seconds <= 15) : n == 100_000 ? (Boolean) (seconds <= 300) : null;
    }

    private static String heapTarget(int n) {
        return n == 10_000 ? "≤ 700" : n == 100_000 ? "≤ 7,168" : null;
    }

    private static Boolean heapMet(int n, long bytes) {
        return n == 10_000 ? (Boolean) (bytes <= 700L << 20) : n == 100_000 ? (Boolean) (bytes <= 7L << 30) : null;
    }

    static void run(BenchConfig cfg, Report report) {
        Map<Integer, Outcome> outcomes = new HashMap<>();
        for (int n : cfg.scaleSizes()) {
            Outcome o;
            Map<String, Double> heapByKind;
            try {
                o = once(n, report);
                if (o.before() != null) {
                    report.note(String.format(Locale.ROOT, "scale: %,d RayClusters, heap held by the stored objects "
                            + "alone (control plane closed): %s", n,
                            ClassHistogram.take().growthSince(o.before(), HISTOGRAM_CLASSES)));
                }
                heapByKind = heapByKind() ? heapByKind(o.objects()) : Map.of(); // lets the objects go
            } catch (RuntimeException e) {
                report.note("scale: " + n + " clusters did not all become ready (" + e.getMessage()
                        + "); the RayCluster reconciler or the simulated cluster may not have landed yet");
                return;
            }
            outcomes.put(n, o);
            report.add("scale", String.format(Locale.ROOT, "%,d RayClusters ready: wall time", n), o.seconds(), "s",
                    wallTarget(n), wallMet(n, o.seconds()));
            report.add("scale", String.format(Locale.ROOT, "%,d RayClusters: CPU time of the process (control loop)", n),
                    o.cpuSeconds(), "s (loop " + String.format(Locale.ROOT, "%.1f", o.loopCpuSeconds()) + " s)",
                    null, null);
            report.add("scale", String.format(Locale.ROOT, "%,d RayClusters: heap after GC", n),
                    o.heapBytes() / (double) (1 << 20), "MiB", heapTarget(n), heapMet(n, o.heapBytes()));
            report.add("scale", String.format(Locale.ROOT, "%,d RayClusters: objects stored (%s)", n,
                    o.stored().entrySet().stream().filter(e -> e.getValue() > 0)
                            .map(e -> e.getKey() + " " + e.getValue()).sorted().reduce((a, b) -> a + ", " + b)
                            .orElse("")),
                    o.stored().values().stream().mapToInt(Integer::intValue).sum(), "objects", null, null);
            int objects = o.stored().values().stream().mapToInt(Integer::intValue).sum();
            report.add("scale", String.format(Locale.ROOT, "%,d RayClusters: heap after GC per stored object", n),
                    o.heapBytes() / (double) objects / 1024, "KiB", null, null);
            heapByKind.forEach((kind, bytes) -> report.add("scale", String.format(Locale.ROOT,
                    "%,d RayClusters: heap per stored %s (%,d)", n, kind, o.stored().get(kind)), bytes / 1024, "KiB",
                    null, null));
        }
        growth(report, outcomes, 1_000, 10_000);
        growth(report, outcomes, 10_000, 100_000);
        if (!cfg.scaleSizes().contains(10_000)) {
            report.note("scale: reference KubeRay on GKE needs 1,515 s for 10,000 clusters; sizes run here: "
                    + cfg.scaleSizes());
        }
    }

    private static void growth(Report report, Map<Integer, Outcome> outcomes, int small, int large) {
        Outcome s = outcomes.get(small);
        Outcome l = outcomes.get(large);
        if (s != null && l != null) {
            String sizes = String.format(Locale.ROOT, "%,d → %,d", small, large);
            double wall = l.seconds() / s.seconds();
            report.add("scale", "wall time growth " + sizes, wall, "×", "≤ 11", wall <= 11);
            double cpu = l.cpuSeconds() / s.cpuSeconds();
            report.add("scale", "CPU time growth " + sizes, cpu, "×", "≤ 11", cpu <= 11);
            double heap = l.heapBytes() / (double) s.heapBytes();
            report.add("scale", "heap growth " + sizes, heap, "×", null, null);
        }
    }

    static Outcome once(int n, Report report) {
        try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(KuberaySimApplication.class)
                .web(WebApplicationType.NONE).bannerMode(Banner.Mode.OFF).logStartupInfo(false)
                .properties("kuberay-sim.clock=virtual", "kuberay-sim.virtual-speed=0", "kuberay-sim.controllers=true",
                        "logging.level.root=WARN", "springdoc.api-docs.enabled=false", "spring.jmx.enabled=false",
                        "kuberay-sim.watch-history=1000",
                        "kuberay-sim.nodes.count=" + nodes(n), "kuberay-sim.nodes.cpu=" + NODE_PODS,
                        "kuberay-sim.nodes.memory=" + NODE_PODS * 4 + "Gi", "kuberay-sim.nodes.pods=" + NODE_PODS)
                .run()) {
            VirtualClock clock = (VirtualClock) ctx.getBean(Clock.class);
            KubeClient client = ctx.getBean(KubeClient.class);
            ObjectStore store = ctx.getBean(ObjectStore.class);
            clock.awaitIdle();
            Instant virtualStart = clock.now();
            ClassHistogram before = histograms() ? ClassHistogram.take() : null;
            long r0 = store.revision();
            long t0 = System.nanoTime();
            long cpu0 = processCpuNanos();
            long loop0 = loopCpuNanos();
            ThreadCpu threads0 = ThreadCpu.take();
            long[] gc0 = gcPauses();
            for (int i = 0; i < n; i++) {
                ObjectNode rc = (ObjectNode) Json.MAPPER.readTree(RayClusters.json("scale-" + i, "bench", "scale"));
                client.create(ResourceTypes.RAYCLUSTERS, RayClusters.NAMESPACE, rc);
            }
            Instant deadline = clock.now().plus(LIMIT);
            long steps = 0;
            long checkingNanos = 0; // the loop is idle while the scenario counts the ready clusters
            while (true) {
                clock.awaitIdle();
                long c0 = System.nanoTime();
                boolean allReady = readyCount(store) == n;
                checkingNanos += System.nanoTime() - c0;
                if (allReady) {
                    break;
                }
                steps++;
                Optional<Instant> next = clock.nextTimer();
                if (next.isEmpty() || next.get().isAfter(deadline)) {
                    throw new IllegalStateException(readyCount(store) + " of " + n + " ready, nothing left to do at "
                            + clock.now());
                }
                clock.advance(Duration.between(clock.now(), next.get()));
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            double cpuSeconds = (processCpuNanos() - cpu0) / 1e9;
            double loopSeconds = (loopCpuNanos() - loop0) / 1e9;
            Map<String, Double> byThreads = ThreadCpu.take().since(threads0);
            long[] gc1 = gcPauses();
            report.note(String.format(Locale.ROOT, "scale: %,d RayClusters, %,d writes; virtual time moved %,d times;"
                    + " counting the ready clusters between moves took %.2f s of wall time", n, store.revision() - r0,
                    steps, checkingNanos / 1e9));
            report.note(String.format(Locale.ROOT, "scale: %,d RayClusters, garbage collections during the run: %,d,"
                    + " %.1f s in all", n, gc1[0] - gc0[0], (gc1[1] - gc0[1]) / 1e3));
            // printed as soon as the run ends: the heap measurements after it take minutes at 100,000 clusters
            report.note(String.format(Locale.ROOT, "scale: %,d RayClusters ready in %.1f s; CPU time by threads: %s"
                    + " (process %.1f s; threads that ended during the run count in the process only)", n, seconds,
                    ThreadCpu.format(byThreads), cpuSeconds));
            Map<String, Integer> stored = new HashMap<>();
            for (ResourceType t : ResourceTypes.ALL_TYPES) {
                stored.put(t.plural(), store.list(t, null).items().size());
            }
            long heap = heapAfterGc();
            Map<String, List<StoredObject>> byKind = new HashMap<>();
            for (ResourceType t : ResourceTypes.ALL_TYPES) {
                List<StoredObject> items = store.list(t, null).items();
                if (!items.isEmpty()) {
                    byKind.put(t.plural(), items);
                }
            }
            if (before != null) {
                report.note(String.format(Locale.ROOT, "scale: %,d RayClusters, heap held by the run (control plane "
                        + "running): %s", n, ClassHistogram.take().growthSince(before, HISTOGRAM_CLASSES)));
            }
            return new Outcome(n, seconds, stored, heap, virtualStart, store.revision() - r0, cpuSeconds,
                    loopSeconds, byThreads, byKind, before);
        }
    }

    private static long heapAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /**
     * Heap per stored object of each kind, taken after the control plane is gone: the stored objects are held in
     * one list per kind, and the lists are let go one after another (most objects first) with the heap after GC taken
     * before and after each. Structure objects share (one node per distinct string, the managedFields trees) counts
     * for the kind let go last.
     */
    private static Map<String, Double> heapByKind(Map<String, List<StoredObject>> byKind) {
        Map<String, Double> out = new java.util.LinkedHashMap<>();
        List<String> kinds = new ArrayList<>(byKind.keySet());
        kinds.sort(java.util.Comparator.comparingInt((String k) -> byKind.get(k).size()).reversed());
        long before = heapAfterGc();
        for (String kind : kinds) {
            int count = byKind.get(kind).size();
            byKind.remove(kind);
            long after = heapAfterGc();
            out.put(kind, (before - after) / (double) count);
            before = after;
        }
        return out;
    }

    /** Collections so far and their summed time in ms (for G1: the pauses), over all collectors. */
    private static long[] gcPauses() {
        long count = 0;
        long ms = 0;
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
            ms += Math.max(0, gc.getCollectionTime());
        }
        return new long[] {count, ms};
    }

    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
    }

    /** CPU time of the virtual clock's loop thread so far (0 if it cannot be found). */
    private static long loopCpuNanos() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(VirtualClock.LOOP_THREAD_NAME)) {
                long ns = ManagementFactory.getThreadMXBean().getThreadCpuTime(t.getId());
                return Math.max(0, ns);
            }
        }
        return 0;
    }

    /**
     * The same run on the wall clock (pods start 0.5 s after binding), with {@code extra} settings (the store):
     * wall time from the first create until every cluster is ready, polled every 100 ms.
     */
    static Outcome onceOnWallClock(int n, String... extra) {
        List<String> props = new ArrayList<>(List.of("--kuberay-sim.clock=wall", "--kuberay-sim.controllers=true",
                "--logging.level.root=WARN", "--springdoc.api-docs.enabled=false", "--spring.jmx.enabled=false",
                "--kuberay-sim.watch-history=1000", "--kuberay-sim.kubelet.startup-seconds=0.5",
                "--kuberay-sim.nodes.count=" + nodes(n), "--kuberay-sim.nodes.cpu=" + NODE_PODS,
                "--kuberay-sim.nodes.memory=" + NODE_PODS * 4 + "Gi", "--kuberay-sim.nodes.pods=" + NODE_PODS));
        for (String e : extra) {
            props.add("--" + e);
        }
        try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(KuberaySimApplication.class)
                .web(WebApplicationType.NONE).bannerMode(Banner.Mode.OFF).logStartupInfo(false)
                .run(props.toArray(String[]::new))) {
            KubeClient client = ctx.getBean(KubeClient.class);
            ObjectStore store = ctx.getBean(ObjectStore.class);
            long r0 = store.revision();
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                ObjectNode rc = (ObjectNode) Json.MAPPER.readTree(RayClusters.json("scale-" + i, "bench", "scale"));
                client.create(ResourceTypes.RAYCLUSTERS, RayClusters.NAMESPACE, rc);
            }
            long deadline = t0 + Duration.ofMinutes(15).toNanos();
            while (readyCount(store) < n) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(readyCount(store) + " of " + n + " ready after 15 minutes");
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            Map<String, Integer> stored = new HashMap<>();
            for (ResourceType t : ResourceTypes.ALL_TYPES) {
                stored.put(t.plural(), store.list(t, null).items().size());
            }
            return new Outcome(n, seconds, stored, 0, null, store.revision() - r0);
        }
    }

    /**
     * Nodes for {@code n} clusters: the default pool (4 nodes of 16 CPU, 110 pods) holds 20 of them, so the pool
     * grows with n at about 40 clusters (160 pods, 160 CPU, 200 Gi) per node of 256 pods, 256 CPU, 1 TiB.
     */
    static int nodes(int n) {
        return Math.max(4, (n + 39) / 40);
    }

    private static int readyCount(ObjectStore store) {
        int ready = 0;
        for (StoredObject o : store.list(ResourceTypes.RAYCLUSTERS, null).items()) {
            if ("ready".equals(Json.text(o.object(), "status", "state"))) {
                ready++;
            }
        }
        return ready;
    }
}
