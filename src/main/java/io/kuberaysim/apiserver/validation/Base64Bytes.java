package io.kuberaysim.apiserver.validation;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * How kube-apiserver's JSON decoding reads a {@code []byte} field (a Secret's {@code data}, a ConfigMap's
 * {@code binaryData}): standard base64 with padding, line breaks ignored, anything else refused with Go's
 * {@code illegal base64 data at input byte N}, N being where Go's decoder stops. Java's decoders differ in what
 * they accept (MIME skips every stray character, the basic one refuses line breaks), so the check is Go's own rule.
 */
public final class Base64Bytes {
    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    private static final byte[] DECODE = new byte[256];

    static {
        java.util.Arrays.fill(DECODE, (byte) -1);
        for (int i = 0; i < ALPHABET.length(); i++) {
            DECODE[ALPHABET.charAt(i)] = (byte) i;
        }
    }

    private Base64Bytes() {
    }

    /** Go's error for a value that is not base64, or empty when it decodes. */
    public static Optional<String> error(String value) {
        int at = corruptAt(value.getBytes(StandardCharsets.UTF_8));
        return at < 0 ? Optional.empty() : Optional.of("illegal base64 data at input byte " + at);
    }

    /** The decoded length of a value that {@link #error} accepts. */
    public static int decodedLength(String value) {
        int chars = 0;
        int padding = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '=') {
                padding++;
            } else if (c != '\n' && c != '\r') {
                chars++;
            }
        }
        return (chars + padding) / 4 * 3 - padding;
    }

    /** Where Go's {@code base64.StdEncoding.Decode} reports corrupt input, or -1 when the input decodes. */
    static int corruptAt(byte[] src) {
        int si = 0;
        while (true) {
            int j = 0;
            while (j < 4) {
                if (si == src.length) {
                    if (j == 0) {
                        return -1;
                    }
                    return si - j; // an unfinished quantum: Go requires padding
                }
                int in = src[si++] & 0xff;
                if (DECODE[in] >= 0) {
                    j++;
                    continue;
                }
                if (in == '\n' || in == '\r') {
                    continue;
                }
                if (in != '=' || j < 2) {
                    return si - 1;
                }
                if (j == 2) { // "==" expected: the second '=' after any line breaks
                    si = skipLineBreaks(src, si);
                    if (si == src.length) {
                        return src.length;
                    }
                    if (src[si] != '=') {
                        return si - 1;
                    }
                    si++;
                }
                si = skipLineBreaks(src, si);
                return si < src.length ? si : -1; // anything after the padding is trailing garbage
            }
        }
    }

    private static int skipLineBreaks(byte[] src, int si) {
        while (si < src.length && (src[si] == '\n' || src[si] == '\r')) {
            si++;
        }
        return si;
    }
}
