package io.kuberaysim.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A minimal blocking HTTP/1.1 keep-alive connection, so the load generator costs little CPU next to the
 * server it measures (java.net.http.HttpClient spends several times more per request). It reconnects when
 * the server closes the connection (Tomcat does so after 100 requests by default), as wrk does.
 */
final class HttpConnection implements Closeable {
    private final int port;
    private final byte[] hostHeader;
    /** Header lines sent with every request (e.g. an Authorization header), each ending in CRLF. */
    private final byte[] extraHeaders;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private final byte[] line = new byte[8192];
    /** Connections opened, including reconnects. */
    int opened;

    /** One request: the body may be null. */
    record Request(String method, String path, String contentType, byte[] body) {
        static Request get(String path) {
            return new Request("GET", path, null, null);
        }
    }

    /** Status code and body (the body only when asked for). */
    record Response(int status, byte[] body) {
    }

    HttpConnection(int port) {
        this(port, "");
    }

    HttpConnection(int port, String extraHeaders) {
        this.port = port;
        this.hostHeader = ("Host: 127.0.0.1:" + port + "\r\n").getBytes(StandardCharsets.US_ASCII);
        this.extraHeaders = extraHeaders.getBytes(StandardCharsets.US_ASCII);
    }

    private void connect() throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setTcpNoDelay(true);
        in = new BufferedInputStream(socket.getInputStream(), 65536);
        out = new BufferedOutputStream(socket.getOutputStream(), 16384);
        opened++;
    }

    Response exchange(Request r, boolean keepBody) throws IOException {
        boolean fresh = socket == null;
        if (fresh) {
            connect();
        }
        try {
            return send(r, keepBody);
        } catch (IOException e) {
            close();
            if (fresh) {
                throw e;
            }
            connect(); // the server closed an idle keep-alive connection: one retry on a new one
            return send(r, keepBody);
        }
    }

    private Response send(Request r, boolean keepBody) throws IOException {
        StringBuilder head = new StringBuilder(128);
        head.append(r.method()).append(' ').append(r.path()).append(" HTTP/1.1\r\n");
        out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
        out.write(hostHeader);
        out.write(extraHeaders);
        head.setLength(0);
        head.append("Accept: application/json\r\n");
        if (r.body() != null) {
            head.append("Content-Type: ").append(r.contentType()).append("\r\nContent-Length: ")
                    .append(r.body().length).append("\r\n");
        }
        head.append("\r\n");
        out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
        if (r.body() != null) {
            out.write(r.body());
        }
        out.flush();
        return read(keepBody);
    }

    private Response read(boolean keepBody) throws IOException {
        String status = readLine();
        int sp = status.indexOf(' ');
        int code = Integer.parseInt(status.substring(sp + 1, sp + 4));
        long length = -1;
        boolean chunked = false;
        boolean close = false;
        while (true) {
            String h = readLine();
            if (h.isEmpty()) {
                break;
            }
            int colon = h.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = h.substring(0, colon).trim();
            String value = h.substring(colon + 1).trim();
            if (name.equalsIgnoreCase("content-length")) {
                length = Long.parseLong(value);
            } else if (name.equalsIgnoreCase("transfer-encoding") && value.equalsIgnoreCase("chunked")) {
                chunked = true;
            } else if (name.equalsIgnoreCase("connection") && value.equalsIgnoreCase("close")) {
                close = true;
            }
        }
        ByteArrayOutputStream body = keepBody ? new ByteArrayOutputStream() : null;
        if (chunked) {
            while (true) {
                String size = readLine();
                int semi = size.indexOf(';');
                long n = Long.parseLong((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
                if (n == 0) {
                    while (!readLine().isEmpty()) {
                        // trailers
                    }
                    break;
                }
                copy(n, body);
                readLine();
            }
        } else if (length >= 0) {
            copy(length, body);
        } else if (code != 204 && code != 304) {
            copy(Long.MAX_VALUE, body); // body until close
            close = true;
        }
        if (close) {
            close();
        }
        return new Response(code, body == null ? null : body.toByteArray());
    }

    private void copy(long n, ByteArrayOutputStream body) throws IOException {
        byte[] buf = line;
        long left = n;
        while (left > 0) {
            int r = in.read(buf, 0, (int) Math.min(buf.length, left));
            if (r < 0) {
                if (n == Long.MAX_VALUE) {
                    return;
                }
                throw new EOFException();
            }
            if (body != null) {
                body.write(buf, 0, r);
            }
            left -= r;
        }
    }

    private String readLine() throws IOException {
        StringBuilder sb = new StringBuilder(64);
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new EOFException();
            }
            if (c == '\n') {
                int len = sb.length();
                if (len > 0 && sb.charAt(len - 1) == '\r') {
                    sb.setLength(len - 1);
                }
                return sb.toString();
            }
            sb.append((char) c);
        }
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a loopback socket
            }
        }
        socket = null;
    }
}
