package io.kuberaysim.controller.runtime;

import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.runtime.reconcile.ReconcileError;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.logging.LogValues;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;

import java.time.DateTimeException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What a controller does when reconciling one object fails, so that one object it cannot interpret never stops it
 * (the {@link Controller} requeues that key alone, with backoff): the object gets one Warning Event per distinct
 * cause, reason {@value #REASON}, and the log one line per distinct cause, with every value escaped. A stack trace
 * is logged only for causes that bad input does not explain (a bug, not a poison object), once per cause.
 * Repeats of the same cause for the same key are logged at debug level; a success forgets the key.
 */
public final class ReconcileFailures {
    /** Event reason of a failed reconcile. */
    static final String REASON = "ReconcileError";
    /** kube-apiserver keeps Event messages short; longer causes are cut. */
    static final int MAX_EVENT_MESSAGE = 1024;
    private static final Logger log = LoggerFactory.getLogger(Controller.class);

    private final String controller;
    private final Function<Request, StoredObject> lookup;
    private final EventRecorder events;
    private final Map<Request, String> lastCause = new ConcurrentHashMap<>();

    /**
     * @param controller name used in logs
     * @param lookup     the object a request names, from the controller's primary informer; null = none
     * @param events     where Warning Events go; null = log only
     */
    ReconcileFailures(String controller, Function<Request, StoredObject> lookup, EventRecorder events) {
        this.controller = controller;
        this.lookup = lookup;
        this.events = events;
    }

    /** A log-only instance, for controllers without a primary type. */
    static ReconcileFailures logOnly(String controller) {
        return new ReconcileFailures(controller, null, null);
    }

    /** Reconciling {@code request} threw {@code failure} for the {@code retries}-th time in a row. */
    void failed(Request request, Throwable failure, int retries) {
        String cause = describe(failure);
        boolean repeated = cause.equals(lastCause.put(request, cause));
        String error = LogValues.escape(cause) + (failure instanceof ApiException e ? " (" + e.code() + ")" : "");
        if (repeated) {
            log.debug("Reconciler error: controller={} request={} retries={} error={}", controller, request, retries,
                    error);
            return;
        }
        if (expected(failure)) {
            log.error("Reconciler error: controller={} request={} retries={} error={}", controller, request, retries,
                    error);
        } else {
            log.error("Reconciler error: controller={} request={} retries={} error={}", controller, request, retries,
                    error, withEscapedMessage(failure));
        }
        if (transientConflict(failure)) {
            return;
        }
        StoredObject involved = lookup == null ? null : lookup.apply(request);
        if (involved != null && events != null) {
            String message = "Reconcile failed: " + cause;
            if (message.length() > MAX_EVENT_MESSAGE) {
                message = message.substring(0, MAX_EVENT_MESSAGE - 3) + "...";
            }
            events.event(involved, EventRecorder.WARNING, REASON, "Reconcile", message);
        }
    }

    /** Reconciling {@code request} succeeded: a later failure is news again. */
    void succeeded(Request request) {
        lastCause.remove(request);
    }

    /** Keys with a failure not yet followed by a success. */
    int failingKeys() {
        return lastCause.size();
    }

    /** Causes bad input explains: a refused write, a value that does not parse (no stack trace needed). */
    public static boolean expected(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof ApiException || c instanceof ReconcileError || c instanceof IllegalArgumentException || c instanceof ArithmeticException
                    || c instanceof DateTimeException || c instanceof JacksonException) {
                return true;
            }
        }
        return false;
    }

    /** A conflict or a vanished object is retried at once by the next reconcile: nothing to tell the user. */
    private static boolean transientConflict(Throwable t) {
        return t instanceof ApiException e && (e.code() == 409 || e.code() == 404);
    }

    static String describe(Throwable t) {
        if (t instanceof ApiException || t instanceof ReconcileError) {
            return t.getMessage();
        }
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof JacksonException j) {
                // the object did not bind to its type: say where, without the reader's internals
                return "cannot decode " + path(j) + ": " + j.getOriginalMessage();
            }
        }
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = t.getMessage() != null ? t.getMessage() : root.getMessage();
        String name = t.getClass().getSimpleName();
        return message == null ? name : name + ": " + message;
    }

    private static String path(JacksonException e) {
        StringBuilder sb = new StringBuilder();
        for (JacksonException.Reference ref : e.getPath()) {
            if (ref.getPropertyName() != null) {
                sb.append(sb.isEmpty() ? "" : ".").append(ref.getPropertyName());
            } else if (ref.getIndex() >= 0) {
                sb.append('[').append(ref.getIndex()).append(']');
            }
        }
        return sb.isEmpty() ? "the object" : sb.toString();
    }

    /** The failure, or one with the same stack trace if its message could break the log line it is printed on. */
    private static Throwable withEscapedMessage(Throwable t) {
        String message = t.getMessage();
        if (message == null || LogValues.escape(message).equals(message)) {
            return t;
        }
        RuntimeException copy = new RuntimeException(t.getClass().getName() + ": " + LogValues.escape(message));
        copy.setStackTrace(t.getStackTrace());
        return copy;
    }
}
