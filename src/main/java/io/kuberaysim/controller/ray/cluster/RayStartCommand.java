package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import tools.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The {@code ray start} command line of a Ray container, computed as KubeRay's {@code common/pod.go} does:
 * {@code updateRayStartParamsResources} (group {@code resources}, quantities converted, names compared in lower
 * case), {@code updateRayStartParamsLabels}, {@code setMissingRayStartParams} ({@code block=true} forced),
 * {@code generateRayStartCommand} (CPU, memory and accelerators from the container's resources) and
 * {@code convertParamMap} (flags written {@code " --k=v "}).
 */
public final class RayStartCommand {
    private static final Set<String> TRI_STATE_PARAMS = Set.of("log-color", "include-dashboard", "include-log-monitor");
    /** {@code utils.IsGPUResourceKey}: keys ending in "gpu" or NVIDIA MIG slices. */
    private static final Pattern MIG = Pattern.compile("nvidia\\.com/mig-\\d+g\\.\\d+gb$");
    /** {@code customAcceleratorToRayResourceMap}. */
    private static final Map<String, String> CUSTOM_ACCELERATORS = Map.of(
            "aws.amazon.com/neuroncore", "neuron_cores",
            "google.com/tpu", "TPU");

    private final Map<String, String> params;
    private final String command;

    private RayStartCommand(Map<String, String> params, String command) {
        this.params = params;
        this.command = command;
    }

    /** The final rayStartParams (sorted). */
    public Map<String, String> params() {
        return params;
    }

    /** {@code ray start [--head] <flags>}: the value of {@code KUBERAY_GEN_RAY_START_CMD}. */
    public String command() {
        return command;
    }

    /**
     * The command of a head ({@code head=true}) or worker container.
     *
     * @param userParams     the group's {@code rayStartParams}
     * @param groupResources the group's {@code resources} (quantities by name), may be null
     * @param groupLabels    the group's {@code labels}, may be null
     * @param resources      the Ray container's {@code resources} ({@code limits}/{@code requests}), may be null
     * @param workerAddress  the GCS address a worker joins ({@code <fqdn>:<port>}); ignored for the head
     * @param autoscaling    in-tree autoscaling (the head gets {@code no-monitor})
     */
    public static RayStartCommand of(boolean head, Map<String, String> userParams, Map<String, String> groupResources,
                                     Map<String, String> groupLabels, JsonNode resources, String workerAddress,
                                     boolean autoscaling) {
        Map<String, String> p = new TreeMap<>(userParams == null ? Map.of() : userParams);
        applyGroupResources(p, groupResources);
        if (groupLabels != null && !groupLabels.isEmpty()) {
            StringBuilder sb = new StringBuilder();
            new TreeMap<>(groupLabels).forEach((k, v) -> sb.append(sb.isEmpty() ? "" : ",").append(k).append('=')
                    .append(v));
            p.put("labels", sb.toString());
        }
        if (head) {
            p.putIfAbsent("dashboard-host", "0.0.0.0");
            if (autoscaling) {
                p.put("no-monitor", "true");
            }
        } else {
            p.putIfAbsent("address", workerAddress);
        }
        p.putIfAbsent("metrics-export-port", "8080");
        p.put("block", "true");
        p.putIfAbsent("dashboard-agent-listen-port", "52365");
        String cmd = generate(head, p, resources);
        return new RayStartCommand(Map.copyOf(p), cmd);
    }

    /**
     * {@code generateRayStartCommand}: fills CPU, memory and accelerators from the container's resources into
     * {@code params} (mutated) and writes the command.
     */
    static String generate(boolean head, Map<String, String> params, JsonNode resources) {
        applyContainerResources(params, resources == null ? Json.object() : resources);
        return (head ? "ray start --head " : "ray start ") + flags(params);
    }

    /** {@code updateRayStartParamsResources}: the group's resources override the matching parameters. */
    private static void applyGroupResources(Map<String, String> p, Map<String, String> groupResources) {
        if (groupResources == null || groupResources.isEmpty()) {
            return;
        }
        Map<String, Double> custom = new TreeMap<>();
        groupResources.forEach((name, quantity) -> {
            BigDecimal q;
            try {
                q = ResourceQuantities.amount(quantity);
            } catch (RuntimeException e) {
                return; // KubeRay skips a quantity it cannot parse
            }
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.equals("cpu")) {
                p.put("num-cpus", Long.toString(ceil(q)));
            } else if (lower.equals("memory")) {
                p.put("memory", Long.toString(ceil(q)));
            } else if (isGpu(lower)) {
                p.put("num-gpus", Long.toString(ceil(q)));
            } else {
                custom.put(name, q.doubleValue());
            }
        });
        if (!custom.isEmpty()) {
            p.put("resources", "'" + goJson(custom) + "'");
        }
    }

    /** {@code generateRayStartCommand} and {@code addWellKnownAcceleratorResources}. */
    private static void applyContainerResources(Map<String, String> p, JsonNode resources) {
        Map<String, BigDecimal> limits = quantities(resources.get("limits"));
        Map<String, BigDecimal> requests = quantities(resources.get("requests"));
        if (!p.containsKey("num-cpus")) {
            BigDecimal cpu = nonZero(limits.get("cpu")) != null ? limits.get("cpu") : nonZero(requests.get("cpu"));
            if (cpu != null) {
                p.put("num-cpus", Long.toString(ceil(cpu)));
            }
        }
        if (!p.containsKey("memory") && nonZero(limits.get("memory")) != null) {
            p.put("memory", Long.toString(ceil(limits.get("memory"))));
        }
        if (limits.isEmpty()) {
            return;
        }
        Map<String, Double> existing = resourcesParam(p.get("resources"));
        if (existing == null) {
            return; // an unparsable resources parameter stops KubeRay's accelerator step
        }
        boolean customAdded = CUSTOM_ACCELERATORS.values().stream().anyMatch(existing::containsKey);
        for (Map.Entry<String, BigDecimal> e : new TreeMap<>(limits).entrySet()) {
            if (!p.containsKey("num-gpus") && isGpu(e.getKey()) && nonZero(e.getValue()) != null) {
                p.put("num-gpus", Long.toString(ceil(e.getValue())));
            }
            String rayName = CUSTOM_ACCELERATORS.get(e.getKey());
            if (!customAdded && rayName != null && nonZero(e.getValue()) != null) {
                if (!existing.containsKey(rayName)) {
                    existing.put(rayName, e.getValue().doubleValue());
                    p.put("resources", "'" + goJson(existing) + "'");
                }
                customAdded = true;
            }
        }
    }

    /** {@code getResourcesMap}: the JSON of the {@code resources} parameter, quotes trimmed; null if invalid. */
    private static Map<String, Double> resourcesParam(String raw) {
        Map<String, Double> m = new TreeMap<>();
        if (raw == null) {
            return m;
        }
        String trimmed = raw.replaceAll("^['\"` ]+|['\"` ]+$", "");
        try {
            JsonNode n = Json.MAPPER.readTree(trimmed);
            if (!n.isObject()) {
                return null;
            }
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                if (!e.getValue().isNumber()) {
                    return null;
                }
                m.put(e.getKey(), e.getValue().asDouble());
            }
            return m;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static Map<String, BigDecimal> quantities(JsonNode list) {
        Map<String, BigDecimal> m = new TreeMap<>();
        if (list == null || !list.isObject()) {
            return m;
        }
        for (Map.Entry<String, JsonNode> e : list.properties()) {
            try {
                m.put(e.getKey(), ResourceQuantities.amount(e.getValue().asString()));
            } catch (RuntimeException ignored) {
                // the API server would have rejected it; nothing to derive
            }
        }
        return m;
    }

    private static BigDecimal nonZero(BigDecimal q) {
        return q == null || q.signum() == 0 ? null : q;
    }

    /** Go's {@code Quantity.Value()}: rounded up to an integer. */
    private static long ceil(BigDecimal q) {
        return q.setScale(0, java.math.RoundingMode.CEILING).longValueExact();
    }

    static boolean isGpu(String key) {
        return key.endsWith("gpu") || MIG.matcher(key).find();
    }

    /** {@code convertParamMap}: sorted; "true" is a bare switch, "false" is dropped, except for tri-state flags. */
    static String flags(Map<String, String> params) {
        StringBuilder sb = new StringBuilder();
        new TreeMap<>(params).forEach((k, v) -> {
            String lower = v.toLowerCase(Locale.ROOT);
            if ((lower.equals("true") || lower.equals("false")) && !TRI_STATE_PARAMS.contains(k)) {
                if (lower.equals("true")) {
                    sb.append(" --").append(k).append(' ');
                }
            } else {
                sb.append(" --").append(k).append('=').append(v).append(' ');
            }
        });
        return sb.toString();
    }

    /** Go's {@code json.Marshal} of a {@code map[string]float64}: keys sorted, floats in Go's shortest form. */
    static String goJson(Map<String, Double> m) {
        StringBuilder sb = new StringBuilder("{");
        new TreeMap<>(m).forEach((k, v) -> sb.append(sb.length() > 1 ? "," : "")
                .append(Json.MAPPER.writeValueAsString(k)).append(':').append(goFloat(v)));
        return sb.append('}').toString();
    }

    /** encoding/json float64: plain digits for 1e-6 <= |v| < 1e21, otherwise Go's exponent form. */
    static String goFloat(double v) {
        double abs = Math.abs(v);
        if (v == 0 || abs >= 1e-6 && abs < 1e21) {
            BigDecimal d = new BigDecimal(Double.toString(v)).stripTrailingZeros();
            return d.scale() <= 0 ? d.toBigInteger().toString() : d.toPlainString();
        }
        // strconv 'e' format: mantissa, then the exponent with a sign and at least two digits
        String[] parts = new BigDecimal(Double.toString(v)).stripTrailingZeros().toString().split("E");
        int exp = Integer.parseInt(parts[1]);
        return parts[0] + "e" + (exp < 0 ? "-" : "+") + String.format(Locale.ROOT, "%02d", Math.abs(exp));
    }
}
