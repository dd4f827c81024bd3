package io.kuberaysim.apiserver.selection;

/**
 * One term of a {@link FieldSelector}: {@code field=value} or {@code field!=value} ({@code ==} is stored as
 * {@code =}, as the real server does).
 *
 * @param field    dotted field path, e.g. {@code metadata.name} or {@code involvedObject.uid}
 * @param operator equality or inequality
 * @param value    the unescaped value; may be empty
 */
public record FieldRequirement(String field, Operator operator, String value) {

    /** Field selector operators. */
    public enum Operator {
        EQUALS("="),
        NOT_EQUALS("!=");

        private final String symbol;

        Operator(String symbol) {
            this.symbol = symbol;
        }

        /** The spelling used by {@link FieldRequirement#toString()}. */
        public String symbol() {
            return symbol;
        }
    }

    /**
     * Whether a field value satisfies the term; an absent field ({@code null}) counts as the empty string, because
     * the real server looks fields up in a string map.
     */
    public boolean matches(String actual) {
        boolean equal = value.equals(actual == null ? "" : actual);
        return operator == Operator.EQUALS ? equal : !equal;
    }

    /** {@code field=value} with {@code \ , =} in the value backslash-escaped. */
    @Override
    public String toString() {
        return field + operator.symbol() + FieldSelector.escapeValue(value);
    }
}
