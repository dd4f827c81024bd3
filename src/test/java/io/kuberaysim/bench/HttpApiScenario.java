package io.kuberaysim.bench;

import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scenario 1: the REST API on loopback, this server against fabric8's KubernetesMockServer (CRUD mode), both
 * holding the same RayClusters, driven by the same load generator. Operations alternate between servers
 * every round; ratios are taken within a round. Also: the create rate with a small and a large store.
 */
final class HttpApiScenario {
    /** The measured operations. */
    enum Op {
        CEILING("cheapest endpoint (ceiling)"),
        CREATE("create RayCluster (POST)"),
        GET("GET RayCluster by name"),
        LIST("LIST RayClusters, label selector (~10 of N)"),
        /** The same ~10 objects through a set-based selector the label index cannot serve: the full scan. */
        LIST_SCAN("LIST, same result via `in (..)` selector (full scan)"),
        PATCH("merge PATCH RayCluster");

        final String label;

        Op(String label) {
            this.label = label;
        }
    }

    /** A server under load. */
    interface Target extends AutoCloseable {
        String label();

        int port();

        /** The server's cheapest endpoint. */
        String ceilingPath();

        /** Removes objects created while measuring. */
        void removeCreated();

        /** Header lines the load generator adds to every request. */
        default String extraHeaders() {
            return "";
        }

        /** The start of the names of the server's request threads in this JVM (null: not measured). */
        default String serverThreads() {
            return null;
        }

        /**
         * Waits until the server's control plane has finished what the last burst caused (Pods, Services, Events,
         * the garbage collector's deletes) and returns the seconds that took; 0 without controllers. Its backlog
         * would otherwise run during the next burst, which may be another server's or the ceiling's.
         */
        default double settle() {
            return 0;
        }

        @Override
        void close();
    }

    private static final AtomicLong MEASUREMENT = new AtomicLong();
    /** JIT compilation per second of burst below which a warm-up cycle counts as settled (5 % of one core). */
    static final int SETTLED_JIT_MS_PER_S = 50;
    private static double lastPreloadSeconds;
    /** Wall time the control plane took to act on the preloaded objects (0 with the controllers off). */
    private static double lastSettleSeconds;
    private final BenchConfig cfg;
    private final Report report;
    long failures;
    static final String BENCH_TOKEN = "bench-token-0123456789abcdef0123456789abcdef";

    HttpApiScenario(BenchConfig cfg, Report report) {
        this.cfg = cfg;
        this.report = report;
    }

    static Target sim(boolean controllers, int objects) {
        return sim(controllers, objects, controllers ? "kuberay-sim (controllers on)" : "kuberay-sim");
    }

    /** This server under {@code label}, started with {@code extra} properties. */
    static Target sim(boolean controllers, int objects, String label, String... extra) {
        SimServer s = SimServer.start(controllers, extra);
        long t0 = System.nanoTime();
        RayClusters.preload(s.registry(), 0, objects, RayClusters.shards(objects));
        lastPreloadSeconds = (System.nanoTime() - t0) / 1e9;
        lastSettleSeconds = 0;
        if (controllers && s.bean(Clock.class) instanceof VirtualClock clock) {
            // the operator first creates every preloaded cluster's Pods and Service (virtual time stands still, so
            // this ends): measuring during that burst would measure the burst, not what a running control plane
            // adds to each request (the reconciles, Pods and Events the measured writes cause)
            long s0 = System.nanoTime();
            clock.awaitIdle();
            lastSettleSeconds = (System.nanoTime() - s0) / 1e9;
        }
        String ceiling = probe(s.port, "/version") ? "/version" : "/api/v1/namespaces/default";
        String threads = s.threadPrefix();
        VirtualClock loop = controllers && s.bean(Clock.class) instanceof VirtualClock clock ? clock : null;
        return new Target() {
            public String label() {
                return label;
            }

            public int port() {
                return s.port;
            }

            public String ceilingPath() {
                return ceiling;
            }

            public void removeCreated() {
                RayClusters.removeCreated(s.registry());
            }

            public String serverThreads() {
                return threads;
            }

            public double settle() {
                if (loop == null) {
                    return 0;
                }
                long s0 = System.nanoTime();
                loop.awaitIdle();
                return (System.nanoTime() - s0) / 1e9;
            }

            public void close() {
                s.close();
            }
        };
    }

