package io.observatory.testing;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.Objects;

/**
 * One request as a {@link TestTarget} received it, for asserting what a client sent.
 *
 * @param method e.g. {@code GET}, {@code HEAD}
 * @param uri the request target as sent, e.g. {@code /generate_204?x=1}
 * @param protocolVersion e.g. {@code HTTP/1.1}
 * @param headers a private copy of the request headers; names are case-insensitive
 */
public record RecordedRequest(String method, String uri, String protocolVersion, HttpHeaders headers) {

    public RecordedRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(protocolVersion, "protocolVersion");
        Objects.requireNonNull(headers, "headers");
    }

    /** Returns the path of {@link #uri()} without its query string, e.g. {@code /generate_204}. */
    public String path() {
        return new QueryStringDecoder(uri).path();
    }

    /** Returns the first value of a header, or {@code null} when the request had none (name is case-insensitive). */
    public String header(CharSequence name) {
        return headers.get(name);
    }
}
