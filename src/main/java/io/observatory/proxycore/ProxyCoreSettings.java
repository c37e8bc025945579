package io.observatory.proxycore;

import jakarta.validation.constraints.Pattern;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.core}: a proxy core (Xray or v2ray) that Observatory starts and supervises, so that every
 * outbound of the operator's own Xray configuration is probed through itself — VLESS, VMess, Trojan, Shadowsocks,
 * whatever it speaks — as Xray's observers probe it from inside the proxy. Observatory reads the file's outbounds
 * (never writes it), writes a configuration of its own with those outbounds copied verbatim, one SOCKS inbound on
 * loopback per outbound with a random port and credentials, and a routing rule from each inbound to its outbound, runs
 * a separate core process with it, and exposes each copied outbound as an outbound of its own with the original tag.
 * Off unless both paths are set.
 *
 * @param binary       path of the {@code xray} or {@code v2ray} executable. Default: none (off)
 * @param configFile   path of the operator's Xray or v2ray JSON configuration, read only; re-read on every reload
 *                     and whenever it changes. Default: none (off)
 * @param commandLine  how the core takes its configuration: {@code run} ({@code BINARY run -c FILE}: Xray, v2ray 5),
 *                     {@code config-flag} ({@code BINARY -config FILE}: v2ray 4, e.g. Debian's 4.34) or {@code auto}
 *                     (asks the binary its version once: v2ray 4 gets {@code config-flag}, every other {@code run}).
 *                     Default: auto
 * @param workDirectory where the generated configuration (mode 0600, holding the inbounds' credentials) and the
 *                     core's PID file are written, created (mode 0700) when missing. Default:
 *                     {@code observatory-core-<8 hex digits of the configuration file's path>} in the system's
 *                     temporary directory
 * @param restartDelay the wait before the first restart of a core that exited, doubled after each exit that follows
 *                     a run shorter than a minute, up to {@code max-restart-delay}. Default: 1s
 * @param maxRestartDelay the longest wait between two restarts. Default: 30s
 * @param logLevel     the core's own log level ({@code debug}, {@code info}, {@code warning}, {@code error},
 *                     {@code none}); its lines are logged by Observatory with the prefix {@code core:}. Default:
 *                     warning
 */
@ConfigurationProperties("observatory.core")
public record ProxyCoreSettings(
        @Nullable String binary,
        @Nullable String configFile,
        @DefaultValue("auto") CommandLine commandLine,

        @Nullable @Pattern(regexp = "\\P{Cc}*", message = "a path without control characters")
        String workDirectory,

        @DefaultValue("1s") @DurationMin(millis = 100, message = "at least 100ms")
        Duration restartDelay,

        @DefaultValue("30s") @DurationMin(seconds = 1, message = "at least 1s")
        Duration maxRestartDelay,

        @DefaultValue("warning")
        @Pattern(regexp = "debug|info|warning|error|none", message = "one of debug, info, warning, error, none")
        String logLevel) {

    /** How the core's executable takes its configuration file. */
    public enum CommandLine {
        /** Ask the binary its version: v2ray 4 takes {@link #CONFIG_FLAG}, every other {@link #RUN}. */
        AUTO,
        /** {@code BINARY run -c FILE}, and {@code BINARY run -test -c FILE} to test one: Xray, v2ray 5. */
        RUN,
        /** {@code BINARY -config FILE}, and {@code BINARY -test -config FILE}: v2ray 4. */
        CONFIG_FLAG
    }

    /** Blank paths are none. */
    public ProxyCoreSettings {
        binary = binary == null || binary.isBlank() ? null : binary.strip();
        configFile = configFile == null || configFile.isBlank() ? null : configFile.strip();
        workDirectory = workDirectory == null || workDirectory.isBlank() ? null : workDirectory.strip();
    }

    /** Whether a core is configured: both the binary and the configuration file are set. */
    public boolean enabled() {
        return binary != null && configFile != null;
    }

    /**
     * The directory of the generated configuration: one per configuration file by default, so that two services on
     * one machine reading different files never share it.
     */
    public Path workPath() {
        if (workDirectory != null) {
            return Path.of(workDirectory);
        }
        byte[] path = Path.of(Objects.requireNonNullElse(configFile, ""))
                .toAbsolutePath()
                .toString()
                .getBytes(StandardCharsets.UTF_8);
        String suffix = HexFormat.of().formatHex(sha256(path), 0, 4);
        return Path.of(System.getProperty("java.io.tmpdir"), "observatory-core-" + suffix);
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
