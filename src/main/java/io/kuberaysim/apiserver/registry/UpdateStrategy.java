package io.kuberaysim.apiserver.registry;

import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.storage.StoredObject;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * What a PUT or PATCH may change, as kube-apiserver's update strategy of a resource ({@link MainUpdateStrategy})
 * and the status strategy of its {@code /status} subresource ({@link StatusUpdateStrategy}). The generic registry
 * runs the common steps (preconditions, server-owned metadata, finalizer-driven deletion); these decide the rest.
 */
interface UpdateStrategy {

    /**
     * The next object from a PUT body, which stays unmodified (a conflict retries with the same body).
     *
     * @param warnings collects the warnings of this attempt
     */
    ObjectNode fromBody(ResourceStrategy resource, StoredObject current, ObjectNode body, WriteOptions options,
                        List<String> warnings);

    /**
     * As {@link #fromBody}, from a body that is the write's own: what this strategy takes from it may be taken as it
     * is, without a copy. A conflict retries with the body as the first attempt left it. By default the body is
     * copied as {@link #fromBody} does: an update of the main resource changes the body's metadata, which a retry
     * reads again.
     */
    default ObjectNode fromOwnBody(ResourceStrategy resource, StoredObject current, ObjectNode body,
                                   WriteOptions options, List<String> warnings) {
        return fromBody(resource, current, body, options, warnings);
    }

    /**
     * The next object from the current object with a patch applied ({@code patched} is this attempt's own).
     *
     * @param ownTree whether every node of {@code patched} is also this attempt's own and in it once (not shared
     *                with the stored object or the patch), so it may be pruned and defaulted in place
     */
    ObjectNode fromPatched(ResourceStrategy resource, StoredObject current, ObjectNode patched, boolean ownTree,
                           WriteOptions options, List<String> warnings);

    /**
     * kube-apiserver's {@code PrepareForUpdate}, {@code ValidateUpdate} and {@code WarningsOnUpdate}: adjusts
     * {@code next} (whose server-owned metadata is already restored from {@code current}), adds the warnings of a
     * valid update to {@code warnings} and returns the validation errors.
     */
    List<StatusCause> prepareAndValidate(ResourceStrategy resource, StoredObject current, ObjectNode next,
                                         List<String> warnings);

    /** Whether an apply patch of a missing object creates it (the main resource), or is an error (status). */
    boolean applyCreates();
}
