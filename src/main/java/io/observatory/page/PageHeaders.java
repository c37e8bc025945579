package io.observatory.page;

import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The status page's security headers, on every response under {@code /status}: a Content-Security-Policy that lets
 * the page load only its own script, style, panels and data (no inline script, no other origin, no {@code <base>},
 * no framing by any other page: {@code frame-ancestors 'none'}), {@code X-Content-Type-Options: nosniff} so that a
 * browser runs a script only as the type it was served, and {@code Referrer-Policy: no-referrer}.
 */
final class PageHeaders implements WebFilter {

    /** The page's policy: its own origin for scripts, styles and data; an empty favicon; nothing else. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
            + " img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none';"
            + " frame-ancestors 'none'";

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String path = exchange.getRequest().getPath().pathWithinApplication().value();
        if (path.equals("/status") || path.startsWith("/status/")) {
            HttpHeaders headers = exchange.getResponse().getHeaders();
            headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
            headers.set("X-Content-Type-Options", "nosniff");
            headers.set("Referrer-Policy", "no-referrer");
        }
        return chain.filter(exchange);
    }
}
