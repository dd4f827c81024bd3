package io.kuberaysim.bench;

import io.kuberaysim.testing.EtcdServer;

/**
 * Scenario: the same figures on etcd and on the in-memory store, side by side in one run, with a local etcd
 * (Debian's etcd-server, data on tmpfs when there is one, so no disk fsync in the figures): create, GET, LIST and
 * PATCH over HTTP, watch fan-out, and the 1,000-RayCluster scale run on the wall clock (etcd refuses the virtual
 * clock, so both stores run it on the wall clock here).
 */
final class EtcdScenario {
    private EtcdScenario() {
    }

    static void run(BenchConfig cfg, Report report) {
        if (!EtcdServer.installed()) {
            report.note("etcd: skipped, no etcd binary on the PATH (apt-get install etcd-server)");
            return;
        }
        try (EtcdServer etcd = EtcdServer.start()) {
            new HttpApiScenario(cfg, report).runStorage(etcd.endpoint());
            int writes = cfg.watchWrites();
            String history = "kuberay-sim.watch-history=" + (writes + 10_000);
            WatchFanoutScenario watch = new WatchFanoutScenario(cfg, report);
            watch.runOn("etcd", "in memory: ", history, "kuberay-sim.clock=wall");
            watch.runOn("etcd", "etcd: ", history, "kuberay-sim.clock=wall", "kuberay-sim.storage=etcd",
                    "kuberay-sim.etcd.endpoints=" + etcd.endpoint(), "kuberay-sim.etcd.prefix=/watch-bench");
            // the largest size up to 1,000: 10,000 clusters on the wall clock would take most of an hour
            cfg.scaleSizes().stream().filter(n -> n <= 1_000).max(Integer::compare).ifPresent(n -> {
                ScaleScenario.Outcome memory = ScaleScenario.onceOnWallClock(n);
                ScaleScenario.Outcome onEtcd = ScaleScenario.onceOnWallClock(n, "kuberay-sim.storage=etcd",
                        "kuberay-sim.etcd.endpoints=" + etcd.endpoint(), "kuberay-sim.etcd.prefix=/scale-" + n);
                report.add("etcd", String.format(java.util.Locale.ROOT,
                        "%,d RayClusters ready, wall clock: in memory", n), memory.seconds(), "s", null, null);
                report.add("etcd", String.format(java.util.Locale.ROOT,
                        "%,d RayClusters ready, wall clock: etcd", n), onEtcd.seconds(), "s", null, null);
                report.add("etcd", String.format(java.util.Locale.ROOT,
                        "%,d RayClusters: writes (revisions) per second on etcd", n),
                        onEtcd.writes() / onEtcd.seconds(), "writes/s", null, null);
                report.add("etcd", String.format(java.util.Locale.ROOT, "%,d RayClusters: time etcd / in memory", n),
                        onEtcd.seconds() / memory.seconds(), "ratio", null, null);
            });
        }
    }
}
