package io.kuberaysim.apiserver.fieldmanager;

import io.kuberaysim.apiserver.patch.MergeKeys;

import java.util.List;

/**
 * How structured-merge-diff treats each list of a kind: atomic (owned and replaced whole), a set of scalars, or an
 * associative list whose items are told apart by key fields. Built-in kinds use the keys kube's schema gives
 * (strategic-merge keys; ports by {@code containerPort}/{@code port} and {@code protocol}); custom resources have
 * atomic lists as a CRD schema without {@code x-kubernetes-list-type}, their metadata excepted.
 */
final class ListTypes {
    /** One list's semantics; {@code keys} for associative lists. */
    record ListType(Kind kind, List<String> keys) {
        enum Kind { ATOMIC, SET, MAP }

        static final ListType ATOMIC = new ListType(Kind.ATOMIC, List.of());
        static final ListType SET = new ListType(Kind.SET, List.of());

        static ListType map(String... keys) {
            return new ListType(Kind.MAP, List.of(keys));
        }
    }

    private final MergeKeys mergeKeys;

    /** @param mergeKeys a built-in kind's strategic-merge metadata; null for custom resources */
    ListTypes(MergeKeys mergeKeys) {
        this.mergeKeys = mergeKeys;
    }

    /** @param fieldPath the field names from the object's root to the list (list positions left out) */
    ListType of(List<String> fieldPath) {
        int n = fieldPath.size();
        if (n == 2 && fieldPath.get(0).equals("metadata")) {
            return switch (fieldPath.get(1)) {
                case "ownerReferences" -> ListType.map("uid");
                case "finalizers" -> ListType.SET;
                default -> ListType.ATOMIC;
            };
        }
        if (mergeKeys == null) {
            return ListType.ATOMIC;
        }
        if (mergeKeys.mergesPrimitives(fieldPath)) {
            return ListType.SET;
        }
        return mergeKeys.mergeKey(fieldPath).map(key -> switch (key) {
            case "containerPort" -> ListType.map("containerPort", "protocol");
            case "port" -> ListType.map("port", "protocol");
            default -> ListType.map(key);
        }).orElse(ListType.ATOMIC);
    }
}
