package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Fields a JSON body sets twice in one object, as kube-apiserver's strict decoding reports them ({@code duplicate
 * field "name"}). A tree keeps only the last value, so they are found on the token stream.
 */
final class DuplicateFields {
    private DuplicateFields() {
    }

    /** The duplicates of a well-formed JSON body, in order; empty when it has none (or does not parse). */
    static List<String> inJson(byte[] body) {
        List<String> duplicates = new ArrayList<>();
        Deque<Set<String>> objects = new ArrayDeque<>();
        try (JsonParser p = Json.MAPPER.createParser(body)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                switch (t) {
                    case START_OBJECT -> objects.push(new HashSet<>());
                    case END_OBJECT -> objects.pop();
                    case PROPERTY_NAME -> {
                        if (!objects.peek().add(p.currentName())) {
                            duplicates.add("duplicate field \"" + p.currentName() + "\"");
                        }
                    }
                    default -> {
                    }
                }
            }
        } catch (JacksonException e) {
            // the body was parsed before; a syntax error is reported there
        }
        return duplicates;
    }
}
