package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.StoredObject;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code pods/log} subresource ({@code kubectl logs}). No process runs in a simulated container, so the log
 * says what the kubelet did and the command the container would run; the errors are kube-apiserver's.
 */
final class PodLogs {
    private PodLogs() {
    }

    static ResponseEntity<byte[]> render(StoredObject pod, String requested) {
        JsonNode containers = pod.object().path("spec").path("containers");
        List<String> names = new ArrayList<>();
        containers.forEach(c -> names.add(c.path("name").asString()));
        String name = requested;
        if (name == null || name.isEmpty()) {
            if (names.size() != 1) {
                throw ApiException.badRequest("a container name must be specified for pod " + pod.name()
                        + ", choose one of: [" + String.join(" ", names) + "]");
            }
            name = names.get(0);
        }
        if (!names.contains(name)) {
            throw ApiException.badRequest("container " + name + " is not valid for pod " + pod.name());
        }
        JsonNode status = null;
        for (JsonNode s : pod.object().path("status").path("containerStatuses")) {
            if (name.equals(s.path("name").asString())) {
                status = s;
            }
        }
        JsonNode state = status == null ? null : status.path("state");
        if (state == null || (!state.has("running") && !state.has("terminated"))) {
            String reason = state == null ? "ContainerCreating"
                    : state.path("waiting").path("reason").asString("ContainerCreating");
            throw ApiException.badRequest("container \"" + name + "\" in pod \"" + pod.name()
                    + "\" is waiting to start: " + reason);
        }
        JsonNode container = containers.get(names.indexOf(name));
        StringBuilder log = new StringBuilder();
        String started = Json.text(state, "running", "startedAt");
        if (started == null) {
            started = Json.text(state, "terminated", "startedAt");
        }
        log.append("[kuberay-sim] simulated container ").append(name).append(" (image ")
                .append(container.path("image").asString()).append(") started at ").append(started)
                .append(" on node ").append(Json.text(pod.object(), "spec", "nodeName")).append('\n');
        List<String> command = new ArrayList<>();
        container.path("command").forEach(c -> command.add(c.asString()));
        container.path("args").forEach(a -> command.add(a.asString()));
        if (!command.isEmpty()) {
            log.append("[kuberay-sim] command: ").append(String.join(" ", command)).append('\n');
        }
        JsonNode terminated = state.get("terminated");
        if (terminated != null) {
            log.append("[kuberay-sim] exited with code ").append(terminated.path("exitCode").asInt())
                    .append(" at ").append(terminated.path("finishedAt").asString()).append('\n');
        }
        HttpHeaders h = new HttpHeaders();
        h.setContentType(MediaType.TEXT_PLAIN);
        return new ResponseEntity<>(log.toString().getBytes(StandardCharsets.UTF_8), h, HttpStatus.OK);
    }
}
