package io.kuberaysim.observability.metrics;

import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;

/**
 * An info metric computed at scrape time: every data point has the value 1 and the information is in its labels.
 * Exposed as {@code <name>_info}, a gauge in the Prometheus text format (as KubeRay's {@code *_info} gauges) and an
 * info metric in OpenMetrics.
 */
final class InfoFamily {
    private final InfoSnapshot.Builder family;

    /** @param name the name without its {@code _info} suffix */
    InfoFamily(String name, String help) {
        this.family = InfoSnapshot.builder().name(name).help(help);
    }

    /** Adds a data point; {@code labels} alternates names and values. */
    InfoFamily add(String... labels) {
        family.dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder().labels(Labels.of(labels)).build());
        return this;
    }

    InfoSnapshot build() {
        return family.build();
    }
}
