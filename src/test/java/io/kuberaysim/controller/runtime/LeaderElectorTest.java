package io.kuberaysim.controller.runtime;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.InMemoryObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.config.TestWiring;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Leader election on a Lease, round by round on the virtual clock (the election's own timer is not started). */
class LeaderElectorTest {
    private static final Duration LEASE = Duration.ofSeconds(15);
    private final VirtualClock clock = new VirtualClock();
    private final KubeClient client = new KubeClient(TestWiring.registry(new InMemoryObjectStore(1000), clock));
    private final List<String> log = new ArrayList<>();

    private LeaderElector candidate(String identity) {
        return new LeaderElector(client, clock, new LeaderElector.Settings("kube-system", "controllers", identity,
                LEASE, Duration.ofSeconds(10), Duration.ofSeconds(2)),
                () -> log.add(identity + " leads"), () -> log.add(identity + " stops"));
    }

    private StoredObject lease() {
        return client.get(ResourceTypes.LEASES, "kube-system", "controllers");
    }

    @Test
    @DisplayName("one leader at a time; another takes over only once the Lease went unrenewed for its duration")
    void takeoverAfterExpiry() {
        LeaderElector a = candidate("a");
        LeaderElector b = candidate("b");
        a.tick();
        b.tick();
        assertThat(log).containsExactly("a leads");
        assertThat(Json.text(lease().object(), "spec", "holderIdentity")).isEqualTo("a");

        for (int i = 0; i < 10; i++) { // a renews every 2 s: b never gets it
            clock.advance(Duration.ofSeconds(2));
            a.tick();
            b.tick();
        }
        assertThat(b.isLeading()).isFalse();

        // a stops renewing (killed): b waits a full lease duration from when it saw the last change
        clock.advance(LEASE.minusSeconds(1));
        b.tick();
        assertThat(b.isLeading()).isFalse();
        clock.advance(Duration.ofSeconds(2));
        b.tick();
        assertThat(b.isLeading()).isTrue();
        assertThat(log).containsExactly("a leads", "b leads");
        assertThat(lease().object().path("spec").path("leaseTransitions").asInt()).isEqualTo(1);
    }

    @Test
    @DisplayName("a leader that closes releases the Lease: the next candidate takes it at its next round")
    void releaseOnClose() {
        LeaderElector a = candidate("a");
        LeaderElector b = candidate("b");
        a.tick();
        b.tick();
        a.close();
        assertThat(Json.text(lease().object(), "spec", "holderIdentity")).isEmpty();
        b.tick();
        assertThat(b.isLeading()).isTrue();
    }

    @Test
    @DisplayName("a leader that cannot renew for the renew deadline stops leading for good")
    void lostAfterRenewDeadline() {
        LeaderElector a = candidate("a");
        a.tick();
        // someone else holds it now (as after a partition): a's renewals are refused
        ObjectNode taken = lease().copy();
        Json.child(taken, "spec").put("holderIdentity", "other");
        client.update(ResourceTypes.LEASES, taken);
        for (int i = 0; i < 5; i++) {
            clock.advance(Duration.ofSeconds(2));
            a.tick();
        }
        assertThat(a.isLeading()).isTrue(); // 10 s: not past the deadline yet
        clock.advance(Duration.ofSeconds(2));
        a.tick();
        assertThat(a.isLeading()).isFalse();
        assertThat(a.hasLost()).isTrue();
        assertThat(log).containsExactly("a leads", "a stops");
    }
}
