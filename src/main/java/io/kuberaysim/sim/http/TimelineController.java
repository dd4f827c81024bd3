package io.kuberaysim.sim.http;

import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.demo.Timeline;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /sim/v1/timeline?since=N}: the control plane's writes since the server started, one line each in the
 * demo's wording ({@code [   2.0s] created head Pod x}), numbered so that a reader (the web console) asks only for
 * what is new. The last {@value #CAPACITY} lines are kept.
 */
@RestController
@ConditionalOnWebApplication
class TimelineController implements DisposableBean {
    static final int CAPACITY = 20_000;
    private static final int MAX_PAGE = 5_000;

    private final Timeline timeline;

    TimelineController(ObjectStore store, Clock clock) {
        this.timeline = new Timeline(store, clock, CAPACITY);
    }

    @GetMapping(path = "/sim/v1/timeline", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> since(@RequestParam(name = "since", required = false, defaultValue = "0") String since) {
        long from;
        try {
            from = Long.parseLong(since.trim());
        } catch (NumberFormatException e) {
            from = -1;
        }
        if (from < 0) {
            throw ApiException.badRequest("since must be a line number (0 or more), got \"" + since + "\"");
        }
        Timeline.Page page = timeline.since(from, MAX_PAGE);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("first", page.first());
        m.put("next", page.next());
        m.put("lines", page.lines());
        return m;
    }

    @Override
    public void destroy() {
        timeline.close();
    }
}
