package io.kuberaysim;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Entry point: a Kubernetes API server with the KubeRay operator and a simulated cluster inside. */
@SpringBootApplication
public class KuberaySimApplication {
    public static void main(String[] args) {
        SpringApplication.run(KuberaySimApplication.class, args);
    }
}
