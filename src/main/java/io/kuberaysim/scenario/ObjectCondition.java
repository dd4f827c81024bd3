package io.kuberaysim.scenario;

import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What {@code waitFor} waits for and {@code expect} checks on objects: a JSONPath whose value equals or matches a
 * text (or that selects anything at all), a status condition with a status, a number of objects, or their absence.
 * Checking gives whether it holds and what was seen, for messages.
 */
public final class ObjectCondition {
    /** The fields besides the object reference. */
    public static final Set<String> FIELDS = StepSource.fields("jsonPath", "equals", "matches", "condition",
            "status", "count", "absent");

    private final ObjectRef ref;
    private final JsonPathQuery path;
    private final String equals;
    private final Pattern matches;
    private final String condition;
    private final String conditionStatus;
    private final Integer count;
    private final boolean absent;

    private ObjectCondition(ObjectRef ref, JsonPathQuery path, String equals, Pattern matches, String condition,
                            String conditionStatus, Integer count, boolean absent) {
        this.ref = ref;
        this.path = path;
        this.equals = equals;
        this.matches = matches;
        this.condition = condition;
        this.conditionStatus = conditionStatus;
        this.count = count;
        this.absent = absent;
    }

    /** Reads the condition (with its object reference) from a step's map. */
    public static ObjectCondition read(StepSource s) {
        boolean absent = s.has("absent") && s.node().get("absent").asBoolean(false);
        if (s.has("absent") && !s.node().get("absent").isBoolean()) {
            throw s.field("absent").error("must be true or false");
        }
        Integer count = null;
        if (s.has("count")) {
            JsonNode c = s.node().get("count");
            if (!c.isIntegralNumber() || c.asInt() < 0) {
                throw s.field("count").error("must be a whole number from 0; got " + StepSource.describe(c));
            }
            count = c.asInt();
        }
        ObjectRef ref = ObjectRef.read(s, s.namespace(), false);
        JsonPathQuery path = null;
        if (s.has("jsonPath")) {
            try {
                path = JsonPathQuery.compile(s.text("jsonPath"));
            } catch (IllegalArgumentException e) {
                throw s.field("jsonPath").error("not a JSONPath: " + e.getMessage());
            }
        }
        String equals = s.optionalText("equals").orElse(null);
        Pattern matches = null;
        if (s.has("matches")) {
            try {
                matches = Pattern.compile(s.text("matches"));
            } catch (PatternSyntaxException e) {
                throw s.field("matches").error("not a regular expression: " + e.getDescription());
            }
        }
        String condition = s.optionalText("condition").orElse(null);
        String status = s.optionalText("status").orElse("True");
        if ((equals != null || matches != null) && path == null) {
            throw s.error((equals != null ? "equals" : "matches") + " needs a jsonPath");
        }
        if (s.has("status") && condition == null) {
            throw s.field("status").error("status needs a condition");
        }
        int kinds = (path != null ? 1 : 0) + (condition != null ? 1 : 0) + (absent ? 1 : 0);
        if (kinds > 1) {
            throw s.error("use one of jsonPath, condition or absent");
        }
        if (kinds == 0 && count == null) {
            throw s.error("needs one of jsonPath (with equals or matches), condition, count or absent: true");
        }
        if (ref.name() == null && count == null && !absent) {
            throw s.error("with a selector, say how many objects: count");
        }
        return new ObjectCondition(ref, path, equals, matches, condition, status, count, absent);
    }

    public ObjectRef ref() {
        return ref;
    }

    /** Whether it holds now, and what was seen. */
    public Outcome check(KubeClient client) {
        List<StoredObject> objects = ref.list(client);
        if (absent) {
            return new Outcome(objects.isEmpty(), objects.isEmpty() ? "absent"
                    : objects.size() + " present: " + names(objects));
        }
        if (ref.name() != null && objects.isEmpty()) {
            return new Outcome(false, ref + " does not exist");
        }
        if (path == null && condition == null) {
            return new Outcome(objects.size() == count, objects.size() + " object(s)"
                    + (objects.isEmpty() ? "" : ": " + names(objects)));
        }
        List<String> seen = new ArrayList<>();
        int holding = 0;
        for (StoredObject o : objects) {
            List<String> values = values(o.object());
            seen.add(objects.size() > 1 ? o.name() + "=" + values : values.isEmpty() ? "nothing" : String.join(", ",
                    values));
            if (holds(values)) {
                holding++;
            }
        }
        boolean ok = count != null ? holding == count : holding == objects.size();
        return new Outcome(ok, count != null ? holding + " of " + objects.size() + " hold (" + String.join("; ", seen)
                + ")" : String.join("; ", seen));
    }

    private List<String> values(JsonNode object) {
        List<String> out = new ArrayList<>();
        if (path != null) {
            for (Object v : path.read(object)) {
                out.add(v == null ? "null" : JsonPathQuery.render(v));
            }
            return out;
        }
        for (JsonNode c : object.path("status").path("conditions")) {
            if (condition.equals(c.path("type").asString())) {
                out.add(c.path("status").asString());
            }
        }
        return out;
    }

    private boolean holds(List<String> values) {
        if (condition != null) {
            return values.contains(conditionStatus);
        }
        if (equals != null) {
            return values.contains(equals);
        }
        if (matches != null) {
            return values.stream().anyMatch(v -> matches.matcher(v).matches());
        }
        return values.stream().anyMatch(v -> !v.equals("null"));
    }

    private static String names(List<StoredObject> objects) {
        List<String> names = objects.stream().map(StoredObject::name).limit(5).toList();
        return String.join(", ", names) + (objects.size() > 5 ? ", ..." : "");
    }

    /** {@code RayCluster default/x $.status.state == ready}. */
    @Override
    public String toString() {
        String what;
        if (absent) {
            what = "absent";
        } else if (path != null) {
            what = path + (equals != null ? " == " + equals : matches != null ? " =~ " + matches.pattern()
                    : " exists");
        } else if (condition != null) {
            what = "condition " + condition + "=" + conditionStatus;
        } else {
            what = "";
        }
        String counted = count == null ? "" : (what.isEmpty() ? "count " : " count ") + count;
        return ref + " " + what + counted;
    }

    /** Whether a condition held and what was seen. */
    public record Outcome(boolean holds, String seen) {
    }
}
