package io.kuberaysim.scenario;

/**
 * A scenario that cannot be read: not YAML, an unknown step type, a missing or malformed field. Names the line, the
 * field and (for a step) the step's index, so the author can go straight to it. {@code run} exits 2 on it.
 */
public final class ScenarioException extends RuntimeException {
    private final int line;
    private final String field;
    private final Integer step;
    private final boolean syntax;

    public ScenarioException(int line, String field, String message) {
        this(line, field, null, message);
    }

    public ScenarioException(int line, String field, Integer step, String message) {
        this(line, field, step, message, false);
    }

    private ScenarioException(int line, String field, Integer step, String message, boolean syntax) {
        super(message);
        this.line = line;
        this.field = field;
        this.step = step;
        this.syntax = syntax;
    }

    /** The text is not YAML (or not one document): nothing of the scenario's structure could be read. */
    public static ScenarioException syntax(int line, String message) {
        return new ScenarioException(line, null, null, message, true);
    }

    public boolean isSyntax() {
        return syntax;
    }

    /** 1-based line in the scenario file; 0 when unknown. */
    public int line() {
        return line;
    }

    /** The field's path ({@code steps[2].waitFor.timeout}); null when the whole document is wrong. */
    public String field() {
        return field;
    }

    /** 1-based index of the step; null outside the steps. */
    public Integer step() {
        return step;
    }

    /** "step 3, line 12" or "line 12" (what {@link #describe} puts before the field); empty when neither is known. */
    public String where() {
        StringBuilder sb = new StringBuilder();
        if (step != null) {
            sb.append("step ").append(step);
        }
        if (line > 0) {
            sb.append(sb.isEmpty() ? "" : ", ").append("line ").append(line);
        }
        return sb.toString();
    }

    /** "line 12, steps[2].waitFor.timeout: must be a duration such as 30s, got "soon"". */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        if (step != null) {
            sb.append("step ").append(step).append(", ");
        }
        if (line > 0) {
            sb.append("line ").append(line).append(", ");
        }
        if (field != null) {
            sb.append(field).append(": ");
        }
        return sb.append(getMessage()).toString();
    }
}
