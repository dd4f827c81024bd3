package io.kuberaysim.controller.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ControllerDeterminismTest {

    @Test
    @DisplayName("two controllers feeding each other with errors, backoffs and delays replay line for line")
    void sameInputsSameReconcileTrace() {
        List<String> first = run(7);
        List<String> second = run(7);

        assertThat(first).hasSizeGreaterThan(100);
        assertThat(second).isEqualTo(first);
    }

    private static List<String> run(long seed) {
        Random random = new Random(seed); // used only on the loop thread
        List<String> trace = Collections.synchronizedList(new ArrayList<>());
        try (VirtualClock clock = new VirtualClock()) {
            Instant start = clock.now();
            Controller[] controllers = new Controller[2];
            for (int c = 0; c < controllers.length; c++) {
                String name = "ctrl-" + c;
                int other = 1 - c;
                controllers[c] = new Controller(name, clock, r -> {
                    trace.add(name + " " + r + " @" + Duration.between(start, clock.now()).toMillis());
                    switch (random.nextInt(5)) {
                        case 0:
                            throw new IllegalStateException("conflict (expected by the test)");
                        case 1:
                            return Result.requeueWithBackoff();
                        case 2:
                            return Result.requeueAfter(Duration.ofMillis(1 + random.nextInt(500)));
                        case 3:
                            controllers[other].enqueue(new Request("ns", "obj-" + random.nextInt(5)));
                            return Result.requeueAfter(Duration.ofMillis(1 + random.nextInt(100)));
                        default:
                            return Result.done();
                    }
                });
                controllers[c].start();
            }
            clock.execute(() -> {
                for (int i = 0; i < 30; i++) {
                    controllers[i % 2].enqueue(new Request("ns", "obj-" + i));
                }
            });
            for (int step = 0; step < 50; step++) {
                clock.advance(Duration.ofMillis(20));
            }
            for (Controller c : controllers) {
                c.stop();
            }
        }
        return new ArrayList<>(trace);
    }
}
