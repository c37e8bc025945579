package io.observatory.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.observatory.api.RunningServiceTest;
import io.observatory.api.xray.GetOutboundStatusRequest;
import io.observatory.api.xray.ObservatoryServiceGrpc;
import io.observatory.api.xray.OutboundStatus;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.ExternalCommand;
import io.observatory.testing.TestTarget;
import io.observatory.testing.TestTls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The whole service probing through real Debian proxies that {@code .ci/run} starts (microsocks for SOCKS5, tinyproxy
 * for HTTP CONNECT), read over a real gRPC port by two clients of Xray's contract: the Java stubs generated from
 * {@code proto/} and the independently written Python client in {@code src/test/interop/xray-client/}. Every test runs
 * once per client and asserts the values that client prints.
 */
class RealProxiesInteropIT extends RunningServiceTest {

    private static final Instant STARTED = Instant.now();
    private static final TestTarget HTTP_TARGET = TestTarget.http();
    private static final TestTarget HTTPS_TARGET = TestTarget.https();
    private static final int DEAD_PORT = ClosedPort.find();
    private static final String WRONG_PASSWORD = "not-the-password";
    private static final long DEAD_DELAY = 99_999_999L;
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final Path PYTHON_CLIENT = Path.of("src/test/interop/xray-client/xray_client.py");
    private static final Duration PYTHON_CLIENT_LIMIT = Duration.ofSeconds(60);

    private static final String SOCKS = "real_socks";
    private static final String SOCKS_HTTPS = "real_socks_https";
    private static final String SOCKS_WRONG_PASSWORD = "real_socks_wrong_password";
    private static final String HTTP = "real_http";
    private static final String HTTP_WRONG_PASSWORD = "real_http_wrong_password";
    private static final String HTTP_NO_CREDENTIALS = "real_http_no_credentials";
    private static final String DEAD = "real_dead";
    private static final List<String> ALIVE_TAGS = List.of(SOCKS, SOCKS_HTTPS, HTTP);
    private static final List<String> TAGS_SORTED =
            List.of(DEAD, HTTP, HTTP_NO_CREDENTIALS, HTTP_WRONG_PASSWORD, SOCKS, SOCKS_HTTPS, SOCKS_WRONG_PASSWORD);

    /** Set before the Spring context loads, which reads it through {@link #outbounds}. */
    private static RealProxies proxies;

    /** The two Xray-contract clients whose view of the statuses the tests assert. */
    enum Client {
        /** The grpc-java stubs generated from this project's {@code proto/}. */
        JAVA_STUBS,
        /** {@code xray_client.py} with its own proto, run by Debian's {@code /usr/bin/python3}. */
        PYTHON
    }

    /**
     * One {@code OutboundStatus} as a client printed it, in Xray's units.
     *
     * @param tag {@code outbound_tag}
     * @param alive {@code alive}
     * @param delay {@code delay}, milliseconds
     * @param lastErrorReason {@code last_error_reason}, empty when none
     * @param lastSeenTime {@code last_seen_time}, unix seconds
     * @param lastTryTime {@code last_try_time}, unix seconds
     * @param hasHealthPing whether {@code health_ping} is set (burst observer only)
     */
    record SeenStatus(
            String tag,
            boolean alive,
            long delay,
            String lastErrorReason,
            long lastSeenTime,
            long lastTryTime,
            boolean hasHealthPing) {}

    @BeforeAll
    static void requireRealProxies() {
        proxies = RealProxies.fromSystemProperties();
    }

