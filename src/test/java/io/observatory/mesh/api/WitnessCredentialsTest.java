package io.observatory.mesh.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Attributes;
import io.grpc.CallCredentials;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.SecurityLevel;
import io.grpc.Status;
import io.observatory.api.auth.Authorization;
import io.observatory.mesh.api.v1.WitnessServiceGrpc;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The witness's token goes with a call only over TLS, or over plaintext where that is allowed. */
class WitnessCredentialsTest {

    private static final String TOKEN = "token-of-witness-w1";

    /** What the credentials did with one call: the metadata applied, or the status it failed with. */
    private static final class Applier extends CallCredentials.MetadataApplier {
        @Nullable
        Metadata applied;

        @Nullable
        Status failed;

        @Override
        public void apply(Metadata headers) {
            applied = headers;
        }

        @Override
        public void fail(Status status) {
            failed = status;
        }
    }

    private static Applier call(boolean plaintextAllowed, SecurityLevel level) {
        Applier applier = new Applier();
        new WitnessCredentials(() -> TOKEN, plaintextAllowed)
                .applyRequestMetadata(request(level), Runnable::run, applier);
        return applier;
    }

    private static CallCredentials.RequestInfo request(SecurityLevel level) {
        return new CallCredentials.RequestInfo() {
            @Override
            public MethodDescriptor<?, ?> getMethodDescriptor() {
                return WitnessServiceGrpc.getReportMethod();
            }

            @Override
            public SecurityLevel getSecurityLevel() {
                return level;
            }

            @Override
            public String getAuthority() {
                return "hub.mesh.svc:9090";
            }

            @Override
            public Attributes getTransportAttrs() {
                return Attributes.EMPTY;
            }
        };
    }

    @ParameterizedTest(name = "plaintext allowed={0}, {1}")
    @CsvSource({"false, PRIVACY_AND_INTEGRITY", "true, PRIVACY_AND_INTEGRITY", "true, NONE"})
    void applyWhenTlsOrPlaintextAllowedThenTheBearerToken(boolean plaintextAllowed, SecurityLevel level) {
        Applier applier = call(plaintextAllowed, level);

        assertThat(applier.failed).isNull();
        assertThat(applier.applied.get(Authorization.KEY)).isEqualTo("Bearer " + TOKEN);
    }

    @Test
    void applyWhenPlaintextNotAllowedThenTheCallFailsBeforeAnythingIsSent() {
        Applier applier = call(false, SecurityLevel.NONE);

        assertThat(applier.applied).isNull();
        assertThat(applier.failed.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
        assertThat(applier.failed.getDescription())
                .isEqualTo("the witness's bearer token is not sent to hub.mesh.svc:9090 over plaintext (expected:"
                        + " observatory.mesh.witness.hub-tls.enabled: true, or"
                        + " observatory.mesh.witness.token-over-plaintext: true on a private network)")
                .doesNotContain(TOKEN);
    }
}
