package io.kuberaysim.security;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Bearer-token authentication as kube-apiserver's static token authenticator does it: one token from
 * {@code kuberay-sim.auth.token} (user {@code admin}, group {@code system:masters}) or the records of a token file.
 * Tokens are kept and compared as SHA-256 digests with {@link MessageDigest#isEqual}, against every known token, so
 * neither the time taken nor the length of a guess tells anything about the real ones. Tokens are never logged.
 */
public final class TokenAuthenticator {
    /** The user of {@code kuberay-sim.auth.token}: an administrator, like kubeadm's {@code kubernetes-admin}. */
    static final UserInfo TOKEN_USER = UserInfo.authenticated("admin", "admin", List.of("system:masters"));

    private record Known(byte[] digest, UserInfo user) {
    }

    private final List<Known> known;
    private final String source;

    private TokenAuthenticator(Map<String, UserInfo> tokens, String source) {
        this.known = tokens.entrySet().stream().map(e -> new Known(digest(e.getKey()), e.getValue())).toList();
        this.source = source;
    }

    /** Authentication as configured; throws {@link InvalidSecuritySettingsException} for settings that cannot work. */
    public static TokenAuthenticator from(SecurityProperties.Auth auth) {
        if (auth.token() != null && auth.tokenFile() != null) {
            throw new InvalidSecuritySettingsException(
                    "Both kuberay-sim.auth.token and kuberay-sim.auth.token-file are set.",
                    "Set one of them: a single token, or a token file with one record per user.");
        }
        if (auth.token() != null) {
            String token = auth.token().trim();
            if (token.isEmpty()) {
                throw new InvalidSecuritySettingsException("kuberay-sim.auth.token is set but empty.",
                        "Set kuberay-sim.auth.token to a secret of your choice (e.g. the output of "
                                + "'openssl rand -hex 32'), or remove the property to run without authentication.");
            }
            if (token.chars().anyMatch(Character::isWhitespace)) {
                throw new InvalidSecuritySettingsException("kuberay-sim.auth.token contains white space, which an "
                        + "'Authorization: Bearer' header cannot carry.", "Choose a token without spaces.");
            }
            return new TokenAuthenticator(Map.of(token, TOKEN_USER), "kuberay-sim.auth.token");
        }
        if (auth.tokenFile() != null) {
            if (auth.tokenFile().isBlank()) {
                throw new InvalidSecuritySettingsException("kuberay-sim.auth.token-file is set but empty.",
                        "Set it to the path of a token file, or remove the property.");
            }
            Path path = Path.of(auth.tokenFile().trim());
            Map<String, UserInfo> tokens = TokenFile.read(path);
            return new TokenAuthenticator(tokens, "token file " + path + " (" + tokens.size()
                    + (tokens.size() == 1 ? " user)" : " users)"));
        }
        return new TokenAuthenticator(Map.of(), "none");
    }

    /** Whether requests need a token at all. */
    public boolean enabled() {
        return !known.isEmpty();
    }

    /** Where the tokens come from, for the start-up banner (never the tokens themselves). */
    public String source() {
        return source;
    }

    /** The user a presented token belongs to, if any. */
    public Optional<UserInfo> authenticate(String token) {
        byte[] presented = digest(token);
        UserInfo match = null;
        for (Known k : known) {
            // every digest is compared, so the time taken does not depend on which token matched
            if (MessageDigest.isEqual(presented, k.digest()) && match == null) {
                match = k.user();
            }
        }
        return Optional.ofNullable(match);
    }

    private static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