    static Target mock(int objects, int connections) {
        MockApiServer m = new MockApiServer();
        int shards = RayClusters.shards(objects);
        long t0 = System.nanoTime();
        m.preload(RayClusters.COLLECTION, i -> RayClusters.preloaded(i, shards), objects);
        lastPreloadSeconds = (System.nanoTime() - t0) / 1e9;
        return new Target() {
            public String label() {
                return "fabric8 mock (CRUD)";
            }

            public int port() {
                return m.port;
            }

            public String ceilingPath() {
                return "/version";
            }

            public void removeCreated() {
                m.removeContaining(RayClusters.CREATED_MARKER);
            }

            public void close() {
                m.close();
            }
        };
    }

    private static boolean probe(int port, String path) {
        try (HttpConnection c = new HttpConnection(port)) {
            return c.exchange(HttpConnection.Request.get(path), false).status() == 200;
        } catch (Exception e) {
            return false;
        }
    }

    LoadGenerator.RequestSource source(Op op, Target t) {
        int objects = cfg.objects();
        int shards = RayClusters.shards(objects);
        long m = MEASUREMENT.incrementAndGet();
        String c = RayClusters.COLLECTION;
        byte[] patchPrefix = "{\"metadata\":{\"annotations\":{\"bench.kuberay-sim.io/touch\":\""
                .getBytes(StandardCharsets.UTF_8);
        return switch (op) {
            case CEILING -> (w, seq) -> HttpConnection.Request.get(t.ceilingPath());
            case CREATE -> (w, seq) -> new HttpConnection.Request("POST", c, "application/json",
                    RayClusters.created("c-" + m + "-" + w + "-" + seq));
            case GET -> (w, seq) -> HttpConnection.Request.get(c + "/rc-" + ThreadLocalRandom.current().nextInt(objects));
            case LIST -> (w, seq) -> HttpConnection.Request.get(c + "?labelSelector=" + RayClusters.SHARD_LABEL
                    + "%3Ds" + ThreadLocalRandom.current().nextInt(shards));
            case LIST_SCAN -> (w, seq) -> HttpConnection.Request.get(c + "?labelSelector=" + RayClusters.SHARD_LABEL
                    + "%20in%20(s" + ThreadLocalRandom.current().nextInt(shards) + ",none)");
            case PATCH -> (w, seq) -> new HttpConnection.Request("PATCH",
                    c + "/rc-" + ThreadLocalRandom.current().nextInt(objects), "application/merge-patch+json",
                    (new String(patchPrefix, StandardCharsets.UTF_8) + m + "-" + w + "-" + seq + "\"}}}")
                            .getBytes(StandardCharsets.UTF_8));
        };
    }

    double measure(Target t, Op op, Duration d) {
        if (!serves(t, op)) {
            return Double.NaN;
        }
        return burst(t, op, d).result().perSecond();
    }

    private static boolean serves(Target t, Op op) {
        return !(op == Op.LIST_SCAN && t.label().startsWith("fabric8")); // the mock has no set-based selectors
    }

    /**
     * One burst of load, what the server's threads and the JVM spent during it, and the control plane's backlog
     * after it: the seconds it took to finish what the burst caused and the control loops' CPU during the burst and
     * that backlog together.
     */
    record Burst(LoadGenerator.Result result, CostSnapshot.Cost cost, double backlogSeconds, long loopCpuNanos) {
    }

    private Burst burst(Target t, Op op, Duration d) {
        CostSnapshot before = CostSnapshot.take(t.serverThreads());
        LoadGenerator.Result r = LoadGenerator.run(t.port(), t.extraHeaders(), cfg.connections(), d, source(op, t));
        CostSnapshot.Cost cost = CostSnapshot.take(t.serverThreads()).since(before);
        double backlog = t.settle();
        long loopCpu = CostSnapshot.take(t.serverThreads()).since(before).loopCpuNanos();
        if (op == Op.CREATE) {
            t.removeCreated();
            t.settle(); // the garbage collector deletes the removed clusters' Pods and Services
        }
        if (r.failures() > 0) {
            failures += r.failures();
            report.note(t.label() + " " + op + ": " + r.failures() + " failed requests, first: " + r.firstFailure());
        }
        return new Burst(r, cost, backlog, loopCpu);
    }

