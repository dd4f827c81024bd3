package io.kuberaysim.observability.metrics;

import org.hawkular.agent.prometheus.text.TextPrometheusMetricDataParser;
import org.hawkular.agent.prometheus.types.Counter;
import org.hawkular.agent.prometheus.types.Gauge;
import org.hawkular.agent.prometheus.types.Histogram;
import org.hawkular.agent.prometheus.types.Metric;
import org.hawkular.agent.prometheus.types.MetricFamily;
import org.hawkular.agent.prometheus.types.MetricType;
import org.hawkular.agent.prometheus.types.Summary;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code /metrics} body read with a Prometheus text-format parser, as a scraper reads it. The parser skips what it
 * cannot read, so parsing also checks that every family and every sample line of the text came through.
 */
final class Scrape {
    private final Map<String, MetricFamily> families = new LinkedHashMap<>();

    Scrape(String text) {
        try {
            TextPrometheusMetricDataParser parser = new TextPrometheusMetricDataParser(
                    new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
            for (MetricFamily f = parser.parse(); f != null; f = parser.parse()) {
                assertThat(families.put(f.getName(), f)).as("family %s appears once", f.getName()).isNull();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> lines = text.lines().toList();
        assertThat(families).as("one family per # TYPE line")
                .hasSize((int) lines.stream().filter(l -> l.startsWith("# TYPE ")).count());
        long samples = lines.stream().filter(l -> !l.isBlank() && !l.startsWith("#")).count();
        assertThat(families.values().stream().mapToLong(Scrape::sampleLines).sum())
                .as("every sample line parsed").isEqualTo(samples);
    }

    private static long sampleLines(MetricFamily f) {
        List<Metric> metrics = f.getMetrics() == null ? List.of() : f.getMetrics();
        return switch (f.getType()) {
            case HISTOGRAM -> metrics.stream().mapToLong(m -> ((Histogram) m).getBuckets().size() + 2L).sum();
            case SUMMARY -> metrics.stream().mapToLong(m -> ((Summary) m).getQuantiles().size() + 2L).sum();
            default -> metrics.size();
        };
    }

    MetricFamily family(String name) {
        MetricFamily f = families.get(name);
        assertThat(f).as("metric family %s", name).isNotNull();
        return f;
    }

    boolean has(String name) {
        return families.containsKey(name);
    }

    /** Asserts the family's type and that every series carries exactly {@code labels}. */
    void assertFamily(String name, MetricType type, String... labels) {
        MetricFamily f = family(name);
        assertThat(f.getType()).as("type of %s", name).isEqualTo(type);
        assertThat(f.getMetrics()).as("series of %s", name).isNotEmpty();
        for (Metric m : f.getMetrics()) {
            assertThat(m.getLabels().keySet()).as("labels of %s", name).containsExactlyInAnyOrder(labels);
        }
    }

    /** The series of {@code name} whose labels include {@code labels} (name, value, name, value, ...). */
    List<Metric> series(String name, String... labels) {
        if (!families.containsKey(name) || families.get(name).getMetrics() == null) {
            return List.of();
        }
        return families.get(name).getMetrics().stream().filter(m -> {
            for (int i = 0; i < labels.length; i += 2) {
                if (!labels[i + 1].equals(m.getLabels().get(labels[i]))) {
                    return false;
                }
            }
            return true;
        }).toList();
    }

    /** The value of the one counter or gauge series matching {@code labels}. */
    double value(String name, String... labels) {
        List<Metric> s = series(name, labels);
        assertThat(s).as("%s%s", name, List.of(labels)).hasSize(1);
        Metric m = s.get(0);
        if (m instanceof Counter c) {
            return c.getValue();
        }
        if (m instanceof Gauge g) {
            return g.getValue();
        }
        if (m instanceof Histogram h) {
            return h.getSampleCount();
        }
        throw new AssertionError(name + " is not a counter, gauge or histogram");
    }

    /** Every value label {@code label} takes in {@code name}. */
    Set<String> labelValues(String name, String label) {
        Set<String> out = new TreeSet<>();
        series(name).forEach(m -> out.add(m.getLabels().get(label)));
        return out;
    }
}
