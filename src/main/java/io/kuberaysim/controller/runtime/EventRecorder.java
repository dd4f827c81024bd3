package io.kuberaysim.controller.runtime;

import io.kuberaysim.apiserver.storage.StoredObject;

/** Writes Events about objects, as client-go's recorders do (events.k8s.io/v1 or the legacy core/v1 one). */
public interface EventRecorder {

    /** Event type of routine happenings. */
    String NORMAL = "Normal";

    /** Event type of something a user should look at. */
    String WARNING = "Warning";

    /**
     * Records an event about {@code involved}. Never throws: a failed write is logged.
     *
     * @param type    {@value #NORMAL} or {@value #WARNING}
     * @param reason  short CamelCase reason, e.g. {@code CreatedService}
     * @param action  what was done, e.g. {@code Create}, {@code Delete}, {@code Validate}
     * @param message human-readable message
     */
    void event(StoredObject involved, String type, String reason, String action, String message);
}
