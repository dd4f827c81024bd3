package io.kuberaysim.security;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.util.List;

/**
 * Who may talk to the server and how clients find it, under {@code kuberay-sim.*}.
 *
 * @param auth           bearer-token authentication; off when neither token nor token file is set
 * @param allowedOrigins browser origins ({@code https://app.example:8443}, {@code *}) allowed besides the server's
 *                       own, and host names a request's {@code Host} may carry besides loopback and the server's
 *                       address
 * @param kubeconfigOut  where to write a kubeconfig for the running server once it listens (unset: none)
 */
@ConfigurationProperties("kuberay-sim")
public record SecurityProperties(Auth auth, List<String> allowedOrigins, String kubeconfigOut) {
    public SecurityProperties {
        auth = auth == null ? new Auth(null, null) : auth;
        allowedOrigins = allowedOrigins == null ? List.of()
                : allowedOrigins.stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /**
     * @param token     the one token every client must present ({@code Authorization: Bearer <token>})
     * @param tokenFile a kube-apiserver static token file: {@code token,user,uid[,"group1,group2"]} per line
     */
    public record Auth(String token, String tokenFile) {
    }
}
