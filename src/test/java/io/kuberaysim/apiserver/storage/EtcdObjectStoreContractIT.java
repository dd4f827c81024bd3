package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.testing.EtcdServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The storage contract tests, unchanged, on {@link EtcdObjectStore} against a real etcd: one etcd for the class,
 * each store under its own key prefix (revisions are etcd's, shared, so the tests count from the store's start).
 */
class EtcdObjectStoreContractIT {
    private static EtcdServer etcd;
    private static final AtomicInteger PREFIXES = new AtomicInteger();
    private static final List<EtcdObjectStore> OPEN = new ArrayList<>();

    @BeforeAll
    static void startEtcd() {
        EtcdServer.assumeInstalled();
        etcd = EtcdServer.start();
    }

    @AfterAll
    static void stopEtcd() {
        if (etcd != null) {
            etcd.close();
        }
    }

    static ObjectStore newEtcdStore(int historyLimit) {
        EtcdObjectStore store = EtcdObjectStore.connect(List.of(etcd.endpoint()),
                "/test" + PREFIXES.incrementAndGet() + "/registry", ResourceTypes.ALL_TYPES, historyLimit,
                Duration.ofSeconds(10));
        synchronized (OPEN) {
            OPEN.add(store);
        }
        return store;
    }

    @AfterEach
    void closeStores() {
        synchronized (OPEN) {
            OPEN.forEach(EtcdObjectStore::close);
            OPEN.clear();
        }
    }

    @Nested
    class Contract extends ObjectStoreContractTest {
        @Override
        protected ObjectStore newStore(int historyLimit) {
            return newEtcdStore(historyLimit);
        }
    }

    @Nested
    class Snapshots extends ObjectStoreSnapshotTest {
        @Override
        protected ObjectStore newStore(int historyLimit) {
            return newEtcdStore(historyLimit);
        }
    }

    @Nested
    class LabelIndex extends ObjectStoreLabelIndexTest {
        @Override
        protected ObjectStore newStore(int historyLimit) {
            return newEtcdStore(historyLimit);
        }
    }
}
