package io.kuberaysim.scenario;

import io.kuberaysim.api.Json;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A result in formats CI systems read: JUnit XML (one test case per {@code expect}, plus one for the step that
 * stopped the run) and the timeline as JSON lines.
 */
public final class ScenarioReports {
    private ScenarioReports() {
    }

    /** A JUnit XML report: one {@code <testsuite>} named after the scenario; times are virtual seconds. */
    public static String junitXml(ScenarioResult r) {
        int failures = (int) r.expectations().stream().filter(e -> !e.passed()).count();
        int errors = r.failure() == null ? 0 : 1;
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append(String.format(Locale.ROOT,
                "<testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">%n",
                xml(r.name()), r.expectations().size() + errors, failures, errors, r.seconds()));
        double previous = 0;
        for (ScenarioResult.Expectation e : r.expectations()) {
            sb.append(String.format(Locale.ROOT, "  <testcase classname=\"%s\" name=\"%s\" time=\"%.3f\"",
                    xml(r.name()), xml("step " + e.step() + " (line " + e.line() + ") " + e.description()),
                    Math.max(0, e.seconds() - previous)));
            previous = e.seconds();
            if (e.passed()) {
                sb.append("/>\n");
            } else {
                sb.append(">\n    <failure message=\"").append(xml(e.message())).append("\">")
                        .append(xml(e.message())).append("</failure>\n  </testcase>\n");
            }
        }
        if (r.failure() != null) {
            ScenarioResult.StepFailure f = r.failure();
            sb.append("  <testcase classname=\"").append(xml(r.name())).append("\" name=\"")
                    .append(xml("step " + f.step() + " (line " + f.line() + ") " + f.description()))
                    .append("\">\n    <error message=\"").append(xml(f.message())).append("\">")
                    .append(xml(f.message())).append("</error>\n  </testcase>\n");
        }
        sb.append("  <system-out>");
        r.timeline().forEach(t -> sb.append(xml(t.render())).append('\n'));
        return sb.append("</system-out>\n</testsuite>\n").toString();
    }

    /**
     * One JSON object per line: {@code {"seconds":2.0,"text":"updated RayCluster ..."}} for the control plane's
     * writes, with {@code "step":N} for the scenario's steps.
     */
    public static String timelineJson(ScenarioResult r) {
        StringBuilder sb = new StringBuilder();
        for (ScenarioResult.TimelineEntry e : r.timeline()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("seconds", e.seconds());
            if (e.step() > 0) {
                m.put("step", e.step());
            }
            m.put("text", e.text());
            sb.append(Json.MAPPER.writeValueAsString(m)).append('\n');
        }
        return sb.toString();
    }

    /**
     * The result as the HTTP endpoint answers it: {@code name}, {@code passed}, {@code seconds}, {@code failures}
     * (messages), {@code expectations} (step, line, description, passed, message, seconds), {@code failedStep}
     * (or null) and {@code timeline} (lines in the demo's format).
     */
    public static Map<String, Object> json(ScenarioResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", r.name());
        m.put("passed", r.passed());
        m.put("seconds", r.seconds());
        m.put("failures", r.failures());
        m.put("expectations", r.expectations());
        m.put("failedStep", r.failure());
        m.put("timeline", r.timeline().stream().map(ScenarioResult.TimelineEntry::render).toList());
        return m;
    }

    private static String xml(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                default -> {
                    if (c >= 0x20 || c == '\n' || c == '\t' || c == '\r') {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }
}
