package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.ResourceType;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * The store's change log: its latest changes in revision order, in a ring that one writer at a time appends to
 * (under the store's write lock) and {@link WatchCursor}s read without any lock, each at its own position, as
 * watchers read kube-apiserver's watch cache. The newest {@code historyLimit} changes are the history that watches
 * and lists from a past resourceVersion are served from; the ring keeps at least {@link #MIN_WINDOW} changes so a
 * cursor may fall that far behind even where the history is kept shorter.
 *
 * <p>Per event the writer wakes only the cursors of its type whose readers found nothing left to read; a cursor
 * whose reader stopped (a client that reads nothing) costs the writer nothing until it reads again or falls out of
 * the ring.
 */
final class EventLog {
    /** Changes the ring keeps at least, whatever the history limit. */
    static final int MIN_WINDOW = 10_000;

    /**
     * A change at its position in the log and among the changes of its type (counted from 0 and 1), with its type's
     * feed: cursors tell their type's changes by the feed's identity (a type's own equals walks its name lists).
     */
    private record Entry(long seq, long typeSeq, Feed feed, WatchEvent event) {
    }

    /** One type's changes: how many were appended, the newest that left the ring, the cursors waiting for more. */
    private static final class Feed {
        volatile long appended;
        volatile long evictedRevision;
        final ConcurrentLinkedQueue<Cursor> waiting = new ConcurrentLinkedQueue<>();
    }

    private final int historyLimit;
    private final int capacity;
    private final AtomicReferenceArray<Entry> ring;
    private final Map<ResourceType, Feed> feeds = new ConcurrentHashMap<>();
    /** Position of the next change appended; every position below it is readable (unless overwritten). */
    private volatile long published;
    /** Revision of the newest change that left the history; watches from before it cannot be served. */
    private volatile long evictedUpTo;

    EventLog(int historyLimit) {
        this.historyLimit = historyLimit;
        this.capacity = Math.max(historyLimit, MIN_WINDOW);
        this.ring = new AtomicReferenceArray<>(capacity);
    }

    private Feed feed(ResourceType type) {
        return feeds.computeIfAbsent(type, t -> new Feed());
    }

    private Entry entry(long seq) {
        return ring.get((int) (seq % capacity));
    }

    /** Appends a change and wakes the waiting cursors of its type; one writer at a time. */
    void append(WatchEvent event) {
        long seq = published;
        Feed feed = feed(event.object().type());
        int slot = (int) (seq % capacity);
        if (seq >= capacity) {
            // before the slot is overwritten: a cursor that finds it overwritten then sees what left
            Entry old = ring.get(slot);
            old.feed().evictedRevision = old.event().resourceVersion();
        }
        if (historyLimit <= 0) {
            evictedUpTo = event.resourceVersion();
        } else if (seq >= historyLimit) {
            evictedUpTo = entry(seq - historyLimit).event().resourceVersion(); // read before the ring wraps onto it
        }
        long typeSeq = feed.appended + 1;
        ring.set(slot, new Entry(seq, typeSeq, feed, event));
        feed.appended = typeSeq;
        published = seq + 1;
        for (Cursor c; (c = feed.waiting.poll()) != null; ) {
            c.armed.set(false);
            c.wake.run();
        }
    }

    /** Revision of the newest change that left the history. */
    long evictedUpTo() {
        return evictedUpTo;
    }

    /** Starts the history over at {@code revision}: nothing before it can be served; under the writer's lock. */
    void startAt(long revision) {
        evictedUpTo = revision;
    }

    /** The oldest position still in the history. */
    private long historyStart() {
        return Math.max(0, published - Math.max(0, historyLimit));
    }

    /** Hands the history's changes after {@code revision} of {@code type} (null = all), oldest first. */
    void forEachAfter(ResourceType type, long revision, Consumer<WatchEvent> action) {
        long end = published;
        for (long s = firstAfter(revision, historyStart(), end); s < end; s++) {
            WatchEvent e = entry(s).event();
            if (type == null || type.equals(e.object().type())) {
                action.accept(e);
            }
        }
    }

    /** Hands the history's changes after {@code revision} of {@code type}, newest first. */
    void forEachAfterNewestFirst(ResourceType type, long revision, Consumer<WatchEvent> action) {
        long start = firstAfter(revision, historyStart(), published);
        for (long s = published - 1; s >= start; s--) {
            WatchEvent e = entry(s).event();
            if (type.equals(e.object().type())) {
                action.accept(e);
            }
        }
    }

    /** The first position in [from, to) whose change came after {@code revision} (revisions rise with positions). */
    private long firstAfter(long revision, long from, long to) {
        long lo = from;
        long hi = to;
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            if (entry(mid).event().resourceVersion() > revision) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /**
     * A cursor over {@code type}'s changes after {@code revision}, starting with those the ring still holds; under
     * the writer's lock (the caller checked that the history reaches back to {@code revision}).
     */
    WatchCursor follow(ResourceType type, long revision, Runnable wake) {
        Feed feed = feed(type);
        long end = published;
        long start = firstAfter(revision, Math.max(0, end - capacity), end);
        long ahead = 0;
        for (long s = start; s < end; s++) {
            if (entry(s).feed() == feed) {
                ahead++;
            }
        }
        return new Cursor(feed, start, feed.appended - ahead, revision, wake);
    }

    /** Reads one type's changes at its own position; one reader thread at a time. */
    private final class Cursor implements WatchCursor {
        private final Feed feed;
        private final long after;
        private final Runnable wake;
        /** Set while the cursor is among its feed's waiting cursors (or about to be). */
        private final AtomicBoolean armed = new AtomicBoolean();
        private long position;
        private volatile long seenTypeSeq;
        private volatile long seenRevision;
        private volatile boolean closed;

        Cursor(Feed feed, long position, long seenTypeSeq, long after, Runnable wake) {
            this.feed = feed;
            this.position = position;
            this.seenTypeSeq = seenTypeSeq;
            this.after = after;
            this.seenRevision = after;
            this.wake = wake;
        }

        @Override
        public WatchEvent next() {
            while (!closed) {
                long end = published;
                if (position >= end) {
                    if (!armed.getAndSet(true)) {
                        feed.waiting.add(this);
                    }
                    if (published > position) {
                        continue; // appended while arming: read it (a wake-up may still come; it finds nothing)
                    }
                    return null;
                }
                Entry e = entry(position);
                if (e.seq() != position) {
                    // overwritten: fine if only other types' changes were lost, they are not this cursor's
                    long newest = published;
                    if (feed.evictedRevision > seenRevision) {
                        throw new ObjectStore.TooOldResourceVersionException(seenRevision, evictedUpTo + 1);
                    }
                    position = Math.max(position + 1, newest - capacity);
                    continue;
                }
                position++;
                WatchEvent event = e.event();
                long rv = event.resourceVersion();
                if (rv > seenRevision) {
                    seenRevision = rv;
                }
                if (e.feed() == feed) {
                    seenTypeSeq = e.typeSeq();
                    if (rv > after) {
                        return event;
                    }
                }
            }
            return null;
        }

        @Override
        public long resourceVersion() {
            return seenRevision;
        }

        @Override
        public long behind() {
            return feed.appended - seenTypeSeq;
        }

        @Override
        public void close() {
            closed = true;
            feed.waiting.remove(this);
        }
    }
}
