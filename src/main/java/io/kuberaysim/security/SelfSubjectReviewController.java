package io.kuberaysim.security;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.http.RequestBodies;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The self-subject reviews kubectl's auth commands create: {@code auth can-i} (SelfSubjectAccessReview),
 * {@code auth can-i --list} (SelfSubjectRulesReview) and {@code auth whoami} (SelfSubjectReview). Nothing is
 * stored. There are no roles here: a caller who got past authentication may do everything, so every access review
 * is allowed and the rules are {@code *}, as for kube's cluster-admin. Other methods on these paths are 405.
 */
@Hidden // documented in SecurityDocumentation
@RestController
class SelfSubjectReviewController {
    private static final String ACCESS = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
    private static final String RULES = "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews";
    private static final String WHOAMI = "/apis/authentication.k8s.io/v1/selfsubjectreviews";

    private final Clock clock;

    SelfSubjectReviewController(Clock clock) {
        this.clock = clock;
    }

    @RequestMapping(ACCESS)
    ResponseEntity<byte[]> accessReview(HttpServletRequest req, @RequestBody(required = false) byte[] body) {
        ResourceType type = ResourceTypes.SELF_SUBJECT_ACCESS_REVIEWS;
        ObjectNode review = read(type, req, body);
        JsonNode spec = review.get("spec");
        boolean resource = spec != null && spec.hasNonNull("resourceAttributes");
        boolean nonResource = spec != null && spec.hasNonNull("nonResourceAttributes");
        if (resource == nonResource) {
            throw ApiException.invalid(type, "", List.of(resource
                    ? StatusCause.invalid("spec.nonResourceAttributes", Json.MAPPER.writeValueAsString(
                            spec.get("nonResourceAttributes")), "cannot be specified in combination with resourceAttributes")
                    : StatusCause.invalid("spec.resourceAttributes", "null",
                            "exactly one of nonResourceAttributes or resourceAttributes must be specified")));
        }
        ObjectNode out = answer(type);
        out.set("spec", spec);
        out.putObject("status").put("allowed", true);
        return json(out);
    }

    @RequestMapping(RULES)
    ResponseEntity<byte[]> rulesReview(HttpServletRequest req, @RequestBody(required = false) byte[] body) {
        ResourceType type = ResourceTypes.SELF_SUBJECT_RULES_REVIEWS;
        ObjectNode review = read(type, req, body);
        String namespace = Json.text(review.get("spec"), "namespace");
        if (namespace == null || namespace.isEmpty()) {
            throw ApiException.badRequest("no namespace on request");
        }
        ObjectNode out = answer(type);
        out.putObject("spec").put("namespace", namespace);
        ObjectNode status = out.putObject("status");
        ObjectNode rule = status.putArray("resourceRules").addObject();
        rule.putArray("verbs").add("*");
        rule.putArray("apiGroups").add("*");
        rule.putArray("resources").add("*");
        ObjectNode nonResource = status.putArray("nonResourceRules").addObject();
        nonResource.putArray("verbs").add("*");
        nonResource.putArray("nonResourceURLs").add("*");
        status.put("incomplete", false);
        return json(out);
    }

    @RequestMapping(WHOAMI)
    ResponseEntity<byte[]> selfSubjectReview(HttpServletRequest req, @RequestBody(required = false) byte[] body) {
        ResourceType type = ResourceTypes.SELF_SUBJECT_REVIEWS;
        read(type, req, body);
        ObjectNode out = answer(type);
        out.withObjectProperty("metadata").put("creationTimestamp",
                DateTimeFormatter.ISO_INSTANT.format(clock.now().truncatedTo(ChronoUnit.SECONDS)));
        UserInfo user = UserInfo.of(req);
        ObjectNode info = out.putObject("status").putObject("userInfo");
        info.put("username", user.username());
        if (!user.uid().isEmpty()) {
            info.put("uid", user.uid());
        }
        user.groups().forEach(info.withArrayProperty("groups")::add);
        return json(out);
    }

    /** The posted review, checked as kube-apiserver checks it: POST only, its own kind, empty metadata. */
    private static ObjectNode read(ResourceType type, HttpServletRequest req, byte[] body) {
        if (!req.getMethod().equals("POST")) {
            throw ApiException.methodNotAllowed();
        }
        ObjectNode review = RequestBodies.object(body, req.getContentType());
        String kind = Json.text(review, "kind");
        String apiVersion = Json.text(review, "apiVersion");
        if (kind != null && !kind.equals(type.kind())) {
            throw ApiException.badRequest(type.kind() + " in version \"" + type.version() + "\" cannot be handled as a "
                    + type.kind() + ": the kind in the body (" + kind + ") does not match the expected kind ("
                    + type.kind() + ")");
        }
        if (apiVersion != null && !apiVersion.equals(type.apiVersion())) {
            throw ApiException.badRequest("the API version in the data (" + apiVersion
                    + ") does not match the expected API version (" + type.apiVersion() + ")");
        }
        JsonNode spec = review.get("spec");
        if (spec != null && !spec.isNull() && !spec.isObject()) {
            throw ApiException.badRequest(type.kind() + " in version \"" + type.version() + "\" cannot be handled as a "
                    + type.kind() + ": spec must be an object");
        }
        JsonNode meta = review.get("metadata");
        if (meta != null && !isZero(meta) && type != ResourceTypes.SELF_SUBJECT_REVIEWS) {
            throw ApiException.invalid(type, "", List.of(StatusCause.invalid("metadata",
                    Json.MAPPER.writeValueAsString(meta), "must be empty")));
        }
        return review;
    }

    /** Whether a value decodes to Go's zero value: clients send {@code "metadata":{"creationTimestamp":null}}. */
    private static boolean isZero(JsonNode n) {
        if (n.isObject() || n.isArray()) {
            for (JsonNode child : n) {
                if (!isZero(child)) {
                    return false;
                }
            }
            return true;
        }
        return n.isNull() || (n.isString() && n.asString().isEmpty()) || (n.isNumber() && n.asDouble() == 0)
                || (n.isBoolean() && !n.asBoolean());
    }

    private static ObjectNode answer(ResourceType type) {
        ObjectNode out = Json.object();
        out.put("kind", type.kind());
        out.put("apiVersion", type.apiVersion());
        out.putObject("metadata").putNull("creationTimestamp");
        return out;
    }

    private static ResponseEntity<byte[]> json(ObjectNode body) {
        return ResponseEntity.status(HttpStatus.CREATED).contentType(MediaType.APPLICATION_JSON)
                .body(Json.MAPPER.writeValueAsBytes(body));
    }
}
