package io.kuberaysim.controller.runtime;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.StorageUnavailableException;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Leader election on a {@code coordination.k8s.io/v1} Lease, as client-go's leaderelection with a LeaseLock (what
 * kube-controller-manager's {@code --leader-elect} uses): every {@code retryPeriod} each candidate reads the Lease;
 * the holder renews it, the others take it over once it has not changed for {@code leaseDuration} as they observed
 * it (their own clocks, never the holder's timestamps). Writes carry the resourceVersion read, so of two candidates
 * only one wins. A leader that cannot renew for {@code renewDeadline} stops leading and does not stand again, as
 * kube-controller-manager exits then; closing a leader releases the Lease so another takes over at once.
 */
public final class LeaderElector implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LeaderElector.class);
    // metav1.MicroTime's wire format
    private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX")
            .withZone(ZoneOffset.UTC);

    /** The Lease and its timings. */
    public record Settings(String namespace, String name, String identity, Duration leaseDuration,
                           Duration renewDeadline, Duration retryPeriod) {
    }

    private final KubeClient client;
    private final InstantSource time;
    private final Settings settings;
    private final String identity;
    private final Runnable onStartedLeading;
    private final Runnable onStoppedLeading;
    private final ScheduledExecutorService timer;
    private volatile boolean leading;
    private volatile boolean stopped;
    private volatile boolean lost;
    // owned by the timer thread
    private String observedRecord;
    private Instant observedTime;
    private Instant lastRenew;

    public LeaderElector(KubeClient client, InstantSource time, Settings settings, Runnable onStartedLeading,
                         Runnable onStoppedLeading) {
        this.client = client.as("leader-election");
        this.time = time;
        this.settings = settings;
        this.identity = settings.identity();
        this.onStartedLeading = onStartedLeading;
        this.onStoppedLeading = onStoppedLeading;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "leader-election");
            t.setDaemon(true);
            return t;
        });
    }

    /** This candidate's {@code holderIdentity}. */
    public String identity() {
        return identity;
    }

    /** Whether this replica holds the Lease now. */
    public boolean isLeading() {
        return leading;
    }

    /** Whether this replica led and lost the Lease: its controllers stopped and it does not stand again. */
    public boolean hasLost() {
        return lost;
    }

    /** Starts campaigning; {@code onStartedLeading} runs on the election's thread once the Lease is ours. */
    public void start() {
        log.info("standing for leader of Lease {}/{} as {}", settings.namespace(), settings.name(), identity);
        timer.scheduleWithFixedDelay(this::tick, 0, settings.retryPeriod().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One round: acquire or renew, or notice the Lease is lost; {@link #start()} runs it every retry period. */
    void tick() {
        if (stopped) {
            return;
        }
        boolean held;
        try {
            held = tryAcquireOrRenew();
        } catch (ApiException | StorageUnavailableException e) {
            log.debug("could not acquire or renew Lease {}/{}: {}", settings.namespace(), settings.name(),
                    e.getMessage());
            held = false;
        } catch (RuntimeException e) {
            log.warn("could not acquire or renew Lease {}/{}", settings.namespace(), settings.name(), e);
            held = false;
        }
        Instant now = time.instant();
        if (held) {
            lastRenew = now;
            if (!leading) {
                leading = true;
                log.info("became leader: Lease {}/{} held by {}", settings.namespace(), settings.name(), identity);
                onStartedLeading.run();
            }
        } else if (leading && now.isAfter(lastRenew.plus(settings.renewDeadline()))) {
            leading = false;
            stopped = true;
            lost = true;
            log.error("leader election lost: Lease {}/{} not renewed for {}s; the controllers stop on this replica",
                    settings.namespace(), settings.name(), settings.renewDeadline().toSeconds());
            onStoppedLeading.run();
        }
    }

    private boolean tryAcquireOrRenew() {
        Instant now = time.instant();
        StoredObject lease = client.get(ResourceTypes.LEASES, settings.namespace(), settings.name());
        if (lease == null) {
            client.create(ResourceTypes.LEASES, settings.namespace(), newLease(now));
            return true;
        }
        JsonNode spec = lease.object().path("spec");
        String holder = Json.text(spec, "holderIdentity");
        String record = holder + "|" + Json.text(spec, "renewTime") + "|" + lease.resourceVersion();
        if (!record.equals(observedRecord)) {
            observedRecord = record;
            observedTime = now;
        }
        boolean heldByOther = holder != null && !holder.isEmpty() && !holder.equals(identity);
        long durationSeconds = spec.path("leaseDurationSeconds").asLong(settings.leaseDuration().toSeconds());
        if (heldByOther && now.isBefore(observedTime.plusSeconds(durationSeconds))) {
            return false;
        }
        ObjectNode next = lease.copy();
        ObjectNode s = Json.child(next, "spec");
        if (!identity.equals(holder)) {
            s.put("acquireTime", MICRO_TIME.format(now));
            s.put("leaseTransitions", spec.path("leaseTransitions").asInt(0) + (heldByOther ? 1 : 0));
        }
        s.put("holderIdentity", identity).put("leaseDurationSeconds", settings.leaseDuration().toSeconds())
                .put("renewTime", MICRO_TIME.format(now));
        client.update(ResourceTypes.LEASES, next); // 409 when another candidate wrote since our read
        return true;
    }

    private ObjectNode newLease(Instant now) {
        ObjectNode lease = Json.object();
        lease.put("apiVersion", "coordination.k8s.io/v1").put("kind", "Lease");
        lease.putObject("metadata").put("name", settings.name()).put("namespace", settings.namespace());
        lease.putObject("spec").put("holderIdentity", identity)
                .put("leaseDurationSeconds", settings.leaseDuration().toSeconds())
                .put("acquireTime", MICRO_TIME.format(now)).put("renewTime", MICRO_TIME.format(now))
                .put("leaseTransitions", 0);
        return lease;
    }

    /** Stops campaigning; a leader releases the Lease (empty holder), so a standby takes over at its next try. */
    @Override
    public void close() {
        stopped = true;
        timer.shutdownNow();
        if (!leading) {
            return;
        }
        leading = false;
        try {
            StoredObject lease = client.get(ResourceTypes.LEASES, settings.namespace(), settings.name());
            if (lease != null && identity.equals(Json.text(lease.object(), "spec", "holderIdentity"))) {
                ObjectNode released = lease.copy();
                Json.child(released, "spec").put("holderIdentity", "").put("leaseDurationSeconds", 1)
                        .put("renewTime", MICRO_TIME.format(time.instant()));
                client.update(ResourceTypes.LEASES, released);
            }
        } catch (RuntimeException e) {
            log.warn("could not release Lease {}/{}: {}", settings.namespace(), settings.name(), e.getMessage());
        }
    }
}
