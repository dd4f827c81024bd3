package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.ListOptions;
import io.kuberaysim.apiserver.storage.WatchEvent;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import jakarta.servlet.http.HttpServletRequest;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Opens HTTP watches. A fixed pool of writer threads writes watchers' queued events, only while there is something
 * to write and the client accepts it (writes never block, so a client that stops reading holds no thread); one timer
 * thread runs the connection timers (timeoutSeconds, bookmarks): watch timeouts are connection lifetimes in wall
 * time, not simulated time.
 */
@Component
public class WatchStreams implements SmartLifecycle, AutoCloseable {
    /** Writer threads, shared by every watcher. */
    static final int WRITERS = 4;

    /** How often a watcher that allowed bookmarks gets one. */
    static final Duration BOOKMARK_INTERVAL = Duration.ofSeconds(60);
    /** How often watchers are checked for a buffer that stays full (kube-apiserver gives a blocked watcher ~0.1-1 s). */
    static final Duration RESPONSIVENESS_CHECK = Duration.ofSeconds(1);

    private final GenericRegistry registry;
    private final WatchEventsListener listener;
    private final int buffer;
    private final int sendBuffer;
    private final ExecutorService writers;
    private final ScheduledExecutorService timers;
    private final Set<WatchStream> active = ConcurrentHashMap.newKeySet();
    private volatile boolean running;

    WatchStreams(GenericRegistry registry, ObjectProvider<WatchEventsListener> listener, HttpLimits limits) {
        this.registry = registry;
        this.listener = listener.getIfAvailable(() -> WatchEventsListener.NONE);
        this.buffer = limits.watchBuffer();
        this.sendBuffer = limits.watchSendBuffer();
        AtomicInteger n = new AtomicInteger();
        // a few threads shared by all watchers (handing each event to a thread of its own cost 5x the fan-out rate)
        this.writers = Executors.newFixedThreadPool(WRITERS, r -> {
            Thread t = new Thread(r, "watch-writer-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.timers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "watch-timers");
            t.setDaemon(true);
            return t;
        });
        long every = RESPONSIVENESS_CHECK.toMillis();
        this.timers.scheduleWithFixedDelay(() -> active.forEach(WatchStream::closeIfUnresponsive), every, every,
                TimeUnit.MILLISECONDS);
    }

    /**
     * Starts a watch: the response streams from here on, asynchronously.
     *
     * @param type     the type whose storage is watched
     * @param served   the type the watch is answered as: {@code type}, or another version of it (bookmarks and
     *                 messages name it; {@code encoder} converts the objects)
     * @param options  the watch's options; a negative timeoutSeconds ends the stream after the initial events
     *                 (so does a server that is shutting down)
     * @param encoder  wire line of an event, or {@code null} for the shared JSON line
     * @throws ApiException for a bad request (selectors, resourceVersion syntax), before anything is written; a
     *                      too-old resourceVersion is answered in the stream as an ERROR event instead, as
     *                      kube-apiserver does
     */
    void open(ResourceType type, ResourceType served, String namespace, ListOptions options,
              Function<WatchEvent, byte[]> encoder, HttpServletRequest request) {
        WatchStream stream = new WatchStream(served, writers, encoder == null ? WatchStream::sharedLine : encoder,
                listener, buffer, sendBuffer);
        stream.startFrom(startRevision(options));
        active.add(stream);
        stream.onClose(() -> active.remove(stream));
        try {
            try {
                stream.attach(registry.reader().follow(type, namespace, options, stream, stream::wake));
            } catch (ApiException e) {
                if (e.code() != 410) {
                    throw e;
                }
                stream.fail(e);
            }
            if (!running) {
                stream.endForShutdown();
            } else if (options.timeoutSeconds() != null && options.timeoutSeconds() < 0) {
                // negative: end right after the initial events (the answer to a WebSocket upgrade attempt)
                stream.end();
            } else if (options.timeoutSeconds() != null && options.timeoutSeconds() > 0) {
                ScheduledFuture<?> f = timers.schedule(stream::end, options.timeoutSeconds(), TimeUnit.SECONDS);
                stream.onClose(() -> f.cancel(false));
            }
            if (options.allowWatchBookmarks()) {
                long every = BOOKMARK_INTERVAL.toMillis();
                ScheduledFuture<?> f = timers.scheduleAtFixedRate(stream::bookmark, every, every,
                        TimeUnit.MILLISECONDS);
                stream.onClose(() -> f.cancel(false));
            }
            stream.start(request);
        } catch (RuntimeException e) {
            stream.abandon(); // a rejected watch leaves nothing behind: no subscription, no timers, not active
            throw e;
        }
    }

    private long startRevision(ListOptions options) {
        String rv = options.resourceVersion();
        if (rv != null && !rv.isEmpty() && !rv.equals("0")) {
            try {
                return Long.parseLong(rv);
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return registry.store().revision();
    }

    /** Open watches. */
    public int activeCount() {
        return active.size();
    }

    /**
     * Cuts off every open watch with a 410 Expired ERROR event, as kube-apiserver does when its watch cache
     * cannot serve them; clients relist and watch again. Used to check that clients recover.
     */
    public void expireAll(String message) {
        for (WatchStream s : active) {
            s.expire(message);
        }
    }

    @Override
    public void start() {
        running = true;
    }

    /**
     * Ends every open watch cleanly. Runs in the first shutdown phase, before the web server's graceful shutdown,
     * which would otherwise wait for these never-ending requests; clients reconnect elsewhere or see the end.
     */
    @Override
    public void stop() {
        running = false;
        for (WatchStream s : active) {
            s.endForShutdown();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stops the writer and timer threads. */
    @Override
    public void close() {
        stop();
        timers.shutdownNow();
        try {
            writers.shutdown();
            writers.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        writers.shutdownNow();
    }
}
