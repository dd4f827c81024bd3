package io.kuberaysim.bench;

import io.kuberaysim.KuberaySimApplication;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One way a user starts kuberay-sim in a fresh JVM, as README gives it: the packaged jar ({@code java -jar
 * target/kuberay-sim.jar}), the extracted jar with the build's class data sharing archive, and the plain classpath
 * ({@code ./mvnw spring-boot:run} runs the classes that way; here the harness's own classpath). The jar forms are
 * measured when the build made them ({@code ./mvnw -Pbench verify} packages first).
 */
record LaunchForm(String name, List<String> launcher) {
    static final Path JAR = Path.of("target", "kuberay-sim.jar");
    static final Path EXTRACTED_JAR = Path.of("target", "app", "kuberay-sim.jar");
    static final Path CDS_ARCHIVE = Path.of("target", "app", "kuberay-sim.jsa");

    /** The forms this build can launch. */
    static List<LaunchForm> available() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<LaunchForm> forms = new ArrayList<>();
        if (Files.isRegularFile(JAR)) {
            forms.add(form("`java -jar target/kuberay-sim.jar`", java, "-jar", JAR.toString()));
        }
        if (Files.isRegularFile(EXTRACTED_JAR) && Files.isRegularFile(CDS_ARCHIVE)) {
            forms.add(form("`java -XX:SharedArchiveFile=target/app/kuberay-sim.jsa -jar target/app/kuberay-sim.jar`",
                    java, "-XX:SharedArchiveFile=" + CDS_ARCHIVE, "-jar", EXTRACTED_JAR.toString()));
        }
        forms.add(form("classpath (`java -cp <classes and jars> KuberaySimApplication`)", java, "-cp",
                System.getProperty("java.class.path"), KuberaySimApplication.class.getName()));
        return forms;
    }

    private static LaunchForm form(String name, String... launcher) {
        return new LaunchForm(name, List.of(launcher));
    }

    /** The command with the application's arguments, its output discarded. */
    ProcessBuilder processBuilder(String... args) {
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
    }
}
