package io.kuberaysim.api.sim;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;
import io.kuberaysim.api.schema.PreserveUnknownFields;
import io.kuberaysim.api.schema.Schema;
import io.kuberaysim.api.schema.SchemaGenerator;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@code sim.kuberay.io/v1alpha1} NodeLifecycleRule: How the simulated Nodes it selects become Ready and go NotReady.
 *
 * @param apiVersion {@code sim.kuberay.io/v1alpha1}
 * @param kind       {@code NodeLifecycleRule}
 * @param metadata   standard object metadata
 * @param spec       what the rule selects and sets
 */
@Description("How the simulated Nodes it selects become Ready and go NotReady.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record NodeLifecycleRule(
        @Description("Versioned schema of this representation of an object.")
        String apiVersion,
        @Description("REST resource this object represents.")
        String kind,
        @PreserveUnknownFields
        @Description("Standard object metadata.")
        ObjectNode metadata,
        @Description("What the rule selects and sets.")
        NodeLifecycleRuleSpec spec) {

    /** Kind. */
    public static final String KIND = "NodeLifecycleRule";

    /** The structural schema of the whole resource. */
    public static Schema schema() {
        return SchemaGenerator.generate(NodeLifecycleRule.class);
    }
}
