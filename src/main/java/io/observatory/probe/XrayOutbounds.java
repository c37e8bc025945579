package io.observatory.probe;

import io.observatory.config.Outbound;
import java.util.Map;

/**
 * Outbounds given as Xray outbound objects (the JSON of one entry of an Xray configuration's {@code outbounds}: VLESS,
 * VMess, Trojan, Shadowsocks, with their {@code streamSettings}), probed through a proxy core that a capability
 * supervises: the caller hands over the objects and probes the plain outbounds it gets back, each SOCKS5 to a loopback
 * inbound of the core routed to that object. How a mesh witness probes an entry point "as a user's app would" when
 * the app speaks VMess. Implemented by the proxy core capability; an implementation without a core carries nothing.
 */
public interface XrayOutbounds {

    /**
     * Carries exactly {@code outbounds} for the caller, replacing the set it handed over before (an empty map
     * releases them); the core is restarted with them when they changed. Blocks while the core checks new objects
     * ({@code -test}, tens of milliseconds each); the same objects again return at once.
     *
     * @param outbounds the Xray outbound objects as JSON text, by the tag to probe each under; secrets, never logged
     * @return the outbound to probe each through, by tag, tagged as given; an object that is not valid JSON, that the
     *     core refuses, or that no core can carry (none configured) is missing, and the implementation logs why, once
     */
    Map<String, Outbound> carry(Map<String, String> outbounds);
}
