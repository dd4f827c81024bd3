package io.kuberaysim.scenario;

/** A step could not do what it says (a write the API refused, a {@code waitFor} that timed out, a missing object). */
public final class StepFailedException extends RuntimeException {
    public StepFailedException(String message) {
        super(message);
    }
}
