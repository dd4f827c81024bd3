package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Typed views of stored trees share the stored subtrees instead of copying them. */
class StoredViewsTest {
    record Group(String name, Integer replicas, ObjectNode template, List<ObjectNode> extra) {
    }

    @Test
    @DisplayName("a typed view's object fields are the stored subtrees: read-only, equal, no second copy")
    void sharesSubtrees() {
        InMemoryObjectStore store = new InMemoryObjectStore(10);
        StoredObject o = store.create(ResourceTypes.CONFIGMAPS, (ObjectNode) Json.MAPPER.readTree("""
                {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default"},
                 "spec":{"name":"workers","replicas":3,"template":{"spec":{"containers":[{"name":"ray"}]}},
                         "extra":[{"a":1},{"b":{}}]}}"""));
        Group g = StoredViews.read(o.object().get("spec"), Group.class);
        assertThat(g.name()).isEqualTo("workers");
        assertThat(g.replicas()).isEqualTo(3);
        assertThat(g.template()).isSameAs(o.object().at("/spec/template"));
        assertThat(g.extra().get(1)).isSameAs(o.object().at("/spec/extra/1"));
        assertThatThrownBy(() -> g.template().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(g.template().deepCopy().put("x", 1).get("x").asInt()).isEqualTo(1);
    }

    @Test
    @DisplayName("a field that is not an object is refused as an ordinary read refuses it")
    void wrongShape() {
        assertThatThrownBy(() -> StoredViews.read(Json.MAPPER.readTree("{\"template\":\"text\"}"), Group.class))
                .isInstanceOf(tools.jackson.databind.DatabindException.class);
        assertThat(StoredViews.read(Json.MAPPER.readTree("{\"template\":null}"), Group.class).template()).isNull();
    }
}
