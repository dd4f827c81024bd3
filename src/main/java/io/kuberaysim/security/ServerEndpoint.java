package io.kuberaysim.security;

import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServerSslBundle;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Collections;

/**
 * How clients reach the running server: the URL (the real port, even with {@code --server.port=0}), whether it
 * listens beyond loopback, and for TLS the certificate clients should trust.
 *
 * @param url              {@code http(s)://host:port}; 127.0.0.1 when the server listens on every interface
 * @param bindAddress      what the server listens on, as the user configured it ({@code 127.0.0.1}, {@code 0.0.0.0})
 * @param beyondLoopback   whether other machines can connect
 * @param trustAnchor      for TLS: the top certificate of the served chain (the CA when the chain includes it),
 *                         which kubectl, client-go and Java accept as the root to verify the server; null for HTTP
 */
record ServerEndpoint(String url, String bindAddress, boolean beyondLoopback, X509Certificate trustAnchor) {

    static ServerEndpoint of(int port, ServerProperties server, SslBundles bundles) {
        InetAddress address = server.getAddress();
        boolean wildcard = address == null || address.isAnyLocalAddress();
        String host = wildcard ? "127.0.0.1" : literal(address);
        Ssl ssl = server.getSsl();
        boolean tls = Ssl.isEnabled(ssl);
        String url = (tls ? "https" : "http") + "://" + host + ":" + port;
        return new ServerEndpoint(url, address == null ? "0.0.0.0" : address.getHostAddress(),
                wildcard || !address.isLoopbackAddress(), tls ? trustAnchor(ssl, bundles) : null);
    }

    boolean tls() {
        return url.startsWith("https:");
    }

    private static String literal(InetAddress address) {
        return address instanceof Inet6Address ? "[" + address.getHostAddress() + "]" : address.getHostAddress();
    }

    private static X509Certificate trustAnchor(Ssl ssl, SslBundles bundles) {
        try {
            KeyStore keys = WebServerSslBundle.get(ssl, bundles).getStores().getKeyStore();
            String alias = ssl.getKeyAlias();
            if (alias == null) {
                for (String a : Collections.list(keys.aliases())) {
                    if (keys.isKeyEntry(a)) {
                        alias = a;
                        break;
                    }
                }
            }
            Certificate[] chain = alias == null ? null : keys.getCertificateChain(alias);
            return chain == null || chain.length == 0 ? null : (X509Certificate) chain[chain.length - 1];
        } catch (KeyStoreException e) {
            return null;
        }
    }
}
