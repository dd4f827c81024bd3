package io.kuberaysim.apiserver.validation;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.DeleteOptions;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.embedded.EmbeddedSimulator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shapes agree with Jackson's strict decoding: whatever a shape accepts decodes (checked on the objects a
 * simulated RayCluster really stores, and on every one-place mutation of them), and those objects take the shape's
 * path without Jackson.
 */
class DecodableShapeTest {
    private static EmbeddedSimulator sim;

    private static final List<JsonNode> WRONG_VALUES = List.of(
            Json.MAPPER.getNodeFactory().stringNode("x"),
            Json.MAPPER.getNodeFactory().stringNode(""),
            Json.MAPPER.getNodeFactory().stringNode("12"),
            Json.MAPPER.getNodeFactory().stringNode("1.5Gi"),
            Json.MAPPER.getNodeFactory().stringNode(" 2 "),
            Json.MAPPER.getNodeFactory().numberNode(7),
            Json.MAPPER.getNodeFactory().numberNode(-1),
            Json.MAPPER.getNodeFactory().numberNode(10_000_000_000L),
            Json.MAPPER.getNodeFactory().numberNode(1.5),
            Json.MAPPER.getNodeFactory().numberNode(new java.math.BigInteger("99999999999999999999999")),
            Json.MAPPER.getNodeFactory().booleanNode(true),
            Json.MAPPER.getNodeFactory().nullNode(),
            Json.MAPPER.createArrayNode(),
            Json.MAPPER.createArrayNode().add("a"),
            Json.MAPPER.createArrayNode().add(1),
            Json.MAPPER.createArrayNode().add(Json.object().put("name", "n")),
            Json.object(),
            Json.object().put("a", "b"),
            Json.object().put("a", 1));

    @BeforeAll
    static void runACluster() throws Exception {
        sim = EmbeddedSimulator.start();
        ObjectNode cluster = (ObjectNode) Json.YAML.readTree(Files.readString(Path.of("http-examples/example-cluster.yaml")));
        sim.client().create(ResourceTypes.RAYCLUSTERS, "default", cluster);
        sim.advance(Duration.ofSeconds(30));
        sim.settle();
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    private static List<JsonNode> stored(ResourceType type) {
        List<JsonNode> out = new ArrayList<>();
        for (StoredObject o : sim.client().list(type, null, null)) {
            out.add(o.object().deepCopy());
        }
        assertThat(out).as(type.plural()).isNotEmpty();
        return out;
    }

    private static boolean decodes(JsonNode tree, Class<?> model) {
        try {
            TypedDecoding.STRICT.treeToValue(tree, model);
            return true;
        } catch (JacksonException e) {
            return false;
        }
    }

    @Test
    @DisplayName("the Pods, Events, Services and Nodes a RayCluster leaves in the store are accepted by their shape")
    void storedObjectsTakeTheShapePath() {
        // (a Lease's times are java.time values whose deserializer is specialised per property: those go to Jackson)
        Map<ResourceType, Class<?>> models = Map.of(ResourceTypes.PODS, Pod.class, ResourceTypes.EVENTS, Event.class,
                ResourceTypes.SERVICES, Service.class, ResourceTypes.NODES, Node.class);
        models.forEach((type, model) -> {
            for (JsonNode o : stored(type)) {
                assertThat(DecodableShape.of(TypedDecoding.SHAPES, model).accepts(o)).as(o.toString()).isTrue();
                assertThat(decodes(o, model)).isTrue();
            }
        });
    }

    @Test
    @DisplayName("shapes read type by type are those read from Jackson's fully resolved deserializers, for every typed model")
    void lazyShapesAreTheResolvedOnes() {
        for (Class<?> model : List.of(Pod.class, Node.class, Namespace.class, Job.class, Service.class, Event.class,
                Lease.class, DeleteOptions.class, Binding.class, PodTemplateSpec.class,
                GenericKubernetesResource.class)) {
            String lazy = DecodableShape.of(TypedDecoding.SHAPES, model).outline();
            assertThat(lazy).as(model.getSimpleName()).isEqualTo(DecodableShape.of(TypedDecoding.STRICT, model).outline());
            if (model == Pod.class) {
                assertThat(lazy).contains("io.fabric8.kubernetes.api.model.HostPathVolumeSource (any): path=scalar0,",
                        "io.fabric8.kubernetes.api.model.Probe (any): ");
            }
        }
    }

    @Test
    @DisplayName("no mutation a shape accepts fails Jackson's strict decoding (each value of a Pod, Event and Service replaced by wrong ones)")
    void shapeAcceptsOnlyWhatDecodes() {
        int[] checked = {0};
        int[] accepted = {0};
        for (Map.Entry<ResourceType, Class<?>> m : Map.<ResourceType, Class<?>>of(ResourceTypes.PODS, Pod.class,
                ResourceTypes.EVENTS, Event.class, ResourceTypes.SERVICES, Service.class).entrySet()) {
            JsonNode original = stored(m.getKey()).get(0);
            DecodableShape shape = DecodableShape.of(TypedDecoding.SHAPES, m.getValue());
            mutations(original, mutated -> {
                checked[0]++;
                if (shape.accepts(mutated)) {
                    accepted[0]++;
                    assertThat(decodes(mutated, m.getValue())).as(mutated.toString()).isTrue();
                }
            });
        }
        assertThat(checked[0]).isGreaterThan(1000);
        assertThat(accepted[0]).isGreaterThan(0).isLessThan(checked[0]);
    }

    /** Every copy of {@code root} with one value (at any depth) replaced by one of {@link #WRONG_VALUES}. */
    private static void mutations(JsonNode root, Consumer<JsonNode> each) {
        List<List<Object>> paths = new ArrayList<>();
        collect(root, new ArrayList<>(), paths);
        for (List<Object> path : paths) {
            for (JsonNode wrong : WRONG_VALUES) {
                JsonNode copy = root.deepCopy();
                JsonNode parent = copy;
                for (int i = 0; i < path.size() - 1; i++) {
                    parent = path.get(i) instanceof String s ? parent.get(s) : parent.get((Integer) path.get(i));
                }
                Object last = path.get(path.size() - 1);
                if (last instanceof String s) {
                    ((ObjectNode) parent).set(s, wrong.deepCopy());
                } else {
                    ((ArrayNode) parent).set((Integer) last, wrong.deepCopy());
                }
                each.accept(copy);
            }
        }
        // unknown fields at every object level
        List<List<Object>> objects = new ArrayList<>();
        objects.add(List.of());
        paths.stream().filter(p -> at(root, p).isObject()).forEach(objects::add);
        for (List<Object> path : objects) {
            JsonNode copy = root.deepCopy();
            ((ObjectNode) at(copy, path)).put("noSuchField", 1);
            each.accept(copy);
        }
    }

    private static JsonNode at(JsonNode root, List<Object> path) {
        JsonNode n = root;
        for (Object p : path) {
            n = p instanceof String s ? n.get(s) : n.get((Integer) p);
        }
        return n;
    }

    private static void collect(JsonNode node, List<Object> prefix, List<List<Object>> out) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                prefix.add(e.getKey());
                out.add(List.copyOf(prefix));
                collect(e.getValue(), prefix, out);
                prefix.remove(prefix.size() - 1);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                prefix.add(i);
                out.add(List.copyOf(prefix));
                collect(node.get(i), prefix, out);
                prefix.remove(prefix.size() - 1);
            }
        }
    }
}
