package io.observatory.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Validated authentication settings of the v1 API ({@code observatory.api.auth}). Writes ({@code ReportOutcomes})
 * are refused unless the caller presents the bearer token configured here or a client certificate the gRPC server's
 * mTLS verified; reads are open unless {@code requireForReads}.
 *
 * @param tokenFile       file holding the bearer token (surrounding whitespace ignored), re-read when it changes;
 *                        empty when not configured ({@code token-file})
 * @param tokenEnv        name of the environment variable holding the bearer token; empty when not configured
 *                        ({@code token-env}); at most one of the two is set
 * @param requireForReads whether reads need the same credentials as writes ({@code require-for-reads}, default false)
 */
public record ApiAuthSettings(Optional<Path> tokenFile, Optional<String> tokenEnv, boolean requireForReads) {

    /** No token: writes only with an mTLS client certificate, reads open. */
    public static final ApiAuthSettings DEFAULT = new ApiAuthSettings(Optional.empty(), Optional.empty(), false);

    /** @throws IllegalArgumentException if both a token file and a token variable are set */
    public ApiAuthSettings {
        Objects.requireNonNull(tokenFile, "tokenFile");
        Objects.requireNonNull(tokenEnv, "tokenEnv");
        if (tokenFile.isPresent() && tokenEnv.isPresent()) {
            throw new IllegalArgumentException("token-file and token-env: both set (expected: at most one)");
        }
    }
}
