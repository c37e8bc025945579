package io.observatory.mesh.demo;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * The mesh demo's webhook receiver: {@code POST /demo/webhook} on the management port logs each body it receives on
 * one line (logger {@code demo-webhook}) and answers 204, so that the demo's incidents can be watched as a webhook
 * receives them without running another server. Only with the {@code mesh-demo} profile; loopback only, as the demo.
 */
@Configuration(proxyBeanMethods = false)
@Profile("mesh-demo")
class DemoWebhookLog {

    private static final Logger log = LoggerFactory.getLogger("demo-webhook");

    /** The most body characters logged of one delivery. */
    static final int MAX_LOGGED = 4096;

    @Bean
    RouterFunction<ServerResponse> demoWebhook() {
        return RouterFunctions.route()
                .POST(
                        "/demo/webhook",
                        request -> request.bodyToMono(String.class)
                                .defaultIfEmpty("")
                                .flatMap(body -> {
                                    log.info(
                                            "received: {}",
                                            body.length() <= MAX_LOGGED ? body : body.substring(0, MAX_LOGGED) + "…");
                                    return ServerResponse.noContent().build();
                                }))
                .build();
    }
}
