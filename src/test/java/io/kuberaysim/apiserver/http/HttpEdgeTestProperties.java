package io.kuberaysim.apiserver.http;

/**
 * One property set for the real-port tests of the HTTP edge (limits, container errors, warnings), so they share
 * one application context: small limits make the oversized and slow cases quick.
 */
final class HttpEdgeTestProperties {
    static final String MAX_BODY = "65536";
    static final String ALL = "kuberay-sim.controllers=false\nkuberay-sim.max-request-body-bytes=" + MAX_BODY
            + "\nkuberay-sim.request-body-timeout=2s\nkuberay-sim.watch-buffer=50";

    private HttpEdgeTestProperties() {
    }
}
