package io.kuberaysim.sim;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The runtime identities a kubelet reports in container statuses: {@code imageID} (a digest reference of the pulled
 * image) and {@code containerID} (one per container and restart). Derived from the image and the Pod's uid so that a
 * virtual-clock run reports the same identities every time.
 */
final class ContainerIdentities {

    private ContainerIdentities() {
    }

    /** {@code <repository>@sha256:<64 hex>} for an image that was pulled. */
    static String imageId(String image) {
        String repo = image == null ? "unknown" : image.split("[:@]", 2)[0];
        return repo + "@sha256:" + hex64(String.valueOf(image));
    }

    /** {@code containerd://<64 hex>}, distinct per Pod, container and restart. */
    static String containerId(String podUid, String container, int restart) {
        return "containerd://" + hex64(podUid + "/" + container + "/" + restart);
    }

    /** SHA-256 of the seed in hex: 64 characters, as a real digest has. */
    private static String hex64(String seed) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(seed.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
