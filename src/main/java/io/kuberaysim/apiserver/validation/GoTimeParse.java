package io.kuberaysim.apiserver.validation;

import java.nio.charset.StandardCharsets;

/**
 * Whether a time string parses with Go's {@code time.Parse} in one of the layouts kube-apiserver decodes times with,
 * and if not, Go's error in Go's words: {@code parsing time "2025-01-01T00:00:00.123Z" as
 * "2006-01-02T15:04:05.000000Z07:00": cannot parse ".123Z" as ".000000"}. kube-apiserver answers a body whose
 * {@code metav1.MicroTime} does not parse with that message; clients that serialize dates with milliseconds
 * (@kubernetes/client-node's {@code Date}) meet it when they write a Lease or an Event's {@code eventTime}.
 */
public final class GoTimeParse {
    /** metav1.MicroTime's layout ({@code metav1.RFC3339Micro}). */
    public static final String RFC3339_MICRO = "2006-01-02T15:04:05.000000Z07:00";
    /** metav1.Time's layout ({@code time.RFC3339}). */
    public static final String RFC3339 = "2006-01-02T15:04:05Z07:00";

    private static final String[] ELEMENTS = {"2006", "01", "02", "15", "04", "05", "Z07:00"};

    private GoTimeParse() {
    }

    /** Null when {@code value} parses in {@code layout}, else Go's {@code *time.ParseError} text. */
    public static String error(String value, String layout) {
        String rest = value;
        String remaining = layout;
        int month = 0;
        int day = 0;
        int year = 0;
        while (true) {
            int at = nextElement(remaining);
            String prefix = at < 0 ? remaining : remaining.substring(0, at);
            int matched = 0;
            while (matched < prefix.length() && matched < rest.length()
                    && rest.charAt(matched) == prefix.charAt(matched)) {
                matched++;
            }
            if (matched < prefix.length()) {
                return cannotParse(value, layout, rest.substring(matched), prefix);
            }
            rest = rest.substring(matched);
            if (at < 0) {
                if (!rest.isEmpty()) {
                    return "parsing time " + quote(value) + ": extra text: " + quote(rest);
                }
                break;
            }
            String element = element(remaining, at);
            remaining = remaining.substring(at + element.length());
            String hold = rest;
            String range = null;
            boolean bad = false;
            switch (element) {
                case "2006" -> {
                    if (rest.length() < 4 || !digit(rest, 0)) {
                        bad = true;
                    } else {
                        Integer y = atoi(rest.substring(0, 4));
                        bad = y == null;
                        year = y == null ? 0 : y;
                        rest = rest.substring(4);
                    }
                }
                case "01", "02", "04", "05" -> {
                    if (!digit(rest, 0) || !digit(rest, 1)) {
                        bad = true;
                    } else {
                        int n = (rest.charAt(0) - '0') * 10 + rest.charAt(1) - '0';
                        rest = rest.substring(2);
                        switch (element) {
                            case "01" -> {
                                month = n;
                                range = n <= 0 || n > 12 ? "month" : null;
                            }
                            case "02" -> day = n;
                            case "04" -> range = n >= 60 ? "minute" : null;
                            default -> {
                                range = n >= 60 ? "second" : null;
                                // a fraction the layout has no place for is skipped, as Go does
                                if (range == null && !remaining.startsWith(".") && rest.length() >= 2
                                        && (rest.charAt(0) == '.' || rest.charAt(0) == ',') && digit(rest, 1)) {
                                    int end = 1;
                                    while (digit(rest, end)) {
                                        end++;
                                    }
                                    rest = rest.substring(end);
                                }
                            }
                        }
                    }
                }
                case "15" -> {
                    if (!digit(rest, 0)) {
                        bad = true;
                    } else {
                        int digits = digit(rest, 1) ? 2 : 1;
                        int n = Integer.parseInt(rest.substring(0, digits));
                        rest = rest.substring(digits);
                        range = n >= 24 ? "hour" : null;
                    }
                }
                case "Z07:00" -> {
                    if (!rest.isEmpty() && rest.charAt(0) == 'Z') {
                        rest = rest.substring(1);
                    } else if (rest.length() < 6 || rest.charAt(3) != ':') {
                        bad = true;
                    } else {
                        boolean digits = digit(rest, 1) && digit(rest, 2) && digit(rest, 4) && digit(rest, 5);
                        int hours = digits ? Integer.parseInt(rest.substring(1, 3)) : 0;
                        int minutes = digits ? Integer.parseInt(rest.substring(4, 6)) : 0;
                        range = minutes > 60 ? "time zone offset minute" : hours > 24 ? "time zone offset hour" : null;
                        bad = !digits || (rest.charAt(0) != '+' && rest.charAt(0) != '-');
                        rest = rest.substring(6);
                    }
                }
                default -> { // a fraction of fixed width, ".000000"
                    int width = element.length();
                    if (rest.length() < width || (rest.charAt(0) != '.' && rest.charAt(0) != ',')) {
                        bad = true;
                    } else {
                        Integer nanos = atoi(rest.substring(1, width));
                        bad = nanos == null;
                        range = nanos != null && nanos < 0 ? "fractional second" : null;
                        rest = rest.substring(width);
                    }
                }
            }
            if (range != null) {
                return "parsing time " + quote(value) + ": " + range + " out of range";
            }
            if (bad) {
                return cannotParse(value, layout, hold, element);
            }
        }
        if (day < 1 || day > daysIn(month, year)) {
            return "parsing time " + quote(value) + ": day out of range";
        }
        return null;
    }

    private static String cannotParse(String value, String layout, String valueElement, String layoutElement) {
        return "parsing time " + quote(value) + " as " + quote(layout) + ": cannot parse " + quote(valueElement)
                + " as " + quote(layoutElement);
    }

    /** Where the next layout element starts in {@code layout}, or -1. */
    private static int nextElement(String layout) {
        int best = -1;
        for (String e : ELEMENTS) {
            int i = layout.indexOf(e);
            if (i >= 0 && (best < 0 || i < best)) {
                best = i;
            }
        }
        int fraction = layout.indexOf(".0");
        return fraction >= 0 && (best < 0 || fraction < best) ? fraction : best;
    }

    private static String element(String layout, int at) {
        if (layout.startsWith(".0", at)) {
            int end = at + 1;
            while (end < layout.length() && layout.charAt(end) == '0') {
                end++;
            }
            return layout.substring(at, end);
        }
        for (String e : ELEMENTS) {
            if (layout.startsWith(e, at)) {
                return e;
            }
        }
        throw new IllegalStateException("no layout element at " + at);
    }

    private static boolean digit(String s, int i) {
        return i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9';
    }

    /** Go's {@code atoi} in the time package: an optional sign, then digits only. */
    private static Integer atoi(String s) {
        int start = !s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+') ? 1 : 0;
        if (start == s.length()) {
            return 0;
        }
        for (int i = start; i < s.length(); i++) {
            if (!digit(s, i)) {
                return null;
            }
        }
        return Integer.parseInt(s);
    }

    private static int daysIn(int month, int year) {
        return switch (month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** Go's time package quoting: in double quotes, with {@code "} and {@code \} escaped, other bytes as \xNN. */
    static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x80) {
                out.append(c);
            } else {
                int end = Character.isHighSurrogate(c) && i + 1 < s.length() ? i + 2 : i + 1;
                for (byte b : s.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
                    out.append("\\x").append(Character.forDigit((b >> 4) & 0xf, 16))
                            .append(Character.forDigit(b & 0xf, 16));
                }
                i = end - 1;
            }
        }
        return out.append('"').toString();
    }
}
