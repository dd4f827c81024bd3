package io.kuberaysim.observability.metrics;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.RayServiceConditions;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.List;

/**
 * KubeRay's RayService metrics, with its names and labels, computed from the informer cache at every scrape:
 * {@code kuberay_service_info}, {@code kuberay_service_condition_ready} and
 * {@code kuberay_service_condition_upgrade_in_progress}.
 */
public final class RayServiceMetrics implements MultiCollector {
    /** Exposed as {@code kuberay_service_info}. */
    static final String INFO = "kuberay_service";
    static final String READY = "kuberay_service_condition_ready";
    static final String UPGRADE = "kuberay_service_condition_upgrade_in_progress";

    private final SharedInformer services;

    public RayServiceMetrics(ControllerManager manager) {
        this.services = manager.informer(ResourceTypes.RAYSERVICES);
    }

    @Override
    public MetricSnapshots collect() {
        InfoFamily info = new InfoFamily(INFO, "Metadata information about RayService custom resources");
        GaugeFamily ready = new GaugeFamily(READY, "Describes whether the RayService is ready. Ready means users can "
                + "send requests to the underlying cluster and the number of serve endpoints is greater than 0.");
        GaugeFamily upgrade = new GaugeFamily(UPGRADE,
                "Describes whether the RayService is performing a zero-downtime upgrade.");
        for (StoredObject s : services.list(null, null)) {
            info.add("name", s.name(), "namespace", s.namespace(), "uid", s.uid());
            ready.add(1, "name", s.name(), "namespace", s.namespace(), "uid", s.uid(),
                    "condition", Boolean.toString(StatusConditions.isTrue(s, RayServiceConditions.READY)));
            upgrade.add(1, "name", s.name(), "namespace", s.namespace(), "uid", s.uid(), "condition",
                    Boolean.toString(StatusConditions.isTrue(s, RayServiceConditions.UPGRADE_IN_PROGRESS)));
        }
        return MetricSnapshots.of(info.build(), ready.build(), upgrade.build());
    }

    @Override
    public List<String> getPrometheusNames() {
        return List.of(INFO, READY, UPGRADE);
    }
}
