package io.flashsale.chaos.fuzz;

import io.flashsale.chaos.fuzz.FuzzedRequest.Header;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * Puts a fuzzed request on the wire to the service: through one keep-alive HTTP/1.1 client (the JDK's), or, for what
 * that client refuses to send, as bytes over a socket of its own ({@code Connection: close}).
 */
final class Wire {

    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(20);

    private final int port;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    Wire(int port) {
        this.port = port;
    }

    Answer send(FuzzedRequest request) throws IOException, InterruptedException {
        if (!request.raw()) {
            try {
                return viaClient(request);
            } catch (IllegalArgumentException refusedByTheClient) {
                // A header, method or path the client will not put on the wire: the socket will.
            }
        }
        return viaSocket(request);
    }

    private Answer viaClient(FuzzedRequest request) throws IOException, InterruptedException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + request.path()))
                .timeout(ANSWER_TIMEOUT)
                .method(request.method(), request.body() == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(request.body()));
        for (Header header : request.headers()) {
            builder.header(header.name(), header.value());
        }
        HttpResponse<byte[]> response = client.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
        return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                response.body(), false);
    }

    private Answer viaSocket(FuzzedRequest request) throws IOException {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        byte[] body = request.body() == null ? new byte[0] : request.body();
        wire.writeBytes(utf8(request.method() + " " + request.path() + " HTTP/1.1\r\n"));
        wire.writeBytes(utf8("Host: 127.0.0.1:" + port + "\r\n"));
        for (Header header : request.headers()) {
            wire.writeBytes(utf8(header.name() + ": " + header.value() + "\r\n"));
        }
        wire.writeBytes(utf8("Connection: close\r\nContent-Length: " + body.length + "\r\n\r\n"));
        wire.writeBytes(body);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout((int) ANSWER_TIMEOUT.toMillis());
            OutputStream out = socket.getOutputStream();
            try {
                out.write(wire.toByteArray());
                out.flush();
                socket.shutdownOutput();
            } catch (IOException closedWhileWriting) {
                // The service may refuse a request before reading all of it; its answer may still be there.
            }
            return parse(readAll(socket.getInputStream()));
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                read.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new IOException("no end of the answer within " + ANSWER_TIMEOUT + " (read so far: "
                    + new String(read.toByteArray(), StandardCharsets.ISO_8859_1) + ")", e);
        } catch (IOException reset) {
            // A reset after the answer: keep what arrived.
        }
        return read.toByteArray();
    }

    /** The status line, Content-Type and body of one HTTP/1.1 answer (chunked or not). */
    static Answer parse(byte[] answer) {
        int end = indexOf(answer, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        if (answer.length < 12 || end < 0) {
            return Answer.none();
        }
        String[] head = new String(answer, 0, end, StandardCharsets.ISO_8859_1).split("\r\n");
        String[] statusLine = head[0].split(" ", 3);
        if (statusLine.length < 2 || !statusLine[0].startsWith("HTTP/1.")) {
            return Answer.none();
        }
        String contentType = "";
        boolean chunked = false;
        for (int i = 1; i < head.length; i++) {
            int colon = head[i].indexOf(':');
            String name = colon < 0 ? head[i] : head[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = colon < 0 ? "" : head[i].substring(colon + 1).trim();
            if (name.equals("content-type")) {
                contentType = value;
            } else if (name.equals("transfer-encoding") && value.toLowerCase(Locale.ROOT).contains("chunked")) {
                chunked = true;
            }
        }
        byte[] body = Arrays.copyOfRange(answer, end + 4, answer.length);
        return new Answer(Integer.parseInt(statusLine[1]), contentType, chunked ? dechunk(body) : body, true);
    }

    private static byte[] dechunk(byte[] chunked) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int at = 0;
        while (at < chunked.length) {
            int lineEnd = indexOf(Arrays.copyOfRange(chunked, at, chunked.length), new byte[]{'\r', '\n'});
            if (lineEnd < 0) {
                break;
            }
            String size = new String(chunked, at, lineEnd, StandardCharsets.ISO_8859_1).split(";")[0].trim();
            int length = size.isEmpty() ? 0 : Integer.parseInt(size, 16);
            at += lineEnd + 2;
            if (length == 0 || at + length > chunked.length) {
                break;
            }
            body.write(chunked, at, length);
            at += length + 2;
        }
        return body.toByteArray();
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
