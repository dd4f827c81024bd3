package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.ListOptions;
import io.kuberaysim.apiserver.registry.ListResult;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.storage.WatchEvent;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * Renders read responses in the representation the client asked for: the object or list as JSON, or a
 * {@code meta.k8s.io/v1} Table when the Accept header asks for one ({@code kubectl get}); watches as a
 * stream of one JSON event per line, with Table rows as objects for a Table watch.
 */
@Component
class ResponseRenderer {
    private final TableConverter tables;
    private final WatchStreams watches;

    ResponseRenderer(TableConverter tables, WatchStreams watches) {
        this.tables = tables;
        this.watches = watches;
    }

    ResponseEntity<byte[]> object(StoredObject o, HttpServletRequest req) {
        checkAcceptable(req);
        if (wantsTable(req)) {
            return ResourceHandler.json(HttpStatus.OK,
                    Json.MAPPER.writeValueAsBytes(tables.single(o, includeObject(req), true)), List.of());
        }
        if (PartialObjectMetadataView.wanted(req)) {
            return ResourceHandler.json(HttpStatus.OK,
                    Json.MAPPER.writeValueAsBytes(PartialObjectMetadataView.object(o)), List.of());
        }
        return ResourceHandler.json(HttpStatus.OK, o.json(), List.of());
    }

    ResponseEntity<byte[]> list(ResourceType type, ListResult result, HttpServletRequest req) {
        checkAcceptable(req);
        if (wantsTable(req)) {
            return ResourceHandler.json(HttpStatus.OK, Json.MAPPER.writeValueAsBytes(tables.list(type,
                    result.items(), result.resourceVersion(), result.continueToken(), result.remainingItemCount(),
                    includeObject(req), true)), List.of());
        }
        if (PartialObjectMetadataView.wanted(req)) {
            return ResourceHandler.json(HttpStatus.OK,
                    Json.MAPPER.writeValueAsBytes(PartialObjectMetadataView.list(result)), List.of());
        }
        return ResourceHandler.json(HttpStatus.OK, ListEncoder.encode(type, result), List.of());
    }

    /** Starts a watch; the response is streamed asynchronously (nothing to return to Spring MVC). */
    void watch(ResourceType type, String namespace, ListOptions options, HttpServletRequest req) {
        watch(type, type, namespace, options, req, null);
    }

    /**
     * A watch of {@code stored} answered as {@code served}: {@code view} gives an object's served form (null:
     * the stored form as it is). Tables are rendered from the stored form. Streamed asynchronously.
     */
    void watch(ResourceType stored, ResourceType served, String namespace, ListOptions options,
               HttpServletRequest req, UnaryOperator<StoredObject> view) {
        checkAcceptable(req);
        if ("websocket".equalsIgnoreCase(req.getHeader("Upgrade"))) {
            // fabric8 tries a WebSocket upgrade first and falls back to a plain HTTP watch when the handshake is
            // answered 200; its WebSocket client reads that answer to the end, so it must end rather than stream
            options = new ListOptions(options.labelSelector(), options.fieldSelector(), options.limit(),
                    options.continueToken(), options.resourceVersion(), -1L, false, options.sendInitialEvents(),
                    options.resourceVersionMatch());
        }
        if (wantsTable(req)) {
            TableConverter.IncludeObject include = includeObject(req);
            watches.open(stored, served, namespace, options, event -> WatchEvent.encode(event.type(),
                    Json.MAPPER.writeValueAsBytes(tables.single(event.object(), include, true))), req);
            return;
        }
        if (PartialObjectMetadataView.wanted(req)) {
            UnaryOperator<StoredObject> form = view == null ? UnaryOperator.identity() : view;
            watches.open(stored, served, namespace, options, event -> WatchEvent.encode(event.type(),
                    Json.MAPPER.writeValueAsBytes(PartialObjectMetadataView.object(form.apply(event.object())))),
                    req);
            return;
        }
        if (view != null) {
            watches.open(stored, served, namespace, options,
                    event -> WatchEvent.encode(event.type(), view.apply(event.object()).json()), req);
            return;
        }
        watches.open(stored, served, namespace, options, null, req);
    }

