package io.kuberaysim.apiserver.http;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Ages as kubectl prints them (apimachinery's ShortHumanDuration): "45s", "5m", "3h", "2d", "1y". */
final class HumanDuration {
    private HumanDuration() {
    }

    static String shortHuman(Duration d) {
        long seconds = d.getSeconds();
        if (seconds < -1) {
            return "<invalid>";
        }
        if (seconds < 0) {
            return "0s";
        }
        if (seconds < 60) {
            return seconds + "s";
        }
        long minutes = seconds / 60;
        if (minutes < 60) {
            return minutes + "m";
        }
        long hours = minutes / 60;
        if (hours < 24) {
            return hours + "h";
        }
        if (hours < 24 * 365) {
            return (hours / 24) + "d";
        }
        return (hours / 24 / 365) + "y";
    }

    /** The age of an RFC 3339 timestamp at {@code now}, or {@code null} when it is absent or unreadable. */
    static String since(String timestamp, Instant now) {
        if (timestamp == null || timestamp.isEmpty()) {
            return null;
        }
        try {
            return shortHuman(Duration.between(Instant.parse(timestamp), now));
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
