package io.observatory.proxycore;

import io.observatory.config.Outbound;
import io.observatory.config.Protocol;
import io.observatory.proxycore.CoreFile.CoreOutbound;
import io.observatory.text.QuotedText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Works out the {@link CoreLayout} of the core's settings: reads the operator's file, gives each outbound its inbound
 * ({@link CoreInbounds}, the same for the life of the process), writes the core's configuration, and has the core
 * check it ({@code -test}); when the core refuses it, checks each outbound alone and leaves out those it refuses, with
 * a line each naming the property, the file and the outbound. Outbounds a caller hands over as Xray objects (a mesh
 * witness's entry points, {@link #carry}) are carried beside the file's, under the caller's tags. The last layout is
 * kept with the file's content, so that reading the same settings and file again (the binding of start-up, then the
 * supervisor; a reload that changed something else) runs no check. Thread-safe.
 */
final class CoreLayouts {

    private static final String BINARY = "observatory.core.binary";
    private static final String CONFIG_FILE = "observatory.core.config-file";

    private final CoreInbounds inbounds = new CoreInbounds();
    private List<CoreOutbound> carried = List.of();
    private @Nullable Cached last;

    /** The last layout and what it was worked out from: the file's content (a few KB), or why it could not be read. */
    private record Cached(ProxyCoreSettings settings, String content, List<CoreOutbound> carried, CoreLayout layout) {}

    /**
     * Takes the outbounds a caller hands over as Xray objects ({@link ProxyCoreSupervisor#carry}), replacing the
     * previous ones; the next {@link #layout} carries them.
     */
    synchronized void carry(List<CoreOutbound> outbounds) {
        carried = List.copyOf(outbounds);
    }

    /**
     * The layout of {@code settings}, their file as it is now and the carried outbounds; {@link CoreLayout#OFF} when
     * no binary is set.
     */
    synchronized CoreLayout layout(ProxyCoreSettings settings) {
        if (settings.binary() == null) {
            return carried.isEmpty()
                    ? CoreLayout.OFF
                    : problem(BINARY + " is not set: the " + carried.size()
                            + " mesh entry points given as Xray outbounds cannot be probed");
        }
        String location = settings.configFile();
        Path file = null;
        if (location != null) {
            try {
                file = Path.of(location);
            } catch (InvalidPathException e) {
                return problem(CONFIG_FILE + ": " + QuotedText.quote(location, 200) + ": not a path");
            }
        }
        // Read once: its content is both what the cache compares and what is parsed.
        String text = null;
        IOException unreadable = null;
        if (file != null) {
            try {
                text = Files.readString(file);
            } catch (IOException e) {
                unreadable = e;
            }
        }
        String content = text != null ? text : unreadable != null ? "unreadable: " + unreadable : "";
        Cached cached = last;
        if (cached != null
                && cached.settings().equals(settings)
                && cached.content().equals(content)
                && cached.carried().equals(carried)) {
            return cached.layout();
        }
        CoreFile read = file == null
                ? CoreFile.NONE
                : text != null
                        ? CoreFile.parse(file, text, CONFIG_FILE)
                        : CoreFile.unreadable(file, CONFIG_FILE, Objects.requireNonNull(unreadable, "unread"));
        if (!read.usable() && cached != null && cached.settings().equals(settings)) {
            // As a configuration file that breaks is rejected while the running one stays in force.
            CoreLayout kept = cached.layout();
            List<String> problems = read.problems().stream()
                    .map(problem -> problem + "; the last valid content stays in force")
                    .toList();
            return new CoreLayout(
                    kept.outbounds(), kept.carried(), kept.config(), kept.command(), kept.observer(), problems);
        }
        CoreLayout layout;
        try {
            layout = compute(settings, read);
        } catch (RuntimeException e) {
            // A port that cannot be found, an interrupted check: one line, and nothing carried until the next read.
            return problem("observatory.core: " + e.getMessage() + "; no outbound is carried");
        }
        last = new Cached(settings, content, carried, layout);
        return layout;
    }

