package io.kuberaysim.apiserver.storage;

/** {@link ObjectStoreLabelIndexTest} on the in-memory store. */
class InMemoryObjectStoreLabelIndexTest extends ObjectStoreLabelIndexTest {
    @Override
    protected ObjectStore newStore(int historyLimit) {
        return new InMemoryObjectStore(historyLimit);
    }
}
