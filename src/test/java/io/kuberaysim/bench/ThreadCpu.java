package io.kuberaysim.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * CPU time of every thread of this JVM, the native ones included (GC workers, concurrent marking, JIT compilers,
 * which {@code ThreadMXBean} does not list), read from Linux's {@code /proc/self/task/<tid>/stat}. A snapshot
 * is taken before and after a run; {@link #since} groups the difference by what the threads do. Empty where
 * {@code /proc} is not there.
 */
final class ThreadCpu {
    /** The kernel's clock tick for utime/stime: 100 Hz on every Linux this runs on. */
    private static final double TICK_SECONDS = 0.01;

    private record Sample(String name, long ticks) {
    }

    private final Map<Long, Sample> byTid;

    private ThreadCpu(Map<Long, Sample> byTid) {
        this.byTid = byTid;
    }

    static ThreadCpu take() {
        Map<Long, Sample> out = new HashMap<>();
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return new ThreadCpu(out);
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tasks)) {
            for (Path dir : dirs) {
                try {
                    String stat = Files.readString(dir.resolve("stat"));
                    // "tid (comm) state ... utime stime ...": comm may hold spaces and parentheses, so cut at the
                    // last ')'; utime and stime are fields 14 and 15, i.e. the 12th and 13th after the state.
                    int open = stat.indexOf('(');
                    int close = stat.lastIndexOf(')');
                    String[] rest = stat.substring(close + 2).split(" ");
                    long ticks = Long.parseLong(rest[11]) + Long.parseLong(rest[12]);
                    out.put(Long.parseLong(dir.getFileName().toString()),
                            new Sample(stat.substring(open + 1, close), ticks));
                } catch (IOException | RuntimeException e) {
                    // the thread ended while we listed the directory
                }
            }
        } catch (IOException e) {
            return new ThreadCpu(new HashMap<>());
        }
        return new ThreadCpu(out);
    }

    /**
     * Seconds of CPU by group (loop, GC pauses, GC concurrent, JIT, scenario, other) since {@code before}; threads that ended in between
     * are missing (their time is in the process total only).
     */
    Map<String, Double> since(ThreadCpu before) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String g : new String[] {"loop", "GC pauses", "GC concurrent", "JIT", "scenario", "other"}) {
            out.put(g, 0.0);
        }
        byTid.forEach((tid, now) -> {
            Sample then = before.byTid.get(tid);
            long ticks = now.ticks() - (then != null && then.name().equals(now.name()) ? then.ticks() : 0);
            out.merge(group(now.name()), ticks * TICK_SECONDS, Double::sum);
        });
        return out;
    }

    /** One line, e.g. "loop 21.4 s, GC pauses 8.0 s, GC concurrent 4.0 s, JIT 3.1 s, scenario 2.2 s, other 1.0 s". */
    static String format(Map<String, Double> groups) {
        StringBuilder sb = new StringBuilder();
        groups.forEach((g, s) -> sb.append(sb.isEmpty() ? "" : ", ").append(g)
                .append(String.format(Locale.ROOT, " %.1f s", s)));
        return sb.toString();
    }

    private static String group(String name) {
        if (name.startsWith("kuberay-sim-loo")) {
            return "loop";
        }
        if (name.startsWith("GC Thread") || name.equals("VM Thread")) {
            return "GC pauses"; // the parallel workers; the VM thread runs the safepoints, here nearly all GC pauses
        }
        if (name.startsWith("G1 ")) {
            return "GC concurrent"; // marking, remembered-set refinement, service: next to the running program
        }
        if (name.contains("CompilerThre")) {
            return "JIT";
        }
        if (name.equals("java") || name.equals("main")) {
            return "scenario"; // the launcher leaves the main thread's native name "java"
        }
        return "other";
    }
}
