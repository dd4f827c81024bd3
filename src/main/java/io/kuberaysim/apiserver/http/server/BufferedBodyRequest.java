package io.kuberaysim.apiserver.http.server;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/** A request whose body has already been read into memory. */
final class BufferedBodyRequest extends HttpServletRequestWrapper {
    private final byte[] body;
    private final ByteArrayInputStream in;

    BufferedBodyRequest(HttpServletRequest request, byte[] body) {
        super(request);
        this.body = body;
        this.in = new ByteArrayInputStream(body);
    }

    /**
     * The body of {@code request} when it is (or wraps) one whose body is in memory and still unread, as the array
     * itself (read once from the connection, not copied again by the handler); null otherwise. Taking it reads it:
     * the stream is then at its end, as after reading it in full.
     */
    static byte[] takeUnread(ServletRequest request) {
        ServletRequest r = request;
        while (r instanceof ServletRequestWrapper w) {
            if (r instanceof BufferedBodyRequest b) {
                return b.takeUnread();
            }
            r = w.getRequest();
        }
        return null;
    }

    private synchronized byte[] takeUnread() {
        if (in.available() != body.length) {
            return null;
        }
        in.skip(body.length);
        return body;
    }

    @Override
    public int getContentLength() {
        return body.length;
    }

    @Override
    public long getContentLengthLong() {
        return body.length;
    }

    @Override
    public ServletInputStream getInputStream() {
        return new ServletInputStream() {
            @Override
            public boolean isFinished() {
                return in.available() == 0;
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setReadListener(ReadListener listener) {
                throw new IllegalStateException("the body has been read already; read it with blocking reads");
            }

            @Override
            public int read() {
                return in.read();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                return in.read(b, off, len);
            }
        };
    }

    @Override
    public BufferedReader getReader() {
        String encoding = getCharacterEncoding();
        Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
        return new BufferedReader(new InputStreamReader(getInputStream(), charset));
    }
}