    /**
     * An operation's rate and the ceiling's, measured next to each other on the same server, and the load
     * generator's CPU time per request of each (it runs on the same cores as the server).
     */
    record Paired(double rate, double ceiling, long completed, long ceilingCompleted, double ceilingSeconds,
                  double generatorMicros, double ceilingGeneratorMicros, CostSnapshot.Cost cost,
                  CostSnapshot.Cost ceilingCost, double backlogSeconds, long loopCpuNanos) {
        static final Paired NONE = new Paired(Double.NaN, Double.NaN, 0, 0, 0, Double.NaN, Double.NaN,
                CostSnapshot.Cost.NONE, CostSnapshot.Cost.NONE, 0, 0);

        double ratio() {
            return rate / ceiling;
        }

        /** CPU time of the server's request threads per completed request of the operation. */
        double serverMicros() {
            return cost.serverCpuNanos() / 1e3 / completed;
        }

        double ceilingServerMicros() {
            return ceilingCost.serverCpuNanos() / 1e3 / ceilingCompleted;
        }

        /** Bytes the server's request threads allocated per completed request of the operation, in KiB. */
        double serverKiB() {
            return cost.serverAllocatedBytes() / 1024.0 / completed;
        }

        double ceilingServerKiB() {
            return ceilingCost.serverAllocatedBytes() / 1024.0 / ceilingCompleted;
        }

        /** Control-loop CPU per request of the operation, during its bursts and the backlogs after them. */
        double loopMicros() {
            return loopCpuNanos / 1e3 / completed;
        }
    }

    /**
     * {@code op} and the ceiling on one server in four bursts of half {@link BenchConfig#measure()} each: ceiling,
     * op, op, ceiling. The ceiling swings by half between minutes on a shared machine, so a ratio is only
     * meaningful between figures taken in the same few seconds; the symmetric order gives a drift in the
     * machine's load during the pair the same weight on both.
     */
    Paired measurePaired(Target t, Op op) {
        if (!serves(t, op)) {
            return Paired.NONE;
        }
        Duration half = cfg.measure().dividedBy(2);
        Burst cb1 = burst(t, Op.CEILING, half);
        Burst xb1 = burst(t, op, half);
        Burst xb2 = burst(t, op, half);
        Burst cb2 = burst(t, Op.CEILING, half);
        LoadGenerator.Result c1 = cb1.result();
        LoadGenerator.Result x1 = xb1.result();
        LoadGenerator.Result x2 = xb2.result();
        LoadGenerator.Result c2 = cb2.result();
        long ceilingCompleted = c1.completed() + c2.completed();
        double ceilingSeconds = c1.seconds() + c2.seconds();
        long completed = x1.completed() + x2.completed();
        return new Paired(completed / (x1.seconds() + x2.seconds()), ceilingCompleted / ceilingSeconds, completed,
                ceilingCompleted, ceilingSeconds, (x1.generatorCpuNanos() + x2.generatorCpuNanos()) / 1e3 / completed,
                (c1.generatorCpuNanos() + c2.generatorCpuNanos()) / 1e3 / ceilingCompleted,
                xb1.cost().plus(xb2.cost()), cb1.cost().plus(cb2.cost()), xb1.backlogSeconds() + xb2.backlogSeconds(),
                xb1.loopCpuNanos() + xb2.loopCpuNanos());
    }

    /**
     * The configured warm-up spread over the operations, then cycles of every operation (half a measurement each)
     * until the JIT compiles for under {@value #SETTLED_JIT_MS_PER_S} ms per second of a cycle's bursts, for at most
     * twice the configured warm-up more: the state of a server that has been serving these requests for a while,
     * which the ceiling's short path reaches within seconds. In session 8 the create path was still compiling in the
     * measured rounds (436 ms of JIT per second of create burst, 1 ms during the ceiling's bursts), on the same two
     * cores as the server and the generator, so the ratios measured the JIT as well. The rates stay what a client
     * sees; only the warm-up ends later.
     */
    void warmUp(Target t) {
        Duration each = cfg.warmup().dividedBy(Op.values().length);
        for (Op op : Op.values()) {
            measure(t, op, each);
        }
        long start = System.nanoTime();
        long limit = start + 2 * cfg.warmup().toNanos();
        Duration step = cfg.measure().dividedBy(2);
        int cycles = 0;
        double jitPerSecond = Double.NaN;
        while (System.nanoTime() < limit) {
            long jit = 0;
            double seconds = 0;
            for (Op op : Op.values()) {
                if (serves(t, op)) {
                    Burst b = burst(t, op, step);
                    jit += b.cost().jitMillis();
                    seconds += b.result().seconds();
                }
            }
            cycles++;
            jitPerSecond = jit / seconds;
            if (jitPerSecond < SETTLED_JIT_MS_PER_S) {
                break;
            }
        }
        report.note(String.format(java.util.Locale.ROOT, "%s: warm-up %.1f s, then %d cycle(s) of every operation "
                        + "in %.1f s, %s (the last cycle's JIT %.0f ms per second of burst; settled below %d)",
                t.label(), cfg.warmup().toMillis() / 1000.0, cycles, (System.nanoTime() - start) / 1e9,
                jitPerSecond < SETTLED_JIT_MS_PER_S ? "the JIT settled" : "stopped at the limit, the JIT not settled",
                jitPerSecond, SETTLED_JIT_MS_PER_S));
    }

