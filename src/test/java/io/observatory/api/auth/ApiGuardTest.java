package io.observatory.api.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import io.observatory.api.v1.ObservatoryServiceGrpc;
import io.observatory.api.xray.GetOutboundStatusRequest;
import io.observatory.api.xray.GetOutboundStatusResponse;
import io.observatory.config.ApiAuthSettings;
import io.observatory.time.Ticker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.LoggerFactory;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The guard in front of a real gRPC server (port 0) carrying the v1 service with canned answers, Xray's service and
 * grpc.health.v1, each bound through it with the reads the service declares, called through generated stubs with and
 * without {@code authorization} metadata.
 */
@ExtendWith(OutputCaptureExtension.class)
class ApiGuardTest {

    private static final String TOKEN = "c2VjcmV0LXRva2VuLTMyLWJ5dGVzLWxvbmctZW5vdWdo";
    private static final String GUESS = "guessed-token-0123456789";

    private static final Map<String, Status> EXPECTED = Map.of(
            "OK", Status.OK,
            "MISSING", Status.UNAUTHENTICATED.withDescription(ApiGuard.MISSING),
            "INVALID", Status.UNAUTHENTICATED.withDescription(ApiGuard.INVALID),
            "NOT_BEARER", Status.UNAUTHENTICATED.withDescription(Authorization.NOT_BEARER),
            "NOTHING_CONFIGURED", Status.UNAUTHENTICATED.withDescription(ApiGuard.NOTHING_CONFIGURED));

    @TempDir
    Path directory;

    private final AtomicLong nanos = new AtomicLong();
    private final Ticker ticker = nanos::get;
    private Server server;
    private ManagedChannel channel;

