package io.kuberaysim.scenario.step;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.scenario.ObjectCondition;
import io.kuberaysim.scenario.ObjectRef;
import io.kuberaysim.scenario.ScenarioRun;
import io.kuberaysim.scenario.Step;
import io.kuberaysim.scenario.StepKind;
import io.kuberaysim.scenario.StepSource;
import tools.jackson.databind.JsonNode;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code expect}: checks, now, a condition on objects (JSONPath equals/matches, condition, count, absent) or that an
 * Event with a reason exists ({@code expect: {event: {reason: CreatedWorkerPod, kind: RayCluster, name: x}}}). A
 * failure is recorded with what was expected and what was seen; the run goes on.
 */
public final class ExpectStep implements Step {
    private static final Set<String> EVENT_FIELDS = StepSource.fields("reason", "kind", "name", "namespace", "type",
            "message");

    private final ObjectCondition condition;
    private final EventQuery event;

    private ExpectStep(ObjectCondition condition, EventQuery event) {
        this.condition = condition;
        this.event = event;
    }

    @Override
    public void run(ScenarioRun run) {
        if (condition != null) {
            ObjectCondition.Outcome o = condition.check(run.client());
            run.record(describe(), o.holds(), "expected " + condition + ", saw " + o.seen());
        } else {
            List<String> reasons = event.reasonsSeen(run);
            boolean found = event.find(run);
            run.record(describe(), found, "expected " + event + ", saw "
                    + (reasons.isEmpty() ? "no Events" : "reasons " + reasons));
        }
    }

    @Override
    public String describe() {
        return "expect " + (condition != null ? condition.toString() : event.toString());
    }

    /** An Event by reason, optionally about one object, of a type, with a message containing a text. */
    record EventQuery(String namespace, String reason, String kind, String name, String type, String message) {
        boolean find(ScenarioRun run) {
            return events(run).stream().anyMatch(e -> reason.equals(text(e, "reason"))
                    && (kind == null || kind.equalsIgnoreCase(involved(e, "kind")))
                    && (name == null || name.equals(involved(e, "name")))
                    && (type == null || type.equals(text(e, "type")))
                    && (message == null || String.valueOf(text(e, "message")).contains(message)));
        }

        List<String> reasonsSeen(ScenarioRun run) {
            return events(run).stream().filter(e -> name == null || name.equals(involved(e, "name")))
                    .map(e -> text(e, "reason")).distinct().sorted().toList();
        }

        private List<JsonNode> events(ScenarioRun run) {
            return run.client().list(ResourceTypes.EVENTS, namespace, null).stream().<JsonNode>map(StoredObject::object)
                    .toList();
        }

        private static String involved(JsonNode e, String field) {
            JsonNode n = e.path("involvedObject").path(field);
            return n.isMissingNode() ? e.path("regarding").path(field).asString(null) : n.asString(null);
        }

        private static String text(JsonNode e, String field) {
            JsonNode n = e.path(field);
            return n.isMissingNode() || n.isNull() ? (field.equals("message") ? e.path("note").asString(null) : null)
                    : n.asString();
        }

        @Override
        public String toString() {
            return "Event " + (type == null ? "" : type + " ") + reason
                    + (name == null ? "" : " on " + (kind == null ? "" : kind + " ") + name)
                    + (message == null ? "" : " with message containing \"" + message + "\"");
        }
    }

    /** The {@code expect} kind. */
    public static final class Kind implements StepKind {
        @Override
        public String name() {
            return "expect";
        }

        @Override
        public Step parse(StepSource source) {
            Set<String> fields = new LinkedHashSet<>(ObjectRef.FIELDS);
            fields.addAll(ObjectCondition.FIELDS);
            fields.add("event");
            source.object(fields);
            if (source.has("event")) {
                if (source.node().size() > 1) {
                    throw source.error("an Event expectation has only the field event");
                }
                StepSource e = source.field("event");
                e.object(EVENT_FIELDS);
                String kind = e.optionalText("kind").orElse(null);
                if (kind != null && ObjectRef.type(kind).isEmpty()) {
                    throw e.field("kind").error("unknown kind \"" + kind + "\"");
                }
                return new ExpectStep(null, new EventQuery(e.optionalText("namespace").orElse(source.namespace()),
                        e.text("reason"), kind == null ? null : ObjectRef.type(kind).get().kind(),
                        e.optionalText("name").orElse(null), e.optionalText("type").orElse(null),
                        e.optionalText("message").orElse(null)));
            }
            return new ExpectStep(ObjectCondition.read(source), null);
        }
    }
}
