package io.kuberaysim.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real single-member etcd for tests: Debian's {@code etcd-server} binary on a free loopback port with its own
 * temporary data directory (on tmpfs when there is one), never the packaged system service. It can be killed and
 * started again on the same port and data, as a crashed etcd would be.
 */
public final class EtcdServer implements AutoCloseable {
    private static final Path BINARY = findBinary();

    private final Path dataDir;
    private final int clientPort;
    private final int peerPort;
    private Process process;

    private EtcdServer(Path dataDir, int clientPort, int peerPort) {
        this.dataDir = dataDir;
        this.clientPort = clientPort;
        this.peerPort = peerPort;
    }

    private static Path findBinary() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path p = Path.of(dir, "etcd");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /** Whether an {@code etcd} binary is on the PATH. */
    public static boolean installed() {
        return BINARY != null;
    }

    /** Skips the calling test when etcd is not installed, except in CI (CI=true), where that is a failure. */
    public static void assumeInstalled() {
        if (BINARY == null && "true".equalsIgnoreCase(System.getenv("CI"))) {
            fail("etcd is missing in CI: .ci/run installs Debian's etcd-server");
        }
        assumeTrue(BINARY != null, "etcd is not installed (apt-get install etcd-server): skipping the etcd tests");
    }

    /** Starts a fresh etcd; call {@link #assumeInstalled()} first. */
    public static EtcdServer start() {
        try {
            Path shm = Path.of("/dev/shm");
            Path dir = Files.isWritable(shm) ? Files.createTempDirectory(shm, "etcd-test")
                    : Files.createTempDirectory("etcd-test");
            EtcdServer server = new EtcdServer(dir, freePort(), freePort());
            server.startAgain();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The client URL, e.g. {@code http://127.0.0.1:40123}. */
    public String endpoint() {
        return "http://127.0.0.1:" + clientPort;
    }

    /** Starts the (killed) etcd again on the same port and data directory and waits until it accepts clients. */
    public synchronized void startAgain() {
        String peer = "http://127.0.0.1:" + peerPort;
        try {
            process = new ProcessBuilder(List.of(BINARY.toString(), "--name", "test",
                    "--data-dir", dataDir.resolve("data").toString(),
                    "--listen-client-urls", endpoint(), "--advertise-client-urls", endpoint(),
                    "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                    "--initial-cluster", "test=" + peer, "--logger", "zap", "--log-level", "error"))
                    .redirectErrorStream(true)
                    .redirectOutput(dataDir.resolve("etcd.log").toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int i = 0; i < 200; i++) {
            if (!process.isAlive()) {
                fail("etcd exited: " + log());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", clientPort), 100);
                return;
            } catch (IOException notYet) {
                sleep(50);
            }
        }
        fail("etcd did not open " + endpoint() + ": " + log());
    }

    /** Kills etcd at once (SIGKILL), as a crash would. */
    public synchronized void kill() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private String log() {
        try {
            return Files.readString(dataDir.resolve("etcd.log"));
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        kill();
        try (Stream<Path> files = Files.walk(dataDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind is harmless
        }
    }
}
