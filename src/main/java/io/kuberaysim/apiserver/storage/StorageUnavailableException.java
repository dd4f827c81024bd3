package io.kuberaysim.apiserver.storage;

/**
 * The storage backend (etcd) did not answer in time or could not be reached. Nothing was acknowledged: a write
 * that fails with this may or may not have been applied, as with kube-apiserver's storage timeouts, and clients
 * retry it.
 */
public final class StorageUnavailableException extends RuntimeException {
    public StorageUnavailableException(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
