package io.kuberaysim.sim.chaos;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.selection.LabelSelector;
import io.kuberaysim.apiserver.storage.StoredObject;
import tools.jackson.databind.JsonNode;

/**
 * The {@code selector} (over labels) and {@code annotationSelector} (over annotations) of a lifecycle rule's or fault
 * schedule's spec, both in {@code kubectl -l} syntax (validated on write); an empty one selects everything.
 */
final class SpecSelectors {
    private SpecSelectors() {
    }

    /** Whether both selectors of {@code spec} match {@code o}. */
    static boolean match(JsonNode spec, StoredObject o) {
        return LabelSelector.parse(Json.text(spec, "selector")).matches(o.labels())
                && LabelSelector.parse(Json.text(spec, "annotationSelector")).matches(o.annotations());
    }
}
