package io.kuberaysim.scenario.fault;

import io.kuberaysim.scenario.StepSource;

/**
 * A type of fault, named by {@code fault: {type: NAME, ...}}. Open like step kinds: {@link FaultKinds#register} adds
 * one without touching the reader.
 */
public interface FaultKind {
    String name();

    /** Parses the fault's fields (everything in the map besides {@code type}). */
    Fault parse(StepSource source);
}
