package io.kuberaysim.apiserver.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns a request's warnings into {@code Warning} header values as kube-apiserver's warning recorder does:
 * duplicates are dropped, and once the texts pass 4,096 characters every warning is cut to 256 characters and
 * warnings beyond 4,096 truncated characters are left out. A write with hundreds of unknown fields therefore
 * answers with its object and a bounded set of headers instead of overflowing the response header buffer.
 */
final class WarningHeaders {
    /** kube-apiserver's {@code truncateAtTotalRunes} and {@code truncateItemRunes}. */
    static final WarningHeaders KUBE = new WarningHeaders(4 * 1024, 256);

    private final int totalRunes;
    private final int itemRunes;

    WarningHeaders(int totalRunes, int itemRunes) {
        this.totalRunes = totalRunes;
        this.itemRunes = itemRunes;
    }

    /** Header values ({@code 299 - "text"}) in the order the warnings were raised. */
    List<String> values(List<String> warnings) {
        List<String> headers = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        List<String> ordered = new ArrayList<>();
        int written = 0;
        boolean truncating = false;
        for (String text : warnings) {
            if (text == null || text.isEmpty()) {
                continue;
            }
            if (truncating && written >= totalRunes) {
                break;
            }
            if (!seen.add(text)) {
                continue;
            }
            ordered.add(text);
            String item = truncating ? truncate(text) : text;
            String header = header(item);
            if (header == null) {
                continue;
            }
            int runes = item.codePointCount(0, item.length());
            if (truncating || written + runes <= totalRunes) {
                written += runes;
                headers.add(header);
                continue;
            }
            // over the budget for the first time: replay everything so far, each cut to the item limit
            truncating = true;
            written = 0;
            headers.clear();
            for (String earlier : ordered) {
                String cut = truncate(earlier);
                String h = header(cut);
                if (h != null) {
                    written += cut.codePointCount(0, cut.length());
                    headers.add(h);
                }
            }
        }
        return headers;
    }

    private String truncate(String text) {
        if (text.codePointCount(0, text.length()) <= itemRunes) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, itemRunes));
    }

    /**
     * {@code 299 - "text"} with quotes and backslashes escaped, or null for text kube-apiserver refuses to send
     * (control characters, broken surrogates). Tomcat writes header values as ISO-8859-1, so the UTF-8 bytes are
     * passed through one char per byte: clients receive UTF-8, as from kube-apiserver.
     */
    static String header(String text) {
        StringBuilder sb = new StringBuilder(text.length() + 10).append("299 - \"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) || Character.isSurrogate(c) && !validSurrogateAt(text, i)) {
                return null;
            }
            if (c == '"' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        sb.append('"');
        return new String(sb.toString().getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    private static boolean validSurrogateAt(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
