package io.kuberaysim.security;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** kube-apiserver's static token file format, and the clear refusal of files that would let nobody in. */
class TokenFileTest {
    @TempDir
    Path dir;

    private Path file(String content) throws IOException {
        Path p = dir.resolve("tokens.csv");
        Files.writeString(p, content);
        return p;
    }

    @Test
    void readsTokensUsersUidsAndQuotedGroups() throws IOException {
        Map<String, UserInfo> tokens = TokenFile.read(file("""
                t0k3n-alice,alice,1001,"dev,ops"

                t0k3n-bob, bob, 1002
                """));

        assertThat(tokens).containsOnlyKeys("t0k3n-alice", "t0k3n-bob");
        assertThat(tokens.get("t0k3n-alice")).isEqualTo(new UserInfo("alice", "1001",
                List.of("dev", "ops", "system:authenticated")));
        assertThat(tokens.get("t0k3n-bob")).isEqualTo(new UserInfo("bob", "1002", List.of("system:authenticated")));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "good,alice,1\\ntoken-only,bob\\n| line 2 has 2 columns, at least 3 are needed (token, user name, user uid)",
            "lonely\\n| line 1 has 1 column, at least 3",
            ",alice,1\\n| line 1 has an empty token",
            "a b,alice,1\\n| line 1 has a token with white space in it",
            "t,,1\\n| line 1 has an empty user name",
            "t,alice,1\\nt,bob,2\\n| line 2 repeats the token of an earlier line",
            "\\n\\n| holds no token",
            "t,\"alice,1\\n| line 1 is not valid CSV"})
    void refusesMalformedFilesNamingTheLine(String content, String message) throws IOException {
        Path p = file(content.replace("\\n", "\n"));

        assertThatThrownBy(() -> TokenFile.read(p))
                .isInstanceOf(InvalidSecuritySettingsException.class)
                .hasMessageStartingWith("kuberay-sim.auth.token-file " + p)
                .hasMessageContaining(message.trim());
    }

    @Test
    void refusesAMissingFile() {
        assertThatThrownBy(() -> TokenFile.read(dir.resolve("absent.csv")))
                .hasMessageContaining("is not a readable file");
    }

    @Test
    void tokensNeverAppearInMessages() throws IOException {
        Path p = file("s3cr3t-value,alice\n");

        assertThatThrownBy(() -> TokenFile.read(p)).satisfies(e -> {
            assertThat(e.getMessage()).doesNotContain("s3cr3t-value");
            assertThat(((InvalidSecuritySettingsException) e).action()).doesNotContain("s3cr3t-value");
        });
    }
}
