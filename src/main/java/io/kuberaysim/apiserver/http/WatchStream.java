package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.WatchSink;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.WatchEvent;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * One HTTP watch: a {@link WatchSink} that queues events (the store calls it on the writing thread under its lock,
 * so it never touches the socket) and a serialized drain on a shared executor that writes the queued lines to the
 * response with non-blocking writes. A drain writes while the connection accepts data and leaves as soon as it does
 * not; the container calls back when it does again. So a client that stops reading holds no thread, and an idle
 * watcher none either.
 *
 * <p>Events a client has not taken wait in the watcher's buffer. A watch whose buffer stays full (full at two
 * checks in a row with nothing written in between while the connection accepts no data) is closed, as
 * kube-apiserver's watch cache closes an unresponsive watcher: the body ends and the client watches again from the
 * last resourceVersion it saw (or relists, if that has left the history). A client that reads, only too slowly, is
 * closed once {@link #HARD_LIMIT_FACTOR} buffers wait for it.
 */
final class WatchStream implements WatchSink, WriteListener, AsyncListener {
    /** A watcher whose client keeps reading may fall this many buffers behind before it is closed anyway. */
    static final int HARD_LIMIT_FACTOR = 10;
    /** Queued lines are written in batches of about this many bytes (one write, one flush when the queue is empty). */
    static final int BATCH_BYTES = 64 * 1024;
    private static final FirstOccurrenceLog CLOSED_SLOW = new FirstOccurrenceLog(
            LoggerFactory.getLogger(WatchStream.class));

    private final ResourceType type;
    private final Executor executor;
    private final Function<WatchEvent, byte[]> encoder;
    private final WatchEventsListener listener;
    private final int buffer;
    private final ConcurrentLinkedQueue<Object> queue = new ConcurrentLinkedQueue<>();
    /** Queued events that arrived before the watch went live (its list or history replay); they come first. */
    private final AtomicInteger pendingInitial = new AtomicInteger();
    /** Queued events that arrived after: these are held against the buffer. */
    private final AtomicInteger pendingLive = new AtomicInteger();
    private final AtomicInteger wip = new AtomicInteger();
    private final AtomicBoolean released = new AtomicBoolean();
    /**
     * Held while the response is written, and by the container's completion and error callbacks: once the container
     * has completed the response it recycles it for another request, so no write may still be under way then.
     */
    private final ReentrantLock io = new ReentrantLock();
    private final List<Runnable> onClose = new CopyOnWriteArrayList<>();
    private volatile boolean live;
    private volatile boolean ending;
    /** Stop at once: queued events are dropped; {@link #finalLine}, if any, is the last thing written. */
    private volatile boolean terminated;
    private volatile byte[] finalLine;
    /** The response is finished or unusable: nothing more is written. */
    private volatile boolean closed;
    /** The connection did not accept data at the last write; cleared when the container says it does. */
    private volatile boolean stalled;
    /** Events written so far, for the responsiveness check; incremented only by the (serialized) drain. */
    private volatile long written;
    /** Touched only by the responsiveness check. */
    private long writtenAtLastCheck = -1;
    private volatile long lastResourceVersion;
    private volatile ObjectStore.Subscription subscription;
    private volatile AsyncContext async;
    private volatile ServletOutputStream out;
    /** False where the container cannot write without blocking (then every write may block its writer). */
    private boolean nonBlocking;
    /** Touched only by the (serialized) drain. */
    private boolean flushed;

    /**
     * @param encoder  turns an event into its wire line; the default shares {@link WatchEvent#line} between watchers
     * @param listener told about each object event written
     * @param buffer   events that may wait for a client that reads nothing before the watch is closed
     */
    WatchStream(ResourceType type, Executor executor, Function<WatchEvent, byte[]> encoder,
                WatchEventsListener listener, int buffer) {
        this.type = type;
        this.executor = executor;
        this.encoder = encoder;
        this.listener = listener;
        this.buffer = buffer;
    }

    static byte[] sharedLine(WatchEvent event) {
        return event.line(event.type());
    }

    void attach(ObjectStore.Subscription s) {
        this.subscription = s;
        if (released.get()) {
            s.close();
        }
    }

    /** Runs when the stream ends for any reason (timers to cancel, bookkeeping). */
    void onClose(Runnable r) {
        onClose.add(r);
    }

    void startFrom(long resourceVersion) {
        lastResourceVersion = resourceVersion;
    }

    /** From now on queued events count against the buffer: the initial ones (list or history replay) are queued. */
    void goLive() {
        live = true;
    }

    /**
     * Starts the response: 200, JSON, streamed. Events queued so far are written as soon as the connection
     * accepts them. The container's own response is written, not the wrappers handed to the handler (Spring's
     * asynchronous-request wrapper keeps a life cycle of its own that this stream does not follow).
     */
    void start(HttpServletRequest request) {
        AsyncContext ctx = request.startAsync();
        ctx.setTimeout(0); // a watch lasts as long as its timeoutSeconds, the client or the server decide
        ctx.addListener(this);
        HttpServletResponse response = (HttpServletResponse) ctx.getResponse();
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType("application/json");
        ServletOutputStream stream;
        try {
            stream = response.getOutputStream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            stream.setWriteListener(this);
            nonBlocking = true;
        } catch (IllegalStateException | UnsupportedOperationException e) {
            nonBlocking = false; // not a container with non-blocking I/O: plain writes
        }
        this.async = ctx;
        this.out = stream;
        kick();
    }

    @Override
    public void onEvent(WatchEvent event) {
        if (released.get() || ending || terminated) {
            return;
        }
        if (event.resourceVersion() > lastResourceVersion) {
            lastResourceVersion = event.resourceVersion();
        }
        if (!live) {
            pendingInitial.incrementAndGet();
            queue.add(event);
            kickUnlessStalled();
            return;
        }
        int pending = pendingLive.incrementAndGet();
        queue.add(event);
        if (pending > HARD_LIMIT_FACTOR * buffer) {
            CLOSED_SLOW.log("slow watcher", "closed a watch of {}: {} events waited for a client that reads too "
                    + "slowly (kuberay-sim.watch-buffer={})", type.groupResource(), pending, buffer);
            terminate(null);
            return;
        }
        kickUnlessStalled();
    }

    /**
     * A watcher whose connection accepts no data is drained again when the container says it does
     * ({@link #onWritePossible}): waking it for every event would cost a drain per event per stuck watcher. Read
     * after the event is queued; the drain clears the flag before it takes events, so none is left behind.
     */
    private void kickUnlessStalled() {
        if (!stalled) {
            kick();
        }
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

    /**
     * Closes the watch if its buffer stayed full since the last call: nothing written in between and the connection
     * accepting no data. Called periodically, from one thread.
     */
    void closeIfUnresponsive() {
        long now = written;
        boolean noProgress = now == writtenAtLastCheck;
        writtenAtLastCheck = now;
        int pending = pendingLive.get();
        if (noProgress && stalled && pending >= buffer && !released.get()) {
            CLOSED_SLOW.log("unresponsive watcher", "closed a watch of {}: its buffer of {} events stayed full, the "
                    + "client reads nothing (kuberay-sim.watch-buffer)", type.groupResource(), buffer);
            terminate(null);
        }
    }

    /** Sends an ERROR event carrying the Status of {@code e} after the queued events, then ends the stream. */
    @Override
    public void fail(ApiException e) {
        enqueueRaw(errorLine(e));
        end();
    }

    /**
     * Drops the watcher as kube-apiserver drops one its watch cache cannot serve: queued events are discarded,
     * a 410 Expired ERROR event is sent and the stream ends; the client relists.
     */
    void expire(String message) {
        terminate(errorLine(ApiException.expired(message)));
    }

    /** Ends the body cleanly once the queued events are written. */
    void end() {
        ending = true;
        kick();
    }

    /** Stops receiving events, drops the queued ones and ends the body after {@code last} (may be null). */
    private void terminate(byte[] last) {
        finalLine = last;
        terminated = true;
        release();
        kick();
    }

    private void enqueueRaw(byte[] line) {
        if (released.get() || ending || terminated) {
            return;
        }
        queue.add(line);
        kick();
    }

    private static byte[] errorLine(ApiException e) {
        return WatchEvent.encode(WatchEvent.Type.ERROR, StatusBodies.failureJson(e));
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
            io.lock();
            try {
                if (!closed && out != null) {
                    writeWhileAccepted();
                }
            } catch (IOException | IllegalStateException e) {
                // the client went away: stop watching (not an error worth reporting)
                close();
            } catch (RuntimeException e) {
                // an event that cannot be encoded: this watch cannot go on, the others can
                CLOSED_SLOW.log(e.getClass().getName(), "closed a watch of {}: {}", type.groupResource(), e.toString());
                close();
            } finally {
                io.unlock();
            }
            missed = wip.addAndGet(-missed);
        } while (missed != 0);
    }

    private void writeWhileAccepted() throws IOException {
        if (terminated) {
            queue.clear();
            byte[] last = finalLine;
            if (last != null) {
                if (!accepting()) {
                    return;
                }
                finalLine = null;
                out.write(last);
            }
            finish();
            return;
        }
        while (true) {
            if (!accepting()) {
                return;
            }
            byte[] lines = nextBatch();
            if (lines == null) {
                break;
            }
            out.write(lines);
            flushed = false;
        }
        if (!flushed) {
            // pushes the lines (and, the first time, the 200 and its headers: clients wait for them)
            out.flush();
            flushed = true;
            if (!accepting()) {
                return;
            }
        }
        if (ending && queue.isEmpty()) {
            finish();
        }
    }

    /**
     * Takes queued lines up to {@link #BATCH_BYTES} (or one longer line) as one array, or null if none are queued:
     * the container checks readiness and registers for write on every write, so one write per batch rather than
     * per line; events taken are counted here.
     */
    private byte[] nextBatch() {
        byte[] first = null;
        java.util.ArrayList<byte[]> more = null;
        int length = 0;
        int events = 0;
        Object item;
        while (length < BATCH_BYTES && (item = queue.poll()) != null) {
            byte[] line;
            if (item instanceof byte[] raw) {
                line = raw;
            } else {
                line = encoder.apply((WatchEvent) item);
                events++;
                // the initial events are ahead of every live one in the queue
                if (pendingInitial.get() > 0) {
                    pendingInitial.decrementAndGet();
                } else {
                    pendingLive.decrementAndGet();
                }
            }
            if (first == null) {
                first = line;
            } else {
                if (more == null) {
                    more = new java.util.ArrayList<>();
                }
                more.add(line);
            }
            length += line.length;
        }
        if (events > 0) {
            listener.sent(type, events);
            written += events;
        }
        if (more == null) {
            return first;
        }
        byte[] batch = java.util.Arrays.copyOf(first, length);
        int at = first.length;
        for (byte[] line : more) {
            System.arraycopy(line, 0, batch, at, line.length);
            at += line.length;
        }
        return batch;
    }

    /** True if a write now does not block; if not, the container calls {@link #onWritePossible} when it would not. */
    private boolean accepting() {
        if (!nonBlocking || out.isReady()) {
            if (stalled) {
                stalled = false;
            }
            return true;
        }
        stalled = true;
        return false;
    }

    @Override
    public void onWritePossible() {
        stalled = false;
        kick();
    }

    @Override
    public void onError(Throwable t) {
        close();
    }

    private void finish() {
        closed = true;
        queue.clear();
        release();
        async.complete();
    }

    /** The response cannot be written any more (the client left, a write failed or timed out). */
    private void close() {
        io.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            queue.clear(); // the container may keep this listener until the connection closes: keep nothing
            release();
            AsyncContext ctx = async;
            if (ctx != null) {
                try {
                    ctx.complete();
                } catch (IllegalStateException e) {
                    // already completed by the container
                }
            }
        } finally {
            io.unlock();
        }
    }

    /** Gives up a watch that was never started (it was rejected): nothing stays subscribed or scheduled. */
    void abandon() {
        closed = true;
        release();
    }

    /** Stops receiving events and runs the close actions, once. */
    private void release() {
        if (!released.compareAndSet(false, true)) {
            return;
        }
        ObjectStore.Subscription s = subscription;
        if (s != null) {
            s.close();
        }
        for (Runnable r : onClose) {
            r.run();
        }
        onClose.clear();
    }

    @Override
    public void onComplete(AsyncEvent event) {
        io.lock();
        try {
            closed = true;
        } finally {
            io.unlock();
        }
        release();
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        close();
    }

    @Override
    public void onError(AsyncEvent event) {
        close();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // one asynchronous cycle per watch
    }
}
