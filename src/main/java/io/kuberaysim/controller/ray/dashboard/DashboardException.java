package io.kuberaysim.controller.ray.dashboard;

/** An error answer of a Ray dashboard. */
public final class DashboardException extends RuntimeException {
    /** What went wrong. */
    public enum Kind {
        /** No job with that id (the dashboard answers 404 / BadRequest). */
        NOT_FOUND,
        /** A job with that submission id exists already. */
        ALREADY_EXISTS,
        /** The cluster's head is not reachable. */
        UNREACHABLE,
        /** A Serve config the dashboard cannot parse (Ray answers 400). */
        INVALID_CONFIG
    }

    private final Kind kind;

    public DashboardException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
