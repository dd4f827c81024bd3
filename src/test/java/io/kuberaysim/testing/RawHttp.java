package io.kuberaysim.testing;

import io.kuberaysim.api.Json;
import tools.jackson.databind.JsonNode;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * HTTP/1.1 over a plain socket, for requests no client library sends: malformed lines and headers, lying
 * Content-Length, broken chunking, bodies trickled byte by byte. Responses are parsed leniently.
 */
public final class RawHttp implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;

    /** A parsed response: status code, header lines in order, body (chunked encoding removed). */
    public record Response(int code, List<String> headers, byte[] body) {
        public String header(String name) {
            return headers(name).stream().findFirst().orElse(null);
        }

        public List<String> headers(String name) {
            String prefix = name.toLowerCase(Locale.ROOT) + ":";
            return headers.stream().filter(h -> h.toLowerCase(Locale.ROOT).startsWith(prefix))
                    .map(h -> h.substring(prefix.length()).trim()).toList();
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public JsonNode json() {
            return Json.MAPPER.readTree(body);
        }
    }

    public RawHttp(int port, Duration readTimeout) throws IOException {
        this(new Socket(InetAddress.getLoopbackAddress(), port), readTimeout);
    }

    private RawHttp(Socket socket, Duration readTimeout) throws IOException {
        this.socket = socket;
        socket.setSoTimeout((int) readTimeout.toMillis());
        in = socket.getInputStream();
    }

    /**
     * Sends {@code GET pathAndQuery} on a new connection with a 4 KiB receive buffer and returns the socket unread:
     * a client that stops reading (a stalled watcher) until the test reads it through {@link #over}.
     */
    public static Socket getWithoutReading(int port, String pathAndQuery) throws IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(4096);
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        s.getOutputStream().write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: localhost\r\nAccept: application/json"
                + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        return s;
    }

    /** Reads responses from a socket opened (and written to) elsewhere. */
    public static RawHttp over(Socket socket, Duration readTimeout) throws IOException {
        return new RawHttp(socket, readTimeout);
    }

    /** Sends one request and reads its response on a fresh connection. */
    public static Response exchange(int port, String head, byte[] body, Duration timeout) throws IOException {
        try (RawHttp http = new RawHttp(port, timeout)) {
            http.send(head.getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                http.send(body);
            }
            return http.read();
        }
    }

    public static Response exchange(int port, String head, Duration timeout) throws IOException {
        return exchange(port, head, null, timeout);
    }

    public void send(byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    public void send(String text) throws IOException {
        send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Reads the status line and headers only (for streaming responses). */
    public Response readHead() throws IOException {
        String status = line();
        while (status.isEmpty()) {
            status = line();
        }
        int code = Integer.parseInt(status.substring(9, 12));
        List<String> headers = new ArrayList<>();
        for (String h = line(); !h.isEmpty(); h = line()) {
            headers.add(h);
        }
        return new Response(code, headers, new byte[0]);
    }

    /** Reads the next final response, skipping interim ones ({@code 100 Continue}). */
    public Response read() throws IOException {
        Response r = readNext();
        while (r.code() >= 100 && r.code() < 200) {
            r = readNext();
        }
        return r;
    }

    /** Reads the next response, interim ones included (they have no body). */
    public Response readNext() throws IOException {
        Response head = readHead();
        if (head.code() < 200) {
            return head;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        String length = head.header("Content-Length");
        String te = head.header("Transfer-Encoding");
        if (te != null && te.toLowerCase(Locale.ROOT).contains("chunked")) {
            while (true) {
                int size = Integer.parseInt(line().split(";")[0].trim(), 16);
                if (size == 0) {
                    while (!line().isEmpty()) {
                        // trailers
                    }
                    break;
                }
                body.write(in.readNBytes(size));
                line();
            }
        } else if (length != null) {
            body.write(in.readNBytes(Integer.parseInt(length)));
        } else {
            body.write(in.readAllBytes());
        }
        return new Response(head.code(), head.headers(), body.toByteArray());
    }

    public byte[] readBytes(int n) throws IOException {
        byte[] b = in.readNBytes(n);
        if (b.length < n) {
            throw new EOFException("connection closed after " + b.length + " of " + n + " bytes");
        }
        return b;
    }

    /** A line of a chunked body or of the headers. */
    public String line() throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new EOFException("connection closed after \"" + sb + "\"");
            }
            if (c == '\n') {
                int n = sb.length();
                return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
            }
            sb.append((char) c);
        }
    }

    /** True when the server has closed the connection (read returns end of stream within the timeout). */
    public boolean closedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    public Socket socket() {
        return socket;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
