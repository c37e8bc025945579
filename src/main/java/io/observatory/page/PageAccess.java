package io.observatory.page;

import io.observatory.api.auth.ApiGuard;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Guards the observation's reads on the management port — the status page's data ({@code /status/api/*}) and the
 * {@code observatory} actuator endpoint ({@code /actuator/observatory}) — with the read rules of the gRPC API
 * ({@link ApiGuard#httpReadRefusal}): open unless {@code observatory.api.auth.require-for-reads}; then a
 * request needs the header {@code Authorization: Bearer <token>}. The token is taken from that header only, never
 * from the URL, where browsers, proxies and access logs would keep it. A refused request is answered
 * {@code 401 Unauthorized} with {@code WWW-Authenticate: Bearer realm="observatory"} (RFC 6750, with
 * {@code error="invalid_token"} when a token was presented) and the reason as JSON,
 * {@code {"reason": "invalid bearer token"}}; refusals are logged at DEBUG. The page itself (HTML, script, style)
 * holds no data and stays open, so a browser can load it and ask for the token; health, info and metrics are the
 * platform's and stay as Actuator serves them.
 */
final class PageAccess implements WebFilter {

    private static final Logger log = LoggerFactory.getLogger(PageAccess.class);
    private final ApiGuard auth;
    private final JsonMapper json;

    PageAccess(ApiGuard auth, JsonMapper json) {
        this.auth = auth;
        this.json = json;
    }

    /** Whether {@code path} reads the observation: the status page's data or the actuator's observatory endpoint. */
    static boolean guarded(String path) {
        return path.startsWith("/status/api/")
                || path.equals("/actuator/observatory")
                || path.startsWith("/actuator/observatory/");
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        if (!guarded(request.getPath().pathWithinApplication().value())) {
            return chain.filter(exchange);
        }
        List<String> authorizations = request.getHeaders().getOrEmpty(HttpHeaders.AUTHORIZATION);
        String refusal = auth.httpReadRefusal(authorizations);
        if (refusal == null) {
            return chain.filter(exchange);
        }
        log.debug(
                "refused {} {} from {}: {}",
                request.getMethod(),
                request.getPath(),
                request.getRemoteAddress(),
                refusal);
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(HttpStatus.UNAUTHORIZED);
        response.getHeaders()
                .set(
                        HttpHeaders.WWW_AUTHENTICATE,
                        "Bearer realm=\"observatory\"" + (authorizations.isEmpty() ? "" : ", error=\"invalid_token\""));
        response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
        byte[] body = json.writeValueAsString(Map.of("reason", refusal)).getBytes(StandardCharsets.UTF_8);
        return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
    }
}
