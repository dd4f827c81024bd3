package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.schema.Schema;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import io.kuberaysim.apiserver.validation.NameValidation;

import java.util.ArrayList;
import java.util.List;

/**
 * A KubeRay custom resource: structural schema from the project's model types, the status subresource,
 * and KubeRay's name rules (DNS-1035 label, at most 53 characters for RayCluster and 47 for RayJob and
 * RayService, so derived names such as {@code <name>-serve-svc} stay valid).
 */
public final class CustomResourceStrategy implements ResourceStrategy {
    private final ResourceType type;
    private final Schema schema;
    private final int maxNameLength;

    public CustomResourceStrategy(ResourceType type, Schema schema, int maxNameLength) {
        this.type = type;
        this.schema = schema;
        this.maxNameLength = maxNameLength;
    }

    @Override
    public ResourceType type() {
        return type;
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public List<String> validateName(String name) {
        List<String> errors = new ArrayList<>(NameValidation.isDns1035Label(name));
        if (name.length() > maxNameLength && errors.stream().noneMatch(e -> e.startsWith("must be no more"))) {
            errors.add("must be no more than " + maxNameLength + " characters");
        }
        return errors;
    }
}
