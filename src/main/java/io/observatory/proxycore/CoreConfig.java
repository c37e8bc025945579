package io.observatory.proxycore;

import io.observatory.proxycore.CoreFile.CoreOutbound;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The configuration Observatory writes for its own core process: the outbounds copied verbatim, one SOCKS inbound on
 * 127.0.0.1 per probed outbound (tag {@code observatory-in-<n>}, password authentication, no UDP), one routing rule
 * from each inbound to its outbound's tag, the log to stderr at the configured level and the access log to
 * {@code /dev/null} (a line per probe otherwise). Every key is one Xray and v2ray 4 read alike. About 300 bytes of JSON
 * per outbound besides the outbound's own.
 */
final class CoreConfig {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The inbound tags' prefix; numbered in the order of the probed outbounds. */
    static final String INBOUND_TAG = "observatory-in-";

    private CoreConfig() {}

    /**
     * The configuration as JSON text.
     *
     * @param probed    the outbounds to carry, each with an inbound
     * @param others    outbounds copied without an inbound (those the probed ones may reference)
     * @param transport the file's top-level {@code transport}, copied when not {@code null}
     * @param inbounds  each probed outbound's inbound, by tag
     * @param logLevel  the core's log level
     */
    static String json(
            List<CoreOutbound> probed,
            List<ObjectNode> others,
            @Nullable JsonNode transport,
            Function<String, CoreInbounds.Inbound> inbounds,
            String logLevel) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        ObjectNode root = nodes.objectNode();
        root.putObject("log").put("loglevel", logLevel).put("access", "/dev/null");
        ArrayNode inboundList = root.putArray("inbounds");
        ArrayNode outboundList = root.putArray("outbounds");
        ObjectNode routing = root.putObject("routing");
        routing.put("domainStrategy", "AsIs");
        ArrayNode rules = routing.putArray("rules");
        for (int i = 0; i < probed.size(); i++) {
            CoreOutbound outbound = probed.get(i);
            CoreInbounds.Inbound inbound = inbounds.apply(outbound.tag());
            String tag = INBOUND_TAG + i;
            ObjectNode socks = inboundList
                    .addObject()
                    .put("tag", tag)
                    .put("listen", "127.0.0.1")
                    .put("port", inbound.port())
                    .put("protocol", "socks");
            ObjectNode settings =
                    socks.putObject("settings").put("auth", "password").put("udp", false);
            settings.putArray("accounts")
                    .addObject()
                    .put("user", inbound.user())
                    .put("pass", inbound.password());
            outboundList.add(outbound.json().deepCopy());
            ObjectNode rule = rules.addObject().put("type", "field").put("outboundTag", outbound.tag());
            rule.putArray("inboundTag").add(tag);
        }
        others.forEach(other -> outboundList.add(other.deepCopy()));
        if (transport != null) {
            root.set("transport", transport.deepCopy());
        }
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
    }
}
