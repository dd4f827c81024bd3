package io.kuberaysim.observability.health;

import io.kuberaysim.apiserver.errors.ApiException;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code /healthz}, {@code /livez} and {@code /readyz} as kube-apiserver serves them: {@code ok} (200, text/plain)
 * when every check passes; {@code ?verbose} lists each check as {@code [+]name ok} and ends with
 * {@code <endpoint> check passed}; a failure answers 500 with the list ({@code [-]name failed: reason withheld},
 * ending {@code <endpoint> check failed}); {@code ?exclude=name} skips a check; {@code /<endpoint>/<name>} runs one
 * check and tells its reason.
 */
@Hidden
@RestController
class HealthEndpoints {
    private final HealthChecks checks;

    HealthEndpoints(HealthChecks checks) {
        this.checks = checks;
    }

    @GetMapping("/healthz")
    ResponseEntity<byte[]> healthz(HttpServletRequest request,
                                   @RequestParam(name = "exclude", required = false) List<String> exclude) {
        return all("healthz", verbose(request), exclude);
    }

    @GetMapping("/livez")
    ResponseEntity<byte[]> livez(HttpServletRequest request,
                                 @RequestParam(name = "exclude", required = false) List<String> exclude) {
        return all("livez", verbose(request), exclude);
    }

    @GetMapping("/readyz")
    ResponseEntity<byte[]> readyz(HttpServletRequest request,
                                  @RequestParam(name = "exclude", required = false) List<String> exclude) {
        return all("readyz", verbose(request), exclude);
    }

    @GetMapping("/healthz/{check}")
    ResponseEntity<byte[]> healthzCheck(@PathVariable("check") String name) {
        return one("healthz", name);
    }

    @GetMapping("/livez/{check}")
    ResponseEntity<byte[]> livezCheck(@PathVariable("check") String name) {
        return one("livez", name);
    }

    @GetMapping("/readyz/{check}")
    ResponseEntity<byte[]> readyzCheck(@PathVariable("check") String name) {
        return one("readyz", name);
    }

    /** {@code ?verbose} with or without a value, as kube-apiserver checks for the key alone. */
    private static boolean verbose(HttpServletRequest request) {
        String query = request.getQueryString();
        return query != null && Arrays.stream(query.split("&")).anyMatch(p -> p.equals("verbose")
                || p.startsWith("verbose="));
    }

    private ResponseEntity<byte[]> all(String endpoint, boolean verbose, List<String> exclude) {
        Set<String> excluded = new LinkedHashSet<>(exclude == null ? List.of() : exclude);
        StringBuilder out = new StringBuilder();
        boolean failed = false;
        for (HealthCheck check : checks.of(endpoint)) {
            if (excluded.remove(check.name())) {
                out.append("[+]").append(check.name()).append(" excluded: ok\n");
                continue;
            }
            if (check.failure().isPresent()) {
                // kube-apiserver keeps reasons off this public list; /<endpoint>/<name> tells them
                out.append("[-]").append(check.name()).append(" failed: reason withheld\n");
                failed = true;
            } else {
                out.append("[+]").append(check.name()).append(" ok\n");
            }
        }
        if (!excluded.isEmpty()) {
            out.append("warn: some health checks cannot be excluded: no matches for ")
                    .append(excluded.stream().map(n -> "\"" + n + "\"").collect(Collectors.joining(","))).append('\n');
        }
        if (failed) {
            return text(HttpStatus.INTERNAL_SERVER_ERROR, out + endpoint + " check failed\n");
        }
        return text(HttpStatus.OK, verbose ? out + endpoint + " check passed\n" : "ok");
    }

    private ResponseEntity<byte[]> one(String endpoint, String name) {
        HealthCheck check = checks.of(endpoint).stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(ApiException::pathNotFound);
        Optional<String> failure = check.failure();
        return failure.map(why -> text(HttpStatus.INTERNAL_SERVER_ERROR, "internal server error: " + why + "\n"))
                .orElseGet(() -> text(HttpStatus.OK, "ok"));
    }

    private static ResponseEntity<byte[]> text(HttpStatus status, String body) {
        return ResponseEntity.status(status)
                .header(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
                .header("X-Content-Type-Options", "nosniff")
                .body(body.getBytes(StandardCharsets.UTF_8));
    }
}
