package io.kuberaysim.logging;

/**
 * Values from objects and requests made safe for one log line: a field that holds a newline (or any other control
 * character) could otherwise forge whole log lines. Control characters, backslashes and Unicode line separators
 * are written as escapes ({@code \n}, {@code \u2028}), so every logged value stays on its line and reads back
 * unambiguously. Anything a user can write into an object goes through {@link #escape} before it is logged.
 */
public final class LogValues {
    /** Longest value written to a log line; the rest is cut, as one object field must not flood the log. */
    static final int MAX_LENGTH = 1024;

    private LogValues() {
    }

    /** {@code value} with control characters escaped, cut to {@value #MAX_LENGTH} characters; "null" for null. */
    public static String escape(Object value) {
        String s = String.valueOf(value);
        StringBuilder out = null;
        int end = Math.min(s.length(), MAX_LENGTH);
        for (int i = 0; i < end; i++) {
            char c = s.charAt(i);
            String replacement = switch (c) {
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                case '\t' -> "\\t";
                case '\\' -> "\\\\";
                default -> c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029'
                        ? String.format("\\u%04x", (int) c) : null;
            };
            if (replacement != null && out == null) {
                out = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (out != null) {
                if (replacement != null) {
                    out.append(replacement);
                } else {
                    out.append(c);
                }
            }
        }
        String result = out == null ? s.substring(0, end) : out.toString();
        return s.length() > MAX_LENGTH ? result + "...(" + (s.length() - MAX_LENGTH) + " more characters)" : result;
    }
}
