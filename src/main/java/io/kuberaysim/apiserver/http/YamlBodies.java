package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.errors.ApiException;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * YAML request bodies read as kube-apiserver reads them (sigs.k8s.io/yaml over go-yaml, YAML 1.1): anchors and
 * aliases resolve to their values, merge keys ({@code <<: *base}) merge, timestamps stay strings, and a document
 * whose aliases would expand past {@value #MAX_EXPANDED_NODES} nodes ("billion laughs") or refer to themselves is
 * refused before it is expanded. Duplicate keys are reported, with go-yaml's wording, for the caller to treat as
 * {@code fieldValidation} says.
 */
final class YamlBodies {
    /** Nodes a document may have once every alias is expanded; go-yaml stops "excessive aliasing" similarly. */
    static final int MAX_EXPANDED_NODES = 200_000;
    static final String EXCESSIVE_ALIASING = "error converting YAML to JSON: yaml: document contains excessive aliasing";

    /**
     * A parsed document and its duplicate keys, e.g. {@code line 5: key "name" already set in map}.
     *
     * @param value      the document as JSON (null for an empty document)
     * @param duplicates duplicate keys in document order
     */
    record Parsed(JsonNode value, List<String> duplicates) {
    }

    private YamlBodies() {
    }

    static Parsed parse(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8);
        try {
            // Only the first document counts, as for kube-apiserver; it is composed (and checked) before it is built.
            Yaml yaml = yaml();
            Iterator<Node> documents = yaml.composeAll(new StringReader(text)).iterator();
            Node root = documents.hasNext() ? documents.next() : null;
            if (root == null) {
                return new Parsed(null, List.of());
            }
            List<String> duplicates = new ArrayList<>();
            checkExpansion(root, new IdentityHashMap<>(), new HashSet<>(), duplicates);
            Object value = yaml.loadAll(text).iterator().next();
            return new Parsed(Json.MAPPER.valueToTree(value), List.copyOf(duplicates));
        } catch (ExcessiveAliasing e) {
            throw ApiException.badRequest(EXCESSIVE_ALIASING);
        } catch (MarkedYAMLException e) {
            throw ApiException.badRequest("error converting YAML to JSON: yaml: line "
                    + (e.getProblemMark() == null ? 0 : e.getProblemMark().getLine() + 1) + ": " + e.getProblem());
        } catch (YAMLException | JacksonException | IllegalArgumentException | ClassCastException e) {
            throw ApiException.badRequest("error converting YAML to JSON: yaml: " + e.getMessage());
        }
    }

    private static Yaml yaml() {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(true); // reported below, refused only under fieldValidation=Strict
        options.setWarnOnDuplicateKeys(false); // its log line would carry the raw key
        options.setAllowRecursiveKeys(false);
        options.setMaxAliasesForCollections(Integer.MAX_VALUE); // bounded by the expanded size instead
        options.setCodePointLimit(Integer.MAX_VALUE); // the body was already read within its limit
        return new Yaml(new SafeConstructor(options), new Representer(new DumperOptions()), new DumperOptions(),
                options, new StringTimestamps());
    }

    /**
     * Counts the nodes the document has with every alias expanded (each distinct node once, memoised, so the
     * count itself stays cheap), fails on a node that contains itself, and collects duplicate keys.
     */
    private static long checkExpansion(Node node, Map<Node, Long> sizes, Set<Node> open, List<String> duplicates) {
        Long known = sizes.get(node);
        if (known != null) {
            return known;
        }
        if (!open.add(node)) {
            throw new ExcessiveAliasing(); // a recursive alias never ends expanding
        }
        long size = 1;
        if (node instanceof SequenceNode seq) {
            for (Node child : seq.getValue()) {
                size += checkExpansion(child, sizes, open, duplicates);
                if (size > MAX_EXPANDED_NODES) {
                    throw new ExcessiveAliasing();
                }
            }
        } else if (node instanceof MappingNode map) {
            Set<String> keys = new HashSet<>();
            for (NodeTuple t : map.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode k && !Tag.MERGE.equals(k.getTag())
                        && !keys.add(k.getValue())) {
                    duplicates.add("line " + (k.getStartMark().getLine() + 1) + ": key \"" + k.getValue()
                            + "\" already set in map");
                }
                size += checkExpansion(t.getKeyNode(), sizes, open, duplicates);
                size += checkExpansion(t.getValueNode(), sizes, open, duplicates);
                if (size > MAX_EXPANDED_NODES) {
                    throw new ExcessiveAliasing();
                }
            }
        }
        open.remove(node);
        sizes.put(node, size);
        return size;
    }

    /** go-yaml leaves timestamps as strings when the target is untyped, as a JSON conversion is. */
    private static final class StringTimestamps extends Resolver {
        @Override
        public void addImplicitResolver(Tag tag, Pattern regexp, String first) {
            if (!Tag.TIMESTAMP.equals(tag)) {
                super.addImplicitResolver(tag, regexp, first);
            }
        }

        @Override
        public void addImplicitResolver(Tag tag, Pattern regexp, String first, int limit) {
            if (!Tag.TIMESTAMP.equals(tag)) {
                super.addImplicitResolver(tag, regexp, first, limit);
            }
        }
    }

    private static final class ExcessiveAliasing extends RuntimeException {
        ExcessiveAliasing() {
            super(null, null, false, false);
        }
    }
}
