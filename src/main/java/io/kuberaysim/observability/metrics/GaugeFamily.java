package io.kuberaysim.observability.metrics;

import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;

/** Builds the gauge families the collectors compute at scrape time, one data point at a time. */
final class GaugeFamily {
    private final GaugeSnapshot.Builder family;

    GaugeFamily(String name, String help) {
        this.family = GaugeSnapshot.builder().name(name).help(help);
    }

    /** Adds a data point; {@code labels} alternates names and values. */
    GaugeFamily add(double value, String... labels) {
        family.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(Labels.of(labels)).value(value).build());
        return this;
    }

    GaugeSnapshot build() {
        return family.build();
    }
}
