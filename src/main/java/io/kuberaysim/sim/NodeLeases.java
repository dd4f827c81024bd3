package io.kuberaysim.sim;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The kubelets' node heartbeats: each Node has a Lease of its name in {@code kube-node-lease}, owned by the Node
 * (so it goes with it), held by the node for 40 s and renewed every 10 s, as the kubelet's defaults
 * ({@code nodeLeaseDurationSeconds} 40, renewal at a quarter of it).
 */
final class NodeLeases {
    static final String NAMESPACE = "kube-node-lease";
    static final int DURATION_SECONDS = 40;
    static final Duration RENEW_INTERVAL = Duration.ofSeconds(DURATION_SECONDS / 4);
    // metav1.MicroTime's wire format
    private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX")
            .withZone(ZoneOffset.UTC);

    private final KubeClient client;
    private final Clock clock;

    NodeLeases(ControllerManager manager) {
        this.client = manager.client().as("kubelet");
        this.clock = manager.clock();
    }

    void register(ControllerManager manager) {
        manager.controller("node-lease").forType(ResourceTypes.NODES).complete(this::renew);
    }

    private Result renew(Request request) {
        StoredObject node = client.get(ResourceTypes.NODES, null, request.name());
        if (node == null || node.isDeleting()) {
            return Result.done(); // the garbage collector removes the Lease with its owner
        }
        String renewTime = MICRO_TIME.format(clock.now());
        StoredObject lease = client.get(ResourceTypes.LEASES, NAMESPACE, node.name());
        if (lease == null) {
            client.create(ResourceTypes.LEASES, NAMESPACE, newLease(node, renewTime));
        } else {
            ObjectNode renewed = lease.copy();
            ((ObjectNode) renewed.get("spec")).put("renewTime", renewTime);
            client.update(ResourceTypes.LEASES, renewed);
        }
        return Result.requeueAfter(RENEW_INTERVAL);
    }

    private static ObjectNode newLease(StoredObject node, String renewTime) {
        ObjectNode lease = Json.object();
        lease.put("apiVersion", "coordination.k8s.io/v1").put("kind", "Lease");
        ObjectNode meta = lease.putObject("metadata").put("name", node.name()).put("namespace", NAMESPACE);
        meta.putArray("ownerReferences").addObject().put("apiVersion", "v1").put("kind", "Node")
                .put("name", node.name()).put("uid", node.uid());
        lease.putObject("spec").put("holderIdentity", node.name()).put("leaseDurationSeconds", DURATION_SECONDS)
                .put("renewTime", renewTime);
        return lease;
    }
}