    /** The representations a client can ask for with {@code Accept: ...;as=...;g=meta.k8s.io}. */
    enum View { FULL, TABLE, PARTIAL_METADATA }

    /**
     * The client's most preferred representation this server serves: the first part of {@code Accept} that names
     * one decides (a plain JSON/YAML/protobuf or wildcard part is the full object; an {@code as=} this server does
     * not serve is passed over, as kube-apiserver's negotiation does).
     */
    static View preferredView(HttpServletRequest req) {
        String accept = req.getHeader("Accept");
        return accept == null ? View.FULL : negotiated(accept).view();
    }

    /**
     * What an {@code Accept} header asks for, worked out once per header value: a client sends the same header with
     * every request, and an answer asked the header up to three times (the views, then whether JSON is acceptable),
     * each a split, a lower-casing and a copy per part (16 % of a GET's JFR samples in the handler).
     */
    private record Negotiation(String accept, View view, boolean acceptable) {
    }

    /** The last header's negotiation; one entry, replaced whole (a stale read only means working it out again). */
    private static volatile Negotiation lastNegotiation = new Negotiation("", View.FULL, true);

    private static Negotiation negotiated(String accept) {
        Negotiation n = lastNegotiation;
        if (!n.accept().equals(accept)) {
            n = new Negotiation(accept, preferredView(accept), acceptable(accept));
            lastNegotiation = n;
        }
        return n;
    }

    private static View preferredView(String accept) {
        for (String part : accept.split(",")) {
            String lower = part.toLowerCase(Locale.ROOT).replace(" ", "");
            String base = RequestBodies.baseType(part);
            if (!lower.contains("as=")) {
                if (base.equals("application/json") || base.equals("*/*") || base.equals("application/*")
                        || base.equals("application/yaml") || base.equals("application/vnd.kubernetes.protobuf")) {
                    return View.FULL;
                }
                continue;
            }
            if (!base.equals("application/json") || !lower.contains("g=meta.k8s.io")) {
                continue;
            }
            if (lower.contains("as=table")) {
                return View.TABLE;
            }
            if (lower.contains("as=partialobjectmetadata;") || lower.endsWith("as=partialobjectmetadata")
                    || lower.contains("as=partialobjectmetadatalist")) {
                return View.PARTIAL_METADATA;
            }
        }
        return View.FULL;
    }

    /** True when the client's most preferred representation we serve is a Table. */
    static boolean wantsTable(HttpServletRequest req) {
        return preferredView(req) == View.TABLE;
    }

    private static TableConverter.IncludeObject includeObject(HttpServletRequest req) {
        String v = req.getParameter("includeObject");
        if (v == null || v.isEmpty() || v.equals("Metadata")) {
            return TableConverter.IncludeObject.METADATA;
        }
        return switch (v) {
            case "Object" -> TableConverter.IncludeObject.OBJECT;
            case "None" -> TableConverter.IncludeObject.NONE;
            default -> throw ApiException.badRequest("includeObject: Unsupported value: \"" + v
                    + "\": supported values: \"Metadata\", \"None\", \"Object\"");
        };
    }

    /** JSON is what this server speaks; a client that accepts nothing compatible gets 406. */
    static void checkAcceptable(HttpServletRequest req) {
        String accept = req.getHeader("Accept");
        if (accept == null || negotiated(accept).acceptable()) {
            return;
        }
        throw ApiException.notAcceptable(List.of("application/json", "application/yaml",
                "application/vnd.kubernetes.protobuf"));
    }

    private static boolean acceptable(String accept) {
        if (accept.isBlank()) {
            return true;
        }
        for (String part : accept.split(",")) {
            String base = RequestBodies.baseType(part);
            if (base.equals("*/*") || base.equals("application/*") || base.equals("application/json")
                    || base.equals("application/vnd.kubernetes.protobuf") || base.equals("application/yaml")) {
                return true;
            }
        }
        return false;
    }
}
