package io.kuberaysim.apiserver.patch;

/**
 * A patch document is malformed or cannot be applied to the target (bad JSON Patch operation, missing path,
 * failed {@code test}, unknown strategic-merge directive...). The message is meant for the client, e.g. inside a
 * 422/400 Status.
 */
public class PatchException extends RuntimeException {

    /** Creates the exception with a client-facing message. */
    public PatchException(String message) {
        super(message);
    }

    /** Creates the exception with a client-facing message and the underlying library error. */
    public PatchException(String message, Throwable cause) {
        super(message, cause);
    }
}