    void run() {
        List<Target> targets = new ArrayList<>();
        try {
            targets.add(sim(false, cfg.objects()));
            double simPreload = lastPreloadSeconds;
            targets.add(mock(cfg.objects(), cfg.connections()));
            report.note(String.format(java.util.Locale.ROOT,
                    "preload of %,d RayClusters: kuberay-sim %.1f s (in process, through the registry), "
                            + "fabric8 mock %.1f s (straight into its CRUD map: over HTTP its create scans every object)",
                    cfg.objects(), simPreload, lastPreloadSeconds));
            if (cfg.controllersOn()) {
                targets.add(sim(true, cfg.objects()));
                report.note(String.format(java.util.Locale.ROOT, "controllers on: the operator acted on the %,d "
                        + "preloaded RayClusters in %.1f s before the measurements began", cfg.objects(),
                        lastSettleSeconds));
            }
            report.note("ceiling endpoint of kuberay-sim: GET " + targets.get(0).ceilingPath());
            for (Target t : targets) {
                warmUp(t);
            }
            List<Op> measured = List.of(Op.CREATE, Op.GET, Op.LIST, Op.LIST_SCAN, Op.PATCH);
            Map<Target, Map<Op, List<Paired>>> results = new LinkedHashMap<>();
            for (Target t : targets) {
                Map<Op, List<Paired>> m = new EnumMap<>(Op.class);
                measured.forEach(op -> m.put(op, new ArrayList<>()));
                results.put(t, m);
            }
            for (int round = 0; round < cfg.rounds(); round++) {
                for (Op op : measured) {
                    for (int k = 0; k < targets.size(); k++) {
                        Target t = targets.get((k + round) % targets.size()); // rotate who goes first
                        results.get(t).get(op).add(measurePaired(t, op));
                    }
                }
            }
            Target sim = targets.get(0);
            Target mock = targets.get(1);
            for (Target t : targets) {
                Map<Op, List<Paired>> m = results.get(t);
                report.add("http", t.label() + ": " + Op.CEILING.label, Stats.of(ceilingPerRound(m)), "req/s", null,
                        null);
                for (Op op : measured) {
                    List<Double> v = rates(m.get(op)).stream().filter(x -> !x.isNaN()).toList();
                    if (!v.isEmpty()) {
                        report.add("http", t.label() + ": " + op.label, Stats.of(v), "req/s", null, null);
                    }
                }
            }
            Map<Op, List<Paired>> s = results.get(sim);
            Map<Op, List<Paired>> mk = results.get(mock);
            report.note(String.format(java.util.Locale.ROOT, "load generator CPU per request on %s (median of the "
                    + "rounds; its threads share the cores with the server, which makes every ratio to the ceiling "
                    + "closer to 1 than the server's own costs would): ceiling %.1f µs, create %.1f, GET %.1f, merge "
                    + "PATCH %.1f", sim.label(), Stats.of(s.get(Op.CREATE).stream()
                            .map(Paired::ceilingGeneratorMicros).toList()).median(),
                    generatorMedian(s.get(Op.CREATE)), generatorMedian(s.get(Op.GET)),
                    generatorMedian(s.get(Op.PATCH))));
            reportServerCost(sim.label(), s);
            Stats createCeil = pairedRatio(s.get(Op.CREATE));
            report.add("http", "create / ceiling", createCeil, "ratio", "≥ 0.5", createCeil.median() >= 0.5);
            Stats getCeil = pairedRatio(s.get(Op.GET));
            report.add("http", "GET / ceiling", getCeil, "ratio", "≥ 0.9", getCeil.median() >= 0.9);
            report.add("http", "LIST (selector) / ceiling", pairedRatio(s.get(Op.LIST)), "ratio", null, null);
            report.add("http", "LIST via label index / via full scan", Stats.ratio(rates(s.get(Op.LIST)),
                    rates(s.get(Op.LIST_SCAN))), "ratio", null, null);
            Stats patchCeil = pairedRatio(s.get(Op.PATCH));
            report.add("http", "merge PATCH / ceiling", patchCeil, "ratio", "≥ 0.5", patchCeil.median() >= 0.5);
            for (Op op : List.of(Op.CREATE, Op.GET, Op.LIST, Op.PATCH)) {
                Stats r = Stats.ratio(rates(s.get(op)), rates(mk.get(op)));
                boolean create = op == Op.CREATE;
                report.add("http", op.label + ": kuberay-sim / mock", r, "ratio", create ? "≥ 50" : null,
                        create ? r.median() >= 50 : null);
            }
            if (targets.size() > 2) {
                Map<Op, List<Paired>> on = results.get(targets.get(2));
                for (Op op : List.of(Op.CREATE, Op.GET, Op.LIST, Op.PATCH)) {
                    Stats r = Stats.ratio(rates(on.get(op)), rates(s.get(op)));
                    boolean targeted = op != Op.LIST; // issue 20: create, GET and PATCH within 10 % with controllers on
                    report.add("http", op.label + ": controllers on / off", r, "ratio", targeted ? "≥ 0.9" : null,
                            targeted ? r.median() >= 0.9 : null);
                }
                reportServerCost(targets.get(2).label(), on);
                for (Op op : List.of(Op.CREATE, Op.GET, Op.PATCH)) {
                    report.add("http", op.label + ": server CPU per request, controllers on / off",
                            Stats.ratio(perPair(on.get(op), Paired::serverMicros),
                                    perPair(s.get(op), Paired::serverMicros)), "ratio", null, null);
                }
                report.add("http", "controllers on: control-loop CPU per created RayCluster (during the bursts "
                        + "and the backlog after them)", Stats.of(perPair(on.get(Op.CREATE), Paired::loopMicros)),
                        "µs", null, null);
                report.add("http", "controllers on: the control plane's backlog after a create pair (until idle)",
                        Stats.of(perPair(on.get(Op.CREATE), Paired::backlogSeconds)), "s", null, null);
            }
        } finally {
            for (Target t : targets) {
                t.close();
            }
        }
    }

