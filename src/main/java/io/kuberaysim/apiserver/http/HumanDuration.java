package io.kuberaysim.apiserver.http;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Ages and durations as kube-apiserver's table printers write them (apimachinery's HumanDuration): seconds up to
 * two minutes ("90s"), then minutes with seconds below ten minutes ("5m30s"), hours with minutes below eight hours
 * ("3h5m"), days with hours below eight days ("2d3h"), days below two years, years with days below eight years.
 */
final class HumanDuration {
    private HumanDuration() {
    }

    static String human(Duration d) {
        long seconds = d.getSeconds();
        if (seconds < -1) {
            return "<invalid>";
        }
        if (seconds < 0) {
            return "0s";
        }
        if (seconds < 120) {
            return seconds + "s";
        }
        long minutes = seconds / 60;
        if (minutes < 10) {
            return withRest(minutes, "m", seconds % 60, "s");
        }
        if (minutes < 180) {
            return minutes + "m";
        }
        long hours = minutes / 60;
        if (hours < 8) {
            return withRest(hours, "h", minutes % 60, "m");
        }
        if (hours < 48) {
            return hours + "h";
        }
        long days = hours / 24;
        if (days < 8) {
            return withRest(days, "d", hours % 24, "h");
        }
        if (days < 365 * 2) {
            return days + "d";
        }
        if (days < 365 * 8) {
            return withRest(days / 365, "y", days % 365, "d");
        }
        return days / 365 + "y";
    }

    /** "5m" when the smaller unit is zero, else "5m30s". */
    private static String withRest(long big, String bigUnit, long small, String smallUnit) {
        return small == 0 ? big + bigUnit : big + bigUnit + small + smallUnit;
    }

    /** The age of an RFC 3339 timestamp at {@code now}, or {@code null} when it is absent or unreadable. */
    static String since(String timestamp, Instant now) {
        if (timestamp == null || timestamp.isEmpty()) {
            return null;
        }
        try {
            return human(Duration.between(Instant.parse(timestamp), now));
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