    @AfterEach
    void stop() throws InterruptedException {
        if (channel != null) {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    private static ApiAuthSettings settings(
            Optional<Path> tokenFile, Optional<String> tokenEnv, boolean requireForReads) {
        return new ApiAuthSettings(
                tokenFile.map(Path::toString).orElse(null), tokenEnv.orElse(null), requireForReads, false);
    }

    /** Tokens as production makes them, with an environment holding {@code OBSERVATORY_API_TOKEN} and this ticker. */
    private Function<ApiAuthSettings, ApiToken> tokens() {
        Map<String, String> environment = Map.of("OBSERVATORY_API_TOKEN", " " + TOKEN + "\n");
        return settings -> ApiToken.of(settings.token(), environment::get, ticker);
    }

    /** The reads of the v1 service. */
    private static final ServiceAccess V1 = ServiceAccess.reads(
            ObservatoryServiceGrpc.getGetObservationMethod(),
            ObservatoryServiceGrpc.getWatchObservationMethod(),
            ObservatoryServiceGrpc.getListAvailableMethod(),
            ObservatoryServiceGrpc.getPickMethod());

    /** The read of Xray's service, which {@code xray-reads-open} may open. */
    private static final ServiceAccess XRAY = ServiceAccess.reads(
                    io.observatory.api.xray.ObservatoryServiceGrpc.getGetOutboundStatusMethod())
            .orOpenWhen(ApiAuthSettings::xrayReadsOpen);

    private ApiGuard guard(ApiAuthSettings settings) {
        return new ApiGuard(settings, tokens(), true, List.of());
    }

    /**
     * Serves the v1, Xray and health services, each bound through {@code guard} as the service binds them; health
     * declares no read here, so its methods count as writes.
     */
    private void serve(ApiGuard guard) throws IOException {
        HealthStatusManager health = new HealthStatusManager();
        server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(guard.guard(new CannedObservatoryService(), V1))
                .addService(guard.guard(new CannedXrayService(), XRAY))
                .addService(guard.guard(health.getHealthService(), ServiceAccess.reads()))
                .build()
                .start();
        channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.getPort(), InsecureChannelCredentials.create())
                .build();
    }

    private Status call(String method, String authorization) {
        return V1Calls.call(channel, method, authorization);
    }

    private static void assertStatus(Status actual, String expected) {
        assertThat(actual.getCode())
                .as(actual.toString())
                .isEqualTo(EXPECTED.get(expected).getCode());
        assertThat(actual.getDescription()).isEqualTo(EXPECTED.get(expected).getDescription());
    }

    private static <T> Optional<T> none() {
        return Optional.empty();
    }

    @ParameterizedTest(name = "{0} require-for-reads={1} authorization=[{2}] -> {3}")
    @CsvSource(
            nullValues = "NONE",
            value = {
                "ReportOutcomes,   false, NONE,                    MISSING",
                "ReportOutcomes,   false, Bearer " + GUESS + ",    INVALID",
                "ReportOutcomes,   false, Bearer,                  NOT_BEARER",
                "ReportOutcomes,   false, 'Bearer ',               INVALID",
                "ReportOutcomes,   false, Basic YWxpY2U6czNjcmV0,  NOT_BEARER",
                "ReportOutcomes,   false, Bearer " + TOKEN + "x,   INVALID",
                "ReportOutcomes,   false, Bearer " + TOKEN + ",    OK",
                "ReportOutcomes,   false, bearer " + TOKEN + ",    OK",
                "ReportOutcomes,   false, BEARER  " + TOKEN + " ,  OK",
                "ReportOutcomes,   true,  NONE,                    MISSING",
                "ReportOutcomes,   true,  Bearer " + TOKEN + ",    OK",
                "GetObservation,   false, NONE,                    OK",
                "GetObservation,   false, Bearer " + GUESS + ",    OK",
                "GetObservation,   true,  NONE,                    MISSING",
                "GetObservation,   true,  Bearer " + GUESS + ",    INVALID",
                "GetObservation,   true,  Bearer " + TOKEN + ",    OK",
                "WatchObservation, false, NONE,                    OK",
                "WatchObservation, true,  NONE,                    MISSING",
                "WatchObservation, true,  Bearer " + TOKEN + ",    OK",
                "ListAvailable,    false, NONE,                    OK",
                "ListAvailable,    true,  NONE,                    MISSING",
                "ListAvailable,    true,  Bearer " + TOKEN + ",    OK",
                "Pick,             false, NONE,                    OK",
                "Pick,             true,  NONE,                    MISSING",
                "Pick,             true,  Bearer " + TOKEN + ",    OK",
            })
    void callWhenTokenConfiguredThenWritesAndRequiredReadsNeedIt(
            String method, boolean requireForReads, String authorization, String expected) throws IOException {
        serve(guard(settings(none(), Optional.of("OBSERVATORY_API_TOKEN"), requireForReads)));

        assertStatus(call(method, authorization), expected);
    }

    @ParameterizedTest(name = "{0} require-for-reads={1} authorization=[{2}] -> {3}")
    @CsvSource(
            nullValues = "NONE",
            value = {
                "ReportOutcomes, false, NONE,                 NOTHING_CONFIGURED",
                "ReportOutcomes, false, Bearer " + TOKEN + ", NOTHING_CONFIGURED",
                "ReportOutcomes, false, Basic YWxpY2U6czNj,   NOT_BEARER",
                "GetObservation, false, NONE,                 OK",
                "GetObservation, true,  NONE,                 NOTHING_CONFIGURED",
                "Pick,           true,  Bearer " + TOKEN + ", NOTHING_CONFIGURED",
            })
    void callWhenNoTokenConfiguredThenRefusalTellsOperatorWhatToConfigure(
            String method, boolean requireForReads, String authorization, String expected) throws IOException {
        serve(guard(settings(none(), none(), requireForReads)));

        assertStatus(call(method, authorization), expected);
    }

    @ParameterizedTest(name = "require-for-reads={0} xray-reads-open={1}")
    @CsvSource({"false, false", "true, false", "true, true"})
    void callWhenXrayOrAServiceWithoutReadsThenXraysReadFollowsTheReadRuleAndUndeclaredMethodsAreWrites(
            boolean requireForReads, boolean xrayReadsOpen) throws IOException {
        serve(guard(new ApiAuthSettings(null, "OBSERVATORY_API_TOKEN", requireForReads, xrayReadsOpen)));

        Status xray = status(() -> io.observatory.api.xray.ObservatoryServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .getOutboundStatus(GetOutboundStatusRequest.getDefaultInstance()));
        Status health = status(() -> HealthGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .check(HealthCheckRequest.getDefaultInstance()));

        assertStatus(xray, requireForReads && !xrayReadsOpen ? "MISSING" : "OK");
        assertStatus(health, "MISSING");
    }

    private static Status status(Runnable call) {
        try {
            call.run();
            return Status.OK;
        } catch (StatusRuntimeException e) {
            return e.getStatus();
        }
    }

    @Test
    void guardedByWhenAServiceHasItsOwnAuthenticationThenItAloneDecidesAndTheServiceIsGuarded() throws IOException {
        ApiGuard guard = guard(settings(none(), Optional.of("OBSERVATORY_API_TOKEN"), false));
        HealthStatusManager health = new HealthStatusManager();
        ServerInterceptor refuseAll = new ServerInterceptor() {
            @Override
            public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
                    ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
                call.close(Status.UNAUTHENTICATED.withDescription("no witness credential"), new Metadata());
                return new ServerCall.Listener<>() {};
            }
        };
        server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(guard.guardedBy(health.getHealthService(), refuseAll))
                .build()
                .start();
        channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.getPort(), InsecureChannelCredentials.create())
                .build();

