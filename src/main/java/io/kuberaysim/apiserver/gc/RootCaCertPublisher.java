package io.kuberaysim.apiserver.gc;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.storage.WatchEvent;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;

/**
 * kube-controller-manager's root CA publisher: every namespace that is not terminating has the ConfigMap
 * {@value #CONFIG_MAP} whose {@code ca.crt} is the CA bundle clients in Pods verify the API server with (the
 * ServiceAccount admission projects it into every Pod's {@code kube-api-access-*} volume). It is made when the
 * namespace appears, and made again or put back when it is deleted or changed.
 */
public final class RootCaCertPublisher extends PerNamespaceObjectController {
    /** The ConfigMap's name. */
    public static final String CONFIG_MAP = "kube-root-ca.crt";
    /** The key of the PEM bundle in its data. */
    public static final String KEY = "ca.crt";
    static final String DESCRIPTION_ANNOTATION = "kubernetes.io/description";
    private static final String DESCRIPTION = "The CA bundle that verifies the API server's certificate, for clients "
            + "in Pods that reach it through kubernetes.default.svc.";

    private final String caBundle;

    /** A publisher of {@link #simulatedCa()}. */
    public RootCaCertPublisher(GenericRegistry registry, Executor loop) {
        this(registry, loop, simulatedCa());
    }

    /** A publisher of {@code caBundle} (PEM). */
    public RootCaCertPublisher(GenericRegistry registry, Executor loop, String caBundle) {
        super(registry, loop, ResourceTypes.CONFIGMAPS);
        this.caBundle = caBundle;
    }

    /**
     * The CA certificate this server publishes: self-signed ({@code CN=kubernetes}), fixed so that every run shows
     * the same bundle; its private key was not kept, as nothing here signs with it.
     */
    public static String simulatedCa() {
        try (InputStream in = RootCaCertPublisher.class.getResourceAsStream(CONFIG_MAP)) {
            if (in == null) {
                throw new IllegalStateException(CONFIG_MAP + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    boolean needsSync(WatchEvent event) {
        return event.type() != WatchEvent.Type.ADDED && CONFIG_MAP.equals(event.object().name());
    }

    @Override
    void sync(String ns) {
        if (!namespaceActive(ns)) {
            return;
        }
        StoredObject current = store.get(ResourceTypes.CONFIGMAPS, ns, CONFIG_MAP);
        if (current == null) {
            ObjectNode cm = Json.object();
            cm.putObject("metadata").put("name", CONFIG_MAP).putObject("annotations")
                    .put(DESCRIPTION_ANNOTATION, DESCRIPTION);
            cm.putObject("data").put(KEY, caBundle);
            ControllerManagerWrites.create(registry, ResourceTypes.CONFIGMAPS, ns, cm);
            return;
        }
        if (published(current.object())) {
            return;
        }
        // the data is put back as a whole (other keys go); the description is set again if it went
        ObjectNode next = current.copy();
        next.putObject("data").put(KEY, caBundle);
        Json.child(Json.child(next, "metadata"), "annotations").put(DESCRIPTION_ANNOTATION, DESCRIPTION);
        ControllerManagerWrites.update(registry, ResourceTypes.CONFIGMAPS, ns, CONFIG_MAP, next);
    }

    private boolean published(JsonNode cm) {
        JsonNode data = cm.path("data");
        String description = Json.text(cm, "metadata", "annotations", DESCRIPTION_ANNOTATION);
        return data.size() == 1 && caBundle.equals(Json.text(data, KEY)) && description != null
                && !description.isEmpty();
    }
}
