package io.kuberaysim.sim;

import java.time.Duration;
import java.time.Instant;

/**
 * The kubelet's crash-loop back-off of a Pod's containers: the first restart is immediate, each later one waits
 * 10 s, then twice as long as before, up to 5 minutes, counted from the exit; a container that failed more than
 * twice that maximum after its last restart starts over without waiting (the kubelet's flowcontrol back-off).
 *
 * @param delay       how long the next restart waits after an exit
 * @param lastRestart when the containers were last restarted
 */
record RestartBackOff(Duration delay, Instant lastRestart) {
    /** The waiting reason {@code kubectl get pods} shows as the Pod's STATUS. */
    static final String WAITING_REASON = "CrashLoopBackOff";
    static final Duration INITIAL = Duration.ofSeconds(10);
    static final Duration MAX = Duration.ofMinutes(5);

    /** After the first restart, at {@code now}. */
    static RestartBackOff first(Instant now) {
        return new RestartBackOff(INITIAL, now);
    }

    /** After a restart at {@code now} that waited this back-off. */
    RestartBackOff next(Instant now) {
        Duration doubled = delay.multipliedBy(2);
        return new RestartBackOff(doubled.compareTo(MAX) > 0 ? MAX : doubled, now);
    }

    /** Whether an exit at {@code exitedAt} came so long after the last restart that the back-off starts over. */
    boolean expiredAt(Instant exitedAt) {
        return Duration.between(lastRestart, exitedAt).compareTo(MAX.multipliedBy(2)) > 0;
    }
}
