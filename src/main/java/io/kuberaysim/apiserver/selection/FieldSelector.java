package io.kuberaysim.apiserver.selection;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A parsed Kubernetes field selector ({@code ?fieldSelector=}): an AND of {@link FieldRequirement}s using
 * {@code =}, {@code ==} or {@code !=}, comma-separated, with apimachinery's value escaping ({@code \,}, {@code \=},
 * {@code \\}). Which fields are supported is resource-specific and left to the caller.
 *
 * <p>Terms are kept in the order the real parser produces (sorted as raw term strings). Immutable, thread-safe.
 */
public final class FieldSelector {

    private static final FieldSelector EVERYTHING = new FieldSelector(List.of());

    private final List<FieldRequirement> requirements;

    private FieldSelector(List<FieldRequirement> requirements) {
        this.requirements = List.copyOf(requirements);
    }

    /** The selector that matches every object. */
    public static FieldSelector everything() {
        return EVERYTHING;
    }

    /**
     * Parses a selector string; {@code null} or empty selects everything.
     *
     * @throws SelectorParseException with the real server's wording, e.g.
     *                                {@code invalid selector: 'foo'; can't understand 'foo'}
     */
    public static FieldSelector parse(String selector) {
        if (selector == null || selector.isEmpty()) {
            return EVERYTHING;
        }
        List<String> terms = splitTerms(selector);
        Collections.sort(terms);
        List<FieldRequirement> reqs = new ArrayList<>();
        for (String term : terms) {
            if (term.isEmpty()) {
                continue;
            }
            int[] split = splitTerm(term);
            if (split == null) {
                throw new SelectorParseException(
                        "invalid selector: '" + selector + "'; can't understand '" + term + "'");
            }
            String field = term.substring(0, split[0]);
            String value = unescapeValue(term.substring(split[0] + split[1]));
            boolean notEquals = split[1] == 2 && term.charAt(split[0]) == '!';
            // The real parser drops terms whose field and value are both empty ("=" alone).
            if (field.isEmpty() && value.isEmpty()) {
                continue;
            }
            reqs.add(new FieldRequirement(field,
                    notEquals ? FieldRequirement.Operator.NOT_EQUALS : FieldRequirement.Operator.EQUALS, value));
        }
        return reqs.isEmpty() ? EVERYTHING : new FieldSelector(reqs);
    }

    /** Splits on commas that are not backslash-escaped; escapes stay in the terms. */
    private static List<String> splitTerms(String selector) {
        List<String> terms = new ArrayList<>();
        int start = 0;
        boolean inSlash = false;
        for (int i = 0; i < selector.length(); i++) {
            char c = selector.charAt(i);
            if (inSlash) {
                inSlash = false;
            } else if (c == '\\') {
                inSlash = true;
            } else if (c == ',') {
                terms.add(selector.substring(start, i));
                start = i + 1;
            }
        }
        terms.add(selector.substring(start));
        return terms;
    }

    /** Position and length of the first operator; at each position {@code !=} then {@code ==} then {@code =}. */
    private static int[] splitTerm(String term) {
        for (int i = 0; i < term.length(); i++) {
            if (term.startsWith("!=", i) || term.startsWith("==", i)) {
                return new int[] {i, 2};
            }
            if (term.charAt(i) == '=') {
                return new int[] {i, 1};
            }
        }
        return null;
    }

    /** Escapes {@code \}, {@code ,} and {@code =} so a value can be embedded in a selector string. */
    public static String escapeValue(String value) {
        StringBuilder sb = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' || c == ',' || c == '=') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.toString();
    }

    private static String unescapeValue(String raw) {
        if (raw.indexOf('\\') < 0 && raw.indexOf(',') < 0 && raw.indexOf('=') < 0) {
            return raw;
        }
        StringBuilder sb = new StringBuilder(raw.length());
        boolean inSlash = false;
        for (int i = 0; i < raw.length(); ) {
            int cp = raw.codePointAt(i);
            i += Character.charCount(cp);
            if (inSlash) {
                if (cp != '\\' && cp != ',' && cp != '=') {
                    throw new SelectorParseException("invalid field selector: invalid escape sequence: \\"
                            + new String(Character.toChars(cp)));
                }
                sb.appendCodePoint(cp);
                inSlash = false;
            } else if (cp == '\\') {
                inSlash = true;
            } else if (cp == ',' || cp == '=') {
                // Go prints the rune with %v, i.e. as its number ("61" for '=').
                throw new SelectorParseException("invalid field selector: unescaped character in value: " + cp);
            } else {
                sb.appendCodePoint(cp);
            }
        }
        if (inSlash) {
            throw new SelectorParseException("invalid field selector: invalid escape sequence: \\");
        }
        return sb.toString();
    }

    /**
     * Whether all terms hold.
     *
     * @param valueOf returns the string value of a field of the candidate object, {@code null} if absent
     */
    public boolean matches(Function<String, String> valueOf) {
        for (FieldRequirement r : requirements) {
            if (!r.matches(valueOf.apply(r.field()))) {
                return false;
            }
        }
        return true;
    }

    /** True when the selector places no restriction. */
    public boolean isEverything() {
        return requirements.isEmpty();
    }

    /** The terms. */
    public List<FieldRequirement> requirements() {
        return requirements;
    }

    /**
     * The value the selector requires for a field, if the first term on that field is an equality (like
     * {@code RequiresExactMatch}); used to turn {@code metadata.name=x} into a direct lookup.
     */
    public Optional<String> exactValue(String field) {
        for (FieldRequirement r : requirements) {
            if (r.field().equals(field) && r.operator() == FieldRequirement.Operator.EQUALS) {
                return Optional.of(r.value());
            }
        }
        return Optional.empty();
    }

    /** Canonical form, terms joined by commas with values escaped; empty for everything. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (FieldRequirement r : requirements) {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(r);
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldSelector other && requirements.equals(other.requirements);
    }

    @Override
    public int hashCode() {
        return requirements.hashCode();
    }
}
