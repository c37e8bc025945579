package io.observatory.haproxy;

import io.observatory.config.ConfigSection;
import jakarta.validation.constraints.NotBlank;
import java.time.Duration;
import java.util.List;
import org.hibernate.validator.constraints.Range;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.haproxy-agent}: a TCP port answering HAProxy's agent check ({@code agent-check agent-port …
 * agent-send "<outbound tag>\n"}) with the outbound's verdict. Off unless {@code port} is set. Fixed for the process.
 *
 * @param port    the TCP port, 1-65535; unset turns the agent off. Default: unset (off)
 * @param address the address the port is bound to, e.g. {@code 127.0.0.1} for an HAProxy on the same host.
 *                Default: 0.0.0.0 (every interface)
 * @param timeout how long a connection may take to send its request line before it is closed without an answer,
 *                10ms-1m; HAProxy sends it at once. Default: 1s
 * @param maxConnections the most connections open at once, 1-65535; one beyond them is closed at once (HAProxy then
 *                keeps the server's state) and counted. Each HAProxy process holds one per server for a moment every
 *                {@code agent-inter}. Default: 1024
 */
@ConfigurationProperties("observatory.haproxy-agent")
public record HaproxyAgentSettings(
        @Nullable @Range(min = 1, max = 65_535, message = "1-65535")
        Integer port,

        @DefaultValue("0.0.0.0") @NotBlank(message = "an address to bind, e.g. 0.0.0.0 or 127.0.0.1")
        String address,

        @DefaultValue("1s")
        @DurationMin(millis = 10, message = TIMEOUT_EXPECTED)
        @DurationMax(minutes = 1, message = TIMEOUT_EXPECTED)
        Duration timeout,

        @DefaultValue("1024") @Range(min = 1, max = 65_535, message = "1-65535")
        int maxConnections) {

    /** The agent's section of the configuration; it takes effect at start-up only. */
    public static final ConfigSection<HaproxyAgentSettings> SECTION = new ConfigSection<>() {
        @Override
        public String key() {
            return "haproxy-agent";
        }

        @Override
        public Class<HaproxyAgentSettings> type() {
            return HaproxyAgentSettings.class;
        }

        @Override
        public List<String> startUpOnly() {
            return List.of("port", "address", "timeout", "max-connections");
        }
    };

    private static final String TIMEOUT_EXPECTED = "a duration from 10ms up to 1m";
}
