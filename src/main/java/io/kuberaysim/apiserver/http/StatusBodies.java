package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.errors.StatusCause;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** metav1.Status bodies, built in one place for every error and for successful deletes. */
public final class StatusBodies {
    private StatusBodies() {
    }

    public static ObjectNode failure(ApiException e) {
        ObjectNode s = Json.object();
        s.put("kind", "Status");
        s.put("apiVersion", "v1");
        ObjectNode meta = s.putObject("metadata");
        if (e.continueToken() != null) {
            meta.put("continue", e.continueToken());
        }
        s.put("status", "Failure");
        s.put("message", e.getMessage());
        s.put("reason", e.reason());
        ApiException.StatusDetails d = e.details();
        if (d != null) {
            ObjectNode details = s.putObject("details");
            if (d.name() != null && !d.name().isEmpty()) {
                details.put("name", d.name());
            }
            if (d.group() != null && !d.group().isEmpty()) {
                details.put("group", d.group());
            }
            if (d.kind() != null && !d.kind().isEmpty()) {
                details.put("kind", d.kind());
            }
            if (d.uid() != null) {
                details.put("uid", d.uid());
            }
            if (d.causes() != null && !d.causes().isEmpty()) {
                ArrayNode causes = details.putArray("causes");
                for (StatusCause c : d.causes()) {
                    ObjectNode cn = causes.addObject();
                    cn.put("reason", c.reason());
                    cn.put("message", c.message());
                    if (c.field() != null) {
                        cn.put("field", c.field());
                    }
                }
            }
            if (d.retryAfterSeconds() != null) {
                details.put("retryAfterSeconds", d.retryAfterSeconds());
            }
        } else if (e.code() == 404) {
            s.putObject("details");
        }
        s.put("code", e.code());
        return s;
    }

    /** The Status of a failure, encoded. */
    public static byte[] failureJson(ApiException e) {
        return Json.MAPPER.writeValueAsBytes(failure(e));
    }

    public static ObjectNode deleted(String name, String group, String plural, String uid) {
        ObjectNode s = Json.object();
        s.put("kind", "Status");
        s.put("apiVersion", "v1");
        s.putObject("metadata");
        s.put("status", "Success");
        ObjectNode details = s.putObject("details");
        details.put("name", name);
        details.put("group", group);
        details.put("kind", plural);
        details.put("uid", uid);
        return s;
    }
}
