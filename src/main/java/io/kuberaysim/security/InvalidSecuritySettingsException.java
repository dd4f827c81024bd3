package io.kuberaysim.security;

/**
 * A security setting that cannot be used (an empty token, an unreadable or malformed token file, TLS material that
 * does not load): the server must not start, and {@link SecuritySettingsFailureAnalyzer} explains why in one message.
 */
public final class InvalidSecuritySettingsException extends RuntimeException {
    private final String action;

    public InvalidSecuritySettingsException(String message, String action) {
        super(message);
        this.action = action;
    }

    public InvalidSecuritySettingsException(String message, String action, Throwable cause) {
        super(message, cause);
        this.action = action;
    }

    /** What the user should change. */
    public String action() {
        return action;
    }
}
