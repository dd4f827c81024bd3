package io.kuberaysim.apiserver.http;

import org.slf4j.Logger;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Logs the first occurrence of each cause at INFO and the repeats at DEBUG, without stack traces: what clients do
 * wrong (abort a body, stop reading a watch) is worth one line each, not one per connection.
 */
public final class FirstOccurrenceLog {
    /** Causes remembered; beyond this every occurrence goes to DEBUG, so the set stays small. */
    private static final int MAX_CAUSES = 64;

    private final Logger log;
    private final Set<String> seen = ConcurrentHashMap.newKeySet();

    public FirstOccurrenceLog(Logger log) {
        this.log = log;
    }

    /**
     * @param cause   what makes two occurrences the same (e.g. the exception's class)
     * @param message an SLF4J message pattern
     */
    public void log(String cause, String message, Object... args) {
        if (seen.size() < MAX_CAUSES && seen.add(cause)) {
            log.info(message + " (repeats of this cause are logged at DEBUG)", args);
        } else if (log.isDebugEnabled()) {
            log.debug(message, args);
        }
    }
}
