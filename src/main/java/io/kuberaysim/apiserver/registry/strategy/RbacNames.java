package io.kuberaysim.apiserver.registry.strategy;

import java.util.ArrayList;
import java.util.List;

/**
 * The minimal name rule of RBAC objects and role references ({@code path.IsValidPathSegmentName}, used by
 * kube's {@code pkg/apis/rbac/validation}): anything that is a usable URL path segment.
 */
final class RbacNames {
    private RbacNames() {
    }

    static List<String> pathSegmentErrors(String name) {
        List<String> errs = new ArrayList<>();
        if (name.equals(".") || name.equals("..")) {
            errs.add("may not be '" + name + "'");
            return errs;
        }
        for (String illegal : List.of("/", "%")) {
            if (name.contains(illegal)) {
                errs.add("may not contain '" + illegal + "'");
            }
        }
        return errs;
    }
}
