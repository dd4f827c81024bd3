package io.kuberaysim.config;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.EtcdCompactor;
import io.kuberaysim.apiserver.storage.EtcdObjectStore;
import io.kuberaysim.apiserver.storage.InMemoryObjectStore;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StorageUnavailableException;
import io.kuberaysim.controller.runtime.clock.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The object store ({@code kuberay-sim.storage}): in this process's memory (the default), or etcd, where objects
 * outlive the process and several replicas share them. etcd needs the wall clock: virtual time lives in one
 * process and cannot be shared by replicas or survive a restart, so that combination refuses to start.
 */
@Configuration(proxyBeanMethods = false)
class StorageConfiguration {

    @Bean
    ObjectStore objectStore(SimProperties props) {
        return switch (props.storage()) {
            case "memory" -> new InMemoryObjectStore(props.watchHistory());
            case "etcd" -> connectEtcd(props);
            default -> throw new InvalidStorageSettingsException("kuberay-sim.storage=" + props.storage()
                    + " is not a storage: use memory or etcd", "Set kuberay-sim.storage to memory or etcd.");
        };
    }

    private static EtcdObjectStore connectEtcd(SimProperties props) {
        if (props.virtual()) {
            throw new InvalidStorageSettingsException("kuberay-sim.storage=etcd does not work with "
                    + "kuberay-sim.clock=virtual: virtual time belongs to one process, and etcd's objects outlive it "
                    + "and are shared by replicas",
                    "Use kuberay-sim.clock=wall with etcd, or kuberay-sim.storage=memory with the virtual clock.");
        }
        SimProperties.EtcdProperties etcd = props.etcd();
        try {
            return EtcdObjectStore.connect(etcd.endpoints(), etcd.prefix(), ResourceTypes.ALL_TYPES,
                    props.watchHistory(), etcd.requestTimeout());
        } catch (StorageUnavailableException e) {
            throw new InvalidStorageSettingsException("etcd is not reachable at " + String.join(",", etcd.endpoints())
                    + ": " + e.getMessage(),
                    "Start etcd (e.g. etcd --data-dir /tmp/kuberay-sim-etcd) or set kuberay-sim.etcd.endpoints to "
                            + "where it listens.");
        }
    }

    /**
     * etcd's history is compacted as kube-apiserver compacts it; the in-memory store bounds its own (null: no
     * compactor). Chosen by the store built, not by a condition on the bean: the packaged jar's ahead-of-time bean
     * definitions are fixed when it is built, and {@code kuberay-sim.storage} is given when it runs.
     */
    @Bean(initMethod = "start", destroyMethod = "close")
    EtcdCompactor etcdCompactor(ObjectStore store, Clock clock, SimProperties props) {
        return store instanceof EtcdObjectStore etcd
                ? new EtcdCompactor(etcd, clock, props.etcd().compactionInterval())
                : null;
    }
}
