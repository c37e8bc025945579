package io.observatory.management;

import io.observatory.api.auth.ApiGuard;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.RequestPath;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.reactive.function.server.HandlerFilterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.util.pattern.PathPattern;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The API's read rule over HTTP, for the observation's reads on the HTTP ports (the {@code observatory} actuator
 * endpoint, a capability's data such as the status page's): open unless
 * {@code observatory.api.auth.require-for-reads}; then a request needs the header
 * {@code Authorization: Bearer <token>} with the API token ({@link ApiGuard#httpReadRefusal}). The token is taken from
 * that header only, never from the URL, where browsers, proxies and access logs would keep it. A refused request is
 * answered {@code 401 Unauthorized} with {@code WWW-Authenticate: Bearer realm="observatory"} (RFC 6750, with
 * {@code error="invalid_token"} when a token was presented) and the reason as JSON,
 * {@code {"reason": "invalid bearer token"}}; refusals are logged at DEBUG.
 *
 * <p>A read is guarded where it is matched, whatever its path's spelling ({@code /actuator/observatory;x},
 * {@code /status/%61pi/outbounds}): a route function through {@link #routeFilter()}, which runs for exactly the
 * requests its routes took; a handler that is not a route function (Actuator's endpoints) through {@link #webFilter},
 * which matches the decoded path without its parameters, as Spring's handler mappings do. Costs a header lookup per
 * guarded request and, with {@code require-for-reads}, the token comparison.
 */
public final class HttpReads {

    private static final Logger log = LoggerFactory.getLogger(HttpReads.class);

    private final ApiGuard guard;
    private final JsonMapper json;

    /**
     * @param guard the API's rules, followed through reloads
     * @param json  writes the refusal's body
     */
    public HttpReads(ApiGuard guard, JsonMapper json) {
        this.guard = guard;
        this.json = json;
    }

    /** Guards every request the filtered routes match: {@code RouterFunction.filter(reads.routeFilter())}. */
    public HandlerFilterFunction<ServerResponse, ServerResponse> routeFilter() {
        return (request, next) -> {
            List<String> authorizations = request.headers().header(HttpHeaders.AUTHORIZATION);
            String refusal = refusal(
                    authorizations,
                    request.method(),
                    request.requestPath(),
                    request.remoteAddress().orElse(null));
            if (refusal == null) {
                return next.handle(request);
            }
            return ServerResponse.status(HttpStatus.UNAUTHORIZED)
                    .header(HttpHeaders.WWW_AUTHENTICATE, challenge(authorizations))
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(body(refusal));
        };
    }

    /**
     * Guards the requests whose path, decoded and without parameters, {@code reads} matches, e.g. the pattern
     * {@code /actuator/observatory/**} (which also matches {@code /actuator/observatory}).
     */
    public WebFilter webFilter(PathPattern reads) {
        return (exchange, chain) -> {
            ServerHttpRequest request = exchange.getRequest();
            if (!reads.matches(request.getPath().pathWithinApplication())) {
                return chain.filter(exchange);
            }
            List<String> authorizations = request.getHeaders().getOrEmpty(HttpHeaders.AUTHORIZATION);
            String refusal =
                    refusal(authorizations, request.getMethod(), request.getPath(), request.getRemoteAddress());
            return refusal == null ? chain.filter(exchange) : refuse(exchange, authorizations, refusal);
        };
    }

    private @Nullable String refusal(
            List<String> authorizations, HttpMethod method, RequestPath path, @Nullable InetSocketAddress remote) {
        String refusal = guard.httpReadRefusal(authorizations);
        if (refusal != null) {
            log.debug("refused {} {} from {}: {}", method, path, remote, refusal);
        }
        return refusal;
    }

    private Mono<Void> refuse(ServerWebExchange exchange, List<String> authorizations, String refusal) {
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(HttpStatus.UNAUTHORIZED);
        response.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, challenge(authorizations));
        response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
        return response.writeWith(Mono.just(response.bufferFactory().wrap(body(refusal))));
    }

    private static String challenge(List<String> authorizations) {
        return "Bearer realm=\"observatory\"" + (authorizations.isEmpty() ? "" : ", error=\"invalid_token\"");
    }

    private byte[] body(String refusal) {
        return json.writeValueAsString(Map.of("reason", refusal)).getBytes(StandardCharsets.UTF_8);
    }
}
