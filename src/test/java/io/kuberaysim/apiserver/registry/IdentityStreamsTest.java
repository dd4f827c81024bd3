package io.kuberaysim.apiserver.registry;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.testing.TestCluster;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Generated names and uids come from separate seeded streams: recording Events does not change later names. */
class IdentityStreamsTest {

    /** Three generated names, with {@code events} Events recorded before each. */
    private static List<String> generatedNames(int events) {
        List<String> names = new ArrayList<>();
        try (TestCluster cluster = new TestCluster()) {
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < events; i++) {
                    cluster.registry.create(ResourceTypes.EVENTS, "default", TestCluster.yaml("""
                            metadata: {name: e-%d-%d}
                            involvedObject: {kind: Pod, name: p, namespace: default}
                            reason: Started
                            message: started
                            """.formatted(round, i)), WriteOptions.DEFAULT);
                }
                StoredObject cm = cluster.registry.create(ResourceTypes.CONFIGMAPS, "default",
                        TestCluster.yaml("metadata: {generateName: job-}"), WriteOptions.DEFAULT).object();
                names.add(cm.name());
            }
        }
        return names;
    }

    @Test
    void generatedNamesDoNotDependOnHowManyEventsWereRecorded() {
        List<String> none = generatedNames(0);
        assertThat(none).hasSize(3).doesNotHaveDuplicates().allMatch(n -> n.matches("job-[a-z0-9]{5}"));
        assertThat(generatedNames(1)).isEqualTo(none);
        assertThat(generatedNames(4)).isEqualTo(none);
    }

    @Test
    void theSameSeedGivesTheSameNamesAndUids() {
        IdentityStreams a = IdentityStreams.seeded(42);
        IdentityStreams b = IdentityStreams.seeded(42);
        assertThat(a.names().nextLong()).isEqualTo(b.names().nextLong());
        assertThat(a.uids().nextLong()).isEqualTo(b.uids().nextLong());
        assertThat(a.eventUids().nextLong()).isEqualTo(b.eventUids().nextLong());
        assertThat(IdentityStreams.seeded(42).names().nextLong()).isNotEqualTo(IdentityStreams.seeded(42).uids()
                .nextLong());
    }
}
