package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.ListOptions;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.WatchEvent;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Opens HTTP watches. Pooled threads write watchers' queued events only while there is something to write; one
 * timer thread runs the connection timers (timeoutSeconds, bookmarks): watch timeouts are connection lifetimes
 * in wall time, not simulated time.
 */
@Component
public class WatchStreams implements SmartLifecycle, AutoCloseable {
    /** Writer threads to start with, and the step the pool grows by when clients stop reading. */
    static final int WRITERS = 4;
    private static final int MAX_WRITERS = 256;

    /** How often a watcher that allowed bookmarks gets one. */
    static final Duration BOOKMARK_INTERVAL = Duration.ofSeconds(60);

    private final GenericRegistry registry;
    private final WatchEventsListener listener;
    private final ThreadPoolExecutor writers;
    private final ScheduledExecutorService timers;
    private final Set<WatchStream> active = ConcurrentHashMap.newKeySet();
    private volatile boolean running;

    WatchStreams(GenericRegistry registry, ObjectProvider<WatchEventsListener> listener) {
        this.registry = registry;
        this.listener = listener.getIfAvailable(() -> WatchEventsListener.NONE);
        AtomicInteger n = new AtomicInteger();
        // writers: a few threads shared by all watchers (handing each event to a thread of its own cost 5x the
        // fan-out rate); idle watchers hold none. A client that stops reading blocks a writer in a socket write,
        // so the pool grows when it stops making progress, and the others keep streaming.
        this.writers = new ThreadPoolExecutor(WRITERS, WRITERS, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "watch-writer-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        this.writers.allowCoreThreadTimeOut(true);
        this.timers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "watch-timers");
            t.setDaemon(true);
            return t;
        });
        this.timers.scheduleWithFixedDelay(this::growIfStalled, 1, 1, TimeUnit.SECONDS);
    }

    private long completedAtLastCheck;

    /** Adds writers when every writer is stuck (no drain finished for a second) while watchers wait. */
    private void growIfStalled() {
        long completed = writers.getCompletedTaskCount();
        int size = writers.getMaximumPoolSize();
        if (completed == completedAtLastCheck && !writers.getQueue().isEmpty()
                && writers.getActiveCount() >= size && size < MAX_WRITERS) {
            int grown = Math.min(MAX_WRITERS, size + WRITERS);
            writers.setMaximumPoolSize(grown);
            writers.setCorePoolSize(grown);
        }
        completedAtLastCheck = completed;
    }

    /**
     * Starts a watch and returns its streaming body.
     *
     * @param options  the watch's options; a negative timeoutSeconds ends the stream after the initial events
     *                 (so does a server that is shutting down)
     * @param encoder wire line of an event, or {@code null} for the shared JSON line
     * @throws ApiException for a bad request (selectors, resourceVersion syntax); a too-old resourceVersion is
     *                      answered in the stream as an ERROR event instead, as kube-apiserver does
     */
    ResponseBodyEmitter open(ResourceType type, String namespace, ListOptions options,
                             Function<WatchEvent, byte[]> encoder) {
        return open(type, type, namespace, options, encoder);
    }

    /**
     * Starts a watch of {@code type}'s storage answered as {@code served} (another version of it: bookmarks and
     * messages name the served type; {@code encoder} converts the objects).
     */
    ResponseBodyEmitter open(ResourceType type, ResourceType served, String namespace, ListOptions options,
                             Function<WatchEvent, byte[]> encoder) {
        WatchStream stream = new WatchStream(served, writers, encoder == null ? WatchStream::sharedLine : encoder,
                listener);
        stream.startFrom(startRevision(options));
        active.add(stream);
        stream.onClose(() -> active.remove(stream));
        try {
            ObjectStore.Subscription s = registry.reader().watch(type, namespace, options, stream);
            stream.attach(s);
        } catch (ApiException e) {
            if (e.code() != 410) {
                throw e;
            }
            stream.fail(e);
            return stream.emitter();
        }
        if (!running || options.timeoutSeconds() != null && options.timeoutSeconds() < 0) {
            // negative: end right after the initial events (the answer to a WebSocket upgrade attempt)
            stream.end();
        } else if (options.timeoutSeconds() != null && options.timeoutSeconds() > 0) {
            ScheduledFuture<?> f = timers.schedule(stream::end, options.timeoutSeconds(), TimeUnit.SECONDS);
            stream.onClose(() -> f.cancel(false));
        }
        if (options.allowWatchBookmarks()) {
            long every = BOOKMARK_INTERVAL.toMillis();
            ScheduledFuture<?> f = timers.scheduleAtFixedRate(stream::bookmark, every, every, TimeUnit.MILLISECONDS);
            stream.onClose(() -> f.cancel(false));
        }
        stream.start();
        return stream.emitter();
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
            s.end();
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
