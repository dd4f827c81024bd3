package io.kuberaysim.apiserver.registry;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.selection.FieldSelector;
import io.kuberaysim.apiserver.selection.LabelSelector;
import io.kuberaysim.apiserver.selection.SelectorParseException;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.storage.WatchCursor;
import io.kuberaysim.apiserver.storage.WatchEvent;
import io.kuberaysim.controller.runtime.clock.Cancellable;
import io.kuberaysim.controller.runtime.clock.Clock;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Reads: get, list with selectors, paging and resourceVersion semantics, and filtered watches, with
 * kube-apiserver's semantics. Waits for a resourceVersion the store has not reached run on the {@link Clock}.
 */
public final class ResourceReader {
    /** How long a read waits for a resourceVersion the store has not reached (the watch cache's blockTimeout). */
    static final Duration FRESHNESS_WAIT = Duration.ofSeconds(3);
    /** retryAfterSeconds of the 504 that ends such a wait. */
    private static final int TOO_LARGE_RETRY_SECONDS = 1;
    private static final String LIST_EXPIRED = "The resourceVersion for the provided list is too old.";
    private static final String CONTINUE_EXPIRED = "The provided continue parameter is too old to display a "
            + "consistent list result. You can start a new list without the continue parameter, or use the continue "
            + "token in this response to retrieve the remainder of the results. Continuing with the provided token "
            + "results in an inconsistent list - objects that were created, modified, or deleted between the time "
            + "the first chunk was returned and now may show up in the list.";

    private final ObjectStore store;
    private final Map<ResourceType, ResourceStrategy> strategies;
    private final Clock clock;

    ResourceReader(ObjectStore store, Map<ResourceType, ResourceStrategy> strategies, Clock clock) {
        this.store = store;
        this.strategies = strategies;
        this.clock = clock;
    }

    static StoredObject unstored(ResourceType type, ObjectNode object) {
        return StoredObject.unstored(type, object);
    }

    public StoredObject get(ResourceType type, String namespace, String name) {
        StoredObject o = store.get(type, type.namespaced() ? namespace : null, name);
        if (o == null) {
            throw ApiException.notFound(type, name);
        }
        return o;
    }

    /** Compiled selectors of one request. */
    public record Filter(String namespace, LabelSelector labels, FieldSelector fields,
                         Map<String, Function<JsonNode, String>> extractors) {
        public boolean matches(StoredObject o) {
            if (o == null) {
                return false;
            }
            if (namespace != null && !namespace.equals(o.namespace())) {
                return false;
            }
            if (!labels.matches(o.labels())) {
                return false;
            }
            return fields.matches(field -> extractors.get(field).apply(o.object()));
        }
    }

