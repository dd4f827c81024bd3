package io.kuberaysim.apiserver.validation;

import io.kuberaysim.api.RandomString;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Kubernetes name, label and annotation checks with the exact messages of apimachinery's
 * {@code pkg/util/validation} (as of Kubernetes 1.32, the version this server reports). Every check returns the
 * list of problems, empty when the value is valid; callers wrap them into field errors such as
 * {@code metadata.name: Invalid value: "Foo": <message>}.
 *
 * <p>Lengths are counted in UTF-8 bytes, as Go's {@code len} does.
 */
public final class NameValidation {
    /**
     * Names checked as qualified names (label and annotation keys, finalizers), with their errors: every write checks
     * the same few keys with regular expressions. Bounded: past the limit, new names are checked each time.
     */
    private static final Map<String, List<String>> QUALIFIED_NAMES = new java.util.concurrent.ConcurrentHashMap<>();
    private static final int KNOWN_LIMIT = 4096;
    /** Longer names (invalid past 253 + 1 + 63 characters) are not kept. */
    private static final int KNOWN_LENGTH = 317;

    /** Maximum length of a DNS-1123 label or DNS-1035 label. */
    public static final int DNS1123_LABEL_MAX_LENGTH = 63;
    /** Maximum length of a DNS-1123 subdomain. */
    public static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
    /** Maximum length of a label value and of the name part of a qualified name. */
    public static final int LABEL_VALUE_MAX_LENGTH = 63;
    /** Maximum total size of all annotation keys and values: 256 KiB. */
    public static final int TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * 1024;

    private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS1123_LABEL_ERR = "a lowercase RFC 1123 label must consist of lower case "
            + "alphanumeric characters or '-', and must start and end with an alphanumeric character";
    private static final String DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
    private static final String DNS1123_SUBDOMAIN_ERR = "a lowercase RFC 1123 subdomain must consist of lower case "
            + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
    private static final String DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS1035_LABEL_ERR = "a DNS-1035 label must consist of lower case alphanumeric "
            + "characters or '-', start with an alphabetic character, and end with an alphanumeric character";
    private static final String QNAME_CHAR_FMT = "[A-Za-z0-9]";
    private static final String QNAME_EXT_CHAR_FMT = "[-A-Za-z0-9_.]";
    private static final String QUALIFIED_NAME_FMT =
            "(" + QNAME_CHAR_FMT + QNAME_EXT_CHAR_FMT + "*)?" + QNAME_CHAR_FMT;
    private static final String QUALIFIED_NAME_ERR = "must consist of alphanumeric characters, '-', '_' or '.', "
            + "and must start and end with an alphanumeric character";
    private static final String LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?";
    private static final String LABEL_VALUE_ERR = "a valid label must be an empty string or consist of alphanumeric "
            + "characters, '-', '_' or '.', and must start and end with an alphanumeric character";

