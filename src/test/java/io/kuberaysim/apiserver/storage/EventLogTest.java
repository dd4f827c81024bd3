package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static io.kuberaysim.api.ResourceTypes.CONFIGMAPS;
import static io.kuberaysim.api.ResourceTypes.PODS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The change log's window: how far a cursor may fall behind, whatever the history kept for resuming. */
class EventLogTest {
    private final InMemoryObjectStore store = new InMemoryObjectStore(10);

    private static ObjectNode object(String name) {
        ObjectNode o = Json.object();
        o.putObject("metadata").put("namespace", "default").put("name", name);
        return o;
    }

    @Test
    @DisplayName("a cursor may fall the log's window behind even where the history kept for resuming is short")
    void cursorOutlivesTheHistory() {
        WatchCursor cursor = store.follow(PODS, 0, () -> { });
        for (int i = 0; i < 100; i++) {
            store.create(PODS, object("p" + i));
        }
        assertThatThrownBy(() -> store.follow(PODS, 1, () -> { }))
                .isInstanceOf(ObjectStore.TooOldResourceVersionException.class);
        assertThat(cursor.behind()).isEqualTo(100);
        for (int i = 0; i < 100; i++) {
            assertThat(cursor.next().object().name()).isEqualTo("p" + i);
        }
        assertThat(cursor.next()).isNull();
    }

    @Test
    @DisplayName("a cursor whose unread changes left the log fails; one that missed only other types' changes goes on")
    void cursorThatFallsOutOfTheWindow() {
        WatchCursor pods = store.follow(PODS, 0, () -> { });
        WatchCursor configMaps = store.follow(CONFIGMAPS, 0, () -> { });
        store.create(CONFIGMAPS, object("first"));
        assertThat(configMaps.next().object().name()).isEqualTo("first");
        store.create(PODS, object("lost"));
        for (int i = 0; i < EventLog.MIN_WINDOW; i++) {
            store.create(CONFIGMAPS, object("c" + i));
        }
        store.create(PODS, object("kept"));

        assertThatThrownBy(pods::next).isInstanceOf(ObjectStore.TooOldResourceVersionException.class);
        // configMaps' "c0" left the window unread too
        assertThatThrownBy(configMaps::next).isInstanceOf(ObjectStore.TooOldResourceVersionException.class);

        WatchCursor quiet = store.follow(PODS, store.revision(), () -> { });
        for (int i = 0; i < EventLog.MIN_WINDOW + 5; i++) {
            store.create(CONFIGMAPS, object("d" + i));
        }
        store.create(PODS, object("after"));
        assertThat(quiet.next().object().name()).isEqualTo("after");
        assertThat(quiet.next()).isNull();
        assertThat(quiet.resourceVersion()).isEqualTo(store.revision());
    }
}
