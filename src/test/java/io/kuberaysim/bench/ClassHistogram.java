package io.kuberaysim.bench;

import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Live objects by class (instances and bytes), taken with the JVM's {@code GC.class_histogram} diagnostic command
 * (it runs a full GC first), so the scale scenario can say which classes a run's heap is made of: the difference of
 * two histograms is what was kept between them.
 */
record ClassHistogram(Map<String, long[]> byClass) {
    /** The histogram now; empty when the JVM does not offer the command. */
    static ClassHistogram take() {
        Map<String, long[]> m = new HashMap<>();
        try {
            String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                    new Object[]{new String[0]}, new String[]{String[].class.getName()});
            for (String line : text.split("\n")) {
                String[] f = line.trim().split("\\s+");
                if (f.length >= 4 && f[0].endsWith(":")) {
                    m.put(f[3], new long[]{Long.parseLong(f[1]), Long.parseLong(f[2])});
                }
            }
        } catch (Exception | LinkageError e) {
            return new ClassHistogram(Map.of());
        }
        return new ClassHistogram(m);
    }

    /** The {@code top} classes that grew most in bytes since {@code before}, one line each, largest first. */
    String growthSince(ClassHistogram before, int top) {
        List<Map.Entry<String, long[]>> grown = new ArrayList<>();
        long total = 0;
        for (Map.Entry<String, long[]> e : byClass.entrySet()) {
            long[] b = before.byClass.getOrDefault(e.getKey(), new long[2]);
            long[] d = {e.getValue()[0] - b[0], e.getValue()[1] - b[1]};
            total += d[1];
            grown.add(Map.entry(e.getKey(), d));
        }
        grown.sort((x, y) -> Long.compare(y.getValue()[1], x.getValue()[1]));
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%.1f MiB in all:", total / 1048576.0));
        for (int i = 0; i < Math.min(top, grown.size()); i++) {
            long[] d = grown.get(i).getValue();
            out.append(String.format(Locale.ROOT, " %s %.1f MiB (%,d)%s", grown.get(i).getKey(), d[1] / 1048576.0,
                    d[0], i + 1 < Math.min(top, grown.size()) ? ";" : ""));
        }
        return out.toString();
    }
}
