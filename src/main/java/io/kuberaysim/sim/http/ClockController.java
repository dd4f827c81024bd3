package io.kuberaysim.sim.http;

import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.sim.UntilIdle;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code /sim/v1/clock}: reads the simulation clock and, on a virtual clock, moves it by a duration or until the
 * cluster settles. Errors are
 * Kubernetes Status bodies (rendered by the API server's error advice).
 */
@RestController
class ClockController {
    private final Clock clock;
    private final ObjectStore store;

    ClockController(Clock clock, ObjectStore store) {
        this.clock = clock;
        this.store = store;
    }

    @GetMapping(path = "/sim/v1/clock", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> get() {
        return describe(clock.now());
    }

    /** Processes every event up to now + seconds (fractions allowed) and answers the new time. */
    @PostMapping(path = "/sim/v1/clock/advance", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> advance(@RequestParam(name = "seconds", required = false) String seconds) {
        VirtualClock virtual = virtualClock();
        Duration d;
        try {
            BigDecimal s = new BigDecimal(seconds == null ? "" : seconds.trim());
            if (s.signum() < 0 || s.compareTo(BigDecimal.valueOf(366L * 24 * 3600)) > 0) {
                throw new NumberFormatException();
            }
            d = Duration.ofNanos(s.movePointRight(9).longValue());
        } catch (NumberFormatException | ArithmeticException e) {
            throw ApiException.badRequest("seconds must be a number of seconds between 0 and 31622400, got \""
                    + seconds + "\"");
        }
        return describe(virtual.advance(d));
    }

    /** Runs the cluster until nothing is pending ({@link UntilIdle}) and answers the new time. */
    @PostMapping(path = "/sim/v1/clock/settle", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> settle() {
        return describe(UntilIdle.run(virtualClock(), store));
    }

    private VirtualClock virtualClock() {
        if (!(clock instanceof VirtualClock virtual)) {
            throw new ApiException(409, "Conflict",
                    "the clock is in " + clock.mode() + " mode; only a virtual clock can be advanced", null);
        }
        return virtual;
    }

    private Map<String, Object> describe(Instant now) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mode", clock.mode());
        m.put("now", now.toString());
        m.put("startTime", clock.startTime().toString());
        m.put("elapsedSeconds", Duration.between(clock.startTime(), now).toMillis() / 1000.0);
        return m;
    }
}
