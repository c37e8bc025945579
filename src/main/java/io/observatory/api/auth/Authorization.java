package io.observatory.api.auth;

import io.grpc.Metadata;
import java.util.Iterator;
import org.jspecify.annotations.Nullable;

/**
 * The bearer token a call presents — gRPC metadata {@code authorization: Bearer <token>}, or the HTTP header of the
 * same name — or why it presents none that counts. Exactly one value is taken; the scheme is matched without regard to
 * case (RFC 6750), the token without its surrounding whitespace.
 */
public sealed interface Authorization {

    /** The gRPC metadata key of the bearer token. */
    Metadata.Key<String> KEY = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    /** Why two values are refused. */
    String SEVERAL = "more than one authorization metadata entry (expected: exactly one)";

    /** Why a gRPC value of another scheme is refused. */
    String NOT_BEARER = "authorization metadata is not a bearer token (expected: Bearer <token>)";

    /** Why an HTTP value of another scheme is refused. */
    String HTTP_NOT_BEARER = "the Authorization header is not a bearer token (expected: Bearer <token>)";

    /** A bearer token was presented. */
    record Bearer(String token) implements Authorization {}

    /** Something was presented that is no bearer token: several values, or another scheme. */
    record Unusable(String reason) implements Authorization {}

    /** Nothing was presented. */
    record Absent() implements Authorization {}

    /** What the call's metadata presents. */
    static Authorization of(Metadata headers) {
        return of(headers.getAll(KEY), NOT_BEARER);
    }

    /** What the request's {@code Authorization} header values present, in order; empty or null for none. */
    static Authorization ofHttp(@Nullable Iterable<String> values) {
        return of(values, HTTP_NOT_BEARER);
    }

    private static Authorization of(@Nullable Iterable<String> all, String notBearer) {
        Iterator<String> values = all == null ? null : all.iterator();
        if (values == null || !values.hasNext()) {
            return new Absent();
        }
        String authorization = values.next();
        if (values.hasNext()) {
            return new Unusable(SEVERAL);
        }
        String scheme = "bearer ";
        if (!authorization.regionMatches(true, 0, scheme, 0, scheme.length())) {
            return new Unusable(notBearer);
        }
        return new Bearer(authorization.substring(scheme.length()).strip());
    }
}
