package io.observatory.mesh.config;

import io.observatory.config.Checked;
import io.observatory.config.Problems;
import io.observatory.config.TokenLocation;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One {@code observatory.mesh.hub.witnesses[i]}: an instance allowed to report, and how the hub recognises it.
 * Identity comes from the credential alone: the bearer token kept where {@code token-file} or {@code token-env} say,
 * or a verified mTLS client certificate whose subject CN is {@code certificate-subject}.
 *
 * @param name               unique, e.g. {@code w1}. Required
 * @param site               its network, country or provider, e.g. {@code de}; the unit of {@code quorum-sites}
 *                           when that rule is on. Required
 * @param server             the server it runs on (its self-report is that server's; it does not probe it); blank
 *                           for an external vantage point. Default: none
 * @param checker            whether its failure to reach a server alone says that server is blocked. Default: false
 * @param tokenFile          file holding its bearer token. At most one of token-file and token-env; one of them or
 *                           certificate-subject is required, but for the witness of a hub that is one of its own
 *                           witnesses. Default: none
 * @param tokenEnv           environment variable holding its bearer token. Default: none
 * @param certificateSubject the CN of its mTLS client certificate, when it authenticates with one. Default: none
 */
public record FleetWitnessSettings(
        @NotNull(message = MeshNames.EXPECTED) @Pattern(regexp = MeshNames.PATTERN, message = MeshNames.EXPECTED)
        String name,

        @NotBlank(message = "a non-blank site name") String site,
        @Nullable String server,
        boolean checker,
        @Nullable String tokenFile,
        @Nullable String tokenEnv,
        @Nullable String certificateSubject)
        implements Checked {

    /** Reads blank optional values as none. */
    public FleetWitnessSettings {
        server = server == null || server.isBlank() ? null : server.strip();
        TokenLocation token = new TokenLocation(tokenFile, tokenEnv, "");
        tokenFile = token.file();
        tokenEnv = token.variable();
        certificateSubject =
                certificateSubject == null || certificateSubject.isBlank() ? null : certificateSubject.strip();
    }

    /**
     * Where its token is kept.
     *
     * @param property the full name of this witness's section, for run-time messages
     */
    public TokenLocation token(String property) {
        return new TokenLocation(tokenFile, tokenEnv, property);
    }

    /** Whether it has a credential the hub can recognise. */
    public boolean credentialed() {
        return tokenFile != null || tokenEnv != null || certificateSubject != null;
    }

    @Override
    public void check(Problems problems) {
        token("").check(problems, "witness " + name + "'s token");
    }
}
