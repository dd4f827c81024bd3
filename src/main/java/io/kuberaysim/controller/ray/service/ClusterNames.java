package io.kuberaysim.controller.ray.service;

import io.kuberaysim.api.RandomString;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Names of a RayService's clusters: {@code <rayservice>-<5 chars of rand.String's alphabet>} (KubeRay
 * {@code GenerateRayClusterName}). KubeRay draws the suffix at random; here it is derived from the simulation seed,
 * the RayService's identity and generation and an attempt counter, so virtual-clock runs repeat exactly.
 */
public final class ClusterNames {

    private ClusterNames() {
    }

    /**
     * A cluster name for the RayService.
     *
     * @param attempt bumped by the caller when the name is already taken
     */
    public static String generate(long seed, String namespace, String rayService, String uid, long generation,
                                  int attempt) {
        String input = seed + "/" + namespace + "/" + rayService + "/" + uid + "/" + generation + "/" + attempt;
        byte[] d;
        try {
            d = MessageDigest.getInstance("SHA-256").digest(input.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
        StringBuilder sb = new StringBuilder(rayService).append('-');
        for (int i = 0; i < 5; i++) {
            sb.append(RandomString.charFor(d[i] & 0xff));
        }
        return sb.toString();
    }
}
