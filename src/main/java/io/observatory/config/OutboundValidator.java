package io.observatory.config;

import io.observatory.config.ObservatoryProperties.OutboundProperties;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Turns {@code observatory.outbounds[*]} into {@link Outbound}s, rejecting what could not be probed: tags must be
 * unique, non-blank and free of control characters; a proxy address is a host name or an IP literal without a port
 * (an IPv6 literal may come with or without brackets and is kept without them).
 *
 * <p>A {@code direct} outbound takes no address, port or credentials: setting one is rejected rather than ignored,
 * because it usually means the protocol was forgotten or mistyped and probes would silently bypass the proxy.
 */
final class OutboundValidator {

    static final String EXPECTED_PROTOCOL = Arrays.stream(Protocol.values())
            .map(protocol -> protocol.name().toLowerCase(Locale.ROOT))
            .collect(Collectors.joining(", ", "one of ", ""));

    private static final String EXPECTED_ADDRESS = "the proxy's host name or IP address, without a port";

    private OutboundValidator() {
    }

    /**
     * Validates every outbound, in order.
     *
     * @return the outbounds in configuration order, tags unique
     * @throws InvalidConfigException for the first invalid outbound
     */
    static List<Outbound> validate(List<OutboundProperties> outbounds) {
        List<Outbound> result = new ArrayList<>();
        Map<String, Integer> indexByTag = new HashMap<>();
        for (int i = 0; i < outbounds.size(); i++) {
            Outbound outbound = validate(outbounds.get(i), "observatory.outbounds[" + i + "].");
            Integer first = indexByTag.putIfAbsent(outbound.tag(), i);
            if (first != null) {
                throw new InvalidConfigException("observatory.outbounds[" + i + "].tag", outbound.tag(),
                        "a unique tag; observatory.outbounds[" + first + "].tag is also " + outbound.tag());
            }
            result.add(outbound);
        }
        return result;
    }

    private static Outbound validate(OutboundProperties outbound, String prefix) {
        if (ConfigChecks.isBlank(outbound.getTag())) {
            throw new InvalidConfigException(prefix + "tag", outbound.getTag(), "a non-blank tag");
        }
        if (ConfigChecks.hasControlCharacter(outbound.getTag())) {
            // A line break in a tag would split every log line that names the outbound.
            throw new InvalidConfigException(prefix + "tag", outbound.getTag(),
                    "a tag without control characters");
        }
        if (outbound.getProtocol() == null) {
            throw new InvalidConfigException(prefix + "protocol", null, EXPECTED_PROTOCOL);
        }
        String username = ConfigChecks.isBlank(outbound.getUsername()) ? null : outbound.getUsername();
        String password = ConfigChecks.isBlank(outbound.getPassword()) ? null : outbound.getPassword();
        URI probeUrl = ConfigChecks.httpUrl(prefix + "probe-url", outbound.getProbeUrl(), null);
        if (outbound.getProtocol() == Protocol.DIRECT) {
            checkUnsetForDirect(prefix + "address", outbound.getAddress());
            checkUnsetForDirect(prefix + "port", outbound.getPort() == null ? null : outbound.getPort().toString());
            checkUnsetForDirect(prefix + "username", username);
            checkUnsetForDirect(prefix + "password", password);
            return new Outbound(outbound.getTag(), Protocol.DIRECT, null, 0, null, null, probeUrl);
        }
        String address = outbound.getAddress() == null ? null : ConfigChecks.hostOrIpLiteral(outbound.getAddress());
        if (address == null) {
            throw new InvalidConfigException(prefix + "address", outbound.getAddress(), EXPECTED_ADDRESS);
        }
        Integer port = outbound.getPort();
        if (port == null || port < 1 || port > 65_535) {
            throw new InvalidConfigException(prefix + "port", port == null ? null : port.toString(), "1-65535");
        }
        if (username != null && password == null) {
            throw new InvalidConfigException(prefix + "password", outbound.getPassword(),
                    "a password, since " + prefix + "username is set");
        }
        if (password != null && username == null) {
            throw new InvalidConfigException(prefix + "username", outbound.getUsername(),
                    "a username, since " + prefix + "password is set");
        }
        return new Outbound(outbound.getTag(), outbound.getProtocol(), address, port, username, password, probeUrl);
    }

    private static void checkUnsetForDirect(String property, String value) {
        if (value != null && !value.isBlank()) {
            throw new InvalidConfigException(property, value, "nothing for protocol direct, which uses no proxy");
        }
    }
}