    private CoreLayout compute(ProxyCoreSettings settings, CoreFile read) {
        List<String> problems = new ArrayList<>(read.problems());
        CoreCommand command = null;
        try {
            command = CoreCommand.of(Path.of(Objects.requireNonNull(settings.binary(), "set")), settings.commandLine());
        } catch (IllegalArgumentException | UncheckedIOException e) {
            problems.add(BINARY + ": " + e.getMessage() + "; "
                    + (settings.configFile() == null
                            ? "no outbound is carried"
                            : "the outbounds of " + read.path() + " are not probed"));
        }
        List<CoreOutbound> candidates = new ArrayList<>(read.probed());
        Set<String> fileTags = new HashSet<>();
        read.probed().forEach(outbound -> fileTags.add(outbound.tag()));
        for (CoreOutbound outbound : carried) {
            if (fileTags.contains(outbound.tag())) {
                problems.add("mesh entry point " + QuotedText.quote(outbound.tag(), 64)
                        + ": its tag is an outbound's of " + read.path() + "; it is not probed");
            } else {
                candidates.add(outbound);
            }
        }
        if (command == null) {
            return new CoreLayout(Map.of(), Map.of(), "", null, read.observer(), problems);
        }
        List<CoreOutbound> accepted = candidates;
        if (!candidates.isEmpty()) {
            try {
                accepted = accepted(command, settings, candidates, read, fileTags, problems);
            } catch (UncheckedIOException e) {
                problems.add(e.getMessage() + "; the core's check of the outbounds is skipped");
            }
        }
        Map<String, Outbound> outbounds = new LinkedHashMap<>();
        Map<String, Outbound> carriedOutbounds = new LinkedHashMap<>();
        for (CoreOutbound outbound : accepted) {
            CoreInbounds.Inbound inbound = inbounds.of(outbound.tag());
            Outbound socks = new Outbound(
                    outbound.tag(),
                    Protocol.SOCKS,
                    "127.0.0.1",
                    inbound.port(),
                    inbound.user(),
                    inbound.password(),
                    null,
                    null,
                    List.of(),
                    false,
                    outbound.server());
            if (fileTags.contains(outbound.tag())) {
                outbounds.put(CONFIG_FILE + " (outbound " + QuotedText.quote(outbound.tag(), 64) + ")", socks);
            } else {
                carriedOutbounds.put(outbound.tag(), socks);
            }
        }
        String config = CoreConfig.json(accepted, read.others(), read.transport(), inbounds::of, settings.logLevel());
        return new CoreLayout(outbounds, carriedOutbounds, config, command, read.observer(), problems);
    }

    /**
     * The outbounds the core accepts: all of them when it accepts the whole configuration; else each that it accepts
     * alone, and none when it still refuses those together. Adds a line per refused outbound to {@code problems}.
     */
    private List<CoreOutbound> accepted(
            CoreCommand command,
            ProxyCoreSettings settings,
            List<CoreOutbound> candidates,
            CoreFile read,
            Set<String> fileTags,
            List<String> problems) {
        String whole = refusal(command, settings, candidates, read);
        if (whole == null) {
            return candidates;
        }
        List<CoreOutbound> accepted = new ArrayList<>();
        for (CoreOutbound outbound : candidates) {
            String refused = refusal(command, settings, List.of(outbound), read);
            String alone = refused == null ? null : outbound.masked(refused);
            if (alone == null) {
                accepted.add(outbound);
            } else if (fileTags.contains(outbound.tag())) {
                problems.add(CONFIG_FILE + ": " + read.path() + ": outbound " + QuotedText.quote(outbound.tag(), 64)
                        + " (" + outbound.protocol() + "): the core refuses it: " + alone + "; it is not probed");
            } else {
                problems.add("mesh entry point " + QuotedText.quote(outbound.tag(), 64) + " (" + outbound.protocol()
                        + "): the core refuses its Xray outbound: " + alone + "; it is not probed");
            }
        }
        if (!accepted.isEmpty() && refusal(command, settings, accepted, read) != null) {
            problems.add(CONFIG_FILE + ": " + read.path() + ": the core refuses the outbounds together though it"
                    + " accepts each alone: " + whole + "; none is probed");
            return List.of();
        }
        return accepted;
    }

    private @Nullable String refusal(
            CoreCommand command, ProxyCoreSettings settings, List<CoreOutbound> outbounds, CoreFile read) {
        Path directory = CoreFiles.directory(settings);
        Path test = directory.resolve("test.json");
        try {
            CoreFiles.writePrivate(
                    test,
                    CoreConfig.json(outbounds, read.others(), read.transport(), inbounds::of, settings.logLevel()));
            return command.refusal(test);
        } finally {
            CoreFiles.delete(test);
        }
    }

    private static CoreLayout problem(String line) {
        return new CoreLayout(Map.of(), Map.of(), "", null, Map.of(), List.of(line));
    }
}
