package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.validation.NameValidation;
import io.kuberaysim.apiserver.validation.QuantityFormat;
import tools.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube-apiserver's rules for resource lists once every quantity is well formed (typed decoding saw to that):
 * container requests and limits ({@code ValidateResourceRequirements}) and a Node's capacity and allocatable.
 * Amounts are never negative, extended resources such as {@code nvidia.com/gpu} come in whole units and cannot be
 * overcommitted, and a request never exceeds its limit.
 */
final class ResourceListRules {
    private static final List<String> STANDARD_CONTAINER_RESOURCES = List.of("cpu", "memory", "ephemeral-storage");
    private static final String NEGATIVE = "must be greater than or equal to 0";
    private static final String NOT_INTEGER = "must be an integer";

    private ResourceListRules() {
    }

    /** A container's {@code resources.requests} and {@code resources.limits}; {@code path} is the container's. */
    static List<StatusCause> container(JsonNode container, String path) {
        List<StatusCause> causes = new ArrayList<>();
        JsonNode limits = container.path("resources").path("limits");
        JsonNode requests = container.path("resources").path("requests");
        String limPath = path + ".resources.limits";
        String reqPath = path + ".resources.requests";
        for (Map.Entry<String, JsonNode> e : limits.properties()) {
            String field = limPath + "[" + e.getKey() + "]";
            causes.addAll(containerResourceName(e.getKey(), field));
            causes.addAll(value(e.getKey(), e.getValue(), field));
        }
        for (Map.Entry<String, JsonNode> e : requests.properties()) {
            String name = e.getKey();
            String field = reqPath + "[" + name + "]";
            causes.addAll(containerResourceName(name, field));
            causes.addAll(value(name, e.getValue(), field));
            BigDecimal request = amount(e.getValue());
            JsonNode limit = limits.get(name);
            if (limit != null && request != null && amount(limit) != null) {
                int cmp = request.compareTo(amount(limit));
                if (cmp != 0 && !overcommitAllowed(name)) {
                    causes.add(StatusCause.invalid(reqPath, text(e.getValue()),
                            "must be equal to " + name + " limit of " + text(limit)));
                } else if (cmp > 0) {
                    causes.add(StatusCause.invalid(reqPath, text(e.getValue()),
                            "must be less than or equal to " + name + " limit of " + text(limit)));
                }
            } else if (limit == null && !overcommitAllowed(name)) {
                causes.add(new StatusCause("FieldValueRequired",
                        "Required value: Limit must be set for non overcommitable resources", limPath));
            }
        }
        return causes;
    }

    /** A Node's {@code status.capacity} or {@code status.allocatable} ({@code path} names the map). */
    static List<StatusCause> node(JsonNode resources, String path) {
        List<StatusCause> causes = new ArrayList<>();
        if (resources != null && resources.isObject()) {
            for (Map.Entry<String, JsonNode> e : resources.properties()) {
                causes.addAll(value(e.getKey(), e.getValue(), path + "." + e.getKey()));
            }
        }
        return causes;
    }

    /** {@code ValidateResourceQuantityValue}: not negative; whole units for extended resources. */
    private static List<StatusCause> value(String name, JsonNode quantity, String field) {
        BigDecimal amount = amount(quantity);
        if (amount == null) {
            return List.of();
        }
        List<StatusCause> causes = new ArrayList<>();
        if (amount.signum() < 0) {
            causes.add(StatusCause.invalid(field, text(quantity), NEGATIVE));
        }
        if (extended(name) && amount.stripTrailingZeros().scale() > 0) {
            causes.add(StatusCause.invalid(field, text(quantity), NOT_INTEGER));
        }
        return causes;
    }

    /** {@code validateContainerResourceName}: a qualified name, standard unless it has a domain. */
    private static List<StatusCause> containerResourceName(String name, String field) {
        List<StatusCause> causes = new ArrayList<>();
        for (String msg : NameValidation.isQualifiedName(name)) {
            causes.add(StatusCause.invalid(field, name, msg));
        }
        if (!causes.isEmpty()) {
            return causes;
        }
        if (!name.contains("/")) {
            if (!STANDARD_CONTAINER_RESOURCES.contains(name) && !name.startsWith("hugepages-")) {
                causes.add(StatusCause.invalid(field, name, "must be a standard resource for containers"));
            }
        } else if (extended(name) && name.startsWith("requests.")) {
            causes.add(StatusCause.invalid(field, name, "doesn't follow extended resource name standard"));
        }
        return causes;
    }

    /** Resources outside the kubernetes.io domain (e.g. {@code nvidia.com/gpu}), as {@code IsExtendedResourceName}. */
    private static boolean extended(String name) {
        if (!name.contains("/")) {
            return false;
        }
        String domain = name.substring(0, name.indexOf('/'));
        return !domain.equals("kubernetes.io") && !domain.endsWith(".kubernetes.io");
    }

    /** Only native resources other than hugepages may have requests below their limits. */
    private static boolean overcommitAllowed(String name) {
        return !extended(name) && !name.startsWith("hugepages-");
    }

    private static BigDecimal amount(JsonNode quantity) {
        String text = text(quantity);
        return text == null || QuantityFormat.error(text) != null ? null : QuantityFormat.amount(text);
    }

    private static String text(JsonNode quantity) {
        return quantity == null || !(quantity.isString() || quantity.isNumber()) ? null : quantity.asString().trim();
    }
}
