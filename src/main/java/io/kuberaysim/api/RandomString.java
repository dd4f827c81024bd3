package io.kuberaysim.api;

import java.util.random.RandomGenerator;

/**
 * Random name suffixes as Kubernetes' {@code k8s.io/apimachinery/pkg/util/rand.String} draws them: letters without
 * vowels (no accidental words) and digits without look-alikes. The API server's generateName and KubeRay's
 * generated names ({@code GenerateRayClusterName}, {@code GenerateRayJobId},
 * {@code GenerateRayWorkerReplicaGroupName}) all use it: vowels, {@code y}, {@code 0}, {@code 1} and {@code 3} never
 * appear. Callers pass a seeded generator so virtual-clock runs repeat exactly.
 */
public final class RandomString {
    /** The alphabet of {@code rand.String}. */
    public static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

    private RandomString() {
    }

    /** {@code n} characters drawn from {@link #ALPHABET}. */
    public static String of(int n, RandomGenerator random) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return sb.toString();
    }

    /** The alphabet character for an arbitrary integer (e.g. a digest byte), for callers that derive suffixes. */
    public static char charFor(int value) {
        return ALPHABET.charAt(Math.floorMod(value, ALPHABET.length()));
    }
}
