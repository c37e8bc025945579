package io.observatory.config;

import org.jspecify.annotations.Nullable;

/**
 * {@code observatory.api.auth}: who may call the gRPC API and read the status page's data. Writes (the v1 API's
 * {@code ReportOutcomes}, and every method not declared a read) need the bearer token kept where this says, or a
 * client certificate the gRPC server's mTLS verified; reads (the v1, Xray, mesh, grpc.health and reflection reads) are
 * open unless {@code requireForReads}. The token is checked and kept secret as {@link TokenLocation} says.
 *
 * @param tokenFile       path of a file holding the bearer token (surrounding whitespace ignored), re-read when it
 *                        changes; blank means none. At most one of token-file and token-env. Default: none
 * @param tokenEnv        name of an environment variable holding the bearer token (letters, digits and '_', not
 *                        starting with a digit); blank means none. At most one of token-file and token-env. Default:
 *                        none
 * @param requireForReads whether reads need the same credentials as writes, on every service and the status page.
 *                        Default: false, reads are open
 * @param xrayReadsOpen   whether Xray's {@code GetOutboundStatus} stays open when {@code requireForReads} is true:
 *                        Xray's own clients send no token, so either give them a client certificate (mTLS) or open
 *                        this one service's reads here. Default: false
 */
public record ApiAuthSettings(
        @Nullable String tokenFile, @Nullable String tokenEnv, boolean requireForReads, boolean xrayReadsOpen)
        implements Checked {

    private static final String PROPERTY = ObservatoryConfigBinder.PREFIX + ".api.auth";

    /** Reads blank locations as none and strips the variable name. */
    public ApiAuthSettings {
        TokenLocation token = new TokenLocation(tokenFile, tokenEnv, PROPERTY);
        tokenFile = token.file();
        tokenEnv = token.variable();
    }

    /** Where the API token is kept. */
    public TokenLocation token() {
        return new TokenLocation(tokenFile, tokenEnv, PROPERTY);
    }

    @Override
    public void check(Problems problems) {
        token().check(problems, "the API token");
    }
}
