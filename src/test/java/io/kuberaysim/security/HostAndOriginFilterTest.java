package io.kuberaysim.security;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import java.net.InetAddress;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Host rule where a real port cannot show it: a server listening beyond loopback is reached by the address
 * the connection arrived on or by its configured name; any other name is a possible DNS rebinding.
 */
class HostAndOriginFilterTest {
    private static int status(HostAndOriginFilter filter, String host, String localAddr) throws Exception {
        MockHttpServletRequest req = new MockHttpServletRequest("GET", "/api/v1/pods");
        req.addHeader("Host", host);
        req.setLocalAddr(localAddr);
        req.setServerName(host.replaceFirst(":\\d+$", ""));
        MockHttpServletResponse resp = new MockHttpServletResponse();
        filter.doFilter(req, resp, new MockFilterChain());
        return resp.getStatus();
    }

    @Test
    void onEveryInterfaceTheArrivalAddressIsTheServersOwn() throws Exception {
        HostAndOriginFilter filter = new HostAndOriginFilter(List.of(), null);

        assertThat(status(filter, "10.0.0.5:8080", "10.0.0.5")).isEqualTo(200);
        assertThat(status(filter, "10.0.0.6:8080", "10.0.0.5")).isEqualTo(403);
        assertThat(status(filter, "kuberay-sim:8080", "10.0.0.5")).isEqualTo(403);
        assertThat(status(filter, "localhost:8080", "127.0.0.1")).isEqualTo(200);
    }

    @Test
    void aConfiguredAddressAndListedHostsAreAllowed() throws Exception {
        InetAddress named = InetAddress.getByAddress("sim.internal", new byte[]{10, 0, 0, 5});
        HostAndOriginFilter filter = new HostAndOriginFilter(List.of("http://kuberay-sim:8080", "*.ci.example"),
                named);

        assertThat(status(filter, "sim.internal:8080", "10.0.0.5")).isEqualTo(200);
        assertThat(status(filter, "10.0.0.5:8080", "10.0.0.5")).isEqualTo(200);
        assertThat(status(filter, "kuberay-sim:8080", "10.0.0.5")).isEqualTo(200);
        assertThat(status(filter, "runner-1.ci.example", "10.0.0.5")).isEqualTo(200);
        assertThat(status(filter, "ci.example.evil", "10.0.0.5")).isEqualTo(403);
    }

    @Test
    void aStarAllowsEveryHostAndOrigin() throws Exception {
        HostAndOriginFilter filter = new HostAndOriginFilter(List.of("*"), null);

        assertThat(status(filter, "anything.example", "10.0.0.5")).isEqualTo(200);
    }

    @Test
    void hostNamesAreReadWithoutPortOrBrackets() {
        assertThat(HostAndOriginFilter.hostName("Example.COM:8080")).isEqualTo("example.com");
        assertThat(HostAndOriginFilter.hostName("[::1]:8080")).isEqualTo("::1");
        assertThat(HostAndOriginFilter.hostOf("https://a.example:8443/path")).isEqualTo("a.example");
        assertThat(HostAndOriginFilter.hostOf("b.example")).isEqualTo("b.example");
    }
}
