package io.kuberaysim.apiserver.storage;

/** {@link ObjectStoreContractTest} on the in-memory store. */
class InMemoryObjectStoreContractTest extends ObjectStoreContractTest {
    @Override
    protected ObjectStore newStore(int historyLimit) {
        return new InMemoryObjectStore(historyLimit);
    }
}
