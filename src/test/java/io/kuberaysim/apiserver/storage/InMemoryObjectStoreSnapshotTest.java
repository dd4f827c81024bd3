package io.kuberaysim.apiserver.storage;

/** {@link ObjectStoreSnapshotTest} on the in-memory store. */
class InMemoryObjectStoreSnapshotTest extends ObjectStoreSnapshotTest {
    @Override
    protected ObjectStore newStore(int historyLimit) {
        return new InMemoryObjectStore(historyLimit);
    }
}
