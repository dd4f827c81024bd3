package io.kuberaysim.apiserver.selection;

import io.kuberaysim.apiserver.selection.Requirement.Operator;
import io.kuberaysim.apiserver.validation.NameValidation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A parsed Kubernetes label selector ({@code ?labelSelector=}): an AND of {@link Requirement}s.
 *
 * <p>Grammar and error messages follow apimachinery's {@code labels.Parse}: {@code k=v}, {@code k==v},
 * {@code k!=v}, {@code k in (a,b)}, {@code k notin (a,b)}, {@code k}, {@code !k} (plus {@code k>n}/{@code k<n}),
 * comma meaning AND, whitespace between tokens ignored. Keys are validated as qualified names and values as label
 * values. Requirements are kept sorted by key, which also makes {@link #toString()} canonical.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class LabelSelector {

    private static final LabelSelector EVERYTHING = new LabelSelector(List.of());

    private final List<Requirement> requirements;

    private LabelSelector(List<Requirement> requirements) {
        this.requirements = List.copyOf(requirements);
    }

    /** The selector that matches every object. */
    public static LabelSelector everything() {
        return EVERYTHING;
    }

    /**
     * Parses a selector string; {@code null} or blank input selects everything.
     *
     * @throws SelectorParseException with the message the real API server would give
     */
    public static LabelSelector parse(String selector) {
        if (selector == null || selector.isEmpty()) {
            return EVERYTHING;
        }
        List<Requirement> parsed = new Parser(selector).parse();
        if (parsed.isEmpty()) {
            return EVERYTHING;
        }
        List<Requirement> sorted = new ArrayList<>(parsed);
        sorted.sort(Comparator.comparing(Requirement::key)); // stable: same-key terms keep their order
        return new LabelSelector(sorted);
    }

    /**
     * An equality selector for a {@code matchLabels}-style map (like {@code labels.SelectorFromSet}: no
     * validation). {@code null} or empty selects everything.
     */
    public static LabelSelector of(Map<String, String> matchLabels) {
        if (matchLabels == null || matchLabels.isEmpty()) {
            return EVERYTHING;
        }
        List<Requirement> reqs = new ArrayList<>();
        new TreeMap<>(matchLabels).forEach((k, v) -> reqs.add(new Requirement(k, Operator.EQUALS, List.of(v))));
        return new LabelSelector(reqs);
    }

    /** Whether every requirement holds for the labels ({@code null} counts as no labels). */
    public boolean matches(Map<String, String> labels) {
        Map<String, String> ls = labels == null ? Map.of() : labels;
        for (Requirement r : requirements) {
            if (!r.matches(ls)) {
                return false;
            }
        }
        return true;
    }

    /** True when the selector places no restriction. */
    public boolean isEverything() {
        return requirements.isEmpty();
    }

    /** The requirements, sorted by key. */
    public List<Requirement> requirements() {
        return requirements;
    }

    /**
     * Keys whose value the selector pins to exactly one value ({@code =}, {@code ==}, or {@code in} with one
     * value), for index lookups. As with {@code RequiresExactMatch}, the first requirement on a key decides.
     */
    public Map<String, String> exactMatches() {
        Map<String, String> exact = new LinkedHashMap<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Requirement r : requirements) {
            if (!seen.add(r.key())) {
                continue;
            }
            boolean single = r.values().size() == 1;
            switch (r.operator()) {
                case EQUALS, DOUBLE_EQUALS, IN -> {
                    if (single) {
                        exact.put(r.key(), r.values().get(0));
                    }
                }
                default -> {
                }
            }
        }
        return exact;
    }

    /** Canonical string, e.g. {@code app=demo,ray.io/node-type in (head,worker)}; empty for everything. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Requirement r : requirements) {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(r);
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LabelSelector other && requirements.equals(other.requirements);
    }

    @Override
    public int hashCode() {
        return requirements.hashCode();
    }

    // ---------------------------------------------------------------------------------------------------------
    // Lexer + recursive-descent parser. Token kinds, the order of checks and the error texts mirror apimachinery
    // so that a bad selector yields the same message a real server sends (clients print it verbatim).

    private enum Tok {
        END, CLOSE_PAR, COMMA, NOT, DOUBLE_EQUALS, EQUALS, GREATER, IDENT, IN, LESS, NOT_EQUALS, NOT_IN, OPEN_PAR
    }

    private record Item(Tok tok, String lit) {
    }

    private static final Map<String, Tok> KEYWORDS = Map.ofEntries(
            Map.entry(")", Tok.CLOSE_PAR), Map.entry(",", Tok.COMMA), Map.entry("!", Tok.NOT),
            Map.entry("==", Tok.DOUBLE_EQUALS), Map.entry("=", Tok.EQUALS), Map.entry(">", Tok.GREATER),
            Map.entry("in", Tok.IN), Map.entry("<", Tok.LESS), Map.entry("!=", Tok.NOT_EQUALS),
            Map.entry("notin", Tok.NOT_IN), Map.entry("(", Tok.OPEN_PAR));

    /** The binary operators in the order the real parser lists them in "expected: ..." messages. */
    private static final String BINARY_OPERATORS = "in, notin, =, ==, !=, gt, lt";

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    private static boolean isSpecial(char c) {
        return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
    }

    private static List<Item> lex(String s) {
        List<Item> items = new ArrayList<>();
        int pos = 0;
        int n = s.length();
        while (true) {
            while (pos < n && isWhitespace(s.charAt(pos))) {
                pos++;
            }
            if (pos >= n) {
                items.add(new Item(Tok.END, ""));
                return items;
            }
            char c = s.charAt(pos);
            if (isSpecial(c)) {
                // Longest run of special characters that still spells an operator ("!=" rather than "!").
                int end = pos + 1;
                String best = String.valueOf(c);
                while (end < n && isSpecial(s.charAt(end)) && KEYWORDS.containsKey(s.substring(pos, end + 1))) {
                    end++;
                    best = s.substring(pos, end);
                }
                items.add(new Item(KEYWORDS.get(best), best));
                pos = end;
            } else {
                int start = pos;
                while (pos < n && !isSpecial(s.charAt(pos)) && !isWhitespace(s.charAt(pos))) {
                    pos++;
                }
                String word = s.substring(start, pos);
                Tok kw = KEYWORDS.get(word);
                items.add(new Item(kw != null ? kw : Tok.IDENT, word));
            }
        }
    }

    private static final class Parser {
        private final List<Item> items;
        private int position;

        Parser(String selector) {
            this.items = lex(selector);
        }

        /** In value context the words "in" and "notin" are ordinary identifiers (e.g. {@code x in (in)}). */
        private Item lookahead(boolean values) {
            return asContext(items.get(position), values);
        }

        private Item consume(boolean values) {
            return asContext(items.get(position++), values);
        }

        private static Item asContext(Item item, boolean values) {
            if (values && (item.tok() == Tok.IN || item.tok() == Tok.NOT_IN)) {
                return new Item(Tok.IDENT, item.lit());
            }
            return item;
        }

        List<Requirement> parse() {
            List<Requirement> reqs = new ArrayList<>();
            while (true) {
                Item next = lookahead(true);
                switch (next.tok()) {
                    case IDENT, NOT -> {
                        try {
                            reqs.add(parseRequirement());
                        } catch (SelectorParseException e) {
                            throw new SelectorParseException("unable to parse requirement: " + e.getMessage());
                        }
                        Item after = consume(true);
                        switch (after.tok()) {
                            case END -> {
                                return reqs;
                            }
                            case COMMA -> {
                                Item t2 = lookahead(true);
                                if (t2.tok() != Tok.IDENT && t2.tok() != Tok.NOT) {
                                    throw new SelectorParseException(
                                            "found '" + t2.lit() + "', expected: identifier after ','");
                                }
                            }
                            default -> throw new SelectorParseException(
                                    "found '" + after.lit() + "', expected: ',' or 'end of string'");
                        }
                    }
                    case END -> {
                        return reqs;
                    }
                    default -> throw new SelectorParseException(
                            "found '" + next.lit() + "', expected: !, identifier, or 'end of string'");
                }
            }
        }

        private Requirement parseRequirement() {
            Operator op = null;
            Item t = consume(true);
            if (t.tok() == Tok.NOT) {
                op = Operator.DOES_NOT_EXIST;
                t = consume(true);
            }
            if (t.tok() != Tok.IDENT) {
                throw new SelectorParseException("found '" + t.lit() + "', expected: identifier");
            }
            String key = t.lit();
            List<String> keyErrors = NameValidation.isQualifiedName(key);
            if (!keyErrors.isEmpty()) {
                // The real parser validates with a nil field path, which prints as "<nil>".
                throw new SelectorParseException(
                        "<nil>: Invalid value: " + GoQuote.quote(key) + ": " + String.join("; ", keyErrors));
            }
            Tok la = lookahead(true).tok();
            if (la == Tok.END || la == Tok.COMMA) {
                return newRequirement(key, op == null ? Operator.EXISTS : op, List.of());
            }
            if (op == Operator.DOES_NOT_EXIST) {
                return newRequirement(key, op, List.of());
            }
            op = parseOperator();
            Set<String> values = (op == Operator.IN || op == Operator.NOT_IN) ? parseValues() : parseExactValue();
            return newRequirement(key, op, new ArrayList<>(values));
        }

        private Operator parseOperator() {
            Item t = consume(false);
            return switch (t.tok()) {
                case IN -> Operator.IN;
                case EQUALS -> Operator.EQUALS;
                case DOUBLE_EQUALS -> Operator.DOUBLE_EQUALS;
                case GREATER -> Operator.GREATER_THAN;
                case LESS -> Operator.LESS_THAN;
                case NOT_IN -> Operator.NOT_IN;
                case NOT_EQUALS -> Operator.NOT_EQUALS;
                default -> throw new SelectorParseException(
                        "found '" + t.lit() + "', expected: " + BINARY_OPERATORS);
            };
        }

        private Set<String> parseValues() {
            Item t = consume(true);
            if (t.tok() != Tok.OPEN_PAR) {
                throw new SelectorParseException("found '" + t.lit() + "' expected: '('");
            }
            Item la = lookahead(true);
            switch (la.tok()) {
                case IDENT, COMMA -> {
                    Set<String> s = parseIdentifiersList();
                    if (consume(true).tok() != Tok.CLOSE_PAR) {
                        // Quirk kept from the real parser: it reports the first token inside the parentheses.
                        throw new SelectorParseException("found '" + la.lit() + "', expected: ')'");
                    }
                    return s;
                }
                case CLOSE_PAR -> {
                    consume(true);
                    return new TreeSet<>(Set.of(""));
                }
                default -> throw new SelectorParseException(
                        "found '" + la.lit() + "', expected: ',', ')' or identifier");
            }
        }

        /** A comma-separated, possibly empty list of possibly empty identifiers ({@code (a,,b)}, {@code (,)}). */
        private Set<String> parseIdentifiersList() {
            Set<String> s = new TreeSet<>();
            while (true) {
                Item t = consume(true);
                switch (t.tok()) {
                    case IDENT -> {
                        s.add(t.lit());
                        Item t2 = lookahead(true);
                        if (t2.tok() == Tok.CLOSE_PAR) {
                            return s;
                        }
                        if (t2.tok() != Tok.COMMA) {
                            throw new SelectorParseException("found '" + t2.lit() + "', expected: ',' or ')'");
                        }
                    }
                    case COMMA -> {
                        if (s.isEmpty()) {
                            s.add("");
                        }
                        Tok t2 = lookahead(true).tok();
                        if (t2 == Tok.CLOSE_PAR) {
                            s.add("");
                            return s;
                        }
                        if (t2 == Tok.COMMA) {
                            consume(true);
                            s.add("");
                        }
                    }
                    default -> throw new SelectorParseException(
                            "found '" + t.lit() + "', expected: ',', or identifier");
                }
            }
        }

        private Set<String> parseExactValue() {
            Tok la = lookahead(true).tok();
            if (la == Tok.END || la == Tok.COMMA) {
                return new TreeSet<>(Set.of(""));
            }
            Item t = consume(true);
            if (t.tok() == Tok.IDENT) {
                return new TreeSet<>(Set.of(t.lit()));
            }
            throw new SelectorParseException("found '" + t.lit() + "', expected: identifier");
        }
    }

    /** Operator arity and value checks of {@code NewRequirement}; errors aggregated like a Go ErrorList. */
    private static Requirement newRequirement(String key, Operator op, List<String> values) {
        Set<String> errors = new LinkedHashSet<>();
        switch (op) {
            case GREATER_THAN, LESS_THAN -> {
                for (int i = 0; i < values.size(); i++) {
                    try {
                        Long.parseLong(values.get(i));
                    } catch (NumberFormatException e) {
                        errors.add("values[" + i + "]: Invalid value: " + GoQuote.quote(values.get(i))
                                + ": for 'Gt', 'Lt' operators, the value must be an integer");
                    }
                }
            }
            default -> {
            }
        }
        for (int i = 0; i < values.size(); i++) {
            List<String> msgs = NameValidation.isValidLabelValue(values.get(i));
            if (!msgs.isEmpty()) {
                errors.add("values[" + i + "][" + key + "]: Invalid value: " + GoQuote.quote(values.get(i)) + ": "
                        + String.join("; ", msgs));
            }
        }
        if (errors.size() == 1) {
            throw new SelectorParseException(errors.iterator().next());
        } else if (!errors.isEmpty()) {
            throw new SelectorParseException("[" + String.join(", ", errors) + "]");
        }
        return new Requirement(key, op, values);
    }
}
