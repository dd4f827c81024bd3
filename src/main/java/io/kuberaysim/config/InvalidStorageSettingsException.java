package io.kuberaysim.config;

/**
 * The storage settings cannot work (an unknown {@code kuberay-sim.storage}, etcd with the virtual clock, etcd not
 * reachable at start): the server must not start, and {@link StorageSettingsFailureAnalyzer} says why in one message.
 */
final class InvalidStorageSettingsException extends RuntimeException {
    private final String action;

    InvalidStorageSettingsException(String message, String action) {
        super(message, null, false, false);
        this.action = action;
    }

    String action() {
        return action;
    }
}
