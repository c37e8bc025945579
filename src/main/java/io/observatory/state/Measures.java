package io.observatory.state;

import io.observatory.config.BurstObserverSettings;
import io.observatory.config.ObservatoryConfig;
import io.observatory.config.Outbound;
import io.observatory.config.StandardObserverSettings;
import io.observatory.config.SubjectSelector;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * What an observer's status of one outbound measures, as 8 bytes of a SHA-256: the observer ({@code standard} or
 * {@code burst}), the URL it probes through the outbound, and the outbound's first hop and user. A status is restored
 * only where this is the same now: a file from another configuration — another observer, another probe URL, an
 * outbound that now names another proxy or that the observer no longer selects — restores nothing for what changed.
 * The proxy's password is not part of it.
 */
final class Measures {

    private static final int BYTES = 8;

    private Measures() {}

    /**
     * What the configured observer measures of {@code outbound}; empty without an observer, or when its subject
     * selector does not select the outbound (the observer would drop a restored status at once).
     */
    static Optional<byte[]> of(ObservatoryConfig config, Outbound outbound) {
        StandardObserverSettings standard = config.standard();
        BurstObserverSettings burst = config.burst();
        if (standard != null) {
            return new SubjectSelector(standard.subjectSelector()).selects(outbound.tag())
                    ? Optional.of(hash("standard", outbound.probeUrlOr(standard.probeUri()), outbound))
                    : Optional.empty();
        }
        if (burst != null) {
            return new SubjectSelector(burst.subjectSelector()).selects(outbound.tag())
                    ? Optional.of(
                            hash("burst", outbound.probeUrlOr(burst.pingConfig().destinationUri()), outbound))
                    : Optional.empty();
        }
        return Optional.empty();
    }

    /**
     * The hash of the observer, the URL and the outbound's first hop, each field written out here rather than taken
     * from {@link Outbound#toString()}: the hash is part of the file's format, and a change to how an outbound prints
     * in logs must not make every saved status measure something else at the next rollout.
     */
    private static byte[] hash(String observer, URI url, Outbound outbound) {
        String text = String.join(
                "\n",
                observer,
                url.toString(),
                outbound.protocol().name(),
                Objects.toString(outbound.address(), ""),
                Objects.toString(outbound.port(), ""),
                Objects.toString(outbound.username(), ""));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return Arrays.copyOf(digest, BYTES);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
