package io.kuberaysim.scenario.step;

import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.scenario.ObjectRef;
import io.kuberaysim.scenario.ScenarioRun;
import io.kuberaysim.scenario.Step;
import io.kuberaysim.scenario.StepFailedException;
import io.kuberaysim.scenario.StepKind;
import io.kuberaysim.scenario.StepSource;
import tools.jackson.databind.JsonNode;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * {@code patch: {kind, name, type: merge|json|strategic, patch: ...}} (merge by default), on the object or, with
 * {@code subresource: status}, on its status, as {@code kubectl patch} sends it.
 */
public record PatchStep(ObjectRef ref, PatchType type, JsonNode patch, boolean status) implements Step {
    @Override
    public void run(ScenarioRun run) {
        if (ref.get(run.client()) == null) {
            throw new StepFailedException(ref + " does not exist");
        }
        if (status) {
            if (type != PatchType.MERGE) {
                throw new StepFailedException("a status patch is a merge patch");
            }
            run.client().patchStatus(ref.type(), ref.namespace(), ref.name(), patch);
        } else {
            run.client().patch(ref.type(), ref.namespace(), ref.name(), type, patch);
        }
    }

    @Override
    public String describe() {
        return "patch " + ref + (status ? " status" : "") + " " + patch;
    }

    /** The {@code patch} kind. */
    public static final class Kind implements StepKind {
        @Override
        public String name() {
            return "patch";
        }

        @Override
        public Step parse(StepSource s) {
            Set<String> fields = new LinkedHashSet<>(ObjectRef.FIELDS);
            fields.remove("selector");
            fields.add("type");
            fields.add("patch");
            fields.add("subresource");
            s.object(fields);
            ObjectRef ref = ObjectRef.read(s, s.namespace(), true);
            String t = s.optionalText("type").orElse("merge").toLowerCase(Locale.ROOT);
            PatchType type = switch (t) {
                case "merge" -> PatchType.MERGE;
                case "json" -> PatchType.JSON;
                case "strategic" -> PatchType.STRATEGIC;
                default -> throw s.field("type").error("must be merge, json or strategic; got \"" + t + "\"");
            };
            if (!s.has("patch")) {
                throw s.error("missing required field \"patch\"");
            }
            JsonNode patch = s.node().get("patch");
            if (type == PatchType.JSON ? !patch.isArray() : !patch.isObject()) {
                throw s.field("patch").error(type == PatchType.JSON ? "a json patch is a list of operations"
                        : "a " + t + " patch is a map");
            }
            String sub = s.optionalText("subresource").orElse("");
            if (!sub.isEmpty() && !sub.equals("status")) {
                throw s.field("subresource").error("only status; got \"" + sub + "\"");
            }
            return new PatchStep(ref, type, patch.deepCopy(), sub.equals("status"));
        }
    }
}