    @DynamicPropertySource
    static void outbounds(DynamicPropertyRegistry registry) {
        registry.add(
                "observatory.probe.trusted-certificates",
                () -> TestTls.certificatePath().toString());
        registry.add("observatory.standard.subject-selector[0]", () -> "real_");
        registry.add("observatory.standard.probe-url", () -> HTTP_TARGET.urlWithHost("localhost", "/generate_204"));
        registry.add("observatory.standard.probe-interval", () -> "200ms");
        registry.add("observatory.standard.enable-concurrency", () -> "true");
        registerProxyOutbound(
                registry,
                0,
                SOCKS,
                "socks",
                () -> proxies.socks().port(),
                () -> proxies.socks().username(),
                () -> proxies.socks().password());
        registerProxyOutbound(
                registry,
                1,
                SOCKS_HTTPS,
                "socks",
                () -> proxies.socks().port(),
                () -> proxies.socks().username(),
                () -> proxies.socks().password());
        registry.add(
                "observatory.outbounds[1].probe-url", () -> HTTPS_TARGET.urlWithHost("localhost", "/generate_204"));
        registerProxyOutbound(
                registry,
                2,
                SOCKS_WRONG_PASSWORD,
                "socks",
                () -> proxies.socks().port(),
                () -> proxies.socks().username(),
                () -> WRONG_PASSWORD);
        registerProxyOutbound(
                registry,
                3,
                HTTP,
                "http",
                () -> proxies.http().port(),
                () -> proxies.http().username(),
                () -> proxies.http().password());
        registerProxyOutbound(
                registry,
                4,
                HTTP_WRONG_PASSWORD,
                "http",
                () -> proxies.http().port(),
                () -> proxies.http().username(),
                () -> WRONG_PASSWORD);
        registerProxyOutbound(
                registry, 5, HTTP_NO_CREDENTIALS, "http", () -> proxies.http().port(), null, null);
        registerProxyOutbound(
                registry,
                6,
                DEAD,
                "http",
                () -> DEAD_PORT,
                () -> proxies.http().username(),
                () -> proxies.http().password());
    }

    @AfterAll
    static void stopTargets() {
        HTTP_TARGET.close();
        HTTPS_TARGET.close();
    }

