package io.kuberaysim.sim;

import io.kuberaysim.apiserver.validation.QuantityFormat;
import tools.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/** Amounts of named resources (cpu in cores, memory in bytes, nvidia.com/gpu, pods), parsed as Kubernetes quantities. */
public final class Resources {
    static final String CPU = "cpu";
    static final String MEMORY = "memory";
    static final String GPU = "nvidia.com/gpu";
    static final String PODS = "pods";
    /** Resources the scheduler checks, in the order kube-scheduler reports them. */
    static final String[] CHECKED = {CPU, MEMORY, GPU, PODS};

    /** Nothing at all; never modified. */
    static final Resources NONE = new Resources();

    private final Map<String, BigDecimal> amounts = new TreeMap<>();

    /** The amount of {@code name}, zero when absent. */
    public BigDecimal get(String name) {
        return amounts.getOrDefault(name, BigDecimal.ZERO);
    }

    void add(String name, BigDecimal v) {
        amounts.merge(name, v, BigDecimal::add);
    }

    void addAll(Resources other, int sign) {
        other.amounts.forEach((k, v) -> add(k, sign < 0 ? v.negate() : v));
    }

    static BigDecimal parse(String quantity) {
        String error = QuantityFormat.error(quantity);
        if (error != null) {
            throw new IllegalArgumentException(error);
        }
        return QuantityFormat.amount(quantity);
    }

    /**
     * A map of quantities such as {@code {cpu: "500m", memory: "1Gi"}}.
     *
     * @throws IllegalArgumentException naming the resource, for a value that is not a quantity (the API refuses
     *                                  those, but an object may predate the rule or be written around it)
     */
    public static Resources of(JsonNode quantities) {
        Resources r = new Resources();
        if (quantities != null && quantities.isObject()) {
            quantities.properties().forEach(e -> {
                JsonNode v = e.getValue();
                try {
                    r.add(e.getKey(), parse(v.isString() || v.isNumber() ? v.asString().trim() : null));
                } catch (IllegalArgumentException ex) {
                    throw new IllegalArgumentException(e.getKey() + ": " + ex.getMessage());
                }
            });
        }
        return r;
    }

    /**
     * What a pod asks for: per resource the sum over containers of requests (falling back to limits),
     * or the largest init container's when that is bigger, as kube-scheduler computes it; plus one pod.
     */
    public static Resources ofPod(JsonNode pod) {
        Resources sum = new Resources();
        for (JsonNode c : pod.path("spec").path("containers")) {
            sum.addAll(container(c), 1);
        }
        for (JsonNode c : pod.path("spec").path("initContainers")) {
            Resources init = container(c);
            init.amounts.forEach((k, v) -> {
                if (v.compareTo(sum.get(k)) > 0) {
                    sum.amounts.put(k, v);
                }
            });
        }
        sum.add(PODS, BigDecimal.ONE);
        return sum;
    }

    private static Resources container(JsonNode c) {
        Resources r = of(c.path("resources").path("limits"));
        Resources req = of(c.path("resources").path("requests"));
        r.amounts.putAll(req.amounts); // requests win; limits stand in for requests that are absent
        return r;
    }

    /** Equal when they hold the same amounts (of the same scale, as {@link BigDecimal#equals}). */
    @Override
    public boolean equals(Object o) {
        return o instanceof Resources r && r.amounts.equals(amounts);
    }

    @Override
    public int hashCode() {
        return amounts.hashCode();
    }

    /** Every named amount, by resource name. */
    public Map<String, BigDecimal> asMap() {
        return Collections.unmodifiableMap(amounts);
    }
}
