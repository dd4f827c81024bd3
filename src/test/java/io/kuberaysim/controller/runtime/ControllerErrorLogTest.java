package io.kuberaysim.controller.runtime;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.controller.runtime.queue.ItemExponentialFailureRateLimiter;
import io.kuberaysim.controller.runtime.reconcile.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A failed reconcile logs one line; only an unexpected failure (not an API error) carries its stack trace. */
class ControllerErrorLogTest {
    private final VirtualClock clock = new VirtualClock();
    private final Logger logger = (Logger) LoggerFactory.getLogger(Controller.class);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private Controller controller;

    @BeforeEach
    void capture() {
        appender.start();
        logger.addAppender(appender);
    }

    @AfterEach
    void release() {
        logger.detachAppender(appender);
        if (controller != null) {
            controller.stop();
        }
        clock.close();
    }

    private void reconcileOnce(RuntimeException failure) {
        controller = new Controller("rayclusters", clock, r -> {
            throw failure;
        }, 1, new ItemExponentialFailureRateLimiter<>(Duration.ofHours(1), Duration.ofHours(1)));
        controller.start();
        controller.enqueue(new Request("default", "demo"));
        clock.awaitIdle();
    }

    @Test
    void apiErrorIsOneLineWithItsMessageAndNoStackTrace() {
        reconcileOnce(new ApiException(409, "Conflict", "the object has been modified", null));

        assertThat(appender.list).hasSize(1);
        ILoggingEvent e = appender.list.get(0);
        assertThat(e.getFormattedMessage()).isEqualTo("Reconciler error: controller=rayclusters request=default/demo "
                + "retries=0 error=the object has been modified (409)");
        assertThat(e.getThrowableProxy()).isNull();
    }

    @Test
    void unexpectedFailureKeepsItsStackTrace() {
        reconcileOnce(new IllegalStateException("bug"));

        assertThat(appender.list).hasSize(1);
        assertThat(appender.list.get(0).getThrowableProxy()).isNotNull();
        assertThat(appender.list.get(0).getThrowableProxy().getMessage()).isEqualTo("bug");
    }
}
