package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * {@code /version}: the Kubernetes version this server imitates. The kubectl on these machines is a dispatcher
 * that runs the bundled kubectl matching the server's minor version, so this answers 1.32. {@code /version/} too:
 * kube-apiserver's router trims the slash, and the typed clients' {@code VersionApi} ask for that form.
 */
@RestController
class VersionController {
    static final String GIT_VERSION = "v1.32.0";

    @GetMapping({"/version", "/version/"})
    ResponseEntity<byte[]> version() {
        ObjectNode v = Json.object();
        v.put("major", "1");
        v.put("minor", "32");
        v.put("gitVersion", GIT_VERSION);
        v.put("gitCommit", "kuberay-sim");
        v.put("gitTreeState", "clean");
        v.put("buildDate", "2025-01-01T00:00:00Z");
        v.put("goVersion", "go1.23.0");
        v.put("compiler", "gc");
        v.put("platform", "linux/amd64");
        return ResourceHandler.json(HttpStatus.OK, Json.MAPPER.writeValueAsBytes(v), List.of());
    }
}