    private static final String CONFIG_MAP_KEY_FMT = "[-._a-zA-Z0-9]+";
    private static final String CONFIG_MAP_KEY_ERR = "a valid config key must consist of alphanumeric characters, "
            + "'-', '_' or '.'";
    private static final Pattern CONFIG_MAP_KEY = Pattern.compile(CONFIG_MAP_KEY_FMT);
    private static final Pattern DNS1123_LABEL = Pattern.compile(DNS1123_LABEL_FMT);
    private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(DNS1123_SUBDOMAIN_FMT);
    private static final Pattern DNS1035_LABEL = Pattern.compile(DNS1035_LABEL_FMT);
    private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FMT);

    private NameValidation() {
    }

    /** {@code must be no more than N characters}. */
    public static String maxLenError(int length) {
        return "must be no more than " + length + " characters";
    }

    /** {@code must be non-empty}. */
    public static String emptyError() {
        return "must be non-empty";
    }

    /** A regex failure explained with examples, worded like apimachinery's {@code RegexError}. */
    public static String regexError(String msg, String regex, String... examples) {
        if (examples.length == 0) {
            return msg + " (regex used for validation is '" + regex + "')";
        }
        StringBuilder sb = new StringBuilder(msg).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            if (i > 0) {
                sb.append(" or ");
            }
            sb.append('\'').append(examples[i]).append("', ");
        }
        return sb.append("regex used for validation is '").append(regex).append("')").toString();
    }

    /** Most object names (pods, services, jobs, RayClusters...): a DNS-1123 subdomain of at most 253 bytes. */
    public static List<String> isDns1123Subdomain(String value) {
        List<String> errs = new ArrayList<>();
        if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) {
            errs.add(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
        }
        if (!isDns1123SubdomainText(value)) {
            errs.add(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, "example.com"));
        }
        return errs;
    }

    /**
     * Whether {@code value} matches {@code DNS1123_SUBDOMAIN_FMT}: dot-separated labels of lower-case alphanumerics
     * and '-', each starting and ending with an alphanumeric. Written out because every object name of every write
     * is checked (the regular expression's matcher cost more than the rest of the metadata checks).
     */
    static boolean isDns1123SubdomainText(String value) {
        int n = value.length();
        if (n == 0) {
            return false;
        }
        char previous = '.';
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            boolean alnum = c >= 'a' && c <= 'z' || c >= '0' && c <= '9';
            if (alnum) {
                previous = c;
                continue;
            }
            if (c == '-' ? previous == '.' : c != '.' || previous == '.' || previous == '-') {
                return false;
            }
            previous = c;
        }
        return previous != '.' && previous != '-';
    }

    /** Whether {@code value} matches {@code LABEL_VALUE_FMT}: empty, or alphanumerics, '-', '_', '.' between alphanumerics. */
    static boolean isLabelValueText(String value) {
        int n = value.length();
        if (n == 0) {
            return true;
        }
        if (!isAsciiAlphanumeric(value.charAt(0)) || !isAsciiAlphanumeric(value.charAt(n - 1))) {
            return false;
        }
        for (int i = 1; i < n - 1; i++) {
            char c = value.charAt(i);
            if (!isAsciiAlphanumeric(c) && c != '-' && c != '_' && c != '.') {
                return false;
            }
        }
        return true;
    }

    private static boolean isAsciiAlphanumeric(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
    }

    /** Keys of a ConfigMap's {@code data} and {@code binaryData} (they become file names in a volume). */
    public static List<String> isConfigMapKey(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > DNS1123_SUBDOMAIN_MAX_LENGTH) {
            errs.add(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
        }
        if (!CONFIG_MAP_KEY.matcher(value).matches()) {
            errs.add(regexError(CONFIG_MAP_KEY_ERR, CONFIG_MAP_KEY_FMT, "key.name", "KEY_NAME", "key-name"));
        }
        if (value.equals(".")) {
            errs.add("must not be '.'");
        } else if (value.equals("..")) {
            errs.add("must not be '..'");
        } else if (value.startsWith("..")) {
            errs.add("must not start with '..'");
        }
        return errs;
    }

    /** Namespace names and similar: a DNS-1123 label of at most 63 bytes. */
    public static List<String> isDns1123Label(String value) {
        List<String> errs = new ArrayList<>();
        if (byteLength(value) > DNS1123_LABEL_MAX_LENGTH) {
            errs.add(maxLenError(DNS1123_LABEL_MAX_LENGTH));
        }
        if (!DNS1123_LABEL.matcher(value).matches()) {
            if (DNS1123_SUBDOMAIN.matcher(value).matches()) {
                // A valid subdomain but not a label: length was checked already, so it must be the dots.
                errs.add("must not contain dots");
            } else {
                errs.add(regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, "my-name", "123-abc"));
            }
        }
        return errs;
    }

    /** Service names: a DNS-1035 label (must start with a letter), at most 63 bytes. */
    public static List<String> isDns1035Label(String value) {
        List<String> errs = new ArrayList<>();
        if (byteLength(value) > DNS1123_LABEL_MAX_LENGTH) {
            errs.add(maxLenError(DNS1123_LABEL_MAX_LENGTH));
        }
        if (!DNS1035_LABEL.matcher(value).matches()) {
            errs.add(regexError(DNS1035_LABEL_ERR, DNS1035_LABEL_FMT, "my-name", "abc-123"));
        }
        return errs;
    }

    /**
     * Label keys, annotation keys and finalizer names: an optional DNS-1123 subdomain prefix (≤253) and '/', then
     * a name (≤63) of alphanumerics, '-', '_' and '.'.
     */
    public static List<String> isQualifiedName(String value) {
        List<String> known = QUALIFIED_NAMES.get(value);
        if (known == null) {
            known = List.copyOf(checkQualifiedName(value));
            if (value.length() <= KNOWN_LENGTH && QUALIFIED_NAMES.size() < KNOWN_LIMIT) {
                QUALIFIED_NAMES.put(value, known);
            }
        }
        return known;
    }

    private static List<String> checkQualifiedName(String value) {
        List<String> errs = new ArrayList<>();
        String[] parts = value.split("/", -1);
        String name;
        switch (parts.length) {
            case 1 -> name = parts[0];
            case 2 -> {
                String prefix = parts[0];
                name = parts[1];
                if (prefix.isEmpty()) {
                    errs.add("prefix part " + emptyError());
                } else {
                    for (String msg : isDns1123Subdomain(prefix)) {
                        errs.add("prefix part " + msg);
                    }
                }
            }
            default -> {
                errs.add("a qualified name "
                        + regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
                        + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
                return errs;
            }
        }
        if (name.isEmpty()) {
            errs.add("name part " + emptyError());
        } else if (byteLength(name) > LABEL_VALUE_MAX_LENGTH) {
            errs.add("name part " + maxLenError(LABEL_VALUE_MAX_LENGTH));
        }
        if (!QUALIFIED_NAME.matcher(name).matches()) {
            errs.add("name part " + regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, "MyName", "my.name",
                    "123-abc"));
        }
        return errs;
    }

    /** Label values: empty, or up to 63 bytes of alphanumerics, '-', '_' and '.', alphanumeric at both ends. */
    public static List<String> isValidLabelValue(String value) {
        List<String> errs = new ArrayList<>();
        if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) {
            errs.add(maxLenError(LABEL_VALUE_MAX_LENGTH));
        }
        if (!isLabelValueText(value)) {
            errs.add(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
        }
        return errs;
    }

    /**
     * Name check for a DNS-1123-subdomain kind; with {@code prefix} the value is a {@code generateName} prefix,
     * which may end with '-' because random characters are appended (apimachinery's {@code NameIsDNSSubdomain}).
     */
    public static List<String> nameIsDnsSubdomain(String name, boolean prefix) {
        return isDns1123Subdomain(prefix ? maskTrailingDash(name) : name);
    }

    /** Like {@link #nameIsDnsSubdomain} for DNS-1123-label kinds (namespaces). */
    public static List<String> nameIsDnsLabel(String name, boolean prefix) {
        return isDns1123Label(prefix ? maskTrailingDash(name) : name);
    }

    /** Like {@link #nameIsDnsSubdomain} for DNS-1035-label kinds (services). */
    public static List<String> nameIsDns1035Label(String name, boolean prefix) {
        return isDns1035Label(prefix ? maskTrailingDash(name) : name);
    }

    /**
     * Makes a generateName prefix checkable as a name: a trailing '-' is acceptable because a suffix follows.
     * Reproduces apimachinery exactly, including that it drops the last <em>two</em> characters before appending
     * 'a' (so {@code "ab-"} is checked as {@code "aa"}).
     */
    static String maskTrailingDash(String name) {
        if (name.length() > 1 && name.endsWith("-")) {
            return name.substring(0, name.length() - 2) + "a";
        }
        return name;
    }

    /** Length of the random generateName suffix. */
    public static final int GENERATE_NAME_RANDOM_LENGTH = 5;
    private static final int MAX_GENERATED_NAME_LENGTH = DNS1123_LABEL_MAX_LENGTH - GENERATE_NAME_RANDOM_LENGTH;

    /**
     * Builds a name from a {@code generateName} prefix the way the API server's simple name generator does: the
     * prefix cut to 58 bytes plus 5 random characters. Validate the prefix first with
     * {@link #nameIsDnsSubdomain(String, boolean) nameIsDnsSubdomain(prefix, true)}; the result is then validated
     * like any other name.
     */
    public static String generateName(String prefix, java.util.random.RandomGenerator random) {
        String base = prefix.length() > MAX_GENERATED_NAME_LENGTH ? prefix.substring(0, MAX_GENERATED_NAME_LENGTH)
                : prefix;
        return base + RandomString.of(GENERATE_NAME_RANDOM_LENGTH, random);
    }

    /**
     * Annotation key problems: each key must be a qualified name, compared in lower case (annotation keys are
     * case-insensitive for this rule). Each entry is {@code key -> message}; the size limit is checked by
     * {@link #validateAnnotationsSize}.
     */
    public static List<Map.Entry<String, String>> validateAnnotationKeys(Map<String, String> annotations) {
        List<Map.Entry<String, String>> errs = new ArrayList<>();
        if (annotations == null) {
            return errs;
        }
        for (String key : annotations.keySet()) {
            for (String msg : isQualifiedName(key.toLowerCase(Locale.ROOT))) {
                errs.add(Map.entry(key, msg));
            }
        }
        return errs;
    }

    /**
     * Total annotation size check (sum of key and value byte lengths must not exceed 256 KiB). Returns
     * {@code annotations size N is larger than limit 262144} when exceeded, otherwise an empty list. The field
     * error the API server reports for it is {@code metadata.annotations: Too long: }
     * {@link #annotationsTooLongDetail()}.
     */
    public static List<String> validateAnnotationsSize(Map<String, String> annotations) {
        if (annotations == null) {
            return List.of();
        }
        long total = 0;
        for (Map.Entry<String, String> e : annotations.entrySet()) {
            total += byteLength(e.getKey()) + byteLength(e.getValue() == null ? "" : e.getValue());
        }
        if (total > TOTAL_ANNOTATION_SIZE_LIMIT_B) {
            return List.of("annotations size " + total + " is larger than limit " + TOTAL_ANNOTATION_SIZE_LIMIT_B);
        }
        return List.of();
    }

    /** Detail of the "Too long" field error for oversized annotations: {@code may not be more than 262144 bytes}. */
    public static String annotationsTooLongDetail() {
        return "may not be more than " + TOTAL_ANNOTATION_SIZE_LIMIT_B + " bytes";
    }

    private static int byteLength(String s) {
        // Fast path: ASCII strings (the valid case) have as many bytes as chars.
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return s.getBytes(StandardCharsets.UTF_8).length;
            }
        }
        return s.length();
    }
}
