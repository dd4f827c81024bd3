package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.WatchSink;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.WatchEvent;
import org.springframework.http.MediaType;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import tools.jackson.databind.node.ObjectNode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * One HTTP watch: a {@link WatchSink} that queues events (the store calls it on the writing thread under its
 * lock, so it never touches the socket) and a serialized drain on a shared executor that writes the queued
 * lines to an asynchronous response. An idle watcher holds no thread. A watcher whose queue reaches
 * {@link #MAX_QUEUED} events is cut off with a 410 Expired ERROR event, as kube-apiserver drops slow watchers,
 * and its client relists.
 */
final class WatchStream implements WatchSink {
    /** Events a watcher may have outstanding before it is considered too slow. */
    static final int MAX_QUEUED = 10_000;
    private static final int MAX_BATCH_BYTES = 1 << 20;

    private final ResourceType type;
    private final Executor executor;
    private final Function<WatchEvent, byte[]> encoder;
    private final WatchEventsListener listener;
    private final Emitter emitter = new Emitter();
    private final ConcurrentLinkedQueue<Object> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicInteger wip = new AtomicInteger();
    private volatile boolean overflowed;
    private volatile String expiredMessage;
    private volatile boolean ending;
    private volatile boolean closed;
    private volatile long lastResourceVersion;
    /** Touched only by the (serialized) drain. */
    private boolean headersSent;
    private volatile ObjectStore.Subscription subscription;
    private final java.util.List<Runnable> onClose = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * @param encoder  turns an event into its wire line; the default shares {@link WatchEvent#line} between watchers
     * @param listener told about each object event written
     */
    WatchStream(ResourceType type, Executor executor, Function<WatchEvent, byte[]> encoder,
                WatchEventsListener listener) {
        this.type = type;
        this.executor = executor;
        this.encoder = encoder;
        this.listener = listener;
        emitter.onCompletion(this::release);
        emitter.onError(e -> release());
        emitter.onTimeout(this::release);
    }

    static byte[] sharedLine(WatchEvent event) {
        return event.line(event.type());
    }

    ResponseBodyEmitter emitter() {
        return emitter;
    }

    void attach(ObjectStore.Subscription s) {
        this.subscription = s;
        if (closed) {
            s.close();
        }
    }

    /** Runs when the stream ends for any reason (timers to cancel). */
    void onClose(Runnable r) {
        onClose.add(r);
    }

    void startFrom(long resourceVersion) {
        lastResourceVersion = resourceVersion;
    }

    @Override
    public void onEvent(WatchEvent event) {
        if (closed || overflowed || ending) {
            return;
        }
        if (event.resourceVersion() > lastResourceVersion) {
            lastResourceVersion = event.resourceVersion();
        }
        if (queued.incrementAndGet() > MAX_QUEUED) {
            expiredMessage = "watch of " + type.groupResource() + " fell more than " + MAX_QUEUED
                    + " events behind";
            overflowed = true;
            kick();
            return;
        }
        queue.add(event);
        kick();
    }

    @Override
    public void onInitialEventsEnd(long resourceVersion) {
        if (resourceVersion > lastResourceVersion) {
            lastResourceVersion = resourceVersion;
        }
        enqueueRaw(bookmark(resourceVersion, true));
    }

    /** Queues a BOOKMARK at the newest resourceVersion this watcher has been sent (never ahead of its events). */
    void bookmark() {
        enqueueRaw(bookmark(lastResourceVersion, false));
    }

    /** Sends an ERROR event carrying the Status of {@code e}, then ends the stream. */
    @Override
    public void fail(ApiException e) {
        enqueueRaw(WatchEvent.encode(WatchEvent.Type.ERROR, Json.MAPPER.writeValueAsBytes(StatusBodies.failure(e))));
        end();
    }

    /**
     * Drops the watcher as kube-apiserver drops one its watch cache cannot serve: queued events are discarded,
     * a 410 Expired ERROR event is sent and the stream ends; the client relists.
     */
    void expire(String message) {
        expiredMessage = message;
        overflowed = true;
        kick();
    }

    /** Ends the body cleanly once the queued events are written. */
    void end() {
        ending = true;
        kick();
    }

    /** Starts writing: the response headers go out even before the first event. */
    void start() {
        kick();
    }

    private void enqueueRaw(byte[] line) {
        if (closed || overflowed || ending) {
            return;
        }
        queued.incrementAndGet();
        queue.add(line);
        kick();
    }

    private byte[] bookmark(long rv, boolean initialEventsEnd) {
        ObjectNode o = Json.object();
        o.put("kind", type.kind());
        o.put("apiVersion", type.apiVersion());
        ObjectNode meta = o.putObject("metadata");
        meta.put("resourceVersion", Long.toString(rv));
        if (initialEventsEnd) {
            meta.putObject("annotations").put("k8s.io/initial-events-end", "true");
        }
        return WatchEvent.encode(WatchEvent.Type.BOOKMARK, Json.MAPPER.writeValueAsBytes(o));
    }

    private void kick() {
        if (wip.getAndIncrement() == 0) {
            executor.execute(this::drain);
        }
    }

    /** Serialized: at most one drain runs per watcher, so lines go out in the order they were queued. */
    private void drain() {
        int missed = 1;
        do {
            if (!closed) {
                try {
                    if (overflowed) {
                        queue.clear();
                        send(WatchEvent.encode(WatchEvent.Type.ERROR, Json.MAPPER.writeValueAsBytes(
                                StatusBodies.failure(ApiException.expired(expiredMessage)))));
                        complete();
                    } else {
                        writeQueued();
                        if (!headersSent) {
                            // commit the 200 and its headers now: clients wait for them before reading events
                            send(new byte[0]);
                        }
                        if (ending && queue.isEmpty()) {
                            complete();
                        }
                    }
                } catch (IOException | IllegalStateException e) {
                    // the client went away: stop watching (not an error worth reporting)
                    closed = true;
                    try {
                        emitter.complete();
                    } catch (RuntimeException ignored) {
                        // the response is already unusable
                    }
                    release();
                }
            }
            missed = wip.addAndGet(-missed);
        } while (missed != 0);
    }

    private void writeQueued() throws IOException {
        ByteArrayOutputStream batch = null;
        Object item;
        while ((item = queue.poll()) != null) {
            queued.decrementAndGet();
            byte[] line;
            if (item instanceof byte[] raw) {
                line = raw;
            } else {
                line = encoder.apply((WatchEvent) item);
                listener.sent(type);
            }
            if (batch == null) {
                batch = new ByteArrayOutputStream(Math.max(256, line.length));
            }
            batch.writeBytes(line);
            if (batch.size() >= MAX_BATCH_BYTES) {
                send(batch.toByteArray());
                batch.reset();
            }
        }
        if (batch != null && batch.size() > 0) {
            send(batch.toByteArray());
        }
    }

    private void send(byte[] bytes) throws IOException {
        emitter.send(bytes, MediaType.APPLICATION_JSON);
        headersSent = true;
    }

    private void complete() {
        closed = true;
        emitter.complete();
        release();
    }

    private void release() {
        closed = true;
        ObjectStore.Subscription s = subscription;
        if (s != null) {
            s.close();
        }
        for (Runnable r : onClose) {
            r.run();
        }
        onClose.clear();
    }

    /** An asynchronous JSON body with no MVC timeout: watch lifetimes are governed by timeoutSeconds. */
    private static final class Emitter extends ResponseBodyEmitter {
        Emitter() {
            super(-1L);
        }

        @Override
        protected void extendResponse(ServerHttpResponse outputMessage) {
            super.extendResponse(outputMessage);
            outputMessage.getHeaders().setContentType(MediaType.APPLICATION_JSON);
        }
    }
}
