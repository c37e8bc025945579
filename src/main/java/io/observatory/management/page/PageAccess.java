package io.observatory.management.page;

import io.observatory.api.auth.ApiAuthInterceptor;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.HandlerFilterFunction;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * Guards the status page's data with the read rules of the gRPC API ({@link ApiAuthInterceptor#httpReadRefusal}):
 * open unless {@code observatory.api.auth.require-for-reads}; then a request needs the header
 * {@code Authorization: Bearer <token>}. The token is taken from that header only, never from the URL, where
 * browsers, proxies and access logs would keep it. A refused request is answered {@code 401 Unauthorized} with
 * {@code WWW-Authenticate: Bearer realm="observatory"} (RFC 6750, with {@code error="invalid_token"} when a token
 * was presented) and the reason as JSON, {@code {"reason": "invalid bearer token"}}; refusals are logged at DEBUG.
 * The page itself (HTML, script, style) holds no data and stays open, so a browser can load it and ask for the token.
 */
final class PageAccess implements HandlerFilterFunction<ServerResponse, ServerResponse> {

    private static final Logger log = LoggerFactory.getLogger(PageAccess.class);

    private final ApiAuthInterceptor auth;

    PageAccess(ApiAuthInterceptor auth) {
        this.auth = auth;
    }

    @Override
    public Mono<ServerResponse> filter(ServerRequest request, HandlerFunction<ServerResponse> next) {
        List<String> authorizations = request.headers().header(HttpHeaders.AUTHORIZATION);
        String refusal = auth.httpReadRefusal(authorizations);
        if (refusal == null) {
            return next.handle(request);
        }
        log.debug("refused {} {} from {}: {}", request.method(), request.path(),
                request.remoteAddress().map(Object::toString).orElse("an unknown address"), refusal);
        return ServerResponse.status(HttpStatus.UNAUTHORIZED)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"observatory\""
                        + (authorizations.isEmpty() ? "" : ", error=\"invalid_token\""))
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("reason", refusal));
    }
}
