package io.kuberaysim.apiserver.registry;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;

import java.util.Random;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The random streams the registry draws identities from, one per use, so that drawing from one never moves another:
 * Events' uids (the recorders write one whenever something happens), the uids of the {@code default} ServiceAccount
 * and {@code kube-root-ca.crt} ConfigMap every namespace gets, other objects' uids, the names made from
 * {@code metadata.generateName}, and the suffixes of the token volumes the ServiceAccount admission adds to Pods. A
 * seeded set (virtual clock) repeats run after run; a generated name depends only on the generated names before it,
 * not on how many Events or other objects were written in between, and an object's uid (from which KubeRay's
 * RayService cluster names and the chaos draws are derived) not on how many namespaces were made. Each stream is
 * used under its own lock.
 *
 * @param eventUids        uids of core/v1 (and events.k8s.io/v1) Events
 * @param uids             uids of every other object
 * @param names            suffixes of generated names
 * @param namespaceUids    uids of the objects every namespace gets from kube-controller-manager
 * @param tokenVolumeNames suffixes of {@code kube-api-access-*} volume names
 */
public record IdentityStreams(RandomGenerator eventUids, RandomGenerator uids, RandomGenerator names,
                              RandomGenerator namespaceUids, RandomGenerator tokenVolumeNames) {

    /**
     * Five streams split from one seed: the same seed gives the same five streams (the first three are those the
     * seed gave when there were three).
     */
    public static IdentityStreams seeded(long seed) {
        SplittableRandom root = new SplittableRandom(seed);
        return new IdentityStreams(root.split(), root.split(), root.split(), root.split(), root.split());
    }

    /** Unseeded streams (wall clock). */
    public static IdentityStreams unseeded() {
        return new IdentityStreams(new Random(), new Random(), new Random(), new Random(), new Random());
    }

    /** The stream the uid of a new object of {@code type} named {@code name} is drawn from. */
    public RandomGenerator uidsOf(ResourceType type, String name) {
        if (type == ResourceTypes.EVENTS) {
            return eventUids;
        }
        boolean namespaceDefault = type == ResourceTypes.SERVICEACCOUNTS && "default".equals(name)
                || type == ResourceTypes.CONFIGMAPS && "kube-root-ca.crt".equals(name);
        return namespaceDefault ? namespaceUids : uids;
    }
}
