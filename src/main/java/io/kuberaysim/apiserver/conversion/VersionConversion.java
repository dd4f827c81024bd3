package io.kuberaysim.apiserver.conversion;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.errors.StatusCause;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * A resource served in one version and stored in another, as kube-apiserver serves events.k8s.io/v1 Events from
 * the core Event storage: objects are converted on the way in and out, field selectors are translated, and the
 * served version may add its own validation. Everything else (storage, strategy, watches) is the stored type's.
 */
public interface VersionConversion {

    /** The type clients address. */
    ResourceType served();

    /** The type whose storage and strategy hold the objects. */
    ResourceType stored();

    /** The stored form of an object sent in the served version (apiVersion rewritten). */
    ObjectNode toStored(ObjectNode served);

    /** The served form of a stored object. */
    ObjectNode toServed(JsonNode stored);

    /**
     * The stored type's field label for a served field label.
     *
     * @throws io.kuberaysim.apiserver.errors.ApiException 400 {@code field label not supported} for labels the
     *                                                     served version does not have
     */
    String storedFieldLabel(String servedLabel);

    /** Extra rules for objects created through the served version (on the stored form). */
    List<StatusCause> validateCreate(ObjectNode stored);

    /** Extra rules for updates through the served version (on the stored forms). */
    List<StatusCause> validateUpdate(ObjectNode stored, JsonNode old);
}
