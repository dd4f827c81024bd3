package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.runtime.OwnerReferences;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.Base64;
import java.util.Random;

/**
 * Ray token authentication ({@code spec.authOptions.mode: token}) as KubeRay configures it: the token lives in a
 * Secret (the user's {@code secretName}, or one KubeRay creates under the cluster's name with a random
 * {@code auth_token}), and every Ray container, the autoscaler sidecar, {@code wait-gcs-ready} and a RayJob's
 * submitter get {@code RAY_AUTH_MODE=token} and {@code RAY_AUTH_TOKEN} from it. With {@code enableK8sTokenAuth}
 * Ray checks Kubernetes ServiceAccount tokens instead: no Secret, a projected token volume.
 */
public final class TokenAuth {
    /** The Secret key holding the token ({@code RAY_AUTH_TOKEN_SECRET_KEY}). */
    public static final String TOKEN_KEY = "auth_token";
    private static final String MODE_ENV = "RAY_AUTH_MODE";
    private static final String TOKEN_ENV = "RAY_AUTH_TOKEN";
    private static final String K8S_ENV = "RAY_ENABLE_K8S_TOKEN_AUTH";
    private static final String VOLUME = "ray-token";
    private static final String MOUNT_PATH = "/var/run/secrets/ray.io/serviceaccount";

    private TokenAuth() {
    }

    /** {@code IsAuthEnabled}: mode {@code token}. */
    public static boolean enabled(JsonNode authOptions) {
        return authOptions != null && "token".equals(Json.text(authOptions, "mode"));
    }

    /** {@code IsK8sAuthEnabled}: {@code enableK8sTokenAuth: true}. */
    public static boolean kubernetesTokens(JsonNode authOptions) {
        return authOptions != null && authOptions.path("enableK8sTokenAuth").asBoolean(false);
    }

    /** The Secret the token is read from: the user's {@code secretName}, else the cluster's (clipped) name. */
    public static String secretName(String cluster, JsonNode authOptions) {
        String named = authOptions == null ? null : Json.text(authOptions, "secretName");
        return named != null && !named.isEmpty() ? named : RayLabels.checkName(cluster);
    }

    /** Whether KubeRay creates the token Secret itself (token mode, no Kubernetes tokens, no user Secret). */
    static boolean createsSecret(JsonNode authOptions) {
        String named = authOptions == null ? null : Json.text(authOptions, "secretName");
        return enabled(authOptions) && !kubernetesTokens(authOptions) && (named == null || named.isEmpty());
    }

    /** {@code createAuthSecret}: a base64 string of 32 random bytes under {@code auth_token}, owned by the cluster. */
    static ObjectNode secret(StoredObject cluster, Random random) {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        ObjectNode secret = Json.object();
        secret.put("apiVersion", "v1").put("kind", "Secret");
        ObjectNode meta = secret.putObject("metadata");
        meta.put("name", RayLabels.checkName(cluster.name())).put("namespace", cluster.namespace());
        meta.putObject("labels").put(RayLabels.CLUSTER, cluster.name());
        meta.putArray("ownerReferences").add(OwnerReferences.controllerReference(cluster));
        secret.putObject("stringData").put(TOKEN_KEY, Base64.getEncoder().encodeToString(bytes));
        return secret;
    }

    /** {@code SetContainerTokenAuthEnvVars}: the auth variables a container lacks (and the token volume's mount). */
    public static void configureContainer(ObjectNode container, String cluster, JsonNode authOptions) {
        ArrayNode env = container.get("env") instanceof ArrayNode a ? a : container.putArray("env");
        if (!RayPodFactory.hasNamed(env, MODE_ENV)) {
            env.addObject().put("name", MODE_ENV).put("value", "token");
        }
        if (kubernetesTokens(authOptions)) {
            if (!RayPodFactory.hasNamed(env, K8S_ENV)) {
                env.addObject().put("name", K8S_ENV).put("value", "true");
            }
            ArrayNode mounts = container.get("volumeMounts") instanceof ArrayNode m ? m
                    : container.putArray("volumeMounts");
            if (!RayPodFactory.hasNamed(mounts, VOLUME)) {
                mounts.addObject().put("name", VOLUME).put("mountPath", MOUNT_PATH).put("readOnly", true);
            }
        } else if (!RayPodFactory.hasNamed(env, TOKEN_ENV)) {
            env.addObject().put("name", TOKEN_ENV).putObject("valueFrom").putObject("secretKeyRef")
                    .put("name", secretName(cluster, authOptions)).put("key", TOKEN_KEY);
        }
    }

    /**
     * {@code configureTokenAuth}: the Ray container (index 0), the projected ServiceAccount token volume for
     * Kubernetes tokens, and the {@code wait-gcs-ready} init container.
     */
    static void configurePod(ObjectNode podSpec, String cluster, JsonNode authOptions) {
        configureContainer((ObjectNode) podSpec.path("containers").get(RayPodFactory.RAY_CONTAINER_INDEX), cluster,
                authOptions);
        if (kubernetesTokens(authOptions)) {
            addTokenVolume(podSpec);
        }
        for (JsonNode init : podSpec.path("initContainers")) {
            if (RayContainers.WAIT_GCS_READY.equals(Json.text(init, "name"))) {
                configureContainer((ObjectNode) init, cluster, authOptions);
            }
        }
    }

    /** {@code AddRayTokenVolume}: the projected ServiceAccount token Ray checks with Kubernetes tokens. */
    public static void addTokenVolume(ObjectNode podSpec) {
        ArrayNode volumes = podSpec.get("volumes") instanceof ArrayNode v ? v : podSpec.putArray("volumes");
        if (!RayPodFactory.hasNamed(volumes, VOLUME)) {
            volumes.addObject().put("name", VOLUME).putObject("projected").putArray("sources").addObject()
                    .putObject("serviceAccountToken").put("path", "token");
        }
    }

}
