package io.observatory.api;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.annotation.DirtiesContext.ClassMode;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Base of the end-to-end tests: the whole service with its real gRPC server on an ephemeral port, and a plaintext
 * channel to it for each test (subclasses add their outbounds with {@code @DynamicPropertySource}).
 */
@DirtiesContext(classMode = ClassMode.AFTER_CLASS)
@SpringBootTest(properties = "spring.grpc.server.port=0")
@Import(RunningServiceTest.PortCapture.class)
public abstract class RunningServiceTest {

    /**
     * Registers {@code observatory.outbounds[index]} as a proxy on 127.0.0.1; values are read lazily, when the
     * context starts. {@code username} {@code null} registers no credentials.
     */
    protected static void registerProxyOutbound(
            DynamicPropertyRegistry registry,
            int index,
            String tag,
            String protocol,
            Supplier<Object> port,
            Supplier<Object> username,
            Supplier<Object> password) {
        String prefix = "observatory.outbounds[" + index + "].";
        registry.add(prefix + "tag", () -> tag);
        registry.add(prefix + "protocol", () -> protocol);
        registry.add(prefix + "address", () -> "127.0.0.1");
        registry.add(prefix + "port", port);
        if (username != null) {
            registry.add(prefix + "username", username);
            registry.add(prefix + "password", password);
        }
    }

    /**
     * Registers {@code observatory.outbounds[index]} as a direct outbound; {@code probeUrl}, read lazily when the
     * context starts, sets its own probe URL, {@code null} none.
     */
    public static void registerDirectOutbound(
            DynamicPropertyRegistry registry, int index, String tag, Supplier<Object> probeUrl) {
        String prefix = "observatory.outbounds[" + index + "].";
        registry.add(prefix + "tag", () -> tag);
        registry.add(prefix + "protocol", () -> "direct");
        if (probeUrl != null) {
            registry.add(prefix + "probe-url", probeUrl);
        }
    }

    @TestConfiguration
    public static class PortCapture {
        @Bean
        public GrpcPortListener grpcPortListener() {
            return new GrpcPortListener();
        }
    }

    @Autowired
    private GrpcPortListener grpcPort;

    /** The port the running service's gRPC server bound. */
    protected int grpcPort() {
        return grpcPort.port();
    }

    /** A channel to the running service, open for the duration of one test. */
    protected ManagedChannel channel;

    @BeforeEach
    void connect() {
        channel = ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort.port())
                .usePlaintext()
                .build();
    }

    @AfterEach
    void disconnect() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
}
