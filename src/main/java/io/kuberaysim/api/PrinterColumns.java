package io.kuberaysim.api;

import java.util.List;
import java.util.Map;

/**
 * The additional printer columns of the custom resources, as their CustomResourceDefinitions declare them (KubeRay's
 * for the ray.io kinds): what {@code kubectl get} shows after the name, and what the served CRDs list.
 */
public final class PrinterColumns {
    /** The JSONPath of the object's creation time, which a {@code date} column shows as an age. */
    public static final String CREATION_TIMESTAMP = ".metadata.creationTimestamp";

    /** One {@code additionalPrinterColumns} entry; priority 0 shows by default, 1 with {@code -o wide}. */
    public record Column(String name, String type, String jsonPath, int priority) {
        static Column of(String name, String type, String jsonPath) {
            return new Column(name, type, jsonPath, 0);
        }

        static Column wide(String name, String type, String jsonPath) {
            return new Column(name, type, jsonPath, 1);
        }

        static Column age() {
            return of("age", "date", CREATION_TIMESTAMP);
        }
    }

    private static final Map<ResourceType, List<Column>> COLUMNS = Map.of(
            ResourceTypes.RAYCLUSTERS, List.of(
                    Column.of("desired workers", "integer", ".status.desiredWorkerReplicas"),
                    Column.of("available workers", "integer", ".status.availableWorkerReplicas"),
                    Column.of("cpus", "string", ".status.desiredCPU"),
                    Column.of("memory", "string", ".status.desiredMemory"),
                    Column.of("gpus", "string", ".status.desiredGPU"),
                    Column.wide("tpus", "string", ".status.desiredTPU"),
                    Column.of("status", "string", ".status.state"),
                    Column.age(),
                    Column.wide("head pod IP", "string", ".status.head.podIP"),
                    Column.wide("head service IP", "string", ".status.head.serviceIP")),
            ResourceTypes.RAYJOBS, List.of(
                    Column.of("job status", "string", ".status.jobStatus"),
                    Column.of("deployment status", "string", ".status.jobDeploymentStatus"),
                    Column.of("ray cluster name", "string", ".status.rayClusterName"),
                    Column.of("start time", "string", ".status.startTime"),
                    Column.of("end time", "string", ".status.endTime"),
                    Column.age()),
            ResourceTypes.RAYSERVICES, List.of(
                    Column.of("service status", "string", ".status.serviceStatus"),
                    Column.of("num serve endpoints", "string", ".status.numServeEndpoints")),
            ResourceTypes.PODLIFECYCLERULES, List.of(
                    Column.of("selector", "string", ".spec.selector"),
                    Column.of("exit code", "integer", ".spec.exitCode"),
                    Column.age()),
            ResourceTypes.NODELIFECYCLERULES, List.of(
                    Column.of("selector", "string", ".spec.selector"),
                    Column.age()),
            ResourceTypes.FAULTSCHEDULES, List.of(
                    Column.of("fault", "string", ".spec.fault.type"),
                    Column.of("interval", "string", ".spec.interval"),
                    Column.of("rate per minute", "number", ".spec.ratePerMinute"),
                    Column.of("selector", "string", ".spec.selector"),
                    Column.of("injected", "integer", ".status.injected"),
                    Column.wide("suspend", "boolean", ".spec.suspend"),
                    Column.age()));

    private PrinterColumns() {
    }

    /** A custom resource's columns in order; empty for a kind without any (and for built-in kinds). */
    public static List<Column> of(ResourceType type) {
        return COLUMNS.getOrDefault(type, List.of());
    }
}
