package io.kuberaysim.console;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * {@code GET /console/examples/}: the names of the manifests shipped in {@code http-examples/} (copied into the jar
 * by the build), which the console's editor offers; each is served as a static file beside it.
 */
@RestController
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class ExamplesController {
    /** Found on the first request, not at start: the classpath scan walks every jar on it. */
    private volatile List<String> names;

    @GetMapping(path = "/console/examples/", produces = MediaType.APPLICATION_JSON_VALUE)
    List<String> names() {
        List<String> found = names;
        if (found == null) {
            found = find();
            names = found; // two first requests may both look: they find the same
        }
        return found;
    }

    private static List<String> find() {
        try {
            Resource[] found = new PathMatchingResourcePatternResolver()
                    .getResources("classpath:static/console/examples/*.yaml");
            return Arrays.stream(found).map(Resource::getFilename).filter(Objects::nonNull).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
