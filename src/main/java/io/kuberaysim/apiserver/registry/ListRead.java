package io.kuberaysim.apiserver.registry;

import io.kuberaysim.apiserver.errors.ApiException;

/**
 * Where a list reads the store, from its {@code resourceVersion}, {@code resourceVersionMatch}, {@code limit} and
 * {@code continue}, as kube-apiserver 1.32 decides between its watch cache and etcd:
 * <ul>
 *   <li>no resourceVersion: the current state (a consistent read);</li>
 *   <li>{@code resourceVersion=0} (unset match or NotOlderThan): any state, served whole: the limit is ignored;</li>
 *   <li>{@code resourceVersion=N} with NotOlderThan, or unset without a limit: a state at least as new as N, the
 *       store's current one once it has reached N;</li>
 *   <li>{@code resourceVersion=N} with Exact, or unset with a limit: the state at exactly N;</li>
 *   <li>{@code continue}: the state at the token's resourceVersion, or the current one for a negative one.</li>
 * </ul>
 *
 * @param revision     the revision to read at exactly; 0 = the current state
 * @param notOlderThan the revision the store must have reached first; 0 = none
 * @param honourLimit  false when the limit is ignored
 * @param from         the continue token, if any
 */
record ListRead(long revision, long notOlderThan, boolean honourLimit, ContinueToken from) {
    static final String EXACT = "Exact";
    static final String NOT_OLDER_THAN = "NotOlderThan";

    static ListRead of(ListOptions options) {
        String rvText = options.resourceVersion() == null ? "" : options.resourceVersion();
        String token = options.continueToken();
        if (token != null && !token.isEmpty()) {
            ContinueToken from = ContinueToken.decode(token);
            if (!rvText.isEmpty() && !rvText.equals("0")) {
                throw ApiException.badRequest("specifying resource version is not allowed when using continue");
            }
            return new ListRead(Math.max(0, from.resourceVersion()), 0, true, from);
        }
        if (rvText.isEmpty()) {
            return new ListRead(0, 0, true, null);
        }
        long rv = parseResourceVersion(rvText);
        boolean any = rvText.equals("0");
        String match = options.resourceVersionMatch() == null ? "" : options.resourceVersionMatch();
        return switch (match) {
            case NOT_OLDER_THAN -> new ListRead(0, rv, !any, null);
            case EXACT -> new ListRead(rv, 0, true, null);
            case "" -> options.limit() != null && options.limit() > 0 && rv > 0
                    ? new ListRead(rv, 0, true, null)
                    : new ListRead(0, rv, !any, null);
            default -> throw ApiException.badRequest("unknown ResourceVersionMatch value: " + match);
        };
    }

    /** A resourceVersion as a number, or 400 with the message kube-apiserver's storage gives. */
    static long parseResourceVersion(String rv) {
        if (!rv.isEmpty() && rv.chars().allMatch(c -> c >= '0' && c <= '9')) {
            try {
                return Long.parseLong(rv);
            } catch (NumberFormatException e) {
                return Long.MAX_VALUE; // beyond any revision this store will reach
            }
        }
        throw ApiException.badRequest("invalid resource version: resourceVersion: Invalid value: \"" + rv
                + "\": strconv.ParseUint: parsing \"" + rv + "\": invalid syntax");
    }
}
