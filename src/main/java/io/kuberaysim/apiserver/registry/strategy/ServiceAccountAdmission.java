package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.RandomString;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.validation.NameValidation;
import io.kuberaysim.controller.runtime.clock.ControlLoop;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * kube-apiserver's ServiceAccount admission plugin on Pod create: a Pod runs as {@code spec.serviceAccountName}
 * ({@code default} when it names none; the deprecated {@code spec.serviceAccount} says the same), which must exist
 * (else 403); unless the Pod or its ServiceAccount sets {@code automountServiceAccountToken: false}, every container
 * and init container mounts the projected {@code kube-api-access-<5 random>} volume (token, {@code kube-root-ca.crt},
 * namespace) read-only at {@value #MOUNT_PATH}; a Pod without image pull secrets gets its ServiceAccount's.
 */
public final class ServiceAccountAdmission {
    static final String DEFAULT_ACCOUNT = "default";
    static final String MOUNT_PATH = "/var/run/secrets/kubernetes.io/serviceaccount";
    static final String VOLUME_PREFIX = "kube-api-access-";
    /** How long a Pod create waits for the {@code default} ServiceAccount of a namespace just made (kube: ~1-2 s). */
    private static final long CATCH_UP_MILLIS = 1000;
    /** The projected sources every token volume has, as kube-apiserver writes them (defaults set: none run later). */
    private static final ObjectNode PROJECTED = tokenVolumeSource();

    private final RandomGenerator volumeNames;
    private final ControlLoop loop;

    /**
     * @param volumeNames the suffixes of token volume names (seeded on the virtual clock), used under its lock
     * @param loop        the control loop the ServiceAccount controller runs on (null: none to wait for)
     */
    public ServiceAccountAdmission(RandomGenerator volumeNames, ControlLoop loop) {
        this.volumeNames = volumeNames;
        this.loop = loop;
    }

    /** Admits {@code pod} (defaulted, before validation) into {@code namespace}, or throws the 403. */
    public void admit(ObjectNode pod, String namespace, ObjectStore stored) {
        ObjectNode spec = Json.child(pod, "spec");
        String name = Json.text(spec, "serviceAccountName");
        if (name == null || name.isEmpty()) {
            name = Json.text(spec, "serviceAccount"); // what v1 clients of old sent
        }
        if (name == null || name.isEmpty()) {
            name = DEFAULT_ACCOUNT;
        }
        spec.put("serviceAccountName", name);
        spec.put("serviceAccount", name);
        StoredObject account = lookUp(namespace, name, stored);
        if (account == null) {
            throw ApiException.forbidden(ResourceTypes.PODS, Json.text(pod, "metadata", "name"),
                    "error looking up service account " + namespace + "/" + name + ": serviceaccount \"" + name
                            + "\" not found");
        }
        if (automounts(spec, account.object())) {
            mountToken(spec);
        }
        JsonNode pullSecrets = account.object().path("imagePullSecrets");
        if (spec.path("imagePullSecrets").isEmpty() && !pullSecrets.isEmpty()) {
            ArrayNode copied = spec.putArray("imagePullSecrets");
            for (JsonNode s : pullSecrets) {
                copied.addObject().put("name", Json.text(s, "name"));
            }
        }
    }

    /**
     * The ServiceAccount, or null. {@code default} is made by the ServiceAccount controller when its namespace is
     * created; kube-apiserver looks for it again for a second or two before refusing. Here the controller reacts on
     * the control loop, so a request that finds none lets the loop run what was queued before it (the namespace's
     * creation) and looks again. On the loop itself that work has run already: it was queued first.
     */
    private StoredObject lookUp(String namespace, String name, ObjectStore stored) {
        StoredObject account = stored.get(ResourceTypes.SERVICEACCOUNTS, namespace, name);
        if (account != null || !DEFAULT_ACCOUNT.equals(name) || loop == null || loop.inLoop()) {
            return account;
        }
        CountDownLatch caughtUp = new CountDownLatch(1);
        loop.execute(caughtUp::countDown);
        try {
            caughtUp.await(CATCH_UP_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return stored.get(ResourceTypes.SERVICEACCOUNTS, namespace, name);
    }

    /** The Pod's {@code automountServiceAccountToken} wins, then the ServiceAccount's; true when neither says. */
    private static boolean automounts(JsonNode spec, JsonNode account) {
        JsonNode pod = spec.get("automountServiceAccountToken");
        if (pod != null && pod.isBoolean()) {
            return pod.asBoolean();
        }
        JsonNode sa = account.get("automountServiceAccountToken");
        return sa == null || !sa.isBoolean() || sa.asBoolean();
    }

    private void mountToken(ObjectNode spec) {
        String volume = null;
        for (JsonNode v : spec.path("volumes")) {
            String n = Json.text(v, "name");
            if (n != null && n.startsWith(VOLUME_PREFIX)) {
                volume = n; // a token volume the Pod brings is the one mounted
                break;
            }
        }
        boolean hasVolume = volume != null;
        if (!hasVolume) {
            synchronized (volumeNames) {
                volume = VOLUME_PREFIX + RandomString.of(NameValidation.GENERATE_NAME_RANDOM_LENGTH, volumeNames);
            }
        }
        boolean mounted = mount(spec, "initContainers", volume) | mount(spec, "containers", volume);
        if (mounted && !hasVolume) {
            ObjectNode v = Json.object();
            v.put("name", volume);
            v.set("projected", PROJECTED.deepCopy());
            ArrayNode volumes = spec.get("volumes") instanceof ArrayNode a ? a : spec.putArray("volumes");
            volumes.add(v);
        }
    }

    /** Adds the mount to every container of {@code list} that mounts nothing at the path yet; whether one did. */
    private static boolean mount(ObjectNode spec, String list, String volume) {
        boolean added = false;
        for (JsonNode c : spec.path(list)) {
            if (!(c instanceof ObjectNode container) || mountsTokenPath(container)) {
                continue;
            }
            ArrayNode mounts = container.get("volumeMounts") instanceof ArrayNode a ? a
                    : container.putArray("volumeMounts");
            mounts.addObject().put("name", volume).put("readOnly", true).put("mountPath", MOUNT_PATH);
            added = true;
        }
        return added;
    }

    private static boolean mountsTokenPath(JsonNode container) {
        for (JsonNode m : container.path("volumeMounts")) {
            if (MOUNT_PATH.equals(Json.text(m, "mountPath"))) {
                return true;
            }
        }
        return false;
    }

    private static ObjectNode tokenVolumeSource() {
        ObjectNode projected = Json.object();
        ArrayNode sources = projected.putArray("sources");
        // an hour and 7 s: kube-apiserver tells the tokens of these volumes by it (it may extend them, and warns)
        sources.addObject().putObject("serviceAccountToken").put("expirationSeconds", 3607).put("path", "token");
        ObjectNode configMap = sources.addObject().putObject("configMap").put("name", "kube-root-ca.crt");
        configMap.putArray("items").addObject().put("key", "ca.crt").put("path", "ca.crt");
        ObjectNode file = sources.addObject().putObject("downwardAPI").putArray("items").addObject()
                .put("path", "namespace");
        file.putObject("fieldRef").put("apiVersion", "v1").put("fieldPath", "metadata.namespace");
        projected.put("defaultMode", 420); // 0644
        return projected;
    }
}
