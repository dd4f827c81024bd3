package io.kuberaysim.controller.ray;

import java.util.Objects;

/**
 * The first failed check of a Ray custom resource (KubeRay's {@code ValidateRay*Metadata}, {@code ...Spec},
 * {@code ...Status}): which part failed and Ray's message. Validators return it, or null when the object is valid.
 *
 * @param part    the part of the object that failed
 * @param message KubeRay's message, without the object's key
 */
public record ValidationFailure(Part part, String message) {

    /** The part of the object a check looks at. */
    public enum Part {
        /** Name checks. */
        METADATA("Metadata", "metadata"),
        /** Spec checks. */
        SPEC("Spec", "spec"),
        /** Status checks. */
        STATUS("Status", "status");

        private final String reasonSuffix;
        private final String word;

        Part(String reasonSuffix, String word) {
            this.reasonSuffix = reasonSuffix;
            this.word = word;
        }

        /** The part as KubeRay's messages name it: metadata, spec or status. */
        public String word() {
            return word;
        }
    }

    public ValidationFailure {
        Objects.requireNonNull(part, "part");
        Objects.requireNonNull(message, "message");
    }

    /** A metadata failure. */
    public static ValidationFailure metadata(String message) {
        return new ValidationFailure(Part.METADATA, message);
    }

    /** A spec failure. */
    public static ValidationFailure spec(String message) {
        return new ValidationFailure(Part.SPEC, message);
    }

    /** A status failure. */
    public static ValidationFailure status(String message) {
        return new ValidationFailure(Part.STATUS, message);
    }

    /** The Warning event reason KubeRay records, e.g. {@code InvalidRayJobSpec} for kind {@code RayJob}. */
    public String eventReason(String kind) {
        return "Invalid" + kind + part.reasonSuffix;
    }
}
