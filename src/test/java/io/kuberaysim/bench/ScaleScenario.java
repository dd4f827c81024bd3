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
 * Wall time from the first create to the last cluster ready, objects stored, heap after GC.
 */
final class ScaleScenario {
    private static final Duration LIMIT = Duration.ofHours(1);
    /** Pods (and CPU cores, and 4 Gi of memory each) per node of the enlarged pool. */
    private static final int NODE_PODS = 256;

    private ScaleScenario() {
    }

    /** One size's outcome. */
    record Outcome(int clusters, double seconds, Map<String, Integer> stored, long heapBytes, Instant virtualTime,
                   long writes) {
    }

    static void run(BenchConfig cfg, Report report) {
        Map<Integer, Outcome> outcomes = new HashMap<>();
        for (int n : cfg.scaleSizes()) {
            Outcome o;
            try {
                o = once(n);
            } catch (RuntimeException e) {
                report.note("scale: " + n + " clusters did not all become ready (" + e.getMessage()
                        + "); the RayCluster reconciler or the simulated cluster may not have landed yet");
                return;
            }
            outcomes.put(n, o);
            boolean big = n >= 10_000;
            report.add("scale", String.format(Locale.ROOT, "%,d RayClusters ready: wall time", n), o.seconds(), "s",
                    big ? "≤ 30" : null, big ? o.seconds() <= 30 : null);
            report.add("scale", String.format(Locale.ROOT, "%,d RayClusters: heap after GC", n),
                    o.heapBytes() / (double) (1 << 20), "MiB", big ? "≤ 1,024" : null,
                    big ? o.heapBytes() <= (1L << 30) : null);
            report.add("scale", String.format(Locale.ROOT, "%,d RayClusters: objects stored (%s)", n,
                    o.stored().entrySet().stream().filter(e -> e.getValue() > 0)
                            .map(e -> e.getKey() + " " + e.getValue()).sorted().reduce((a, b) -> a + ", " + b)
                            .orElse("")),
                    o.stored().values().stream().mapToInt(Integer::intValue).sum(), "objects", null, null);
        }
        Outcome small = outcomes.get(1_000);
        Outcome large = outcomes.get(10_000);
        if (small != null && large != null) {
            double growth = large.seconds() / small.seconds();
            report.add("scale", "wall time growth 1,000 → 10,000", growth, "×", "≤ 11", growth <= 11);
        }
        if (!cfg.scaleSizes().contains(10_000)) {
            report.note("scale: reference KubeRay on GKE needs 1,515 s for 10,000 clusters; sizes run here: "
                    + cfg.scaleSizes());
        }
    }

    static Outcome once(int n) {
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
            long r0 = store.revision();
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                ObjectNode rc = (ObjectNode) Json.MAPPER.readTree(RayClusters.json("scale-" + i, "bench", "scale"));
                client.create(ResourceTypes.RAYCLUSTERS, RayClusters.NAMESPACE, rc);
            }
            Instant deadline = clock.now().plus(LIMIT);
            while (true) {
                clock.awaitIdle();
                if (readyCount(store) == n) {
                    break;
                }
                Optional<Instant> next = clock.nextTimer();
                if (next.isEmpty() || next.get().isAfter(deadline)) {
                    throw new IllegalStateException(readyCount(store) + " of " + n + " ready, nothing left to do at "
                            + clock.now());
                }
                clock.advance(Duration.between(clock.now(), next.get()));
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            Map<String, Integer> stored = new HashMap<>();
            for (ResourceType t : ResourceTypes.ALL_TYPES) {
                stored.put(t.plural(), store.list(t, null).items().size());
            }
            System.gc();
            long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            return new Outcome(n, seconds, stored, heap, virtualStart, store.revision() - r0);
        }
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
