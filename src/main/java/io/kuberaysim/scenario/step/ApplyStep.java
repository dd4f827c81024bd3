package io.kuberaysim.scenario.step;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.scenario.ScenarioRun;
import io.kuberaysim.scenario.Step;
import io.kuberaysim.scenario.StepKind;
import io.kuberaysim.scenario.StepSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code apply}: an inline manifest ({@code apply: {apiVersion: ray.io/v1, kind: RayCluster, ...}}) or a file
 * ({@code apply: {file: ../http-examples/example-cluster.yaml}}, every document in it). An absent object is
 * created, a present one updated with server-side apply, as {@code kubectl apply} would; the API's refusal fails
 * the run with its Status message.
 */
public final class ApplyStep implements Step {
    private final List<Manifest> manifests;
    private final String source;

    private ApplyStep(List<Manifest> manifests, String source) {
        this.manifests = manifests;
        this.source = source;
    }

    record Manifest(ResourceType type, String namespace, String name, ObjectNode object) {
    }

    @Override
    public void run(ScenarioRun run) {
        for (Manifest m : manifests) {
            if (run.client().get(m.type(), m.namespace(), m.name()) == null) {
                run.client().create(m.type(), m.namespace(), m.object().deepCopy());
            } else {
                run.client().patch(m.type(), m.namespace(), m.name(), PatchType.APPLY, m.object().deepCopy());
            }
        }
    }

    @Override
    public String describe() {
        List<String> what = manifests.stream().map(m -> m.type().kind() + " " + m.name()).toList();
        return "apply " + String.join(", ", what) + (source == null ? "" : " from " + source);
    }

    /** The {@code apply} kind. */
    public static final class Kind implements StepKind {
        @Override
        public String name() {
            return "apply";
        }

        @Override
        public Step parse(StepSource s) {
            JsonNode n = s.node();
            List<ObjectNode> objects;
            String file = null;
            if (n.isString()) {
                file = n.asString();
                objects = s.manifests(file);
            } else if (n.isObject() && n.has("file")) {
                s.object(StepSource.fields("file"));
                file = s.text("file");
                objects = s.field("file").manifests(file);
            } else if (n.isObject()) {
                objects = List.of((ObjectNode) n.deepCopy());
            } else {
                throw s.error("must be a manifest (a map with apiVersion and kind) or {file: path}; got a list");
            }
            List<Manifest> out = new ArrayList<>();
            for (ObjectNode o : objects) {
                out.add(manifest(s, o, s.namespace()));
            }
            return new ApplyStep(out, file);
        }

        private static Manifest manifest(StepSource s, ObjectNode o, String namespace) {
            String apiVersion = Json.text(o, "apiVersion");
            String kind = Json.text(o, "kind");
            if (apiVersion == null || kind == null) {
                throw s.error("a manifest needs apiVersion and kind");
            }
            ResourceType type = ResourceTypes.SERVED_TYPES.stream()
                    .filter(t -> t.kind().equals(kind) && t.apiVersion().equals(apiVersion)).findFirst()
                    .orElseThrow(() -> s.error("this server serves no " + kind + " in " + apiVersion));
            String name = Json.text(o, "metadata", "name");
            if (name == null || name.isEmpty()) {
                throw s.error("a manifest needs metadata.name (generateName cannot be applied)");
            }
            String ns = Json.text(o, "metadata", "namespace");
            String resolved = type.namespaced() ? (ns == null ? namespace : ns) : null;
            return new Manifest(type, resolved, name, o);
        }
    }
}
