package io.kuberaysim.scenario;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as scenario files write them: Go's form ({@code 10s}, {@code 1m30s}, {@code 500ms}, {@code 1.5h}) as in
 * Kubernetes and kubectl flags, or a bare number of seconds.
 */
public final class ScenarioDurations {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    private ScenarioDurations() {
    }

    /** The duration, or null when {@code text} is not one. Never negative. */
    public static Duration parse(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String t = text.trim();
        try {
            if (t.matches("\\d+(\\.\\d+)?")) {
                return Duration.ofNanos(new BigDecimal(t).movePointRight(9).longValueExact());
            }
            Matcher m = PART.matcher(t);
            int at = 0;
            BigDecimal nanos = BigDecimal.ZERO;
            while (m.find() && m.start() == at) {
                BigDecimal n = new BigDecimal(m.group(1));
                nanos = nanos.add(switch (m.group(2)) {
                    case "ms" -> n.movePointRight(6);
                    case "s" -> n.movePointRight(9);
                    case "m" -> n.multiply(BigDecimal.valueOf(60)).movePointRight(9);
                    default -> n.multiply(BigDecimal.valueOf(3600)).movePointRight(9);
                });
                at = m.end();
            }
            return at == t.length() && at > 0 ? Duration.ofNanos(nanos.longValueExact()) : null;
        } catch (ArithmeticException e) {
            return null;
        }
    }

    /** "12s", "1.5s", "2m0s"-free rendering for messages: seconds with at most three decimals. */
    public static String format(Duration d) {
        return BigDecimal.valueOf(d.toMillis()).movePointLeft(3).stripTrailingZeros().toPlainString() + "s";
    }
}
