package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.controller.ray.RayLabels;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The containers KubeRay adds to Ray Pods, as {@code common/pod.go} builds them: the autoscaler sidecar
 * ({@code BuildAutoscalerContainer} with {@code mergeAutoscalerOverrides}) and the worker's {@code wait-gcs-ready}
 * init container ({@code DefaultWorkerPodTemplate}).
 */
public final class RayContainers {
    /** Name of the autoscaler sidecar ({@code AutoscalerContainerName}). */
    public static final String AUTOSCALER = "autoscaler";
    /** Name of the worker init container that waits for the GCS. */
    public static final String WAIT_GCS_READY = "wait-gcs-ready";
    /** The autoscaler's start command, also its {@code KUBERAY_GEN_AUTOSCALER_START_CMD} env. */
    public static final String AUTOSCALER_START_CMD = "ray kuberay-autoscaler --cluster-name $(RAY_CLUSTER_NAME) "
            + "--cluster-namespace $(RAY_CLUSTER_NAMESPACE)";

    private RayContainers() {
    }

    /** {@code utils.GetContainerCommand}: {@code /bin/bash -c --} ({@code -ce} with extra option "e"). */
    public static ArrayNode bashCommand(String options) {
        ArrayNode cmd = Json.MAPPER.createArrayNode();
        cmd.add("/bin/bash").add("-c" + options).add("--");
        return cmd;
    }

    /**
     * The autoscaler sidecar: the Ray container's image, {@code IfNotPresent}, {@code /bin/bash -c --} running
     * {@link #AUTOSCALER_START_CMD}, KubeRay's env, 500m/512Mi; then {@code autoscalerOptions} override resources,
     * image, pull policy, securityContext, command and args, and append env, envFrom and volumeMounts.
     */
    public static ObjectNode autoscaler(JsonNode rayContainer, JsonNode autoscalerOptions) {
        return autoscaler(rayContainer, autoscalerOptions, c -> {
        });
    }

    /**
     * The autoscaler sidecar, {@code configure} applied to KubeRay's container before the user's
     * {@code autoscalerOptions} are merged in (where KubeRay sets the auth variables).
     */
    public static ObjectNode autoscaler(JsonNode rayContainer, JsonNode autoscalerOptions,
                                        java.util.function.Consumer<ObjectNode> configure) {
        ObjectNode c = Json.object();
        c.put("name", AUTOSCALER);
        if (rayContainer.hasNonNull("image")) {
            c.set("image", rayContainer.get("image").deepCopy());
        }
        c.put("imagePullPolicy", "IfNotPresent");
        c.set("command", bashCommand(""));
        c.putArray("args").add(AUTOSCALER_START_CMD);
        ArrayNode env = c.putArray("env");
        fieldEnv(env, "RAY_CLUSTER_NAME", "metadata.labels['" + RayLabels.CLUSTER + "']");
        fieldEnv(env, "RAY_CLUSTER_NAMESPACE", "metadata.namespace");
        fieldEnv(env, "RAY_HEAD_POD_NAME", "metadata.name");
        env.addObject().put("name", "KUBERAY_CRD_VER").put("value", "v1");
        env.addObject().put("name", "KUBERAY_GEN_AUTOSCALER_START_CMD").put("value", AUTOSCALER_START_CMD);
        c.set("resources", fixedResources("500m", "512Mi"));
        configure.accept(c);
        JsonNode o = autoscalerOptions == null ? Json.object() : autoscalerOptions;
        if (o.hasNonNull("resources")) {
            c.set("resources", o.get("resources").deepCopy());
        }
        for (String f : new String[] {"image", "imagePullPolicy"}) {
            if (o.hasNonNull(f)) {
                c.set(f, o.get(f).deepCopy());
            }
        }
        for (String f : new String[] {"env", "envFrom", "volumeMounts"}) {
            if (o.get(f) instanceof ArrayNode extra && !extra.isEmpty()) {
                ArrayNode list = c.get(f) instanceof ArrayNode a ? a : c.putArray(f);
                extra.forEach(e -> list.add(e.deepCopy()));
            }
        }
        if (o.hasNonNull("securityContext")) {
            c.set("securityContext", o.get("securityContext").deepCopy());
        }
        for (String f : new String[] {"command", "args"}) {
            if (o.get(f) instanceof ArrayNode a && !a.isEmpty()) {
                c.set(f, a.deepCopy());
            }
        }
        return c;
    }

