package io.kuberaysim.security;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The start-up banner: where the server is, how to use it, and what is unsafe about it; never a token. */
class StartupBannerTest {
    static final TokenAuthenticator NONE = TokenAuthenticator.from(new SecurityProperties.Auth(null, null));
    static final TokenAuthenticator TOKEN = TokenAuthenticator.from(new SecurityProperties.Auth("s3cr3t", null));
    static final ServerEndpoint LOOPBACK = new ServerEndpoint("http://127.0.0.1:8080", "127.0.0.1", false, null);
    static final ServerEndpoint EVERYWHERE = new ServerEndpoint("http://127.0.0.1:8080", "0.0.0.0", true, null);

    @Test
    void loopbackWithoutTokenSaysSoAndDoesNotWarn() {
        String banner = StartupBanner.render(LOOPBACK, "wall", NONE, null);

        assertThat(banner).contains("http://127.0.0.1:8080 (wall clock)", "kubectl --server http://127.0.0.1:8080",
                "http://127.0.0.1:8080/swagger-ui.html", "none: every request is allowed", "in memory only");
        assertThat(StartupBanner.warnings(LOOPBACK, NONE)).isEmpty();
    }

    @Test
    void exposedWithoutTokenWarns() {
        assertThat(StartupBanner.render(EVERYWHERE, "virtual", NONE, null)).contains("listening on 0.0.0.0");
        assertThat(StartupBanner.warnings(EVERYWHERE, NONE)).singleElement().asString()
                .contains("Listening on 0.0.0.0 without authentication");
    }

    @Test
    void aTokenWithoutTlsWarnsThatKubectlWillNotSendIt() {
        String banner = StartupBanner.render(LOOPBACK, "wall", TOKEN, Path.of("/tmp/kc"));

        assertThat(banner).contains("kubectl --kubeconfig /tmp/kc", "bearer token required").doesNotContain("s3cr3t");
        assertThat(StartupBanner.warnings(LOOPBACK, TOKEN)).singleElement().asString()
                .contains("only over https");
        assertThat(StartupBanner.warnings(new ServerEndpoint("https://127.0.0.1:8443", "127.0.0.1", false, null),
                TOKEN)).isEmpty();
    }
}