    @BeforeEach
    void awaitFirstRound() {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> byTag(statusesFromJavaStubs()).keySet().containsAll(TAGS_SORTED));
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void statusWhenCredentialsRightThenAliveWithDelayAndTimesOfTheLastProbe(Client client) throws Exception {
        Map<String, SeenStatus> statuses = byTag(statusesSeenBy(client));
        long now = Instant.now().getEpochSecond();

        assertThat(statuses).containsKeys(ALIVE_TAGS.toArray(String[]::new));
        for (String tag : ALIVE_TAGS) {
            SeenStatus status = statuses.get(tag);
            assertThat(status.alive())
                    .as("%s alive; reason: %s", tag, status.lastErrorReason())
                    .isTrue();
            assertThat(status.delay()).as("%s delay", tag).isBetween(0L, 5_000L);
            assertThat(status.lastErrorReason()).as("%s reason", tag).isEmpty();
            assertThat(status.lastSeenTime()).as("%s last_seen_time", tag).isBetween(STARTED.getEpochSecond(), now);
            assertThat(status.lastTryTime()).as("%s last_try_time", tag).isEqualTo(status.lastSeenTime());
            assertThat(status.hasHealthPing()).as("%s health_ping", tag).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void statusWhenSocksPasswordWrongThenDeadWithReasonNamingProxy(Client client) throws Exception {
        SeenStatus status = statusSeenBy(client, SOCKS_WRONG_PASSWORD);

        int port = proxies.socks().port();
        assertDead(
                status,
                "outbound " + SOCKS_WRONG_PASSWORD + " (socks 127.0.0.1:" + port + "): proxy 127.0.0.1:" + port
                        + " rejected the credentials (RFC 1929 status ");
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void statusWhenHttpProxyPasswordWrongThenDeadWithReasonNamingConnectStatus401(Client client) throws Exception {
        SeenStatus status = statusSeenBy(client, HTTP_WRONG_PASSWORD);

        int port = proxies.http().port();
        assertDead(
                status,
                "outbound " + HTTP_WRONG_PASSWORD + " (http 127.0.0.1:" + port + "): proxy 127.0.0.1:" + port
                        + " rejected the credentials (CONNECT status 401)");
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void statusWhenHttpProxyGivenNoCredentialsThenDeadWithReasonNamingConnectStatus407(Client client) throws Exception {
        SeenStatus status = statusSeenBy(client, HTTP_NO_CREDENTIALS);

        int port = proxies.http().port();
        assertDead(
                status,
                "outbound " + HTTP_NO_CREDENTIALS + " (http 127.0.0.1:" + port + "): proxy 127.0.0.1:" + port
                        + " rejected the credentials (CONNECT status 407)");
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void statusWhenProxyDownThenDeadWithReasonNamingConnectionRefused(Client client) throws Exception {
        SeenStatus status = statusSeenBy(client, DEAD);

        assertDead(
                status,
                "outbound " + DEAD + " (http 127.0.0.1:" + DEAD_PORT + "): connection refused by 127.0.0.1:"
                        + DEAD_PORT);
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void statusesWhenReadThenEverySelectedOutboundOnceSortedByTagAndNoPasswordAnywhere(Client client) throws Exception {
        List<SeenStatus> statuses = statusesSeenBy(client);

        assertThat(statuses).extracting(SeenStatus::tag).containsExactlyElementsOf(TAGS_SORTED);
        assertThat(statuses)
                .allSatisfy(status -> assertThat(status.lastErrorReason())
                        .doesNotContain(
                                proxies.socks().password(), proxies.http().password(), WRONG_PASSWORD));
    }

    private void assertDead(SeenStatus status, String reasonPrefix) {
        long now = Instant.now().getEpochSecond();
        assertThat(status.alive()).as("%s alive", status.tag()).isFalse();
        assertThat(status.delay()).as("%s delay", status.tag()).isEqualTo(DEAD_DELAY);
        assertThat(status.lastSeenTime()).as("%s last_seen_time", status.tag()).isZero();
        assertThat(status.lastTryTime()).as("%s last_try_time", status.tag()).isBetween(STARTED.getEpochSecond(), now);
        assertThat(status.lastErrorReason())
                .as("%s reason", status.tag())
                .startsWith(reasonPrefix)
                .doesNotContain(proxies.socks().password(), proxies.http().password(), WRONG_PASSWORD);
        assertThat(status.hasHealthPing()).as("%s health_ping", status.tag()).isFalse();
    }

    private SeenStatus statusSeenBy(Client client, String tag) throws IOException, InterruptedException {
        Map<String, SeenStatus> statuses = byTag(statusesSeenBy(client));
        assertThat(statuses).containsKey(tag);
        return statuses.get(tag);
    }

    private List<SeenStatus> statusesSeenBy(Client client) throws IOException, InterruptedException {
        return switch (client) {
            case JAVA_STUBS -> statusesFromJavaStubs();
            case PYTHON -> statusesFromPythonClient();
        };
    }

    private List<SeenStatus> statusesFromJavaStubs() {
        return ObservatoryServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .getOutboundStatus(GetOutboundStatusRequest.getDefaultInstance())
                .getStatus()
                .getStatusList()
                .stream()
                .map(RealProxiesInteropIT::seen)
                .toList();
    }

    private static SeenStatus seen(OutboundStatus status) {
        return new SeenStatus(
                status.getOutboundTag(),
                status.getAlive(),
                status.getDelay(),
                status.getLastErrorReason(),
                status.getLastSeenTime(),
                status.getLastTryTime(),
                status.hasHealthPing());
    }

    /** Runs the Python client, which prints one JSON object per outbound, in the server's order. */
    private List<SeenStatus> statusesFromPythonClient() throws IOException, InterruptedException {
        assertThat(PYTHON_CLIENT)
                .as("the Python Xray client (run from the project root)")
                .isRegularFile();
        assertThat(Files.isExecutable(PYTHON))
                .as("%s (Debian python3 with python3-grpcio)", PYTHON)
                .isTrue();
        String output = ExternalCommand.run(
                PYTHON_CLIENT_LIMIT, List.of(PYTHON.toString(), PYTHON_CLIENT.toString(), "127.0.0.1:" + grpcPort()));
        return output.lines()
                .filter(line -> !line.isBlank())
                .map(RealProxiesInteropIT::seen)
                .toList();
    }

    private static SeenStatus seen(String jsonLine) {
        DocumentContext json = JsonPath.parse(jsonLine);
        return new SeenStatus(
                json.read("$.outbound_tag", String.class),
                json.read("$.alive", Boolean.class),
                json.read("$.delay", Long.class),
                json.read("$.last_error_reason", String.class),
                json.read("$.last_seen_time", Long.class),
                json.read("$.last_try_time", Long.class),
                json.read("$.health_ping") != null);
    }

    private static Map<String, SeenStatus> byTag(List<SeenStatus> statuses) {
        return statuses.stream().collect(Collectors.toMap(SeenStatus::tag, Function.identity()));
    }
}
