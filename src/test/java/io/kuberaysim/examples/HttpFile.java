package io.kuberaysim.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed IntelliJ / VS Code REST Client file: {@code @name = value} variables, requests separated by
 * {@code ###}, and this project's convention {@code # @expect 404} for requests that must fail.
 */
record HttpFile(Path path, List<Request> requests) {
    private static final Pattern VARIABLE = Pattern.compile("^@([\\w-]+)\\s*=\\s*(.*)$");
    private static final Pattern EXPECT = Pattern.compile("^#\\s*@expect\\s+(\\d{3})\\s*$");
    private static final Pattern REF = Pattern.compile("\\{\\{([\\w-]+)}}");

    record Request(String title, String method, String url, Map<String, String> headers, String body, int expect) {
    }

    static HttpFile parse(Path path, Map<String, String> overrides) throws IOException {
        Map<String, String> vars = new LinkedHashMap<>();
        List<Request> requests = new ArrayList<>();
        List<String> block = new ArrayList<>();
        String title = "";
        for (String line : Files.readAllLines(path)) {
            if (line.startsWith("###")) {
                add(requests, title, block, vars, overrides);
                block.clear();
                title = line.substring(3).trim();
                continue;
            }
            Matcher v = VARIABLE.matcher(line);
            if (v.matches() && block.stream().allMatch(l -> l.isBlank() || l.startsWith("#"))) {
                vars.put(v.group(1), substitute(v.group(2).trim(), vars, overrides));
                continue;
            }
            block.add(line);
        }
        add(requests, title, block, vars, overrides);
        return new HttpFile(path, requests);
    }

    private static void add(List<Request> out, String title, List<String> block, Map<String, String> vars,
                            Map<String, String> overrides) {
        int expect = 0;
        int i = 0;
        while (i < block.size() && (block.get(i).isBlank() || block.get(i).startsWith("#")
                || block.get(i).startsWith("//"))) {
            Matcher e = EXPECT.matcher(block.get(i));
            if (e.matches()) {
                expect = Integer.parseInt(e.group(1));
            }
            i++;
        }
        if (i >= block.size()) {
            return;
        }
        String[] requestLine = substitute(block.get(i++), vars, overrides).trim().split("\\s+");
        Map<String, String> headers = new LinkedHashMap<>();
        while (i < block.size() && !block.get(i).isBlank()) {
            String h = block.get(i++);
            int colon = h.indexOf(':');
            headers.put(h.substring(0, colon).trim(), substitute(h.substring(colon + 1).trim(), vars, overrides));
        }
        StringBuilder body = new StringBuilder();
        for (i++; i < block.size(); i++) {
            body.append(substitute(block.get(i), vars, overrides)).append('\n');
        }
        String b = body.toString().strip();
        out.add(new Request(title, requestLine[0], requestLine[1], headers, b.isEmpty() ? null : b + "\n", expect));
    }

    private static String substitute(String s, Map<String, String> vars, Map<String, String> overrides) {
        Matcher m = REF.matcher(s);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String value = overrides.getOrDefault(name, vars.getOrDefault(name, m.group()));
            m.appendReplacement(sb, Matcher.quoteReplacement(value));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
