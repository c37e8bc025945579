package io.observatory.proxycore;

import io.observatory.text.QuotedText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * What Observatory takes from an operator's Xray or v2ray JSON configuration: its tagged outbounds that can carry a
 * probe, each as the JSON object it is (copied verbatim, {@code streamSettings}, {@code proxySettings}, {@code mux}
 * and all), every other outbound (which the probed ones may reference as their {@code proxySettings.tag} or
 * {@code sockopt.dialerProxy}), the legacy top-level {@code transport}, and the {@code observatory} or
 * {@code burstObservatory} block. Comments are allowed, as Xray's own reader allows them. Immutable.
 *
 * @param path      the file
 * @param probed    the outbounds exposed for probing, in file order: every tagged outbound but {@code blackhole},
 *                  {@code dns} and {@code loopback}, which carry no HTTP request
 * @param others    the other outbounds, copied too
 * @param transport the top-level {@code transport} object (v2ray 4's global stream settings), else {@code null}
 * @param observer  the file's observer as properties relative to {@code observatory} ({@code standard.*} from
 *                  {@code observatory}, {@code burst.*} from {@code burstObservatory}), Xray's JSON keys in kebab
 *                  case; empty without one
 * @param problems  one line per thing that makes the file unusable or an outbound left out, naming the file
 * @param usable    false when the file could not be read as a configuration at all (unreadable, invalid JSON, no
 *                  {@code outbounds} array)
 */
