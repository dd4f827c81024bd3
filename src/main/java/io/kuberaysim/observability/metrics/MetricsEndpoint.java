package io.kuberaysim.observability.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.swagger.v3.oas.annotations.Hidden;
import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import java.nio.charset.StandardCharsets;

/**
 * {@code GET /metrics} on the API port, as kube-apiserver serves it ({@code kubectl get --raw /metrics}): the
 * Prometheus text format, or OpenMetrics when the {@code Accept} header prefers it (as Prometheus asks).
 */
@Hidden
@RestController
class MetricsEndpoint {
    static final String TEXT = "text/plain; version=0.0.4; charset=utf-8";
    static final String OPENMETRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    private static final MediaType OPENMETRICS_TYPE = MediaType.parseMediaType("application/openmetrics-text");

    private final PrometheusMeterRegistry registry;

    MetricsEndpoint(PrometheusMeterRegistry registry) {
        this.registry = registry;
    }

    @GetMapping("/metrics")
    ResponseEntity<byte[]> scrape(@RequestHeader(name = HttpHeaders.ACCEPT, required = false) String accept) {
        String format = prefersOpenMetrics(accept) ? OPENMETRICS : TEXT;
        byte[] body = registry.scrape(format).getBytes(StandardCharsets.UTF_8);
        return ResponseEntity.ok().header(HttpHeaders.CONTENT_TYPE, format).body(body);
    }

    /** OpenMetrics when the client ranks it above plain text (by quality), as Prometheus' scrape Accept does. */
    static boolean prefersOpenMetrics(String accept) {
        if (accept == null || accept.isBlank()) {
            return false;
        }
        double openMetrics = 0;
        double text = 0;
        try {
            for (MediaType t : MediaType.parseMediaTypes(accept)) {
                if (t.getType().equals(OPENMETRICS_TYPE.getType()) && t.getSubtype().equals(OPENMETRICS_TYPE.getSubtype())) {
                    openMetrics = Math.max(openMetrics, t.getQualityValue());
                } else if (t.isCompatibleWith(MediaType.TEXT_PLAIN)) {
                    text = Math.max(text, t.getQualityValue());
                }
            }
        } catch (InvalidMediaTypeException e) {
            return false;
        }
        return openMetrics > 0 && openMetrics >= text;
    }
}
