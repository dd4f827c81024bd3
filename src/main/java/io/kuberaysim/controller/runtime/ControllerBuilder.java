package io.kuberaysim.controller.runtime;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.runtime.cache.InformerHandler;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import io.kuberaysim.controller.runtime.queue.ItemExponentialFailureRateLimiter;
import io.kuberaysim.controller.runtime.reconcile.Reconciler;
import io.kuberaysim.controller.runtime.reconcile.Request;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Describes what a controller watches, as controller-runtime's builder: the primary type
 * ({@link #forType}), owned types whose events enqueue their controller owner ({@link #owns}) and other
 * types mapped to requests by a function ({@link #watches}).
 */
public final class ControllerBuilder {

    private final ControllerManager manager;
    private final String name;
    private ResourceType primary;
    private UpdatePredicate primaryPredicate = UpdatePredicate.ALWAYS;
    private final List<ResourceType> owned = new ArrayList<>();
    private final List<Watch> watches = new ArrayList<>();

    private record Watch(ResourceType type, Function<StoredObject, List<Request>> mapper) {
    }

    ControllerBuilder(ControllerManager manager, String name) {
        this.manager = manager;
        this.name = Objects.requireNonNull(name, "name");
    }

    /** The primary type: every add, update and delete enqueues the object's own namespace/name. */
    public ControllerBuilder forType(ResourceType primary) {
        return forType(primary, UpdatePredicate.ALWAYS);
    }

    /** The primary type, with updates filtered by {@code p} (adds and deletes always enqueue). */
    public ControllerBuilder forType(ResourceType primary, UpdatePredicate p) {
        this.primary = Objects.requireNonNull(primary, "primary");
        this.primaryPredicate = Objects.requireNonNull(p, "predicate");
        return this;
    }

    /**
     * An owned type: events on objects whose controller ownerReference ({@code controller: true}) has the
     * primary kind enqueue that owner (the object's namespace, the owner's name). Call after {@link #forType}.
     */
    public ControllerBuilder owns(ResourceType ownedType) {
        owned.add(Objects.requireNonNull(ownedType, "owned"));
        return this;
    }

    /** Another type whose events are turned into requests by {@code mapper}. */
    public ControllerBuilder watches(ResourceType type, Function<StoredObject, List<Request>> mapper) {
        watches.add(new Watch(Objects.requireNonNull(type, "type"), Objects.requireNonNull(mapper, "mapper")));
        return this;
    }

    /** Builds the controller, registers it with the manager and hooks it to the informers. */
    public Controller complete(Reconciler reconciler) {
        if (primary == null && watches.isEmpty()) {
            throw new IllegalStateException("controller " + name + " watches nothing: call forType or watches");
        }
        if (primary == null && !owned.isEmpty()) {
            throw new IllegalStateException("controller " + name + ": owns() needs forType()");
        }
        ReconcileFailures failures = ReconcileFailures.logOnly(name);
        if (primary != null) {
            SharedInformer objects = manager.informer(primary);
            failures = new ReconcileFailures(name, r -> objects.get(r.namespace(), r.name()),
                    manager.eventRecorder(name));
        }
        Controller controller = new Controller(name, manager.clock(), reconciler, manager.concurrency(),
                new ItemExponentialFailureRateLimiter<>(), manager.metrics(), failures);
        if (primary != null) {
            UpdatePredicate p = primaryPredicate;
            manager.informer(primary).addHandler(new InformerHandler() {
                @Override
                public void onAdd(StoredObject o) {
                    controller.enqueue(self(o));
                }

                @Override
                public void onUpdate(StoredObject oldObj, StoredObject newObj) {
                    if (p.test(oldObj, newObj)) {
                        controller.enqueue(self(newObj));
                    }
                }

                @Override
                public void onDelete(StoredObject o) {
                    controller.enqueue(self(o));
                }
            });
            String kind = primary.kind();
            String group = primary.group();
            for (ResourceType type : owned) {
                manager.informer(type).addHandler(mapping(o -> owner(o, kind, group), controller::enqueue));
            }
        }
        for (Watch w : watches) {
            manager.informer(w.type()).addHandler(mapping(o -> {
                List<Request> r = w.mapper().apply(o);
                return r == null ? List.of() : r;
            }, controller::enqueue));
        }
        manager.register(controller);
        return controller;
    }

    private static Request self(StoredObject o) {
        return new Request(o.namespace(), o.name());
    }

    /** Enqueues the requests of the object (and, on update, of its previous state too). */
    private static InformerHandler mapping(Function<StoredObject, List<Request>> mapper, Consumer<Request> sink) {
        return new InformerHandler() {
            @Override
            public void onAdd(StoredObject o) {
                mapper.apply(o).forEach(sink);
            }

            @Override
            public void onUpdate(StoredObject oldObj, StoredObject newObj) {
                mapper.apply(oldObj).forEach(sink);
                mapper.apply(newObj).forEach(sink);
            }

            @Override
            public void onDelete(StoredObject o) {
                mapper.apply(o).forEach(sink);
            }
        };
    }

    /** The controller owner of {@code o} if it has the given kind and group. */
    static List<Request> owner(StoredObject o, String kind, String group) {
        JsonNode refs = o.metadata() == null ? null : o.metadata().get("ownerReferences");
        if (refs == null || !refs.isArray()) {
            return List.of();
        }
        for (JsonNode ref : refs) {
            if (!ref.path("controller").asBoolean(false)) {
                continue;
            }
            String apiVersion = ref.path("apiVersion").asString("");
            String refGroup = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
            if (kind.equals(ref.path("kind").asString("")) && group.equals(refGroup)) {
                return List.of(new Request(o.namespace(), ref.path("name").asString()));
            }
            return List.of(); // only one controller reference is allowed
        }
        return List.of();
    }
}