    /**
     * The server's own cost per request, which moves far less between runs on a shared machine than the rates: CPU
     * time and allocation of its request threads per request of the ceiling (all pairs' ceiling bursts) and of
     * create, GET and merge PATCH, and the JVM's GC and JIT time per second of create and ceiling bursts.
     */
    private void reportServerCost(String label, Map<Op, List<Paired>> byOp) {
        List<Paired> all = new ArrayList<>();
        for (Op op : List.of(Op.CREATE, Op.GET, Op.PATCH)) {
            all.addAll(byOp.get(op));
        }
        if (all.stream().allMatch(p -> p.cost().serverCpuNanos() == 0)) {
            return; // its threads were not found
        }
        report.add("http", label + ": server CPU per request, ceiling", Stats.of(perPair(all,
                Paired::ceilingServerMicros)), "µs", null, null);
        for (Op op : List.of(Op.CREATE, Op.GET, Op.PATCH)) {
            report.add("http", label + ": server CPU per request, " + op.label, Stats.of(perPair(byOp.get(op),
                    Paired::serverMicros)), "µs", null, null);
        }
        report.add("http", label + ": server allocation per request, ceiling", Stats.of(perPair(all,
                Paired::ceilingServerKiB)), "KiB", null, null);
        for (Op op : List.of(Op.CREATE, Op.GET, Op.PATCH)) {
            report.add("http", label + ": server allocation per request, " + op.label, Stats.of(perPair(byOp.get(op),
                    Paired::serverKiB)), "KiB", null, null);
        }
        List<Paired> creates = byOp.get(Op.CREATE);
        double burstSeconds = cfg.measure().toMillis() / 1000.0; // two half bursts of the op, two of the ceiling
        report.note(String.format(java.util.Locale.ROOT, "%s, per second of burst (median of the create pairs; "
                        + "JIT and GC threads share the two cores with the server and the generator): GC %.0f ms during "
                        + "create, %.0f ms during the ceiling; JIT compilation %.0f ms during create, %.0f ms during the "
                        + "ceiling", label,
                Stats.of(perPair(creates, p -> p.cost().gcMillis() / burstSeconds)).median(),
                Stats.of(perPair(creates, p -> p.ceilingCost().gcMillis() / burstSeconds)).median(),
                Stats.of(perPair(creates, p -> p.cost().jitMillis() / burstSeconds)).median(),
                Stats.of(perPair(creates, p -> p.ceilingCost().jitMillis() / burstSeconds)).median()));
    }

