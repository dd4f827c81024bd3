package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.http.server.ConnectionCutter;
import io.kuberaysim.apiserver.http.server.SocketSendBuffer;
import io.kuberaysim.apiserver.registry.WatchFeed;
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
 * One HTTP watch: a serialized drain on a shared executor that reads the watch's {@link WatchFeed} at the client's
 * pace and writes the lines to the response with non-blocking writes. The initial events (a list sent as ADDED) and
 * the watch's own lines (bookmarks, errors) are queued ahead of the feed; the later changes are not handed to the
 * watcher on the writing thread but read from the store's change log by the drain, so the writers only wake a drain
 * that waits for changes. A drain writes while the connection accepts data and leaves as soon as it does not; the
 * container calls back when it does again. So a client that stops reading holds no thread and costs the writers
 * nothing, and an idle watcher neither.
 *
 * <p>A watch that stays a buffer ({@code kuberay-sim.watch-buffer}) of changes behind (at two checks in a row with nothing written in between
 * while the connection accepts no data) is closed, as kube-apiserver's watch cache closes an unresponsive watcher:
 * the body ends and the client watches again from the last resourceVersion it saw (or relists, if that has left the
 * history). A client that reads, only too slowly, is closed once it is {@link #HARD_LIMIT_FACTOR} buffers behind or
 * the changes it has not read leave the change log. A body that must end while its connection accepts no data (closed
 * as unresponsive, or the server stopping) is cut off instead: ending it would leave the request in progress in the
 * container until the client reads again.
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
    private final int sendBuffer;
    /** The initial events and the watch's own lines, written ahead of the feed. */
    private final ConcurrentLinkedQueue<Object> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger wip = new AtomicInteger();
    private final AtomicBoolean released = new AtomicBoolean();
    /**
     * Held while the response is written, and by the container's completion and error callbacks: once the container
     * has completed the response it recycles it for another request, so no write may still be under way then.
     */
    private final ReentrantLock io = new ReentrantLock();
    private final List<Runnable> onClose = new CopyOnWriteArrayList<>();
    private volatile boolean ending;
    /** Stop at once: queued events are dropped; {@link #finalLine}, if any, is the last thing written. */
    private volatile boolean terminated;
    private volatile byte[] finalLine;
    /** Closed because its client reads nothing: if it still takes no data, the connection is cut. */
    private volatile boolean unresponsive;
    /** The server is stopping: a body that cannot be ended because the client reads nothing is cut off. */
    private volatile boolean shuttingDown;
    private final AtomicBoolean completeCalled = new AtomicBoolean();
    /** The response is finished or unusable: nothing more is written. */
    private volatile boolean closed;
    /** The connection did not accept data at the last write; cleared when the container says it does. */
    private volatile boolean stalled;
    /** Events written so far, for the responsiveness check; incremented only by the (serialized) drain. */
    private volatile long written;
    /** Touched only by the responsiveness check. */
    private long writtenAtLastCheck = -1;
    /** Where the watch starts, until its feed is attached (a bookmark's resourceVersion). */
    private volatile long startResourceVersion;
    private volatile WatchFeed feed;
    private volatile AsyncContext async;
    private volatile ServletOutputStream out;
    /** False where the container cannot write without blocking (then every write may block its writer). */
    private boolean nonBlocking;
    /** Touched only by the (serialized) drain. */
    private boolean flushed;

    /**
     * @param encoder  turns an event into its wire line; the default shares {@link WatchEvent#line} between watchers
     * @param listener told about each object event written
     * @param buffer   changes a client that reads nothing may fall behind before the watch is closed
     * @param sendBuffer bytes of the connection's kernel send buffer, or 0 for the system's
     */
    WatchStream(ResourceType type, Executor executor, Function<WatchEvent, byte[]> encoder,
                WatchEventsListener listener, int buffer, int sendBuffer) {
        this.type = type;
        this.executor = executor;
        this.encoder = encoder;
        this.listener = listener;
        this.buffer = buffer;
        this.sendBuffer = sendBuffer;
    }

    static byte[] sharedLine(WatchEvent event) {
        return event.line(event.type());
    }

    /** The watch's later changes; read from here on (after the queued initial events). */
    void attach(WatchFeed f) {
        this.feed = f;
        if (released.get()) {
            f.close();
        } else {
            kick();
        }
    }

    /** Runs when the stream ends for any reason (timers to cancel, bookkeeping). */
    void onClose(Runnable r) {
        onClose.add(r);
    }

    void startFrom(long resourceVersion) {
        startResourceVersion = resourceVersion;
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
        if (sendBuffer > 0) {
            // a client that stops reading then takes this much, not the ~190 KB Linux grows a loopback buffer to;
            // where the socket cannot be reached, it keeps the system's buffer
            SocketSendBuffer.set(response, sendBuffer);
        }
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

    /** An initial event (the list a watch starts with), queued ahead of the feed. */
    @Override
    public void onEvent(WatchEvent event) {
        if (released.get() || ending || terminated) {
            return;
        }
        queue.add(event);
        kick();
    }

    /**
     * A change arrived after the drain found none (on the writing thread). A watcher whose connection accepts no
     * data is drained again when the container says it does ({@link #onWritePossible}); the drain clears the flag
     * before it reads, so no change is left behind.
     */
    void wake() {
        if (!stalled) {
            kick();
        }
    }

    @Override
    public void onInitialEventsEnd(long resourceVersion) {
        enqueueRaw(bookmark(resourceVersion, true));
    }

    /**
     * Queues a BOOKMARK at the revision up to which the feed has been read: every change up to it has been taken,
     * so the bookmark never runs ahead of this watcher's events.
     */
    void bookmark() {
        WatchFeed f = feed;
        enqueueRaw(bookmark(f == null ? startResourceVersion : f.resourceVersion(), false));
    }

    /**
     * Closes the watch if it stayed a buffer behind since the last call with nothing written in between and the
     * connection accepting no data, or if it is {@link #HARD_LIMIT_FACTOR} buffers behind. Called periodically, from
     * one thread.
     */
    void closeIfUnresponsive() {
        WatchFeed f = feed;
        if (f == null || released.get()) {
            return;
        }
        long now = written;
        boolean noProgress = now == writtenAtLastCheck;
        writtenAtLastCheck = now;
        long behind = f.behind();
        if (behind > (long) HARD_LIMIT_FACTOR * buffer) {
            CLOSED_SLOW.log("slow watcher", "closed a watch of {}: it fell {} changes behind, its client reads too "
                    + "slowly (kuberay-sim.watch-buffer={})", type.groupResource(), behind, buffer);
            terminate(null);
        } else if (noProgress && stalled && behind >= buffer) {
            CLOSED_SLOW.log("unresponsive watcher", "closed a watch of {}: it stayed {} changes behind, the client "
                    + "reads nothing (kuberay-sim.watch-buffer)", type.groupResource(), buffer);
            unresponsive = true;
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

    /**
     * Ends the body as {@link #end} does, but cuts the connection instead where the client takes no data: the server
     * is stopping and would otherwise wait for it.
     */
    void endForShutdown() {
        shuttingDown = true;
        end();
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
            if (unresponsive && !accepting()) {
                cut(); // its client reads nothing: it could not take the end of the body either
                return;
            }
            byte[] last = finalLine;
            if (last != null) {
                if (!accepting()) {
                    return;
                }
                finalLine = null;
                out.write(last);
            }
            close();
            return;
        }
        while (true) {
            if (!accepting()) {
                if (ending && shuttingDown) {
                    cut();
                }
                return;
            }
            byte[] lines = nextBatch();
            if (lines == null) {
                break;
            }
            if (terminated) {
                return; // fell out of the change log while reading: dropped like the rest; the next pass ends it
            }
            out.write(lines);
            flushed = false;
        }
        if (!flushed) {
            // pushes the lines (and, the first time, the 200 and its headers: clients wait for them)
            out.flush();
            flushed = true;
            if (!accepting()) {
                if (ending && shuttingDown) {
                    cut();
                }
                return;
            }
        }
        if (ending && queue.isEmpty()) {
            close();
        }
    }

    /**
     * Takes lines up to {@link #BATCH_BYTES} (or one longer line) as one array, the queued ones first, then the
     * feed's (unless the stream is ending), or null if there are none: the container checks readiness and registers
     * for write on every write, so one write per batch rather than per line; events taken are counted here.
     */
    private byte[] nextBatch() {
        byte[] first = null;
        java.util.ArrayList<byte[]> more = null;
        int length = 0;
        int events = 0;
        while (length < BATCH_BYTES) {
            Object item = queue.poll();
            if (item == null) {
                item = nextChange();
                if (item == null) {
                    break;
                }
            }
            byte[] line;
            if (item instanceof byte[] raw) {
                line = raw;
            } else {
                line = encoder.apply((WatchEvent) item);
                events++;
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

    /** The feed's next change, or null if there is none yet, the stream ends, or the watcher fell out of the log. */
    private WatchEvent nextChange() {
        WatchFeed f = feed;
        if (f == null || ending || terminated) {
            return null;
        }
        try {
            return f.next();
        } catch (ObjectStore.TooOldResourceVersionException e) {
            CLOSED_SLOW.log("fell out of the change log", "closed a watch of {}: changes its client had not read "
                    + "left the change log (kuberay-sim.watch-history), it reads too slowly", type.groupResource());
            terminate(null);
            return null;
        }
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
        // the container reports the failed write to the asynchronous listener next (onError(AsyncEvent)), which
        // completes the request: completed here, that report would put it back in error and make the container
        // dispatch the request again to an error page
        stopWriting();
    }

    /** Completes the asynchronous request, once. */
    private void complete() {
        AsyncContext ctx = async;
        if (ctx != null && completeCalled.compareAndSet(false, true)) {
            try {
                ctx.complete();
            } catch (IllegalStateException e) {
                // already completed by the container
            }
        }
    }

    /**
     * Closes the connection without ending the body, for a client that takes no data: completing the response then
     * would leave it in progress until the client reads again (or the container's write timeout), and keep a
     * stopping server waiting for it. Where the container cannot cut a connection, the response is completed.
     */
    private void cut() {
        if (ConnectionCutter.cut(async.getResponse())) {
            stopWriting(); // the container reports the cut to onError(AsyncEvent), which completes the request
        } else {
            close();
        }
    }

    /** Nothing more is written and the response is completed: the body ended, or it cannot be written any more. */
    private void close() {
        stopWriting();
        complete();
    }

    /** Nothing more is written; the request is left for the container to report on (or complete). */
    private void stopWriting() {
        io.lock();
        try {
            closed = true;
            queue.clear(); // the container may keep this listener until the connection closes: keep nothing
        } finally {
            io.unlock();
        }
        release();
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
        WatchFeed f = feed;
        if (f != null) {
            f.close();
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
