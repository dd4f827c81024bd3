package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.ListOptions;
import io.kuberaysim.apiserver.registry.WatchSink;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.storage.WatchEvent;
import io.kuberaysim.controller.runtime.clock.Clock;
import jakarta.annotation.PreDestroy;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The {@code pods/log} subresource ({@code kubectl logs}). No process runs in a simulated container, so a container
 * instance's log says what the kubelet did: when it started, the command it would run, how it exited. The options
 * are the kubelet's ({@code tailLines}, {@code timestamps}, {@code limitBytes}, {@code sinceSeconds}/{@code sinceTime},
 * {@code previous}, {@code follow} until the container stops); the errors are kube-apiserver's and the kubelet's.
 */
@Component
final class PodLogs implements SmartLifecycle {
    // the kubelet's timestamp format: RFC 3339 with nanoseconds, never trimmed
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSSX")
            .withZone(ZoneOffset.UTC);

    private final GenericRegistry registry;
    private final Clock clock;
    // followers write their few lines here, never on the store's writing thread
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "pod-log-follow");
        t.setDaemon(true);
        return t;
    });
    private final Set<ResponseBodyEmitter> following = ConcurrentHashMap.newKeySet();
    private volatile boolean running;

    PodLogs(GenericRegistry registry, Clock clock) {
        this.registry = registry;
        this.clock = clock;
    }

    @Override
    public void start() {
        running = true;
    }

    /**
     * Ends every {@code follow} stream after what it has sent, as {@link WatchStreams} ends watches: in the first
     * shutdown phase, before the web server's graceful shutdown, which would otherwise wait its whole timeout for
     * these open-ended requests.
     */
    @Override
    public void stop() {
        running = false;
        following.forEach(emitter -> writer.execute(emitter::complete));
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @PreDestroy
    void close() {
        writer.shutdownNow();
    }

    /** One line of a container's log and when it was written. */
    record Line(Instant at, String text) {
    }

    Object render(StoredObject pod, HttpServletRequest req) {
        PodLogOptions options = PodLogOptions.parse(req, pod.name());
        String name = containerName(pod, options.container());
        JsonNode status = containerStatus(pod, name);
        JsonNode instance;
        if (options.previous()) {
            instance = status == null ? null : status.path("lastState").get("terminated");
            if (instance == null) {
                throw ApiException.badRequest("previous terminated container \"" + name + "\" in pod \"" + pod.name()
                        + "\" not found");
            }
        } else {
            JsonNode state = status == null ? null : status.path("state");
            instance = state == null ? null : state.has("running") ? state.get("running") : state.get("terminated");
            if (instance == null) {
                String reason = state == null ? "ContainerCreating"
                        : state.path("waiting").path("reason").asString("ContainerCreating");
                throw ApiException.badRequest("container \"" + name + "\" in pod \"" + pod.name()
                        + "\" is waiting to start: " + reason);
            }
        }
        List<Line> lines = select(lines(pod, name, instance), options);
        byte[] body = encode(lines, options);
        if (!options.follow() || instance.has("finishedAt")) {
            HttpHeaders h = new HttpHeaders();
            h.setContentType(MediaType.TEXT_PLAIN);
            return new ResponseEntity<>(body, h, HttpStatus.OK);
        }
        return follow(pod, name, Json.text(instance, "startedAt"), body, options);
    }

    private static String containerName(StoredObject pod, String requested) {
        List<String> names = names(pod, "containers");
        List<String> initNames = names(pod, "initContainers");
        if (requested == null || requested.isEmpty()) {
            if (names.size() == 1) {
                return names.get(0);
            }
            String message = "a container name must be specified for pod " + pod.name() + ", choose one of: ["
                    + String.join(" ", names) + "]";
            if (!initNames.isEmpty()) {
                message += " or one of the init containers: [" + String.join(" ", initNames) + "]";
            }
            throw ApiException.badRequest(message);
        }
        if (!names.contains(requested) && !initNames.contains(requested)) {
            throw ApiException.badRequest("container " + requested + " is not valid for pod " + pod.name());
        }
        return requested;
    }

    private static List<String> names(StoredObject pod, String field) {
        List<String> names = new ArrayList<>();
        pod.object().path("spec").path(field).forEach(c -> names.add(c.path("name").asString()));
        return names;
    }

    private static JsonNode container(StoredObject pod, String name) {
        for (String field : List.of("containers", "initContainers")) {
            for (JsonNode c : pod.object().path("spec").path(field)) {
                if (name.equals(c.path("name").asString())) {
                    return c;
                }
            }
        }
        return Json.object();
    }

    private static JsonNode containerStatus(StoredObject pod, String name) {
        for (String field : List.of("containerStatuses", "initContainerStatuses")) {
            for (JsonNode s : pod.object().path("status").path(field)) {
                if (name.equals(s.path("name").asString())) {
                    return s;
                }
            }
        }
        return null;
    }

    /** The log of one container instance ({@code state.running}, {@code state.terminated} or the previous one). */
    static List<Line> lines(StoredObject pod, String name, JsonNode instance) {
        JsonNode container = container(pod, name);
        String started = Json.text(instance, "startedAt");
        Instant at = started == null ? Instant.EPOCH : Instant.parse(started);
        List<Line> lines = new ArrayList<>();
        lines.add(new Line(at, "[kuberay-sim] simulated container " + name + " (image "
                + container.path("image").asString() + ") started at " + started + " on node "
                + Json.text(pod.object(), "spec", "nodeName")));
        List<String> command = new ArrayList<>();
        container.path("command").forEach(c -> command.add(c.asString()));
        container.path("args").forEach(a -> command.add(a.asString()));
        if (!command.isEmpty()) {
            lines.add(new Line(at, "[kuberay-sim] command: " + String.join(" ", command)));
        }
        String finished = Json.text(instance, "finishedAt");
        if (finished != null) {
            lines.add(new Line(Instant.parse(finished), "[kuberay-sim] exited with code "
                    + instance.path("exitCode").asInt() + " at " + finished));
        }
        return lines;
    }

    private List<Line> select(List<Line> lines, PodLogOptions options) {
        Instant since = options.sinceTime() != null ? options.sinceTime()
                : options.sinceSeconds() != null ? clock.now().minusSeconds(options.sinceSeconds()) : null;
        List<Line> out = new ArrayList<>();
        for (Line l : lines) {
            if (since == null || !l.at().isBefore(since)) {
                out.add(l);
            }
        }
        if (options.tailLines() != null && out.size() > options.tailLines()) {
            out = new ArrayList<>(out.subList(out.size() - options.tailLines().intValue(), out.size()));
        }
        return out;
    }

    private static byte[] encode(List<Line> lines, PodLogOptions options) {
        StringBuilder sb = new StringBuilder();
        for (Line l : lines) {
            if (options.timestamps()) {
                sb.append(TIMESTAMP.format(l.at())).append(' ');
            }
            sb.append(l.text()).append('\n');
        }
        byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
        if (options.limitBytes() != null && bytes.length > options.limitBytes()) {
            return java.util.Arrays.copyOf(bytes, options.limitBytes().intValue());
        }
        return bytes;
    }

    /**
     * {@code follow}: the lines so far, then the exit line once the followed instance stops (the container exits or
     * restarts); the stream ends then, or when the Pod is gone.
     */
    private ResponseBodyEmitter follow(StoredObject pod, String name, String startedAt, byte[] sofar,
                                       PodLogOptions options) {
        TextEmitter emitter = new TextEmitter();
        following.add(emitter);
        long[] budget = {options.limitBytes() == null ? Long.MAX_VALUE : options.limitBytes() - sofar.length};
        writer.execute(() -> send(emitter, sofar));
        ListOptions watch = new ListOptions(null, "metadata.name=" + pod.name(), null, null,
                Long.toString(pod.resourceVersion()), null, false, false);
        ObjectStore.Subscription[] subscription = new ObjectStore.Subscription[1];
        boolean[] ended = {false};
        WatchSink sink = event -> writer.execute(() -> {
            if (ended[0]) {
                return;
            }
            JsonNode stopped = stoppedInstance(event, name, startedAt);
            if (stopped == null) {
                return;
            }
            ended[0] = true;
            if (!stopped.isMissingNode()) {
                List<Line> all = lines(event.object(), name, stopped);
                byte[] exit = encode(List.of(all.get(all.size() - 1)), new PodLogOptions(null, false, false,
                        options.timestamps(), null, null, null, null));
                int n = (int) Math.min(exit.length, Math.max(budget[0], 0));
                send(emitter, java.util.Arrays.copyOf(exit, n));
            }
            emitter.complete();
            if (subscription[0] != null) {
                subscription[0].close();
            }
        });
        subscription[0] = registry.reader().watch(ResourceTypes.PODS, pod.namespace(), watch, sink);
        Runnable close = () -> writer.execute(() -> {
            ended[0] = true;
            subscription[0].close();
            following.remove(emitter);
        });
        emitter.onCompletion(close);
        emitter.onError(e -> close.run());
        if (!running) {
            writer.execute(emitter::complete); // a server that is shutting down sends what there is and ends
        }
        return emitter;
    }

    /**
     * Whether the followed instance has stopped: its terminated state (a missing node when the Pod is gone), or null
     * while it runs.
     */
    private static JsonNode stoppedInstance(WatchEvent event, String name, String startedAt) {
        if (event.type() == WatchEvent.Type.DELETED) {
            return tools.jackson.databind.node.MissingNode.getInstance();
        }
        JsonNode status = containerStatus(event.object(), name);
        if (status == null) {
            return null;
        }
        for (JsonNode candidate : List.of(status.path("state").path("terminated"),
                status.path("lastState").path("terminated"))) {
            if (startedAt != null && startedAt.equals(Json.text(candidate, "startedAt"))) {
                return candidate;
            }
        }
        return null;
    }

    private static void send(ResponseBodyEmitter emitter, byte[] bytes) {
        if (bytes.length == 0) {
            return;
        }
        try {
            emitter.send(bytes, MediaType.TEXT_PLAIN);
        } catch (IOException | IllegalStateException e) {
            emitter.completeWithError(e);
        }
    }

    private static final class TextEmitter extends ResponseBodyEmitter {
        TextEmitter() {
            super(-1L);
        }

        @Override
        protected void extendResponse(ServerHttpResponse outputMessage) {
            super.extendResponse(outputMessage);
            outputMessage.getHeaders().setContentType(MediaType.TEXT_PLAIN);
        }
    }
}
