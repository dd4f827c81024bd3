package io.kuberaysim.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;

/**
 * What this JVM has spent so far, taken before and after a burst of load: the CPU time and the bytes allocated by each
 * of a server's request threads (those whose names start with its prefix) and by the control loops, and the JVM's GC
 * and JIT time. The rate of a burst on two shared cores moves with the neighbours' load; the server's CPU and
 * allocation per request move much less, and GC and JIT time say whether a burst paid for collections or compilations.
 */
final class CostSnapshot {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    /** The virtual clock's control-loop threads (every server in this JVM has one; only a running operator works). */
    private static final String LOOP_THREAD = "kuberay-sim-loop";

    /** Per thread id: CPU nanoseconds, allocated bytes, 1 for a loop thread. */
    private final Map<Long, long[]> threads = new HashMap<>();
    private final long gcMillis;
    private final long jitMillis;

    private CostSnapshot(String serverThreadPrefix) {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            String name = t.getName();
            boolean loop = name.equals(LOOP_THREAD);
            if (loop || serverThreadPrefix != null && name.startsWith(serverThreadPrefix)) {
                long id = t.getId();
                threads.put(id, new long[] {Math.max(0, THREADS.getThreadCpuTime(id)),
                        loop ? 0 : Math.max(0, THREADS.getThreadAllocatedBytes(id)), loop ? 1 : 0});
            }
        }
        long gc = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            gc += Math.max(0, b.getCollectionTime());
        }
        gcMillis = gc;
        jitMillis = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    }

    /** Now, for the threads whose names start with {@code serverThreadPrefix} (none when null) and the loops. */
    static CostSnapshot take(String serverThreadPrefix) {
        return new CostSnapshot(serverThreadPrefix);
    }

    /** What was spent between {@code before} and this snapshot (a thread that ended in between is not counted). */
    Cost since(CostSnapshot before) {
        long cpu = 0;
        long allocated = 0;
        long loop = 0;
        for (Map.Entry<Long, long[]> e : threads.entrySet()) {
            long[] now = e.getValue();
            long[] then = before.threads.getOrDefault(e.getKey(), new long[3]);
            if (now[2] == 1) {
                loop += now[0] - then[0];
            } else {
                cpu += now[0] - then[0];
                allocated += now[1] - then[1];
            }
        }
        return new Cost(cpu, allocated, loop, gcMillis - before.gcMillis, jitMillis - before.jitMillis);
    }

    /** Spent during one or more bursts. */
    record Cost(long serverCpuNanos, long serverAllocatedBytes, long loopCpuNanos, long gcMillis, long jitMillis) {
        static final Cost NONE = new Cost(0, 0, 0, 0, 0);

        Cost plus(Cost o) {
            return new Cost(serverCpuNanos + o.serverCpuNanos, serverAllocatedBytes + o.serverAllocatedBytes,
                    loopCpuNanos + o.loopCpuNanos, gcMillis + o.gcMillis, jitMillis + o.jitMillis);
        }
    }
}