    public Filter filter(ResourceType type, String namespace, ListOptions options) {
        LabelSelector labels;
        FieldSelector fields;
        try {
            labels = LabelSelector.parse(options.labelSelector());
            fields = FieldSelector.parse(options.fieldSelector());
        } catch (SelectorParseException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        ResourceStrategy s = strategies.get(type);
        Map<String, Function<JsonNode, String>> extractors = s != null ? s.selectableFields()
                : SelectableFields.nameAndNamespace();
        for (var r : fields.requirements()) {
            if (!extractors.containsKey(r.field())) {
                throw ApiException.badRequest("field label not supported: " + r.field());
            }
        }
        return new Filter(type.namespaced() ? namespace : null, labels, fields, extractors);
    }

    /**
     * Lists with kube-apiserver's resourceVersion semantics (see {@link ListRead}); every page of a paged list is
     * read at the first page's revision. A list that needs a revision the store has not reached fails at once with
     * 504 (use {@link #listWhenFresh} to wait for it).
     */
    public ListResult list(ResourceType type, String namespace, ListOptions options) {
        Filter filter = filter(type, namespace, options);
        ListRead read = ListRead.of(options);
        long current = store.revision();
        if (read.notOlderThan() > current) {
            throw ApiException.tooLargeResourceVersion(read.notOlderThan(), current, TOO_LARGE_RETRY_SECONDS);
        }
        return read(type, filter, options, read);
    }

    /**
     * Like {@link #list}, but a list that asks for a state not older than a revision the store has not reached waits
     * for it up to {@link #FRESHNESS_WAIT} on the clock, as kube-apiserver's watch cache does, and then fails with
     * 504 Timeout "Too large resource version". Errors in the request itself are thrown at once.
     */
    public CompletableFuture<ListResult> listWhenFresh(ResourceType type, String namespace, ListOptions options) {
        Filter filter = filter(type, namespace, options);
        ListRead read = ListRead.of(options);
        if (read.notOlderThan() <= store.revision()) {
            return CompletableFuture.completedFuture(read(type, filter, options, read));
        }
        return awaitRevision(read.notOlderThan()).thenApply(v -> read(type, filter, options, read));
    }

    private ListResult read(ResourceType type, Filter filter, ListOptions options, ListRead read) {
        String ns = filter.namespace();
        ObjectStore.Snapshot snap;
        if (read.revision() > 0) {
            long current = store.revision();
            if (read.revision() > current) {
                // etcd refuses a read at a future revision; kube-apiserver passes that on as a 500, this is the 504
                // its watch cache gives for the same question
                throw ApiException.tooLargeResourceVersion(read.revision(), current, null);
            }
            try {
                snap = store.listAt(type, ns, filter.labels().exactMatches(), read.revision());
            } catch (ObjectStore.TooOldResourceVersionException e) {
                if (read.from() == null) {
                    throw ApiException.expired(LIST_EXPIRED);
                }
                throw ApiException.expiredContinue(CONTINUE_EXPIRED,
                        new ContinueToken(read.from().start(), -1).encode());
            }
        } else {
            String exactName = filter.fields().exactValue("metadata.name").orElse(null);
            if (exactName != null && ns != null) {
                StoredObject o = store.get(type, ns, exactName);
                snap = new ObjectStore.Snapshot(o == null ? List.of() : List.of(o), store.revision());
            } else {
                snap = candidates(type, ns, filter);
            }
        }
        boolean allNamespaces = type.namespaced() && ns == null;
        String after = read.from() == null ? null : read.from().start();
        long limit = !read.honourLimit() || options.limit() == null || options.limit() <= 0 ? Long.MAX_VALUE
                : options.limit();
        List<StoredObject> page = new ArrayList<>();
        String lastKey = null;
        long remaining = 0;
        for (StoredObject o : snap.items()) {
            String key = allNamespaces ? o.namespace() + "/" + o.name() : o.name();
            if (after != null && key.compareTo(after) < 0) {
                continue;
            }
            if (!filter.matches(o)) {
                continue;
            }
            if (page.size() < limit) {
                page.add(o);
                lastKey = key;
            } else {
                remaining++;
            }
        }
        if (remaining == 0) {
            return new ListResult(page, snap.revision(), null, null);
        }
        // a count is given only when nothing but the namespace narrows the list, as kube-apiserver does
        boolean unfiltered = filter.labels().isEverything() && filter.fields().isEverything();
        return new ListResult(page, snap.revision(), new ContinueToken(lastKey + "\0", snap.revision()).encode(),
                unfiltered ? remaining : null);
    }

    /** The objects a selector can match: through the label index when it pins a label, else the whole type. */
    private ObjectStore.Snapshot candidates(ResourceType type, String namespace, Filter filter) {
        Map<String, String> exact = filter.labels().exactMatches();
        return exact.isEmpty() ? store.list(type, namespace) : store.listByLabels(type, namespace, exact);
    }

    /**
     * Completes (on the clock's loop) once the store has reached {@code revision}, or fails with 504 "Too large
     * resource version" if it has not after {@link #FRESHNESS_WAIT} on the clock. Cancelling it stops the wait.
     */
    CompletableFuture<Void> awaitRevision(long revision) {
        CompletableFuture<Void> fresh = new CompletableFuture<>();
        AtomicBoolean reached = new AtomicBoolean();
        Runnable complete = () -> {
            if (reached.compareAndSet(false, true)) {
                clock.execute(() -> fresh.complete(null)); // not on the writing thread, which holds the store's lock
            }
        };
        ObjectStore.Subscription s = store.watch(null, 0, e -> {
            if (e.resourceVersion() >= revision) {
                complete.run();
            }
        });
        Cancellable timer = clock.schedule(FRESHNESS_WAIT, () -> {
            long current = store.revision();
            if (current < revision) {
                fresh.completeExceptionally(
                        ApiException.tooLargeResourceVersion(revision, current, TOO_LARGE_RETRY_SECONDS));
            } else {
                fresh.complete(null);
            }
        });
        fresh.whenComplete((v, e) -> {
            s.close();
            timer.cancel();
        });
        if (store.revision() >= revision) {
            complete.run();
        }
        return fresh;
    }

    /**
     * Starts a watch. Without a resourceVersion (or with "0"), or with {@code sendInitialEvents=true}, the current
     * matches are sent first as ADDED (with sendInitialEvents, from a state at least as fresh as the given
     * resourceVersion, ending with the annotated bookmark); otherwise only later changes are sent. Objects entering
     * or leaving the selection arrive as ADDED or DELETED, as kube-apiserver's watch cache does.
     */
    public ObjectStore.Subscription watch(ResourceType type, String namespace, ListOptions options, WatchSink sink) {
        Filter filter = filter(type, namespace, options);
        long from = sendInitialEvents(type, filter, options, sink);
        ObjectStore.Subscription subscription;
        try {
            subscription = store.watch(type, from, event -> translate(event, filter, sink));
        } catch (ObjectStore.TooOldResourceVersionException e) {
            throw ApiException.expired(e.getMessage());
        }
        CompletableFuture<Void> fresh = awaitIfAhead(from, sink);
        if (fresh == null) {
            return subscription;
        }
        return () -> {
            fresh.cancel(false);
            subscription.close();
        };
    }

    /**
     * Starts a watch like {@link #watch} whose later changes the watcher reads from the returned feed at its own
     * pace instead of having them handed to {@code sink} on the writing thread (an HTTP watch: a client that stops
     * reading then costs the writers nothing). The initial events, the initial-events-end bookmark and a failure
     * still go to {@code sink}; {@code wake} runs (on the writing thread, it must not block) when a change arrives
     * after the feed had none.
     */
    public WatchFeed follow(ResourceType type, String namespace, ListOptions options, WatchSink sink, Runnable wake) {
        Filter filter = filter(type, namespace, options);
        long from = sendInitialEvents(type, filter, options, sink);
        WatchCursor cursor;
        try {
            cursor = store.follow(type, from, wake);
        } catch (ObjectStore.TooOldResourceVersionException e) {
            throw ApiException.expired(e.getMessage());
        }
        return new FilteredFeed(cursor, filter, awaitIfAhead(from, sink));
    }

    /**
     * Sends a watch's initial events, if it asked for them, and returns the revision its changes start after
     * (0 only for an empty store watched from now).
     */
    private long sendInitialEvents(ResourceType type, Filter filter, ListOptions options, WatchSink sink) {
        String rvText = options.resourceVersion();
        boolean fromNow = rvText == null || rvText.isEmpty() || rvText.equals("0");
        long from = fromNow ? 0 : parseResourceVersion(rvText);
        if (options.initialEvents()) {
            if (from > store.revision()) {
                // the watch cache waits for this state before it sends it; a snapshot cannot be taken ahead
                throw ApiException.tooLargeResourceVersion(from, store.revision(), TOO_LARGE_RETRY_SECONDS);
            }
            ObjectStore.Snapshot snap = candidates(type, filter.namespace(), filter);
            for (StoredObject o : snap.items()) {
                if (filter.matches(o)) {
                    sink.onEvent(new WatchEvent(WatchEvent.Type.ADDED, o, null));
                }
            }
            if (Boolean.TRUE.equals(options.sendInitialEvents())) {
                sink.onInitialEventsEnd(snap.revision());
            }
            return snap.revision();
        }
        return fromNow ? store.revision() : from;
    }

    /**
     * For a watch from ahead of the store: the events after it arrive if the store gets there within the wait, else
     * the watch ends with kube-apiserver's 504 "Too large resource version" (the client relists and watches again).
     * Null when the store is there already; cancel the returned wait when the watch ends.
     */
    private CompletableFuture<Void> awaitIfAhead(long from, WatchSink sink) {
        if (from <= store.revision()) {
            return null;
        }
        CompletableFuture<Void> fresh = awaitRevision(from);
        fresh.whenComplete((v, e) -> {
            if (e instanceof ApiException tooLarge) {
                sink.fail(tooLarge);
            }
        });
        return fresh;
    }

    /** A cursor's changes as one watcher sees them: its namespace and selectors applied, transitions retyped. */
    private record FilteredFeed(WatchCursor cursor, Filter filter, CompletableFuture<Void> fresh) implements WatchFeed {
        @Override
        public WatchEvent next() {
            for (WatchEvent e; (e = cursor.next()) != null; ) {
                WatchEvent seen = translated(e, filter);
                if (seen != null) {
                    return seen;
                }
            }
            return null;
        }

        @Override
        public long resourceVersion() {
            return cursor.resourceVersion();
        }

        @Override
        public long behind() {
            return cursor.behind();
        }

        @Override
        public void close() {
            if (fresh != null) {
                fresh.cancel(false);
            }
            cursor.close();
        }
    }

    private static long parseResourceVersion(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid resource version \"" + text + "\"");
        }
    }

    private static void translate(WatchEvent event, Filter filter, WatchSink sink) {
        WatchEvent seen = translated(event, filter);
        if (seen != null) {
            sink.onEvent(seen);
        }
    }

    /** The event as a watcher with {@code filter} sees it, or null if it does not see it. */
    private static WatchEvent translated(WatchEvent event, Filter filter) {
        boolean now = event.type() != WatchEvent.Type.DELETED && filter.matches(event.object());
        boolean before = event.previous() != null && filter.matches(event.previous());
        return switch (event.type()) {
            case ADDED -> now ? event : null;
            case MODIFIED -> {
                if (now && before) {
                    yield event;
                } else if (now) {
                    yield new WatchEvent(WatchEvent.Type.ADDED, event.object(), event.previous());
                } else if (before) {
                    yield new WatchEvent(WatchEvent.Type.DELETED, event.object(), event.previous());
                }
                yield null;
            }
            case DELETED -> before ? event : null;
            default -> null;
        };
    }
}
