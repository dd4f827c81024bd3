package io.kuberaysim.apiserver.selection;

import java.util.List;
import java.util.Map;

/**
 * One term of a {@link LabelSelector}: a key, an operator and (for the binary operators) its values. Values of
 * {@code in}/{@code notin} are kept sorted and de-duplicated, as the real parser stores them in a set.
 *
 * @param key      label key, e.g. {@code ray.io/cluster}
 * @param operator how the key is tested
 * @param values   the operand values; empty for {@link Operator#EXISTS} and {@link Operator#DOES_NOT_EXIST}
 */
public record Requirement(String key, Operator operator, List<String> values) {

    /** The label selector operators; {@link #symbol()} is the spelling used by {@link #toString()}. */
    public enum Operator {
        EQUALS("="),
        DOUBLE_EQUALS("=="),
        NOT_EQUALS("!="),
        IN(" in "),
        NOT_IN(" notin "),
        EXISTS(""),
        DOES_NOT_EXIST("!"),
        GREATER_THAN(">"),
        LESS_THAN("<");

        private final String symbol;

        Operator(String symbol) {
            this.symbol = symbol;
        }

        /** The operator as it appears between key and value in the canonical string form. */
        public String symbol() {
            return symbol;
        }
    }

    /** Defensive copy so a requirement can be shared between threads and indexes. */
    public Requirement {
        values = List.copyOf(values);
    }

    /**
     * Whether the labels satisfy this term. A missing key satisfies only the negative operators ({@code !=},
     * {@code notin}, {@code !}), exactly as in Kubernetes.
     */
    public boolean matches(Map<String, String> labels) {
        Map<String, String> ls = labels == null ? Map.of() : labels;
        boolean has = ls.containsKey(key);
        return switch (operator) {
            case EQUALS, DOUBLE_EQUALS, IN -> has && values.contains(ls.get(key));
            case NOT_EQUALS, NOT_IN -> !has || !values.contains(ls.get(key));
            case EXISTS -> has;
            case DOES_NOT_EXIST -> !has;
            case GREATER_THAN, LESS_THAN -> has && compareAsIntegers(ls.get(key));
        };
    }

    private boolean compareAsIntegers(String labelValue) {
        // Non-numeric label values simply do not match (the real server logs and returns false).
        try {
            long actual = Long.parseLong(labelValue);
            long bound = Long.parseLong(values.get(0));
            return operator == Operator.GREATER_THAN ? actual > bound : actual < bound;
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            return false;
        }
    }

    /** Canonical form: {@code k=v}, {@code k==v}, {@code k!=v}, {@code k in (a,b)}, {@code k}, {@code !k}. */
    @Override
    public String toString() {
        return switch (operator) {
            case EXISTS -> key;
            case DOES_NOT_EXIST -> "!" + key;
            case IN, NOT_IN -> key + operator.symbol() + "(" + String.join(",", values) + ")";
            default -> key + operator.symbol() + (values.isEmpty() ? "" : values.get(0));
        };
    }
}
