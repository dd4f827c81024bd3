package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.gc.RootCaCertPublisher;
import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * List and watch resourceVersion semantics over HTTP, as kube-apiserver 1.32: consistent pages, continue tokens
 * that expire with 410, resourceVersion/resourceVersionMatch on lists, reads ahead of the store (504 after a wait
 * on the virtual clock).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"kuberay-sim.controllers=false", "kuberay-sim.clock=virtual", "kuberay-sim.watch-history=300"})
class ListResourceVersionHttpIT {
    static final String CM = "/api/v1/namespaces/default/configmaps";
    /** The ConfigMap every namespace holds (the root CA publisher's), listed with the tests' own. */
    static final String CA = RootCaCertPublisher.CONFIG_MAP;

    @LocalServerPort
    int port;
    @Autowired
    GenericRegistry registry;
    @Autowired
    Clock clock;

    final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void clean() {
        for (StoredObject o : registry.store().list(ResourceTypes.CONFIGMAPS, null).items()) {
            if (o.name().equals(CA)) {
                continue; // kept where it is: deleted, it would be made again while the next test lists
            }
            registry.delete(ResourceTypes.CONFIGMAPS, o.namespace(), o.name(), DeleteOptions.DEFAULT);
        }
    }

    record Answer(int status, JsonNode body) {
        String reason() {
            return body.path("reason").asString();
        }

        String message() {
            return body.path("message").asString();
        }
    }

