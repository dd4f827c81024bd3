package io.kuberaysim.security;

import io.kuberaysim.config.SimProperties;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

import java.net.InetAddress;

/**
 * Wires the request guards in front of every handler (first the Host/Origin check: a browser page must not get
 * in, whatever it carries; then bearer-token authentication) and the start-up kubeconfig and banner.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET) // the demo runs without a server
@EnableConfigurationProperties(SecurityProperties.class)
class SecurityConfiguration {
    static final int HOST_AND_ORIGIN_ORDER = Ordered.HIGHEST_PRECEDENCE + 10;
    static final int AUTHENTICATION_ORDER = Ordered.HIGHEST_PRECEDENCE + 20;

    @Bean
    TokenAuthenticator tokenAuthenticator(SecurityProperties props) {
        return TokenAuthenticator.from(props.auth());
    }

    @Bean
    FilterRegistrationBean<HostAndOriginFilter> hostAndOriginFilter(SecurityProperties props,
                                                                    ServerProperties server) {
        InetAddress address = server.getAddress();
        if (address != null && address.isAnyLocalAddress()) {
            address = null; // every interface: the Host must name the address the connection arrived on
        }
        FilterRegistrationBean<HostAndOriginFilter> bean = new FilterRegistrationBean<>(
                new HostAndOriginFilter(props.allowedOrigins(), address));
        bean.setOrder(HOST_AND_ORIGIN_ORDER);
        return bean;
    }

    @Bean
    SecurityDocumentation securityDocumentation(TokenAuthenticator auth) {
        return new SecurityDocumentation(auth.enabled());
    }

    @Bean
    StartupAnnouncer startupAnnouncer(SecurityProperties props, SimProperties sim, TokenAuthenticator auth,
                                      ServerProperties server, SslBundles bundles) {
        return new StartupAnnouncer(props, sim, auth, server, bundles);
    }

    @Bean
    FilterRegistrationBean<BearerTokenFilter> bearerTokenFilter(TokenAuthenticator authenticator) {
        FilterRegistrationBean<BearerTokenFilter> bean = new FilterRegistrationBean<>(
                new BearerTokenFilter(authenticator));
        bean.setOrder(AUTHENTICATION_ORDER);
        return bean;
    }
}
