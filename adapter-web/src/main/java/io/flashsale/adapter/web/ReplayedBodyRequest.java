package io.flashsale.adapter.web;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/** A request whose body was already read: the bytes are handed out again, as if never touched. */
final class ReplayedBodyRequest extends HttpServletRequestWrapper {

    private final ByteArrayInputStream body;
    private final ServletInputStream stream;

    ReplayedBodyRequest(HttpServletRequest request, byte[] body) {
        super(request);
        this.body = new ByteArrayInputStream(body);
        this.stream = new ServletInputStream() {
            @Override
            public int read() {
                return ReplayedBodyRequest.this.body.read();
            }

            @Override
            public int read(byte[] buffer, int offset, int length) {
                return ReplayedBodyRequest.this.body.read(buffer, offset, length);
            }

            @Override
            public boolean isFinished() {
                return ReplayedBodyRequest.this.body.available() == 0;
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setReadListener(ReadListener listener) {
                throw new IllegalStateException("the replayed body is read synchronously");
            }
        };
    }

    @Override
    public ServletInputStream getInputStream() {
        return stream;
    }

    @Override
    public BufferedReader getReader() {
        String encoding = getCharacterEncoding();
        Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
        return new BufferedReader(new InputStreamReader(stream, charset));
    }
}