    private static List<Double> perPair(List<Paired> pairs, java.util.function.ToDoubleFunction<Paired> figure) {
        return pairs.stream().mapToDouble(figure).filter(x -> !Double.isNaN(x)).boxed().toList();
    }

    private static double generatorMedian(List<Paired> pairs) {
        return Stats.of(pairs.stream().map(Paired::generatorMicros).toList()).median();
    }

    private static List<Double> rates(List<Paired> pairs) {
        return pairs.stream().map(Paired::rate).toList();
    }

    /** Each round's op / ceiling ratios, each from one pair of neighbouring measurements. */
    private static Stats pairedRatio(List<Paired> pairs) {
        return Stats.of(pairs.stream().map(Paired::ratio).filter(x -> !x.isNaN()).toList());
    }

    /** The ceiling's rate in each round: every ceiling burst of that round's pairs together. */
    private static List<Double> ceilingPerRound(Map<Op, List<Paired>> byOp) {
        List<Double> perRound = new ArrayList<>();
        int rounds = byOp.values().iterator().next().size();
        for (int round = 0; round < rounds; round++) {
            long completed = 0;
            double seconds = 0;
            for (List<Paired> pairs : byOp.values()) {
                completed += pairs.get(round).ceilingCompleted();
                seconds += pairs.get(round).ceilingSeconds();
            }
            perRound.add(completed / seconds);
        }
        return perRound;
    }

    /**
     * What the request metrics cost: the ceiling and GET by name on two servers with the same objects, one with the
     * request metrics filter and one without ({@code kuberay-sim.metrics.requests=false}), alternating every round.
     */
    void runMetricsOverhead() {
        List<Target> targets = new ArrayList<>();
        try {
            targets.add(sim(false, cfg.objects(), "kuberay-sim (request metrics on)"));
            targets.add(sim(false, cfg.objects(), "kuberay-sim (request metrics off)",
                    "kuberay-sim.metrics.requests=false"));
            compareAlternating("metrics", targets, "request metrics on / off");
        } finally {
            for (Target t : targets) {
                t.close();
            }
        }
    }

    /**
     * What bearer-token authentication costs: the ceiling and GET by name on two servers with the same objects, one
     * without authentication (the Host/Origin guard still runs) and one with {@code kuberay-sim.auth.token}, whose
     * load carries the token, alternating every round. The ceiling path ({@code /version}) is public, so for it
     * the token is checked but nothing is refused.
     */
    void runAuthOverhead() {
        List<Target> targets = new ArrayList<>();
        try {
            targets.add(sim(false, cfg.objects(), "kuberay-sim (token auth on)", "kuberay-sim.auth.token=" + BENCH_TOKEN));
            targets.add(sim(false, cfg.objects(), "kuberay-sim (no auth)"));
            Target withToken = targets.get(0);
            targets.set(0, new Target() {
                public String label() {
                    return withToken.label();
                }

                public int port() {
                    return withToken.port();
                }

                public String ceilingPath() {
                    return "/version";
                }

                public void removeCreated() {
                    withToken.removeCreated();
                }

                public String extraHeaders() {
                    return "Authorization: Bearer " + BENCH_TOKEN + "\r\n";
                }

                public void close() {
                    withToken.close();
                }
            });
            compareAlternating("auth", targets, "token auth on / off");
        } finally {
            for (Target t : targets) {
                t.close();
            }
        }
    }

