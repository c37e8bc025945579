package io.observatory.mesh.config;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The check of an entry point's {@code outbound}: an Xray outbound object, as JSON text. */
final class XrayObject {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private XrayObject() {}

    /** Whether {@code json} is a JSON object with a non-blank {@code protocol}. */
    static boolean isOutbound(String json) {
        try {
            JsonNode node = JSON.readTree(json);
            return node != null
                    && node.isObject()
                    && !node.path("protocol").asString("").isBlank();
        } catch (JacksonException e) {
            return false;
        }
    }
}
