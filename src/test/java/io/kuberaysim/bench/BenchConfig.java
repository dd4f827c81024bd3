package io.kuberaysim.bench;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Benchmark sizes and durations. Two presets ({@code full}: the figures in BENCHMARKS.md; {@code smoke}: tiny,
 * run by the normal build), each value overridable with a {@code -Dbench.<name>=} system property.
 *
 * @param objects         RayClusters stored before the HTTP figures are taken
 * @param warmup          time under load per server before measuring (spread over the operations)
 * @param measure         length of one measurement of one operation on one server
 * @param rounds          measurement rounds; servers alternate order each round; median, min and max reported
 * @param connections     keep-alive connections (one load thread each)
 * @param growthSmall     stored objects of the small store in the create-rate-vs-store-size figure
 * @param growthLarge     stored objects of the large store
 * @param scaleSizes      RayCluster counts of the scale scenario
 * @param watchers        concurrent HTTP watchers in the fan-out scenario
 * @param watchWrites     writes observed by every watcher
 * @param controllersOn   also measure the HTTP figures with the controllers switched on
 * @param scenarios       which scenarios run
 * @param churnRuns       consecutive create/delete churn runs on one server
 * @param churn           length of one churn run
 * @param churnEventTtls  {@code kuberay-sim.event-ttl} values, one server each ({@code 0}: Events never expire)
 * @param slowClients     connections trickling request bodies in the slow-client scenario
 * @param slowWatchers    watchers that never read in the slow-watcher scenario
 * @param bigBodies       clients sending a big body at once in the big-body scenario
 * @param bigBodyMiB      size of each big body
 * @param hostile         length of the write load in the slow-watcher scenario (and of the latency sampling in the
 *                        slow-client one)
 */
record BenchConfig(String name, int objects, Duration warmup, Duration measure, int rounds, int connections,
                   int growthSmall, int growthLarge, List<Integer> scaleSizes, int watchers, int watchWrites,
                   boolean controllersOn, Set<String> scenarios, int churnRuns, Duration churn,
                   List<String> churnEventTtls, int slowClients, int slowWatchers, int bigBodies, int bigBodyMiB,
                   Duration hostile) {

    static final List<String> ALL_SCENARIOS = List.of("http", "metrics", "auth", "growth", "scale", "watch", "demo",
            "churn", "slowclients", "slowwatchers", "bigbodies", "etcd", "chaos", "start");

    static BenchConfig full() {
        return new BenchConfig("full", 10_000, Duration.ofSeconds(60), Duration.ofSeconds(4), 5, 16,
                1_000, 100_000, List.of(100, 1_000, 10_000), 100, 10_000, true, Set.copyOf(ALL_SCENARIOS),
                3, Duration.ofSeconds(60), List.of("30s", "0"), 300, 300, 20, 100, Duration.ofSeconds(15));
    }

    static BenchConfig smoke() {
        return new BenchConfig("smoke", 40, Duration.ofMillis(500), Duration.ofMillis(150), 2, 4,
                20, 200, List.of(2, 5), 3, 30, false, Set.copyOf(ALL_SCENARIOS),
                3, Duration.ofMillis(700), List.of("30s"), 20, 10, 2, 4, Duration.ofMillis(300));
    }

    /** The preset named by {@code bench.profile} (default {@code fallback}) with system-property overrides. */
    static BenchConfig fromSystemProperties(String fallback) {
        BenchConfig base = System.getProperty("bench.profile", fallback).equals("smoke") ? smoke() : full();
        return new BenchConfig(base.name,
                intProp("objects", base.objects),
                Duration.ofMillis(longProp("warmupMs", base.warmup.toMillis())),
                Duration.ofMillis(longProp("measureMs", base.measure.toMillis())),
                intProp("rounds", base.rounds),
                intProp("connections", base.connections),
                intProp("growthSmall", base.growthSmall),
                intProp("growthLarge", base.growthLarge),
                listProp("scaleSizes", base.scaleSizes),
                intProp("watchers", base.watchers),
                intProp("watchWrites", base.watchWrites),
                Boolean.parseBoolean(System.getProperty("bench.controllersOn", Boolean.toString(base.controllersOn))),
                setProp("scenarios", base.scenarios),
                intProp("churnRuns", base.churnRuns),
                Duration.ofMillis(longProp("churnMs", base.churn.toMillis())),
                stringListProp("churnEventTtls", base.churnEventTtls),
                intProp("slowClients", base.slowClients),
                intProp("slowWatchers", base.slowWatchers),
                intProp("bigBodies", base.bigBodies),
                intProp("bigBodyMiB", base.bigBodyMiB),
                Duration.ofMillis(longProp("hostileMs", base.hostile.toMillis())));
    }

    boolean runs(String scenario) {
        return scenarios.contains(scenario);
    }

    private static int intProp(String n, int def) {
        return Integer.parseInt(System.getProperty("bench." + n, Integer.toString(def)).replace("_", ""));
    }

    private static long longProp(String n, long def) {
        return Long.parseLong(System.getProperty("bench." + n, Long.toString(def)).replace("_", ""));
    }

    private static List<Integer> listProp(String n, List<Integer> def) {
        String v = System.getProperty("bench." + n);
        return v == null ? def : Arrays.stream(v.split(",")).map(String::trim).map(s -> s.replace("_", ""))
                .map(Integer::parseInt).toList();
    }

    private static List<String> stringListProp(String n, List<String> def) {
        String v = System.getProperty("bench." + n);
        return v == null ? def : Arrays.stream(v.split(",")).map(String::trim).toList();
    }

    private static Set<String> setProp(String n, Set<String> def) {
        String v = System.getProperty("bench." + n);
        return v == null ? def : Arrays.stream(v.split(",")).map(String::trim).collect(Collectors.toSet());
    }

    String describe() {
        return "profile " + name + ": " + objects + " stored objects, warm-up " + warmup.toMillis() / 1000.0
                + " s per server, " + rounds + " rounds of " + measure.toMillis() / 1000.0 + " s per operation, "
                + connections + " connections";
    }
}
