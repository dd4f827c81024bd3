package io.kuberaysim.apiserver.registry;

import java.util.Random;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The random streams the registry draws identities from, one per use, so that drawing from one never moves another:
 * Events' uids (the recorders write one whenever something happens), other objects' uids, and the names made from
 * {@code metadata.generateName}. A seeded set (virtual clock) repeats run after run; a generated name depends only on
 * the generated names before it, not on how many Events or other objects were written in between. Each stream is
 * used under its own lock.
 *
 * @param eventUids uids of core/v1 (and events.k8s.io/v1) Events
 * @param uids      uids of every other object
 * @param names     suffixes of generated names
 */
public record IdentityStreams(RandomGenerator eventUids, RandomGenerator uids, RandomGenerator names) {

    /** Three streams split from one seed: the same seed gives the same three streams. */
    public static IdentityStreams seeded(long seed) {
        SplittableRandom root = new SplittableRandom(seed);
        return new IdentityStreams(root.split(), root.split(), root.split());
    }

    /** Unseeded streams (wall clock). */
    public static IdentityStreams unseeded() {
        return new IdentityStreams(new Random(), new Random(), new Random());
    }
}
