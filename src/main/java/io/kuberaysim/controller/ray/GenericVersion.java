package io.kuberaysim.controller.ray;

import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A version as Kubernetes' {@code version.ParseGeneric} reads it (KubeRay checks {@code rayVersion} with it): two
 * or more dot-separated numbers, the first without a leading zero, an optional {@code v} prefix, anything after the
 * numbers ignored. Parse errors carry apimachinery's messages, which KubeRay wraps into its own.
 */
public final class GenericVersion implements Comparable<GenericVersion> {
    private static final Pattern VERSION = Pattern.compile("^\\s*v?([0-9]+(?:\\.[0-9]+)*)(.*)*$", Pattern.DOTALL);

    private final long[] components;

    private GenericVersion(long[] components) {
        this.components = components;
    }

    /** A parse failure with apimachinery's message. */
    public static final class InvalidVersion extends Exception {
        InvalidVersion(String message) {
            super(message, null, false, false);
        }
    }

    public static GenericVersion parse(String text) throws InvalidVersion {
        Matcher m = VERSION.matcher(text);
        if (!m.matches()) {
            throw new InvalidVersion("could not parse \"" + text + "\" as version");
        }
        String[] parts = m.group(1).split("\\.");
        if (parts.length < 2) {
            throw new InvalidVersion("illegal version string \"" + text + "\"");
        }
        long[] c = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            if (i == 0 && parts[i].startsWith("0") && !parts[i].equals("0")) {
                throw new InvalidVersion("illegal zero-prefixed version component \"" + parts[i] + "\" in \"" + text
                        + "\"");
            }
            try {
                c[i] = Long.parseUnsignedLong(parts[i]);
            } catch (NumberFormatException e) {
                throw new InvalidVersion("illegal non-numeric version component \"" + parts[i] + "\" in \"" + text
                        + "\": strconv.ParseUint: parsing \"" + parts[i] + "\": value out of range");
            }
        }
        return new GenericVersion(c);
    }

    /** {@code MustParseGeneric} for constants. */
    public static GenericVersion of(String text) {
        try {
            return parse(text);
        } catch (InvalidVersion e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    public boolean lessThan(GenericVersion other) {
        return compareTo(other) < 0;
    }

    /** Component by component, missing components counting as 0. */
    @Override
    public int compareTo(GenericVersion o) {
        int n = Math.max(components.length, o.components.length);
        for (int i = 0; i < n; i++) {
            long a = i < components.length ? components[i] : 0;
            long b = i < o.components.length ? o.components[i] : 0;
            if (a != b) {
                return Long.compareUnsigned(a, b);
            }
        }
        return 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GenericVersion v && compareTo(v) == 0;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(components);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (long c : components) {
            sb.append(sb.isEmpty() ? "" : ".").append(Long.toUnsignedString(c));
        }
        return sb.toString();
    }
}