    /**
     * {@code wait-gcs-ready}: the Ray container's image, pull policy, securityContext, env and volumeMounts (as the
     * template had them, before KubeRay adds its env), KubeRay's health-check loop against {@code <fqdn>:<port>},
     * 200m/256Mi.
     */
    public static ObjectNode waitGcsReady(JsonNode templateRayContainer, String fqdn, String port) {
        ObjectNode c = Json.object();
        c.put("name", WAIT_GCS_READY);
        for (String f : new String[] {"image", "imagePullPolicy"}) {
            if (templateRayContainer.hasNonNull(f)) {
                c.set(f, templateRayContainer.get(f).deepCopy());
            }
        }
        c.set("command", bashCommand(""));
        c.putArray("args").add(waitGcsReadyScript(fqdn + ":" + port));
        if (templateRayContainer.hasNonNull("securityContext")) {
            c.set("securityContext", templateRayContainer.get("securityContext").deepCopy());
        }
        for (String f : new String[] {"env", "volumeMounts"}) {
            if (templateRayContainer.get(f) instanceof ArrayNode a && !a.isEmpty()) {
                c.set(f, a.deepCopy());
            }
        }
        c.set("resources", fixedResources("200m", "256Mi"));
        return c;
    }

    /** The loop of KubeRay's Go raw string, with its tab indentation, leading newline and trailing tabs. */
    static String waitGcsReadyScript(String address) {
        String t5 = "\t".repeat(5);
        String t6 = "\t".repeat(6);
        String t7 = "\t".repeat(7);
        String t8 = "\t".repeat(8);
        return "\n"
                + t5 + "SECONDS=0\n"
                + t5 + "while true; do\n"
                + t6 + "if (( SECONDS <= 120 )); then\n"
                + t7 + "if ray health-check --address " + address + " > /dev/null 2>&1; then\n"
                + t8 + "echo \"GCS is ready.\"\n"
                + t8 + "break\n"
                + t7 + "fi\n"
                + t7 + "echo \"$SECONDS seconds elapsed: Waiting for GCS to be ready.\"\n"
                + t6 + "else\n"
                + t7 + "if ray health-check --address " + address + "; then\n"
                + t8 + "echo \"GCS is ready. Any error messages above can be safely ignored.\"\n"
                + t8 + "break\n"
                + t7 + "fi\n"
                + t7 + "echo \"$SECONDS seconds elapsed: Still waiting for GCS to be ready. For troubleshooting, "
                + "refer to the FAQ at https://docs.ray.io/en/master/cluster/kubernetes/troubleshooting.html.\"\n"
                + t6 + "fi\n"
                + t6 + "sleep 5\n"
                + t5 + "done\n"
                + "\t".repeat(4);
    }

    private static ObjectNode fixedResources(String cpu, String memory) {
        ObjectNode res = Json.object();
        res.putObject("limits").put("cpu", cpu).put("memory", memory);
        res.putObject("requests").put("cpu", cpu).put("memory", memory);
        return res;
    }

    private static void fieldEnv(ArrayNode env, String name, String fieldPath) {
        // the API server defaults fieldRef.apiVersion to v1, so stored Pods carry it
        env.addObject().put("name", name).putObject("valueFrom").putObject("fieldRef").put("apiVersion", "v1")
                .put("fieldPath", fieldPath);
    }
}
