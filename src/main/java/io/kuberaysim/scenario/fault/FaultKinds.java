package io.kuberaysim.scenario.fault;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The fault types a {@code fault} step knows, by name. */
public final class FaultKinds {
    private final Map<String, FaultKind> kinds = new TreeMap<>();

    /** deletePod, failPod, deleteNode, cordonNode, nodeNotReady, failRayJob. */
    public static FaultKinds defaults() {
        return new FaultKinds().register(new DeletePod.Kind()).register(new FailPod.Kind())
                .register(new DeleteNode.Kind()).register(new CordonNode.Kind()).register(new NodeNotReady.Kind())
                .register(new FailRayJob.Kind());
    }

    public FaultKinds register(FaultKind kind) {
        kinds.put(kind.name(), kind);
        return this;
    }

    public Optional<FaultKind> find(String name) {
        return Optional.ofNullable(kinds.get(name));
    }

    public Map<String, FaultKind> all() {
        return Collections.unmodifiableMap(kinds);
    }
}
