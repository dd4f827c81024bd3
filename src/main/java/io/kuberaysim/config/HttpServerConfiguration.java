package io.kuberaysim.config;

import io.kuberaysim.apiserver.http.HttpLimits;
import io.kuberaysim.apiserver.http.ResourceDispatchFilter;
import io.kuberaysim.apiserver.http.server.ArrivedBodyValve;
import io.kuberaysim.apiserver.http.server.DeclaredBodyLimitValve;
import io.kuberaysim.apiserver.http.server.NonBlockingBodyFilter;
import io.kuberaysim.apiserver.http.server.StatusErrorReportValve;
import jakarta.servlet.DispatcherType;
import org.apache.catalina.Context;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;
import org.springframework.web.filter.FormContentFilter;
import org.springframework.web.filter.RequestContextFilter;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Wires the HTTP server's limits and the embedded Tomcat's edge: bodies over the limit refused before they are read,
 * bodies read without holding threads (taken at once when they came with the headers), resource requests handed
 * to their handler without Spring MVC's servlet where it would decide nothing, and Tomcat's own errors answered as
 * Status.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(HttpLimits.class)
class HttpServerConfiguration {
    /**
     * Room for kube-apiserver's warning budget (4,096 characters, one header each) in the response headers: about
     * 9 KiB for short ASCII field names, 17 KiB for non-ASCII ones; Tomcat's default is 8 KiB. Every connection holds
     * a buffer this size, so no more than needed.
     */
    private static final int MAX_RESPONSE_HEADER_BYTES = 32 * 1024;
    /**
     * Each connection's socket send buffer. Left to the kernel's autotuning, a client that never reads lets a watch
     * push 2-3 MiB (7,000 events of 400 bytes) into socket buffers before the server sees it stall, and every event
     * written there costs as much as one a reading watcher gets: 300 such watchers cut the readers' fan-out rate by
     * half. 128 KiB keeps loopback and LAN throughput.
     */
    private static final int SOCKET_SEND_BUFFER_BYTES = 128 * 1024;

    @Bean
    TomcatEdge tomcatEdge(HttpLimits limits, ListableBeanFactory beans) {
        return new TomcatEdge(limits, beans);
    }

    /**
     * Spring's form filter would read PUT/PATCH/DELETE form bodies with blocking reads, ahead of the non-blocking
     * body reader; the API has no form bodies, so it is not registered.
     */
    @Bean
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    FilterRegistrationBean<FormContentFilter> formContentFilterOff(FormContentFilter filter) {
        FilterRegistrationBean<FormContentFilter> registration = new FilterRegistrationBean<>(filter);
        registration.setEnabled(false);
        return registration;
    }

    /**
     * Spring's request context filter puts the request and its locale in thread-locals for code outside Spring MVC's
     * servlet; nothing here reads them there (resource requests served without that servlet included), and the
     * servlet sets them itself for its own requests. It parsed Accept-Language on every request (~2 % of a create's
     * server time with the filter chain around it), so it is not registered. Spring Boot adds its own only where no
     * registration of this filter type exists, so this disabled one stands for it.
     */
    @Bean
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    FilterRegistrationBean<RequestContextFilter> requestContextFilterOff() {
        FilterRegistrationBean<RequestContextFilter> registration = new FilterRegistrationBean<>(
                new RequestContextFilter());
        registration.setEnabled(false);
        return registration;
    }

    /**
     * Spring MVC without a validator: nothing here is validated by annotations (request bodies are checked by the
     * registry's strategies, as kube-apiserver checks them), and Spring MVC's default would start Hibernate Validator,
     * which is on the classpath only for springdoc's annotation types, at every start (~440 classes).
     */
    @Bean
    WebMvcConfigurer noAnnotationValidation() {
        return new WebMvcConfigurer() {
            @Override
            public Validator getValidator() {
                return NoValidation.INSTANCE;
            }
        };
    }

    /** A validator that validates nothing. */
    enum NoValidation implements Validator {
        INSTANCE;

        @Override
        public boolean supports(Class<?> type) {
            return false;
        }

        @Override
        public void validate(Object target, Errors errors) {
            // supports nothing, so never asked
        }
    }

    /** Runs after Spring Boot's own Tomcat customizer, whose HTML error report valve it replaces. */
    static final class TomcatEdge implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {
        private final HttpLimits limits;
        private final ListableBeanFactory beans;

        TomcatEdge(HttpLimits limits, ListableBeanFactory beans) {
            this.limits = limits;
            this.beans = beans;
        }

        @Override
        public void customize(TomcatServletWebServerFactory factory) {
            factory.addConnectorCustomizers(connector -> {
                if (connector.getProtocolHandler() instanceof AbstractHttp11Protocol<?> http) {
                    http.setMaxHttpResponseHeaderSize(MAX_RESPONSE_HEADER_BYTES);
                }
                connector.setProperty("socket.txBufSize", Integer.toString(SOCKET_SEND_BUFFER_BYTES));
            });
            factory.addContextValves(new DeclaredBodyLimitValve(limits.maxRequestBodyBytes()));
            factory.addContextValves(new ArrivedBodyValve());
            factory.addContextCustomizers(context -> {
                // a 413 closes the connection instead of reading the rest of a body nobody wants
                context.setSwallowAbortedUploads(false);
                replaceErrorReport((StandardHost) context.getParent());
                addBodyFilter(context);
                addResourceDispatch(context);
            });
        }

        private static void replaceErrorReport(StandardHost host) {
            for (Valve valve : host.getPipeline().getValves()) {
                if (valve instanceof ErrorReportValve) {
                    host.getPipeline().removeValve(valve);
                }
            }
            // the host adds a valve of this class at start unless it finds one
            host.setErrorReportValveClass(StatusErrorReportValve.class.getName());
            host.getPipeline().addValve(new StatusErrorReportValve());
        }

        /** Mapped after every filter Spring registers, so they all see a request before its body is read. */
        private void addBodyFilter(Context context) {
            FilterDef def = new FilterDef();
            def.setFilterName("nonBlockingBody");
            def.setFilter(new NonBlockingBodyFilter(limits.maxRequestBodyBytes(), limits.requestBodyTimeout()));
            def.setAsyncSupported("true");
            context.addFilterDef(def);
            FilterMap map = new FilterMap();
            map.setFilterName("nonBlockingBody");
            map.addURLPattern("/*");
            map.setDispatcher(DispatcherType.REQUEST.name());
            map.setDispatcher(DispatcherType.ASYNC.name());
            context.addFilterMap(map);
        }

        /** Mapped after the body filter, so a resource request reaches its handler with its body read. */
        private void addResourceDispatch(Context context) {
            FilterDef def = new FilterDef();
            def.setFilterName("resourceDispatch");
            def.setFilter(new ResourceDispatchFilter(beans));
            def.setAsyncSupported("true");
            context.addFilterDef(def);
            FilterMap map = new FilterMap();
            map.setFilterName("resourceDispatch");
            map.addURLPattern("/*");
            map.setDispatcher(DispatcherType.REQUEST.name());
            context.addFilterMap(map);
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }
    }
}
