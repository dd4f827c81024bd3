package io.kuberaysim.controller.ray;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Go's {@code time.ParseDuration} and {@code Duration.String}, for the durations KubeRay reads from annotations
 * ({@code ray.io/initializing-timeout}) and prints in its messages ({@code 5m0s}, {@code 1h30m0s}, {@code 1.5s}).
 */
public final class GoDuration {
    private static final Pattern PART = Pattern.compile("([0-9]*(?:\\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h)");
    private static final Map<String, Long> NANOS = Map.of("ns", 1L, "us", 1_000L, "µs", 1_000L, "μs", 1_000L,
            "ms", 1_000_000L, "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);

    private GoDuration() {
    }

    /** @throws IllegalArgumentException when Go would not parse it */
    public static Duration parse(String s) {
        String rest = s;
        boolean negative = false;
        if (rest.startsWith("-") || rest.startsWith("+")) {
            negative = rest.startsWith("-");
            rest = rest.substring(1);
        }
        if (rest.equals("0")) {
            return Duration.ZERO;
        }
        if (rest.isEmpty()) {
            throw new IllegalArgumentException("time: invalid duration \"" + s + "\"");
        }
        BigDecimal nanos = BigDecimal.ZERO;
        Matcher m = PART.matcher(rest);
        int at = 0;
        while (at < rest.length()) {
            if (!m.find(at) || m.start() != at || m.group(1).isEmpty() || m.group(1).equals(".")) {
                throw new IllegalArgumentException("time: invalid duration \"" + s + "\"");
            }
            nanos = nanos.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(NANOS.get(m.group(2)))));
            at = m.end();
        }
        long n = nanos.longValue();
        return Duration.ofNanos(negative ? -n : n);
    }

    /** {@code Duration.String}: {@code 0s}, {@code 300ms}, {@code 1.5s}, {@code 5m0s}, {@code 1h2m3s}. */
    public static String format(Duration d) {
        long nanos = d.toNanos();
        if (nanos == 0) {
            return "0s";
        }
        String sign = nanos < 0 ? "-" : "";
        long abs = Math.abs(nanos);
        if (abs < 1_000_000_000L) {
            if (abs < 1_000L) {
                return sign + abs + "ns";
            }
            if (abs < 1_000_000L) {
                return sign + decimal(abs, 1_000L) + "µs";
            }
            return sign + decimal(abs, 1_000_000L) + "ms";
        }
        long hours = abs / 3_600_000_000_000L;
        long minutes = abs / 60_000_000_000L % 60;
        String seconds = decimal(abs % 60_000_000_000L, 1_000_000_000L);
        StringBuilder sb = new StringBuilder(sign);
        if (hours > 0) {
            sb.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            sb.append(minutes).append('m');
        }
        return sb.append(seconds).append('s').toString();
    }

    private static String decimal(long value, long unit) {
        BigDecimal v = BigDecimal.valueOf(value).divide(BigDecimal.valueOf(unit)).stripTrailingZeros();
        return v.scale() <= 0 ? v.toBigInteger().toString() : v.toPlainString();
    }
}
