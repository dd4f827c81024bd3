package io.kuberaysim.apiserver.storage;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.StringNode;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeInternerTest {
    private static NodeInterner interner(int sets) {
        return new NodeInterner((a, b) -> a.stringValue().equals(b.stringValue()), sets);
    }

    private static JsonNode text(String s) {
        return StringNode.valueOf(s);
    }

    private static JsonNode intern(NodeInterner table, String s) {
        return table.intern(text(s), s.hashCode() * 0x45D9F3B);
    }

    @Test
    @DisplayName("a part asked for again and again stays shared while a hundred times the table's size of unique parts passes through")
    void frequentPartsStay() {
        NodeInterner table = interner(1 << 12);
        JsonNode image = intern(table, "rayproject/ray:2.41.0");
        for (int i = 0; i < 819_200; i++) {
            intern(table, "pod-" + i);
            if (i % 10 == 0) {
                assertThat(intern(table, "rayproject/ray:2.41.0")).isSameAs(image);
            }
        }
        assertThat(table.size()).isEqualTo(2 << 12);
        assertThat(table.lookups()).isEqualTo(819_200 + 819_200 / 10 + 1);
    }

    @Test
    @DisplayName("a part pushed out of the table is held no more: the next one like it is a new instance, the same content")
    void forgottenPartsAreLetGo() {
        NodeInterner table = interner(1 << 4);
        JsonNode first = intern(table, "once");
        for (int i = 0; i < 1_000; i++) {
            intern(table, "other-" + i);
        }
        JsonNode again = intern(table, "once");
        assertThat(again).isNotSameAs(first).isEqualTo(first);
        assertThat(intern(table, "once")).isSameAs(again);
    }

    @Test
    @DisplayName("writers racing on one small table always get a node with the content they asked for")
    void concurrentWriters() throws Exception {
        NodeInterner table = interner(1 << 2);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                results.add(pool.submit(() -> {
                    int wrong = 0;
                    for (int i = 0; i < 100_000; i++) {
                        String s = "v" + (i % 37);
                        if (!intern(table, s).stringValue().equals(s)) {
                            wrong++;
                        }
                    }
                    return wrong;
                }));
            }
            for (Future<Integer> r : results) {
                assertThat(r.get()).isZero();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @DisplayName("the number of sets is a power of two")
    void setsArePowersOfTwo() {
        assertThatThrownBy(() -> interner(3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> interner(1)).isInstanceOf(IllegalArgumentException.class);
    }
}
