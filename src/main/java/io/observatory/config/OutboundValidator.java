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
 * Turns {@code observatory.outbounds[*]} into {@link Outbound}s, rejecting what could not be probed.
 *
 * <p>A {@code direct} outbound takes no address, port or credentials: setting one is rejected rather than ignored,
 * because it usually means the protocol was forgotten or mistyped and probes would silently bypass the proxy.
 */
final class OutboundValidator {

    static final String EXPECTED_PROTOCOL = Arrays.stream(Protocol.values())
            .map(protocol -> protocol.name().toLowerCase(Locale.ROOT))
            .collect(Collectors.joining(", ", "one of ", ""));

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
        if (ConfigChecks.isBlank(outbound.getAddress())) {
            throw new InvalidConfigException(prefix + "address", outbound.getAddress(),
                    "the proxy's host name or IP address");
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
        return new Outbound(outbound.getTag(), outbound.getProtocol(), outbound.getAddress(), port, username,
                password, probeUrl);
    }

    private static void checkUnsetForDirect(String property, String value) {
        if (value != null && !value.isBlank()) {
            throw new InvalidConfigException(property, value, "nothing for protocol direct, which uses no proxy");
        }
    }
}