    /**
     * The store's cost over HTTP: create, GET, LIST (label selector) and merge PATCH on two servers with the same
     * objects, the in-memory store and etcd at {@code etcdEndpoint} (both on the wall clock, controllers off),
     * alternating every round; ratio etcd / memory per round.
     */
    void runStorage(String etcdEndpoint) {
        List<Target> targets = new ArrayList<>();
        try {
            targets.add(sim(false, cfg.objects(), "kuberay-sim (etcd)", "kuberay-sim.clock=wall",
                    "kuberay-sim.storage=etcd", "kuberay-sim.etcd.endpoints=" + etcdEndpoint));
            report.note(String.format(java.util.Locale.ROOT, "etcd: preload of %,d RayClusters through the registry "
                    + "into etcd %.1f s", cfg.objects(), lastPreloadSeconds));
            targets.add(sim(false, cfg.objects(), "kuberay-sim (in memory)", "kuberay-sim.clock=wall"));
            compare("etcd", targets, List.of(Op.CEILING, Op.CREATE, Op.GET, Op.LIST, Op.PATCH), "etcd / in memory",
                    null);
        } finally {
            for (Target t : targets) {
                t.close();
            }
        }
    }

    /** Ceiling and GET on two targets, warmed up, then alternating rounds; ratio first / second per round. */
    private void compareAlternating(String section, List<Target> targets, String ratioLabel) {
        compare(section, targets, List.of(Op.CEILING, Op.GET), ratioLabel, 0.95);
    }

    /** {@code ops} on two targets, warmed up, then alternating rounds; ratio first / second per round, ≥ target. */
    private void compare(String section, List<Target> targets, List<Op> ops, String ratioLabel, Double target) {
        Duration each = cfg.warmup().dividedBy(ops.size());
        for (Target t : targets) {
            for (Op op : ops) {
                measure(t, op, each);
            }
        }
        Map<Target, Map<Op, List<Double>>> results = new LinkedHashMap<>();
        for (Target t : targets) {
            results.put(t, new EnumMap<>(Op.class));
            ops.forEach(op -> results.get(t).put(op, new ArrayList<>()));
        }
        for (int round = 0; round < cfg.rounds(); round++) {
            for (Op op : ops) {
                for (int k = 0; k < targets.size(); k++) {
                    Target t = targets.get((k + round) % targets.size());
                    results.get(t).get(op).add(measure(t, op, cfg.measure()));
                }
            }
        }
        for (Target t : targets) {
            for (Op op : ops) {
                report.add(section, t.label() + ": " + op.label, Stats.of(results.get(t).get(op)), "req/s", null, null);
            }
        }
        for (Op op : ops) {
            Stats r = Stats.ratio(results.get(targets.get(0)).get(op), results.get(targets.get(1)).get(op));
            report.add(section, op.label + ": " + ratioLabel, r, "ratio", target == null ? null : "≥ " + target,
                    target == null ? null : r.median() >= target);
        }
    }

    /** The create rate with a small and with a large store, alternating; the large one must keep ≥ 90%. */
    void runGrowth() {
        List<Target> targets = new ArrayList<>();
        try {
            targets.add(sim(false, cfg.growthSmall()));
            targets.add(sim(false, cfg.growthLarge()));
            Duration each = cfg.warmup().dividedBy(2);
            for (Target t : targets) {
                measure(t, Op.CREATE, each);
            }
            List<Double> small = new ArrayList<>();
            List<Double> large = new ArrayList<>();
            for (int round = 0; round < cfg.rounds(); round++) {
                boolean smallFirst = round % 2 == 0;
                if (smallFirst) {
                    small.add(measure(targets.get(0), Op.CREATE, cfg.measure()));
                }
                large.add(measure(targets.get(1), Op.CREATE, cfg.measure()));
                if (!smallFirst) {
                    small.add(measure(targets.get(0), Op.CREATE, cfg.measure()));
                }
            }
            report.add("growth", String.format(java.util.Locale.ROOT, "create with %,d stored", cfg.growthSmall()),
                    Stats.of(small), "req/s", null, null);
            report.add("growth", String.format(java.util.Locale.ROOT, "create with %,d stored", cfg.growthLarge()),
                    Stats.of(large), "req/s", null, null);
            Stats r = Stats.ratio(large, small);
            report.add("growth", String.format(java.util.Locale.ROOT, "create rate %,d / %,d stored",
                    cfg.growthLarge(), cfg.growthSmall()), r, "ratio", "≥ 0.9", r.median() >= 0.9);
        } finally {
            for (Target t : targets) {
                t.close();
            }
        }
    }
}
