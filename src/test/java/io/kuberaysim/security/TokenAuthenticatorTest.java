package io.kuberaysim.security;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenAuthenticatorTest {
    @Test
    void withoutSettingsNothingIsRequired() {
        TokenAuthenticator a = TokenAuthenticator.from(new SecurityProperties.Auth(null, null));

        assertThat(a.enabled()).isFalse();
        assertThat(a.authenticate("anything")).isEmpty();
    }

    @Test
    void theTokenPropertyMakesAnAdministrator() {
        TokenAuthenticator a = TokenAuthenticator.from(new SecurityProperties.Auth("abc123", null));

        assertThat(a.enabled()).isTrue();
        assertThat(a.authenticate("abc123")).hasValueSatisfying(u -> {
            assertThat(u.username()).isEqualTo("admin");
            assertThat(u.groups()).containsExactly("system:masters", "system:authenticated");
        });
        assertThat(a.authenticate("abc12")).isEmpty();
        assertThat(a.authenticate("abc1234")).isEmpty();
        assertThat(a.authenticate("")).isEmpty();
        assertThat(a.source()).doesNotContain("abc123");
    }

    @Test
    void unusableSettingsAreRefused() {
        assertThatThrownBy(() -> TokenAuthenticator.from(new SecurityProperties.Auth("", null)))
                .hasMessage("kuberay-sim.auth.token is set but empty.");
        assertThatThrownBy(() -> TokenAuthenticator.from(new SecurityProperties.Auth("  ", null)))
                .hasMessage("kuberay-sim.auth.token is set but empty.");
        assertThatThrownBy(() -> TokenAuthenticator.from(new SecurityProperties.Auth("a b", null)))
                .hasMessageContaining("white space");
        assertThatThrownBy(() -> TokenAuthenticator.from(new SecurityProperties.Auth("a", "/tmp/x")))
                .hasMessageContaining("Both kuberay-sim.auth.token and kuberay-sim.auth.token-file are set");
        assertThatThrownBy(() -> TokenAuthenticator.from(new SecurityProperties.Auth(null, " ")))
                .hasMessage("kuberay-sim.auth.token-file is set but empty.");
    }
}