    HttpRequest get(String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery)).build();
    }

    Answer send(String pathAndQuery) throws Exception {
        HttpResponse<String> r = http.send(get(pathAndQuery), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), Json.MAPPER.readTree(r.body()));
    }

    StoredObject create(String name, String value) {
        ObjectNode cm = Json.object();
        cm.putObject("metadata").put("name", name);
        cm.putObject("data").put("v", value);
        return registry.create(ResourceTypes.CONFIGMAPS, "default", cm, WriteOptions.DEFAULT).object();
    }

    StoredObject modify(String name, String value) {
        ObjectNode patch = Json.object();
        patch.putObject("data").put("v", value);
        return registry.patch(ResourceTypes.CONFIGMAPS, "default", name, PatchType.MERGE, patch, false,
                WriteOptions.DEFAULT).object();
    }

    StoredObject delete(String name) {
        return registry.delete(ResourceTypes.CONFIGMAPS, "default", name, DeleteOptions.DEFAULT).object();
    }

    /** The resourceVersion of the namespace's {@link #CA}. */
    String caVersion() {
        return Long.toString(registry.store().get(ResourceTypes.CONFIGMAPS, "default", CA).resourceVersion());
    }

    long revision() {
        return registry.store().revision();
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static Map<String, String> items(JsonNode list) {
        Map<String, String> m = new TreeMap<>();
        list.path("items").forEach(i -> m.put(Json.text(i, "metadata", "name"),
                Json.text(i, "metadata", "resourceVersion")));
        return m;
    }

    /** One write of the test's writers: the object's name and resourceVersion after it (null: deleted). */
    record Write(long revision, String name, String resourceVersion) {
    }

    @Test
    @DisplayName("100 objects paged under concurrent writes: every page at the first page's resourceVersion, "
            + "together exactly the objects as they were then")
    void pagesOfOneListAreOneSnapshot() throws Exception {
        Map<String, String> state = new HashMap<>();
        state.put(CA, caVersion());
        for (int i = 0; i < 100; i++) {
            StoredObject o = create(String.format("cm-%03d", i), "0");
            state.put(o.name(), Long.toString(o.resourceVersion()));
        }
        List<Write> writes = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean stop = new AtomicBoolean();
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            for (int i = 0; !stop.get() && i < 250; i++) { // stays well inside the 300 changes of history
                StoredObject o = modify(String.format("cm-%03d", (i * 7) % 50), "w" + i); // never one deleted below
                writes.add(new Write(o.resourceVersion(), o.name(), Long.toString(o.resourceVersion())));
            }
        });

        List<JsonNode> pages = new ArrayList<>();
        String token = null;
        int step = 0;
        do {
            JsonNode page = send(CM + "?limit=7" + (token == null ? "" : "&continue=" + enc(token))).body();
            pages.add(page);
            token = page.path("metadata").path("continue").asString(null);
            // between pages, on this thread too: new objects, deletions of listed and unlisted ones, updates
            StoredObject added = create("new-" + step, "x");
            writes.add(new Write(added.resourceVersion(), added.name(), Long.toString(added.resourceVersion())));
            StoredObject gone = delete(String.format("cm-%03d", 99 - step));
            writes.add(new Write(gone.resourceVersion(), gone.name(), null));
            StoredObject changed = modify(String.format("cm-%03d", step * 5), "between");
            writes.add(new Write(changed.resourceVersion(), changed.name(), Long.toString(changed.resourceVersion())));
            step++;
        } while (token != null && !token.isEmpty());
        stop.set(true);
        writer.get(30, TimeUnit.SECONDS);

        String listRv = pages.get(0).path("metadata").path("resourceVersion").asString();
        assertThat(pages).hasSize(15).allSatisfy(p ->
                assertThat(p.path("metadata").path("resourceVersion").asString()).isEqualTo(listRv));
        long at = Long.parseLong(listRv);
        List<Write> ordered = new ArrayList<>(writes);
        ordered.sort(Comparator.comparingLong(Write::revision));
        for (Write w : ordered) {
            if (w.revision() <= at) {
                if (w.resourceVersion() == null) {
                    state.remove(w.name());
                } else {
                    state.put(w.name(), w.resourceVersion());
                }
            }
        }
        assertThat(ordered).as("writes landed after the first page").anyMatch(w -> w.revision() > at);
        Map<String, String> listed = new TreeMap<>();
        int count = 0;
        for (JsonNode p : pages) {
            listed.putAll(items(p));
            count += p.path("items").size();
        }
        assertThat(count).as("no object listed twice").isEqualTo(listed.size());
        assertThat(listed).isEqualTo(new TreeMap<>(state));
        assertThat(pages.get(0).path("metadata").path("remainingItemCount").asLong()).isEqualTo(state.size() - 7);
    }

    @Test
    @DisplayName("a continue token whose snapshot left the history: 410 with a token that goes on at the latest state")
    void continueTokenExpires() throws Exception {
        for (int i = 0; i < 6; i++) {
            create("cm-" + i, "0");
        }
        JsonNode first = send(CM + "?limit=2").body();
        String token = first.path("metadata").path("continue").asString();
        for (int i = 0; i < 301; i++) {
            modify("cm-5", "v" + i);
        }

        Answer expired = send(CM + "?limit=2&continue=" + enc(token));
        assertThat(expired.status()).isEqualTo(410);
        assertThat(expired.reason()).isEqualTo("Expired");
        assertThat(expired.message()).startsWith("The provided continue parameter is too old to display a "
                + "consistent list result. You can start a new list without the continue parameter, or use the "
                + "continue token in this response to retrieve the remainder of the results.");
        String inconsistent = expired.body().path("metadata").path("continue").asString();
        assertThat(inconsistent).isNotEmpty();

        JsonNode rest = send(CM + "?limit=10&continue=" + enc(inconsistent)).body();
        assertThat(items(rest).keySet()).containsExactly("cm-2", "cm-3", "cm-4", "cm-5", CA);
        assertThat(rest.path("metadata").path("resourceVersion").asString()).isEqualTo(Long.toString(revision()));
    }

    @Test
    @DisplayName("resourceVersionMatch=Exact (and a resourceVersion with a limit) read at exactly that revision")
    void exactReads() throws Exception {
        StoredObject a = create("a", "1");
        long at = revision();
        modify("a", "2");
        create("b", "1");

        for (String q : List.of("?resourceVersion=" + at + "&resourceVersionMatch=Exact",
                "?resourceVersion=" + at + "&limit=10")) {
            Answer r = send(CM + q);
            assertThat(r.status()).as(q).isEqualTo(200);
            assertThat(r.body().path("metadata").path("resourceVersion").asString()).isEqualTo(Long.toString(at));
            assertThat(items(r.body())).isEqualTo(Map.of("a", Long.toString(a.resourceVersion()), CA, caVersion()));
        }
        Answer notOlder = send(CM + "?resourceVersion=" + at + "&resourceVersionMatch=NotOlderThan");
        assertThat(notOlder.body().path("metadata").path("resourceVersion").asString())
                .isEqualTo(Long.toString(revision()));
        assertThat(items(notOlder.body())).containsOnlyKeys("a", "b", CA);

        for (int i = 0; i < 301; i++) {
            modify("b", "v" + i);
        }
        Answer tooOld = send(CM + "?resourceVersion=" + at + "&resourceVersionMatch=Exact");
        assertThat(tooOld.status()).isEqualTo(410);
        assertThat(tooOld.reason()).isEqualTo("Expired");
        assertThat(tooOld.message()).isEqualTo("The resourceVersion for the provided list is too old.");

        long ahead = revision() + 10;
        Answer future = send(CM + "?resourceVersion=" + ahead + "&resourceVersionMatch=Exact");
        assertThat(future.status()).isEqualTo(504);
        assertThat(future.message()).isEqualTo("Timeout: Too large resource version: " + ahead + ", current: "
                + revision());
    }

    @Test
    @DisplayName("resourceVersion=0 reads any state and ignores the limit, as the watch cache does")
    void resourceVersionZeroIgnoresTheLimit() throws Exception {
        for (int i = 0; i < 5; i++) {
            create("cm-" + i, "0");
        }
        JsonNode all = send(CM + "?resourceVersion=0&limit=2").body();
        assertThat(all.path("items").size()).isEqualTo(6); // and the namespace's CA
        assertThat(all.path("metadata").has("continue")).isFalse();
        JsonNode paged = send(CM + "?limit=2").body();
        assertThat(paged.path("items").size()).isEqualTo(2);
        assertThat(paged.path("metadata").path("remainingItemCount").asLong()).isEqualTo(4);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "?resourceVersionMatch=NotOlderThan | resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided",
            "?resourceVersionMatch=Exact&resourceVersion=0 | resourceVersionMatch: Forbidden: resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
            "?resourceVersionMatch=Newest&resourceVersion=5 | resourceVersionMatch: Unsupported value: \"Newest\": supported values: \"Exact\", \"NotOlderThan\", \"\"",
            "?resourceVersionMatch=Exact&resourceVersion=5&continue=abc | resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided",
            "?sendInitialEvents=true | sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list",
            "?watch=true&resourceVersionMatch=NotOlderThan | resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
            "?watch=true&sendInitialEvents=true | resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
    })
    @DisplayName("contradicting list options are 422 Invalid ListOptions, as kube-apiserver validates them")
    void invalidListOptions(String query, String cause) throws Exception {
        Answer r = send(CM + query);
        assertThat(r.status()).isEqualTo(422);
        assertThat(r.reason()).isEqualTo("Invalid");
        assertThat(r.message()).isEqualTo("ListOptions.meta.k8s.io \"\" is invalid: " + cause);
        assertThat(r.body().path("details").path("kind").asString()).isEqualTo("ListOptions");
        assertThat(r.body().path("details").path("group").asString()).isEqualTo("meta.k8s.io");
        assertThat(r.body().path("details").path("causes").get(0).path("field").asString())
                .isEqualTo(cause.substring(0, cause.indexOf(':')));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "?continue=abc&resourceVersion=5 | invalid continue token: continue key is not valid: ",
            "?continue=bm90LWpzb24 | invalid continue token: continue key is not valid: ",
            "?continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MCwic3RhcnQiOiJhIn0 | invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
            "?continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6Mywic3RhcnQiOiIuLi94In0 | invalid continue token: continue key is not valid: ../x",
            "?resourceVersion=abc | invalid resource version: resourceVersion: Invalid value: \"abc\": strconv.ParseUint: parsing \"abc\": invalid syntax",
    })
    @DisplayName("bad continue tokens and resourceVersions are 400 BadRequest")
    void badRequests(String query, String message) throws Exception {
        Answer r = send(CM + query);
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.reason()).isEqualTo("BadRequest");
        assertThat(r.message()).startsWith(message);
    }

    // a mistyped token was answered with the JSON parser's own text ("Unexpected character ... at [Source: REDACTED
    // (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled)...") instead of Go's decoding errors
    @Test
    @DisplayName("a token that is not base64 or not JSON is refused with Go's decoding error")
    void malformedContinueTokensGetGosDecodingErrors() throws Exception {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("abc", "invalid character 'i' looking for beginning of value");
        expected.put("bm90LWpzb24", "invalid character 'o' in literal null (expecting 'u')");
        expected.put("garbage", "invalid character '\\u0081' looking for beginning of value");
        expected.put("a.b", "illegal base64 data at input byte 1");
        expected.put("abcde", "illegal base64 data at input byte 4");
        expected.put("dHJ1", "unexpected end of JSON input");
        for (Map.Entry<String, String> e : expected.entrySet()) {
            Answer r = send(CM + "?limit=1&continue=" + e.getKey());
            assertThat(r.status()).as(e.getKey()).isEqualTo(400);
            assertThat(r.message()).as(e.getKey())
                    .isEqualTo("invalid continue token: continue key is not valid: " + e.getValue());
        }
    }

    @Test
    @DisplayName("a continue token with a resourceVersion other than 0 is refused")
    void continueWithResourceVersion() throws Exception {
        for (int i = 0; i < 3; i++) {
            create("cm-" + i, "0");
        }
        String token = send(CM + "?limit=1").body().path("metadata").path("continue").asString();
        Answer r = send(CM + "?limit=1&resourceVersion=" + revision() + "&continue=" + enc(token));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.message()).isEqualTo("specifying resource version is not allowed when using continue");
        assertThat(send(CM + "?limit=1&resourceVersion=0&continue=" + enc(token)).status()).isEqualTo(200);
    }

    @Test
    @DisplayName("a list not older than a resourceVersion ahead of the store waits 3 s on the clock, then 504")
    void listAheadOfTheStoreTimesOut() throws Exception {
        create("a", "1");
        long ahead = revision() + 5;
        CompletableFuture<HttpResponse<String>> pending = sendWaiting(CM + "?resourceVersion=" + ahead);
        assertThat(pending).isNotDone();
        ((VirtualClock) clock).advance(Duration.ofSeconds(3));

        HttpResponse<String> r = pending.get(10, TimeUnit.SECONDS);
        JsonNode status = Json.MAPPER.readTree(r.body());
        assertThat(r.statusCode()).isEqualTo(504);
        assertThat(status.path("reason").asString()).isEqualTo("Timeout");
        assertThat(status.path("message").asString()).isEqualTo(
                "Timeout: Too large resource version: " + ahead + ", current: " + revision());
        assertThat(status.path("details").path("retryAfterSeconds").asInt()).isEqualTo(1);
        assertThat(status.path("details").path("causes").get(0).path("reason").asString())
                .isEqualTo("ResourceVersionTooLarge");
        assertThat(status.path("details").path("causes").get(0).path("message").asString())
                .isEqualTo("Too large resource version");
    }

    @Test
    @DisplayName("a list ahead of the store is answered as soon as writes bring the store there")
    void listAheadOfTheStoreAnsweredOnceReached() throws Exception {
        create("a", "1");
        long ahead = revision() + 2;
        CompletableFuture<HttpResponse<String>> pending = sendWaiting(
                CM + "?resourceVersion=" + ahead + "&resourceVersionMatch=NotOlderThan");
        create("b", "1");
        assertThat(pending).isNotDone();
        create("c", "1");

        HttpResponse<String> r = pending.get(10, TimeUnit.SECONDS);
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode list = Json.MAPPER.readTree(r.body());
        assertThat(items(list)).containsOnlyKeys("a", "b", "c", CA);
        assertThat(list.path("metadata").path("resourceVersion").asLong()).isGreaterThanOrEqualTo(ahead);
    }

    @Test
    @DisplayName("a watch from a resourceVersion ahead of the store gets an ERROR 504 after 3 s on the clock")
    void watchAheadOfTheStoreFails() throws Exception {
        create("a", "1");
        long ahead = revision() + 5;
        HttpResponse<Stream<String>> w = http.sendAsync(get(CM + "?watch=true&resourceVersion=" + ahead),
                HttpResponse.BodyHandlers.ofLines()).get(10, TimeUnit.SECONDS);
        assertThat(w.statusCode()).isEqualTo(200);
        modify("a", "2"); // the store moves, but not far enough
        ((VirtualClock) clock).advance(Duration.ofSeconds(3));

        List<String> lines = w.body().toList(); // the stream ends after the error
        assertThat(lines).hasSize(1);
        JsonNode error = Json.MAPPER.readTree(lines.get(0));
        assertThat(error.path("type").asString()).isEqualTo("ERROR");
        assertThat(error.path("object").path("code").asInt()).isEqualTo(504);
        assertThat(error.path("object").path("message").asString()).isEqualTo(
                "Timeout: Too large resource version: " + ahead + ", current: " + revision());
        assertThat(error.path("object").path("details").path("retryAfterSeconds").asInt()).isEqualTo(1);
    }

    @Test
    @DisplayName("a watch ahead of the store that the store reaches in time streams only the changes after it")
    void watchAheadOfTheStoreReached() throws Exception {
        create("a", "1");
        long ahead = revision() + 2;
        HttpResponse<Stream<String>> w = http.sendAsync(get(CM + "?watch=true&resourceVersion=" + ahead),
                HttpResponse.BodyHandlers.ofLines()).get(10, TimeUnit.SECONDS);
        Iterator<String> lines = w.body().iterator();
        modify("a", "2");
        modify("a", "3"); // the store reaches the watch's resourceVersion
        StoredObject after = modify("a", "4");
        ((VirtualClock) clock).advance(Duration.ofSeconds(3));
        modify("a", "5");

        JsonNode first = Json.MAPPER.readTree(lines.next());
        assertThat(first.path("type").asString()).isEqualTo("MODIFIED");
        assertThat(Json.text(first, "object", "metadata", "resourceVersion"))
                .isEqualTo(Long.toString(after.resourceVersion()));
        assertThat(Json.text(Json.MAPPER.readTree(lines.next()), "object", "data", "v")).isEqualTo("5");
        w.body().close();
    }

    /** Sends a GET whose answer waits on the clock, once the server holds it (its wait's timer is pending). */
    private CompletableFuture<HttpResponse<String>> sendWaiting(String pathAndQuery) {
        VirtualClock c = (VirtualClock) clock;
        int before = c.pendingTimers();
        CompletableFuture<HttpResponse<String>> pending = http.sendAsync(get(pathAndQuery),
                HttpResponse.BodyHandlers.ofString());
        await().atMost(10, TimeUnit.SECONDS).until(() -> c.pendingTimers() > before || pending.isDone());
        return pending;
    }
}
