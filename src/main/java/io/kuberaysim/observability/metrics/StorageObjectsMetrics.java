package io.kuberaysim.observability.metrics;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.List;

/** kube-apiserver's {@code apiserver_storage_objects{resource}}: stored objects per resource, read at scrape time. */
public final class StorageObjectsMetrics {
    private StorageObjectsMetrics() {
    }

    /** One gauge per served resource, labelled as kube-apiserver labels it ({@code pods}, {@code rayclusters.ray.io}). */
    public static void register(MeterRegistry registry, ObjectStore store, List<ResourceType> types) {
        for (ResourceType type : types) {
            Gauge.builder("apiserver_storage_objects", () -> store.count(type))
                    .description("Number of stored objects at the time of last check split by kind.")
                    .tag("resource", type.groupResource())
                    .register(registry);
        }
    }
}