        Status withApiToken = status(() -> HealthGrpc.newBlockingStub(channel)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(bearer(TOKEN)))
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .check(HealthCheckRequest.getDefaultInstance()));

        assertThat(withApiToken.getDescription()).isEqualTo("no witness credential");
        assertThat(guard.guards(HealthGrpc.SERVICE_NAME)).isTrue();
        assertThat(guard.guards(ObservatoryServiceGrpc.SERVICE_NAME)).isFalse();
    }

    private static Metadata bearer(String token) {
        Metadata metadata = new Metadata();
        metadata.put(Authorization.KEY, "Bearer " + token);
        return metadata;
    }

    @Test
    void refusalWhenLoggedThenNeitherTokenAppears(CapturedOutput output) throws IOException {
        serve(guard(settings(none(), Optional.of("OBSERVATORY_API_TOKEN"), false)));
        Logger logger = (Logger) LoggerFactory.getLogger(ApiGuard.class);
        Level level = logger.getLevel();
        logger.setLevel(Level.DEBUG);

        Status refused;
        try {
            refused = call("ReportOutcomes", "Bearer " + GUESS);
        } finally {
            logger.setLevel(level);
        }

        assertThat(refused.getDescription()).doesNotContain(GUESS).doesNotContain(TOKEN);
        assertThat(output)
                .contains("refused observatory.v1.ObservatoryService/ReportOutcomes from /127.0.0.1:")
                .contains(ApiGuard.INVALID)
                .doesNotContain(GUESS)
                .doesNotContain(TOKEN);
    }

    // Token file: rotation as Kubernetes does it for a mounted Secret, trouble keeps the last good token.

    /**
     * Lays the token out as the kubelet mounts a Secret key: {@code token -> ..data/token}, {@code ..data} a link
     * to a versioned directory that a rotation replaces atomically.
     */
    private Path mountSecret(String token) throws IOException {
        Path file = directory.resolve("token");
        rotateSecret(token);
        Files.createSymbolicLink(file, Path.of("..data", "token"));
        return file;
    }

    private int versions;

    private void rotateSecret(String token) throws IOException {
        String version = "..version-" + ++versions;
        Files.createDirectory(directory.resolve(version));
        Files.writeString(directory.resolve(version).resolve("token"), token + "\n");
        pointDataAt(version);
    }

    /** Swaps the {@code ..data} link atomically to {@code version}, as the kubelet does. */
    private void pointDataAt(String version) throws IOException {
        Path link = directory.resolve("..data_tmp");
        Files.createSymbolicLink(link, Path.of(version));
        Files.move(
                link, directory.resolve("..data"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private void advance(Duration step) {
        nanos.addAndGet(step.toNanos());
    }

    @Test
    void tokenFileWhenSecretRotatedThenNewTokenInForceWithinASecondWithoutRestart(CapturedOutput output)
            throws IOException {
        Path file = mountSecret(TOKEN);
        serve(guard(settings(Optional.of(file), none(), false)));
        assertStatus(call("ReportOutcomes", "Bearer " + TOKEN), "OK");
        String rotated = "cm90YXRlZC10b2tlbi0zMi1ieXRlcy1sb25nLWVub3VnaA";

        rotateSecret(rotated);
        advance(TokenFile.CHECK_INTERVAL.minusNanos(1));
        Status beforeCheck = call("ReportOutcomes", "Bearer " + rotated);
        advance(Duration.ofNanos(1));

        assertStatus(beforeCheck, "INVALID");
        assertStatus(call("ReportOutcomes", "Bearer " + rotated), "OK");
        assertStatus(call("ReportOutcomes", "Bearer " + TOKEN), "INVALID");
        assertThat(output)
                .contains("API token file " + file + " changed: the new token is in force")
                .doesNotContain(rotated)
                .doesNotContain(TOKEN);
    }

    @Test
    void tokenFileWhenEmptiedThenRemovedThenLastGoodTokenKeptAndWarnedOnce(CapturedOutput output) throws IOException {
        Path file = directory.resolve("api-token");
        Files.writeString(file, TOKEN);
        serve(guard(settings(Optional.of(file), none(), false)));

        Files.writeString(file, " \n");
        advance(Duration.ofSeconds(1));
        Status whileEmpty = call("ReportOutcomes", "Bearer " + TOKEN);
        Files.delete(file);
        advance(Duration.ofSeconds(1));
        Status whileMissing = call("ReportOutcomes", "Bearer " + TOKEN);
        advance(Duration.ofSeconds(1));
        Status stillMissing = call("ReportOutcomes", "Bearer " + TOKEN);

        assertStatus(whileEmpty, "OK");
        assertStatus(whileMissing, "OK");
        assertStatus(stillMissing, "OK");
        assertThat(output.getAll().split("keeping the last good token", -1)).hasSize(2);
        assertThat(output)
                .contains("WARN")
                .contains("API token file " + file + " is empty: keeping the last good"
                        + " token until it holds a token again");

        Files.writeString(file, "bmV3LXRva2VuLWFmdGVyLXRoZS1nYXA");
        advance(Duration.ofSeconds(1));

        assertStatus(call("ReportOutcomes", "Bearer bmV3LXRva2VuLWFmdGVyLXRoZS1nYXA"), "OK");
        assertStatus(call("ReportOutcomes", "Bearer " + TOKEN), "INVALID");
        assertThat(output).contains("API token file " + file + " is readable again");
    }

    @Test
    void tokenFileWhenLinkBrokenThenRestoredUnchangedThenWarnedOnceAndRecoveryLogged(CapturedOutput output)
            throws IOException {
        Path file = mountSecret(TOKEN);
        serve(guard(settings(Optional.of(file), none(), false)));

        pointDataAt("..version-gone");
        advance(Duration.ofSeconds(1));
        Status whileBroken = call("ReportOutcomes", "Bearer " + TOKEN);
        advance(Duration.ofSeconds(1));
        call("ReportOutcomes", "Bearer " + TOKEN);
        pointDataAt("..version-1");
        advance(Duration.ofSeconds(1));

        assertStatus(whileBroken, "OK");
        assertStatus(call("ReportOutcomes", "Bearer " + TOKEN), "OK");
        assertThat(output.getAll().split("keeping the last good token", -1)).hasSize(2);
        assertThat(output)
                .contains("API token file " + file + " cannot be read (NoSuchFileException")
                .contains("API token file " + file + " is readable again")
                .doesNotContain("changed: the new token is in force");
    }

    @Test
    void tokenFileWhenMissingOrEmptyAtStartupThenStartupFailsNamingTheFile() throws IOException {
        Path missing = directory.resolve("missing-token");
        Path empty = Files.writeString(directory.resolve("empty-token"), "\n\t \n");

        assertThatThrownBy(() -> guard(settings(Optional.of(missing), none(), false)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("observatory.api.auth.token-file: cannot read " + missing + " (");
        assertThatThrownBy(() -> guard(settings(Optional.of(empty), none(), false)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("observatory.api.auth.token-file: " + empty + " is empty (expected: a bearer token)");
    }

    @Test
    void tokenEnvWhenUnsetOrBlankThenStartupFailsNamingTheVariable() {
        Map<String, String> environment = Map.of("BLANK_TOKEN", "  ");

        assertThatThrownBy(() -> ApiToken.of(
                        settings(none(), Optional.of("UNSET_TOKEN"), false).token(), environment::get, ticker))
                .hasMessage("observatory.api.auth.token-env: environment variable UNSET_TOKEN is not set"
                        + " (expected: a bearer token)");
        assertThatThrownBy(() -> ApiToken.of(
                        settings(none(), Optional.of("BLANK_TOKEN"), false).token(), environment::get, ticker))
                .hasMessage("observatory.api.auth.token-env: environment variable BLANK_TOKEN is blank"
                        + " (expected: a bearer token)");
    }

    @Test
    void reconfigureWhenSettingsReloadedThenNextCallFollowsThem() throws IOException {
        ApiGuard interceptor = guard(settings(none(), Optional.of("OBSERVATORY_API_TOKEN"), false));
        serve(interceptor);
        Path file = Files.writeString(directory.resolve("api-token"), "ZmlsZS10b2tlbi1hZnRlci1yZWxvYWQ");

        interceptor.reconfigure(settings(Optional.of(file), none(), true));

        assertStatus(call("GetObservation", null), "MISSING");
        assertStatus(call("GetObservation", "Bearer ZmlsZS10b2tlbi1hZnRlci1yZWxvYWQ"), "OK");
        assertStatus(call("ReportOutcomes", "Bearer " + TOKEN), "INVALID");
    }

    @Test
    void reconfigureWhenNewTokenUnreadableThenSettingsInForceKept(CapturedOutput output) throws IOException {
        ApiGuard interceptor = guard(settings(none(), Optional.of("OBSERVATORY_API_TOKEN"), false));
        serve(interceptor);

        interceptor.reconfigure(settings(Optional.of(directory.resolve("missing")), none(), true));

        assertStatus(call("GetObservation", null), "OK");
        assertStatus(call("ReportOutcomes", "Bearer " + TOKEN), "OK");
        assertThat(output)
                .contains("API authentication unchanged, the new token cannot be used:"
                        + " observatory.api.auth.token-file: cannot read " + directory.resolve("missing"));
    }

    @Test
    void describeWhenStartingThenSaysWhatWritesAndReadsNeed() {
        assertThat(guard(settings(none(), Optional.of("OBSERVATORY_API_TOKEN"), false))
                        .describe())
                .isEqualTo("API writes need the bearer token from the token environment variable"
                        + " OBSERVATORY_API_TOKEN or a verified client certificate; reads are open");
        assertThat(guard(settings(none(), none(), true)).describe())
                .isEqualTo("API writes need a verified client certificate (no API token is configured);"
                        + " reads need the same");
    }

    @Test
    void writeWhenTwoAuthorizationEntriesThenRefusedWhicheverComesFirst() throws IOException {
        serve(guard(settings(none(), Optional.of("OBSERVATORY_API_TOKEN"), false)));

        Status goodFirst =
                V1Calls.callWithEntries(channel, "ReportOutcomes", List.of("Bearer " + TOKEN, "Bearer " + GUESS));
        Status guessFirst =
                V1Calls.callWithEntries(channel, "ReportOutcomes", List.of("Bearer " + GUESS, "Bearer " + TOKEN));

        assertThat(List.of(goodFirst, guessFirst)).allSatisfy(status -> {
            assertThat(status.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
            assertThat(status.getDescription()).isEqualTo(Authorization.SEVERAL);
        });
    }

    @Test
    void describeWhenNeitherTokenNorClientCertificatesThenSaysWritesAreRefusedAndWhatToConfigure() {
        assertThat(new ApiGuard(settings(none(), none(), false), tokens(), false, List.of()).describe())
                .isEqualTo("API writes are refused: neither an API token (observatory.api.auth.token-file or"
                        + " token-env) nor mTLS client authentication (spring.grpc.server.ssl.client-auth) is"
                        + " configured; reads are open");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            nullValues = "none",
            value = {
                "false | none             | none",
                "false | Bearer wrong     | none",
                "true  | none             | HTTP_MISSING",
                "true  | Bearer wrong     | INVALID",
                "true  | Basic dXNlcjpwdw== | NOT_BEARER",
                "true  | Bearer TOKEN     | none",
                "true  | bearer TOKEN     | none"
            })
    void httpReadRefusalWhenReadsNeedTheTokenOrNotThenTheRefusalOfTheGrpcReads(
            boolean requireForReads, String authorization, String refusal) {
        ApiGuard interceptor = guard(settings(none(), Optional.of("OBSERVATORY_API_TOKEN"), requireForReads));
        Map<String, String> refusals = Map.of(
                "HTTP_MISSING",
                ApiGuard.HTTP_MISSING,
                "INVALID",
                ApiGuard.INVALID,
                "NOT_BEARER",
                Authorization.HTTP_NOT_BEARER);

        String refused = interceptor.httpReadRefusal(
                authorization == null ? List.of() : List.of(authorization.replace("TOKEN", TOKEN)));

        assertThat(refused).isEqualTo(refusal == null ? null : refusals.get(refusal));
    }

    @Test
    void httpReadRefusalWhenTwoHeadersOrNoTokenConfiguredThenRefusedSayingWhy() {
        ApiGuard withToken = guard(settings(none(), Optional.of("OBSERVATORY_API_TOKEN"), true));
        ApiGuard withoutToken = guard(settings(none(), none(), true));

        assertThat(withToken.httpReadRefusal(List.of("Bearer " + TOKEN, "Bearer " + GUESS)))
                .isEqualTo(Authorization.SEVERAL);
        assertThat(withoutToken.httpReadRefusal(List.of())).isEqualTo(ApiGuard.HTTP_NOTHING_CONFIGURED);
        assertThat(withoutToken.httpReadRefusal(List.of("Bearer " + TOKEN)))
                .isEqualTo(ApiGuard.HTTP_NOTHING_CONFIGURED);
    }

    /** Xray's service with an empty answer. */
    static final class CannedXrayService
            extends io.observatory.api.xray.ObservatoryServiceGrpc.ObservatoryServiceImplBase {

        @Override
        public void getOutboundStatus(
                GetOutboundStatusRequest request, StreamObserver<GetOutboundStatusResponse> response) {
            response.onNext(GetOutboundStatusResponse.newBuilder()
                    .setStatus(io.observatory.api.xray.ObservationResult.getDefaultInstance())
                    .build());
            response.onCompleted();
        }
    }
}
