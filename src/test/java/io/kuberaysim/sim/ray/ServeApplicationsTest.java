package io.kuberaysim.sim.ray;

import io.kuberaysim.controller.ray.dashboard.ClusterKey;
import io.kuberaysim.controller.ray.dashboard.DashboardException;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServeApplicationsTest {
    static final ClusterKey KEY = new ClusterKey("default", "svc-abcde");
    static final String CONFIG = """
            applications:
            - name: app1
              import_path: fruit.deployment_graph
              deployments:
              - name: MangoStand
              - name: FruitMarket
            - import_path: "math:graph"
            """;

    final VirtualClock clock = new VirtualClock();
    final ServeApplications serve = new ServeApplications(clock);

    @AfterEach
    void close() {
        clock.close();
    }

    String status(String app) {
        return serve.applications(KEY, "uid-1").get(app).status();
    }

    @Test
    void applicationsGoNotStartedDeployingRunning() {
        serve.put(KEY, "uid-1", CONFIG, Map.of());
        assertThat(serve.applications(KEY, "uid-1")).containsOnlyKeys("app1", "default");
        assertThat(status("app1")).isEqualTo("NOT_STARTED");
        clock.advance(Duration.ofSeconds(1));
        assertThat(status("app1")).isEqualTo("DEPLOYING");
        assertThat(serve.applications(KEY, "uid-1").get("app1").deployments().get("MangoStand").status())
                .isEqualTo("UPDATING");
        clock.advance(Duration.ofSeconds(1));
        var app = serve.applications(KEY, "uid-1").get("app1");
        assertThat(app.status()).isEqualTo("RUNNING");
        assertThat(app.deployments()).containsOnlyKeys("MangoStand", "FruitMarket");
        assertThat(app.deployments().values()).allMatch(d -> d.status().equals("HEALTHY"));
        assertThat(serve.applications(KEY, "uid-1").get("default").deployments()).containsOnlyKeys("graph");
        assertThat(serve.appliedConfig(KEY, "uid-1")).isEqualTo(CONFIG);
    }

    @Test
    void annotationsSetDeployTimeAndFailures() {
        serve.put(KEY, "uid-1", CONFIG, Map.of(ServeApplications.DEPLOY_SECONDS_ANNOTATION, "10",
                ServeApplications.APP_STATUS_ANNOTATION, "{\"app1\": \"DEPLOY_FAILED\", \"default\": \"unhealthy\"}"));
        clock.advance(Duration.ofSeconds(9));
        assertThat(status("app1")).isEqualTo("DEPLOYING");
        clock.advance(Duration.ofSeconds(1));
        assertThat(status("app1")).isEqualTo("DEPLOY_FAILED");
        assertThat(serve.applications(KEY, "uid-1").get("app1").message()).contains("simulated failure");
        assertThat(status("default")).isEqualTo("UNHEALTHY");
        assertThat(serve.applications(KEY, "uid-1").get("default").deployments().get("graph").status())
                .isEqualTo("UNHEALTHY");
    }

    @Test
    void unchangedApplicationsKeepRunningAndChangedOnesRedeploy() {
        serve.put(KEY, "uid-1", CONFIG, Map.of());
        clock.advance(Duration.ofSeconds(5));
        serve.put(KEY, "uid-1", CONFIG.replace("math:graph", "math:graph2"), Map.of());
        assertThat(status("app1")).isEqualTo("RUNNING");
        assertThat(status("default")).isEqualTo("DEPLOYING");
        clock.advance(Duration.ofSeconds(2));
        assertThat(status("default")).isEqualTo("RUNNING");
    }

    @Test
    void aNewHeadHasNoApplicationsAndForgetDropsTheTable() {
        serve.put(KEY, "uid-1", CONFIG, Map.of());
        assertThat(serve.applications(KEY, "uid-2")).isEmpty();
        assertThat(serve.appliedConfig(KEY, "uid-2")).isNull();
        serve.forget(KEY);
        assertThat(serve.applications(KEY, "uid-1")).isEmpty();
    }

    @Test
    void invalidConfigIsRefused() {
        assertThatThrownBy(() -> serve.put(KEY, "uid-1", "applications: [unclosed", Map.of()))
                .isInstanceOf(DashboardException.class);
        assertThatThrownBy(() -> serve.put(KEY, "uid-1", "applications: 3", Map.of()))
                .isInstanceOf(DashboardException.class);
        serve.put(KEY, "uid-1", "", Map.of());
        assertThat(serve.applications(KEY, "uid-1")).isEmpty();
    }
}
