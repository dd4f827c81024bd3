package io.kuberaysim.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Collects figures and renders them as one Markdown table (plus notes), printed and written to a file. */
final class Report {
    /** One figure: a median with its spread, the target it is held to (if any) and whether it is met. */
    record Row(String scenario, String figure, Stats value, String unit, String target, Boolean met) {
    }

    private final List<Row> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final String header;

    Report(String header) {
        this.header = header;
    }

    synchronized void add(String scenario, String figure, Stats value, String unit, String target, Boolean met) {
        rows.add(new Row(scenario, figure, value, unit, target, met));
        System.out.printf(Locale.ROOT, "[bench] %-8s %-55s %s %s%n", scenario, figure, format(value), unit);
    }

    synchronized void add(String scenario, String figure, double value, String unit, String target, Boolean met) {
        add(scenario, figure, Stats.of(List.of(value)), unit, target, met);
    }

    synchronized void note(String text) {
        notes.add(text);
        System.out.println("[bench] note: " + text);
    }

    List<Row> rows() {
        return List.copyOf(rows);
    }

    static String format(Stats s) {
        if (s.n() == 0) {
            return "n/a";
        }
        if (s.n() == 1 || s.min() == s.max()) {
            return num(s.median());
        }
        return num(s.median()) + " (" + num(s.min()) + " – " + num(s.max()) + ")";
    }

    static String num(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        if (Double.isInfinite(v)) {
            return "∞";
        }
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    synchronized String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append(header).append("\n\n");
        sb.append("| Scenario | Figure | Median (min – max) | Unit | Target | Met |\n");
        sb.append("|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            sb.append("| ").append(r.scenario()).append(" | ").append(r.figure()).append(" | ")
                    .append(format(r.value())).append(" | ").append(r.unit()).append(" | ")
                    .append(r.target() == null ? "" : r.target()).append(" | ")
                    .append(r.met() == null ? "" : r.met() ? "yes" : "**no**").append(" |\n");
        }
        if (!notes.isEmpty()) {
            sb.append('\n');
            for (String n : notes) {
                sb.append("- ").append(n).append('\n');
            }
        }
        return sb.toString();
    }

    Path write(Path file) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, markdown());
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
