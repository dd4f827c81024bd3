package io.kuberaysim.apiserver.validation;

import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The syntax of a {@code resource.Quantity} ({@code 500m}, {@code 1Gi}, {@code 2e3}), with the errors of
 * apimachinery's {@code ParseQuantity}, and the pattern CRDs put on quantity fields. fabric8's {@link Quantity}
 * does the arithmetic once a value is known to be well formed; it accepts anything, so this check comes first.
 */
public final class QuantityFormat {
    /** The expression in {@link #FORMAT_ERROR}, as apimachinery words it. */
    public static final String LOOSE_REGEX = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";
    /** {@code ErrFormatWrong}. */
    public static final String FORMAT_ERROR = "quantities must match the regular expression '" + LOOSE_REGEX + "'";
    /** {@code ErrSuffix}. */
    public static final String SUFFIX_ERROR = "unable to parse quantity's suffix";
    /** The pattern controller-gen puts on quantity fields of a CRD schema (e.g. KubeRay's pod templates). */
    public static final String CRD_PATTERN = "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]"
            + "|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

    private static final Pattern LOOSE = Pattern.compile(LOOSE_REGEX);
    private static final Pattern NUMBER = Pattern.compile("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)");
    private static final Pattern DECIMAL_EXPONENT = Pattern.compile("[eE][+-]?[0-9]+");
    private static final Set<String> SUFFIXES = Set.of("", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei",
            "n", "u", "m", "k", "M", "G", "T", "P", "E");
    private static final Pattern CRD = Pattern.compile(CRD_PATTERN);
    /**
     * Quantities seen, with their error (or {@link #WELL_FORMED}) and, once asked for, their amount: every Pod write
     * checks and sums the same few ({@code 1}, {@code 2Gi}, {@code 500m}), and matching them (three regular
     * expressions) and parsing them (fabric8's Quantity) was a large part of a write's allocation. Bounded: past the
     * limit, new texts are checked and parsed each time.
     */
    private static final Map<String, String> ERRORS = new ConcurrentHashMap<>();
    private static final Map<String, BigDecimal> AMOUNTS = new ConcurrentHashMap<>();
    private static final int KNOWN_LIMIT = 4096;
    private static final String WELL_FORMED = "";
    /** Longer texts (no real quantity is this long) are not kept. */
    private static final int KNOWN_LENGTH = 64;

    private QuantityFormat() {
    }

    /** Why {@code text} is not a quantity ({@link #FORMAT_ERROR} or {@link #SUFFIX_ERROR}), or null if it is one. */
    public static String error(String text) {
        if (text == null) {
            return FORMAT_ERROR;
        }
        String known = ERRORS.get(text);
        if (known == null) {
            known = check(text);
            known = known == null ? WELL_FORMED : known;
            if (text.length() <= KNOWN_LENGTH && ERRORS.size() < KNOWN_LIMIT) {
                ERRORS.put(text, known);
            }
        }
        return known == WELL_FORMED ? null : known;
    }

    private static String check(String text) {
        if (!LOOSE.matcher(text).matches()) {
            return FORMAT_ERROR;
        }
        var number = NUMBER.matcher(text);
        if (!number.lookingAt()) {
            return FORMAT_ERROR;
        }
        String suffix = text.substring(number.end());
        if (!SUFFIXES.contains(suffix) && !DECIMAL_EXPONENT.matcher(suffix).matches()) {
            // a second decimal point lands here in the loose expression, and Go reports it as a format error
            return suffix.contains(".") ? FORMAT_ERROR : SUFFIX_ERROR;
        }
        return null;
    }

    /** Whether {@code text} matches a CRD's quantity pattern ({@link #CRD_PATTERN}). */
    public static boolean matchesCrdPattern(String text) {
        return CRD.matcher(text).matches();
    }

    /** The value of a well-formed quantity in base units (cores, bytes, devices). */
    public static BigDecimal amount(String text) {
        BigDecimal known = text == null ? null : AMOUNTS.get(text);
        if (known == null) {
            known = Quantity.getAmountInBytes(new Quantity(text));
            if (text != null && known != null && text.length() <= KNOWN_LENGTH && AMOUNTS.size() < KNOWN_LIMIT) {
                AMOUNTS.put(text, known);
            }
        }
        return known;
    }
}