record CoreFile(
        Path path,
        List<CoreOutbound> probed,
        List<ObjectNode> others,
        @Nullable JsonNode transport,
        Map<String, Object> observer,
        List<String> problems,
        boolean usable) {

    /** Outbound protocols that cannot carry an HTTP probe. */
    private static final Set<String> NOT_PROBED = Set.of("blackhole", "dns", "loopback");

    private static final JsonMapper JSON =
            JsonMapper.builder().enable(JsonReadFeature.ALLOW_JAVA_COMMENTS).build();

    /**
     * One outbound of the file: its tag, its protocol and its JSON object as written.
     *
     * @param tag      the outbound's {@code tag}
     * @param protocol its {@code protocol}, lower case
     * @param json     the whole object
     */
    record CoreOutbound(String tag, String protocol, ObjectNode json) {

        /**
         * The server this outbound dials, {@code host:port}, as balancers should reach it: the first of
         * {@code settings.vnext} (VMess, VLESS) or {@code settings.servers} (Trojan, Shadowsocks, SOCKS, HTTP), IPv6
         * in brackets; {@code null} when the object names none.
         */
        @Nullable
        String server() {
            for (String list : List.of("vnext", "servers")) {
                JsonNode first = json.path("settings").path(list).path(0);
                String address = first.path("address").asString("");
                int port = first.path("port").asInt(0);
                if (!address.isBlank() && port > 0 && port <= 65_535) {
                    return (address.indexOf(':') >= 0 ? "[" + address + "]" : address) + ":" + port;
                }
            }
            return null;
        }

        /** Shorter strings of the object are left as they are: a protocol name, a network, an address family. */
        private static final int SECRET_MIN_LENGTH = 6;

        /**
         * {@code message} (the core's reason for refusing this outbound) with every string of the object that is not
         * its tag or protocol masked: the core quotes values such as a malformed VMess id, and those are secrets.
         */
        String masked(String message) {
            List<String> values = new ArrayList<>();
            collectStrings(json, values);
            String masked = message;
            for (String value : values) {
                if (value.length() >= SECRET_MIN_LENGTH && !value.equals(tag) && !value.equalsIgnoreCase(protocol)) {
                    masked = masked.replace(value, "******");
                }
            }
            return masked;
        }

        private static void collectStrings(JsonNode node, List<String> values) {
            if (node.isString()) {
                values.add(node.asString());
            }
            node.forEach(child -> collectStrings(child, values));
        }
    }

    CoreFile {
        probed = List.copyOf(probed);
        others = List.copyOf(others);
        observer = Map.copyOf(observer);
        problems = List.copyOf(problems);
    }

    /** No file: the core carries only outbounds handed over as Xray objects. */
    static final CoreFile NONE = new CoreFile(Path.of("(none)"), List.of(), List.of(), null, Map.of(), List.of(), true);

    /**
     * One outbound handed over as an Xray outbound object (JSON text), under {@code tag} (which replaces its own).
     *
     * @throws IllegalArgumentException when it is not a JSON object with a {@code protocol}; the message never quotes
     *     the object, which holds credentials
     */
    static CoreOutbound outbound(String tag, String json) {
        JsonNode node;
        try {
            node = JSON.readTree(json);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(
                    "not valid JSON"
                            + (e.getLocation() == null
                                    ? ""
                                    : " at line " + e.getLocation().getLineNr()),
                    e);
        }
        if (!(node instanceof ObjectNode object)
                || object.path("protocol").asString("").isBlank()) {
            throw new IllegalArgumentException("not an Xray outbound object with a protocol");
        }
        ObjectNode tagged = object.deepCopy();
        tagged.put("tag", tag);
        return new CoreOutbound(tag, tagged.path("protocol").asString("").toLowerCase(Locale.ROOT), tagged);
    }

    /** A file that cannot be used: {@code problem} names the file and says why. */
    static CoreFile unusable(Path path, String problem) {
        return new CoreFile(path, List.of(), List.of(), null, Map.of(), List.of(problem), false);
    }

    /**
     * Reads {@code path}. Never throws: an unreadable file, invalid JSON, or JSON without an {@code outbounds} array
     * is a file without outbounds and one problem; an outbound without a tag or with a tag seen before is left out
     * with a problem each.
     *
     * @param property the property that names the file, for the problems' lines
     */
    static CoreFile read(Path path, String property) {
        try {
            return parse(path, Files.readString(path), property);
        } catch (IOException e) {
            return unreadable(path, property, e);
        }
    }

    /** The file {@code path} that could not be read, as {@link #read} reports it. */
    static CoreFile unreadable(Path path, String property, IOException e) {
        return unusable(path, property + ": " + path + ": cannot be read: " + e);
    }

    /** The file {@code path} whose content is {@code text}, as {@link #read} reads it. */
    static CoreFile parse(Path path, String text, String property) {
        String origin = property + ": " + path;
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JacksonException e) {
            return unusable(
                    path,
                    origin + ": not valid JSON: " + e.getOriginalMessage()
                            + (e.getLocation() == null
                                    ? ""
                                    : " at line " + e.getLocation().getLineNr()));
        }
        if (root == null || !root.path("outbounds").isArray()) {
            return unusable(path, origin + ": no \"outbounds\" array (expected: an Xray or v2ray JSON configuration)");
        }
        List<CoreOutbound> probed = new ArrayList<>();
        List<ObjectNode> others = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Set<String> tags = new HashSet<>();
        int index = 0;
        for (JsonNode node : root.path("outbounds")) {
            String at = origin + ": outbounds[" + index++ + "]";
            if (!(node instanceof ObjectNode outbound)) {
                problems.add(at + ": not an object; left out");
                continue;
            }
            String tag = outbound.path("tag").asString("");
            String protocol = outbound.path("protocol").asString("").toLowerCase(Locale.ROOT);
            if (tag.isBlank() || NOT_PROBED.contains(protocol)) {
                others.add(outbound);
            } else if (!tags.add(tag)) {
                problems.add(
                        at + ": the tag " + QuotedText.quote(tag, 64) + " again (expected: unique tags); left out");
            } else {
                probed.add(new CoreOutbound(tag, protocol, outbound));
            }
        }
        JsonNode transport = root.get("transport");
        return new CoreFile(path, probed, others, transport, observer(root), problems, true);
    }

    /** The file's observer as properties, {@code observatory} before {@code burstObservatory}. */
    private static Map<String, Object> observer(JsonNode root) {
        Map<String, Object> properties = new LinkedHashMap<>();
        if (root.get("observatory") instanceof ObjectNode standard) {
            flatten("standard", standard, properties);
        } else if (root.get("burstObservatory") instanceof ObjectNode burst) {
            flatten("burst", burst, properties);
        }
        return properties;
    }

    /** Xray's JSON keys as Spring properties: {@code probeURL} is {@code probe-url}, arrays indexed. */
    private static void flatten(String prefix, JsonNode node, Map<String, Object> properties) {
        if (node.isObject()) {
            node.properties()
                    .forEach(field -> flatten(prefix + "." + kebab(field.getKey()), field.getValue(), properties));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                flatten(prefix + "[" + i + "]", node.get(i), properties);
            }
        } else if (!node.isNull()) {
            properties.put(prefix, node.asString());
        }
    }

    /** {@code probeURL} to {@code probe-url}, {@code httpMethod} to {@code http-method}. */
    static String kebab(String key) {
        StringBuilder kebab = new StringBuilder();
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isUpperCase(c) && i > 0 && Character.isLowerCase(key.charAt(i - 1))) {
                kebab.append('-');
            }
            kebab.append(Character.toLowerCase(c));
        }
        return kebab.toString();
    }
}
