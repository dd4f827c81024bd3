package io.kuberaysim.e2e;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.runtime.cache.InformerHandler;
import io.kuberaysim.testing.SimulationHarness;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Small helpers shared by the operator end-to-end tests (real operator on the simulated cluster). */
final class OperatorE2e {
    static final String NS = "default";

    private OperatorE2e() {
    }

    /** Every Event with {@code reason} in the namespace, as {@code "<type> <message>"}. */
    static List<String> events(SimulationHarness h, String reason) {
        List<String> out = new ArrayList<>();
        for (StoredObject e : h.client().list(ResourceTypes.EVENTS, NS, null)) {
            if (reason.equals(Json.text(e.object(), "reason"))) {
                out.add(Json.text(e.object(), "type") + " " + Json.text(e.object(), "message"));
            }
        }
        return out;
    }

    static List<StoredObject> pods(SimulationHarness h, String labelSelector) {
        return h.client().list(ResourceTypes.PODS, NS, labelSelector);
    }

    static String phase(StoredObject pod) {
        return Json.text(pod.object(), "status", "phase");
    }

    static boolean podReady(StoredObject pod) {
        for (var c : pod.object().path("status").path("conditions")) {
            if ("Ready".equals(Json.text(c, "type"))) {
                return "True".equals(Json.text(c, "status"));
            }
        }
        return false;
    }

    /**
     * Records, as seconds since {@code start}, the first moment an object of {@code type} matched {@code when}
     * (seen by an informer, i.e. at the write that made it true).
     */
    static final class FirstTime implements InformerHandler {
        private final SimulationHarness h;
        private final Instant start;
        private final Predicate<StoredObject> when;
        private Duration at;

        FirstTime(SimulationHarness h, ResourceType type, Instant start, Predicate<StoredObject> when) {
            this.h = h;
            this.start = start;
            this.when = when;
            h.manager().informer(type).addHandler(this);
        }

        @Override
        public void onAdd(StoredObject o) {
            check(o);
        }

        @Override
        public void onUpdate(StoredObject oldObj, StoredObject newObj) {
            check(newObj);
        }

        private void check(StoredObject o) {
            if (at == null && when.test(o)) {
                at = Duration.between(start, h.clock().now());
            }
        }

        /** Seconds after start, or null if it never happened. */
        Double seconds() {
            return at == null ? null : at.toMillis() / 1000.0;
        }
    }
}
