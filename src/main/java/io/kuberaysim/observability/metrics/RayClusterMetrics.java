package io.kuberaysim.observability.metrics;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.RayClusterConditions;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.cache.InformerHandler;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * KubeRay's RayCluster metrics ({@code ray-operator/controllers/ray/metrics}), with its names and labels.
 * {@code kuberay_cluster_info} and {@code kuberay_cluster_condition_provisioned} are computed from the informer
 * cache at every scrape, as KubeRay's collector lists RayClusters, so a deleted cluster's series disappear.
 * {@code kuberay_cluster_provisioned_duration_seconds} is set when a cluster's {@code RayClusterProvisioned}
 * condition turns true — creation to provisioned on the simulation clock (virtual seconds on a virtual clock) — and
 * dropped when the cluster is deleted.
 */
public final class RayClusterMetrics implements MultiCollector {
    /** Exposed as {@code kuberay_cluster_info}. */
    static final String INFO = "kuberay_cluster";
    static final String PROVISIONED = "kuberay_cluster_condition_provisioned";
    static final String PROVISIONED_DURATION = "kuberay_cluster_provisioned_duration_seconds";

    private final SharedInformer clusters;
    private final Clock clock;
    private final Map<String, Observation> durations = new ConcurrentHashMap<>();

    private record Observation(String name, String namespace, String uid, double seconds) {
    }

    public RayClusterMetrics(ControllerManager manager) {
        this.clusters = manager.informer(ResourceTypes.RAYCLUSTERS);
        this.clock = manager.clock();
        clusters.addHandler(new InformerHandler() {
            @Override
            public void onUpdate(StoredObject oldObj, StoredObject newObj) {
                if (!provisioned(oldObj) && provisioned(newObj)) {
                    observeProvisioned(newObj);
                }
            }

            @Override
            public void onDelete(StoredObject o) {
                durations.remove(key(o));
            }
        });
    }

    private static boolean provisioned(StoredObject o) {
        return StatusConditions.isTrue(o, RayClusterConditions.RAY_CLUSTER_PROVISIONED);
    }

    private void observeProvisioned(StoredObject o) {
        String created = o.metadata().path("creationTimestamp").asString("");
        try {
            double seconds = Duration.between(Instant.parse(created), clock.now()).toMillis() / 1000.0;
            durations.put(key(o), new Observation(o.name(), o.namespace(), o.uid(), seconds));
        } catch (DateTimeParseException e) {
            // no creation time, no duration
        }
    }

    static String key(StoredObject o) {
        return o.namespace() + "/" + o.name();
    }

    @Override
    public MetricSnapshots collect() {
        InfoFamily info = new InfoFamily(INFO, "Metadata information about RayCluster custom resources");
        GaugeFamily condition = new GaugeFamily(PROVISIONED, "Indicates whether the RayCluster is provisioned");
        for (StoredObject c : clusters.list(null, null)) {
            String owner = c.labels().getOrDefault(RayLabels.ORIGINATED_FROM_CRD, "None");
            info.add("name", c.name(), "namespace", c.namespace(), "uid", c.uid(), "owner_kind", owner);
            condition.add(1, "name", c.name(), "namespace", c.namespace(), "uid", c.uid(),
                    "condition", Boolean.toString(provisioned(c)));
        }
        GaugeFamily duration = new GaugeFamily(PROVISIONED_DURATION, "The time, in seconds, when a RayCluster's "
                + "`RayClusterProvisioned` status transitions from false (or unset) to true");
        for (Observation d : durations.values()) {
            duration.add(d.seconds(), "name", d.name(), "namespace", d.namespace(), "uid", d.uid());
        }
        return MetricSnapshots.of(info.build(), condition.build(), duration.build());
    }

    @Override
    public List<String> getPrometheusNames() {
        return List.of(INFO, PROVISIONED, PROVISIONED_DURATION);
    }
}
