package io.kuberaysim.controller.ray.cluster;

import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Quantity arithmetic with apimachinery's canonical printing: a sum keeps the format family (binary
 * {@code Ki..Ei} or decimal SI) of its first operand, as Go's {@code Quantity.Add} does, and prints with the
 * largest exact suffix ({@code 10Gi}, {@code 5}, {@code 1500m}).
 */
public final class ResourceQuantities {
    private static final String[] BINARY = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    private static final String[] DECIMAL = {"k", "M", "G", "T", "P", "E"};

    private ResourceQuantities() {
    }

    /** The value in base units (cores, bytes, devices). */
    public static BigDecimal amount(String quantity) {
        return Quantity.getAmountInBytes(new Quantity(quantity));
    }

    /** Whether a quantity text uses a binary suffix. */
    public static boolean isBinary(String quantity) {
        return quantity != null && quantity.matches(".*[KMGTPE]i$");
    }

    /** Canonical text of {@code value} in the given family. */
    public static String format(BigDecimal value, boolean binary) {
        BigDecimal v = value.stripTrailingZeros();
        if (v.signum() == 0) {
            return "0";
        }
        if (binary && isInteger(v) && v.abs().compareTo(BigDecimal.valueOf(1024)) >= 0) {
            BigInteger i = v.toBigIntegerExact();
            BigInteger unit = BigInteger.valueOf(1024);
            int k = 0;
            while (k < BINARY.length && i.mod(unit).signum() == 0) {
                i = i.divide(unit);
                k++;
            }
            return k == 0 ? i.toString() : i + BINARY[k - 1];
        }
        // decimal SI: milli units rounded up, as Go's canonical form never goes below the value
        BigDecimal milli = v.movePointRight(3).setScale(0, RoundingMode.CEILING);
        if (milli.remainder(BigDecimal.valueOf(1000)).signum() != 0) {
            return milli.toBigInteger() + "m";
        }
        BigInteger i = milli.movePointLeft(3).toBigIntegerExact();
        BigInteger thousand = BigInteger.valueOf(1000);
        int k = 0;
        while (k < DECIMAL.length && i.signum() != 0 && i.mod(thousand).signum() == 0) {
            i = i.divide(thousand);
            k++;
        }
        return k == 0 ? i.toString() : i + DECIMAL[k - 1];
    }

    private static boolean isInteger(BigDecimal v) {
        return v.scale() <= 0 || v.stripTrailingZeros().scale() <= 0;
    }

    /** Ceiling of the value as a long, as Go's {@code Quantity.Value()}. */
    public static long ceil(String quantity) {
        return amount(quantity).setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /** A running sum that remembers the format family of its first operand. */
    public static final class Sum {
        private BigDecimal total = BigDecimal.ZERO;
        private Boolean binary;

        /** Adds {@code quantity} times {@code times}. */
        public void add(String quantity, long times) {
            if (binary == null) {
                binary = isBinary(quantity);
            }
            total = total.add(amount(quantity).multiply(BigDecimal.valueOf(times)));
        }

        /** The canonical text of the sum ("0" when nothing was added). */
        public String text() {
            return format(total, binary != null && binary);
        }

        /** The sum as a fabric8 Quantity. */
        public Quantity quantity() {
            return new Quantity(text());
        }
    }
}
