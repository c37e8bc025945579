package io.observatory.testing;

import io.observatory.ObservatoryApplication;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The service started in this JVM as a user starts it, on free gRPC and HTTP ports, and a headless browser for its
 * status page; closed together, the browser first.
 */
public final class StatusPageSession implements AutoCloseable {

    private final ConfigurableApplicationContext service;
    private final Browser browser;

    private StatusPageSession(ConfigurableApplicationContext service, Browser browser) {
        this.service = service;
        this.browser = browser;
    }

    /**
     * Starts the service with {@code arguments} (command-line style, e.g. {@code --spring.profiles.active=demo}) on
     * port 0 for gRPC and HTTP unless they name the port, then the browser; the service is closed again when the
     * browser cannot start.
     */
    public static StatusPageSession start(String... arguments) {
        List<String> all = new ArrayList<>(List.of(arguments));
        for (String port : List.of("--spring.grpc.server.port=", "--server.port=")) {
            if (all.stream().noneMatch(argument -> argument.startsWith(port))) {
                all.add(port + "0");
            }
        }
        ConfigurableApplicationContext service =
                new SpringApplicationBuilder(ObservatoryApplication.class).run(all.toArray(String[]::new));
        try {
            return new StatusPageSession(service, Browser.start());
        } catch (RuntimeException e) {
            service.close();
            throw e;
        }
    }

    /** The running service, e.g. for its beans. */
    public ConfigurableApplicationContext service() {
        return service;
    }

    /** The browser. */
    public Browser browser() {
        return browser;
    }

    /** The address of the status page, {@code http://127.0.0.1:<port>/status}. */
    public String page() {
        return "http://127.0.0.1:" + service.getEnvironment().getProperty("local.server.port") + "/status";
    }

    @Override
    public void close() {
        try {
            browser.close();
        } finally {
            service.close();
        }
    }
}
