package io.kuberaysim.apiserver.patch;

import java.util.List;
import java.util.Optional;

/**
 * The list-merge metadata a strategic merge patch needs (the {@code patchMergeKey}/{@code patchStrategy} struct
 * tags of the Go API types). A field path is the list of field names from the object root with array indices
 * left out, e.g. {@code [spec, containers, env]}.
 */
@FunctionalInterface
public interface MergeKeys {

    /**
     * The merge key of a list of objects that merges element-wise (e.g. {@code name} for
     * {@code [spec, containers]}); empty when the list is replaced as a whole.
     */
    Optional<String> mergeKey(List<String> fieldPath);

    /**
     * Whether a list of scalars has the merge strategy (its items are unioned, and
     * {@code $deleteFromPrimitiveList} removes items), as {@code metadata.finalizers} does.
     */
    default boolean mergesPrimitives(List<String> fieldPath) {
        return false;
    }

    /** No list merges at all: every list is replaced, as for types without strategic-merge metadata. */
    static MergeKeys none() {
        return path -> Optional.empty();
    }

    /**
     * Merge keys of the built-in kinds this server hosts (Pod, Service, Job, Event, Namespace). Paths under a
     * Job's {@code spec.template} (and a CronJob's {@code spec.jobTemplate.spec.template}) resolve as in a Pod;
     * any nested {@code metadata} resolves as top-level metadata.
     */
    static MergeKeys builtins() {
        return BuiltinMergeKeys.INSTANCE;
    }
}
