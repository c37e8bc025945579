package io.observatory.proxycore;

import io.observatory.config.Outbound;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Everything one reading of the core's settings and file decided: the outbounds Observatory probes through the core,
 * the configuration the core runs with, the command that runs it, and what was wrong. Immutable; equal layouts run
 * the same core.
 *
 * @param outbounds each carried outbound as Observatory's outbound (its original tag, SOCKS5 to its inbound on
 *                  127.0.0.1 with its credentials), by the name the configuration reports it under, in file order
 * @param carried   each outbound handed over as an Xray object that the core carries, as Observatory's outbound,
 *                  by its tag
 * @param config    the core's configuration (JSON); empty when there is no core to run
 * @param command   the command that runs the core; {@code null} when there is no core to run (off, or the binary is
 *                  unusable)
 * @param observer  the file's observer as properties relative to {@code observatory}; empty without one
 * @param problems  one line each: the binary, the file, an outbound left out or refused by the core
 */
record CoreLayout(
        Map<String, Outbound> outbounds,
        Map<String, Outbound> carried,
        String config,
        @Nullable CoreCommand command,
        Map<String, Object> observer,
        List<String> problems) {

    /** No core configured. */
    static final CoreLayout OFF = new CoreLayout(Map.of(), Map.of(), "", null, Map.of(), List.of());

    CoreLayout {
        outbounds = Collections.unmodifiableMap(new LinkedHashMap<>(outbounds));
        carried = Collections.unmodifiableMap(new LinkedHashMap<>(carried));
        observer = Map.copyOf(observer);
        problems = List.copyOf(problems);
    }

    /** Whether there is a core to run: a usable binary and at least one outbound the core accepts. */
    boolean runnable() {
        return command != null && !(outbounds.isEmpty() && carried.isEmpty());
    }
}
