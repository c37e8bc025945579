package io.observatory.state;

import io.observatory.config.BurstObserverSettings;
import io.observatory.config.Checked;
import io.observatory.config.ConfigSection;
import io.observatory.config.ObservatoryConfig;
import io.observatory.config.Problems;
import io.observatory.config.StandardObserverSettings;
import io.observatory.snapshot.Checkpoint;
import jakarta.validation.constraints.Pattern;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.state}: warm restart. When a directory is set, the last snapshot (observer statuses with their
 * last probes, the burst observer's sample rings, passive states and call statistics, the capabilities' checkpoints) is
 * written there atomically at most once per {@code write-interval}, and read back at start-up, so a restarted
 * instance serves its last statuses at once instead of UNKNOWN. Fixed for the process: a reload that changes these
 * takes effect at the next start.
 *
 * @param directory     the directory of the state file, {@code observatory.state}, created when missing; blank means
 *                      off. Default: off
 * @param writeInterval the shortest time between two writes, 1s-1h; a write happens only when something changed,
 *                      and once more at graceful shutdown. Default: 5s
 * @param maxAge        restored entries measured longer ago than this are dropped (a passive state by its last call,
 *                      kept at least for the passive policy's reactivation period); a positive duration. Default:
 *                      three times the longest an outbound waits between two probes, or a capability's horizon
 *                      when longer (a mesh hub's {@code no-data-after}), at least a minute
 */
@ConfigurationProperties("observatory.state")
public record StateSettings(
        @Nullable @Pattern(regexp = "\\P{Cc}*", message = "a path without control characters")
        String directory,

        @DefaultValue("5s")
        @DurationMin(seconds = 1, message = WRITE_INTERVAL_EXPECTED)
        @DurationMax(hours = 1, message = WRITE_INTERVAL_EXPECTED)
        Duration writeInterval,

        @Nullable @DurationMin(nanos = 0, inclusive = false, message = "a positive duration")
        Duration maxAge)
        implements Checked {

    /**
     * The least default {@code max-age}: a restart takes several seconds (a JVM's start, a pod's rescheduling) and the
     * file may be a {@code write-interval} old when the process dies, so a shorter limit would drop every status of a
     * fast-probing instance at each restart.
     */
    public static final Duration MIN_DEFAULT_MAX_AGE = Duration.ofMinutes(1);

    /** Warm restart's section of the configuration; its settings take effect at start-up only. */
    public static final ConfigSection<StateSettings> SECTION = new ConfigSection<>() {
        @Override
        public String key() {
            return "state";
        }

        @Override
        public Class<StateSettings> type() {
            return StateSettings.class;
        }

        @Override
        public List<String> startUpOnly() {
            return List.of("directory", "write-interval", "max-age");
        }
    };

    /** The state file's name inside {@link #directory}. */
    public static final String FILE_NAME = "observatory.state";

    private static final String WRITE_INTERVAL_EXPECTED = "a duration from 1s up to 1h0m0s";

    /** Reads a blank directory as off. */
    public StateSettings {
        directory = directory == null || directory.isBlank() ? null : directory.strip();
    }

    /** Whether warm restart is on. */
    public boolean enabled() {
        return directory != null;
    }

    /** The state file; only when {@link #enabled()}. */
    public Path file() {
        if (directory == null) {
            throw new IllegalStateException("observatory.state.directory is not set");
        }
        return Path.of(directory).resolve(FILE_NAME);
    }

    /**
     * The age beyond which a restored entry is dropped: {@code max-age} when set, else the longest of three times how
     * long one outbound waits between two probes — the standard observer's {@code probe-interval} (per outbound: the
     * longer of it and {@code unhealthy-interval}; sequential: times the number of observed outbounds, which are
     * probed one after another) or the burst observer's cycle ({@code interval × sampling}) — and each checkpoint's
     * {@link Checkpoint#horizon horizon} (a mesh hub's {@code no-data-after}), and at least
     * {@link #MIN_DEFAULT_MAX_AGE}.
     */
    public Duration maxAge(ObservatoryConfig config, Collection<Checkpoint> checkpoints) {
        if (maxAge != null) {
            return maxAge;
        }
        Duration longest = max(threeWaits(config), MIN_DEFAULT_MAX_AGE);
        for (Checkpoint checkpoint : checkpoints) {
            longest = max(longest, checkpoint.horizon(config));
        }
        return longest;
    }

    /** Three waits of an outbound between two probes; zero without an observer. */
    private static Duration threeWaits(ObservatoryConfig config) {
        StandardObserverSettings standard = config.standard();
        if (standard != null) {
            Duration wait = switch (standard.schedule()) {
                case PER_OUTBOUND -> max(standard.probeInterval(), standard.unhealthyInterval());
                case XRAY ->
                    standard.enableConcurrency()
                            ? standard.probeInterval()
                            : times(
                                    standard.probeInterval(),
                                    Math.max(1, config.observedOutbounds().size()));
            };
            return times(wait, 3);
        }
        BurstObserverSettings burst = config.burst();
        return burst == null ? Duration.ZERO : times(burst.pingConfig().cycle(), 3);
    }

    /**
     * {@code duration × factor}, at most Go's longest duration ({@code 2562047h47m16.854775807s}), the longest that
     * every setting and log line can hold: intervals may be that long, and three of them would not fit.
     */
    private static Duration times(Duration duration, long factor) {
        Duration longest = Duration.ofNanos(Long.MAX_VALUE);
        if (duration.compareTo(longest.dividedBy(factor)) > 0) {
            return longest;
        }
        return duration.multipliedBy(factor);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /**
     * At start-up, the directory must be a directory this process may write, or not exist yet; a reload checks only
     * the path's form, since these settings are read at start-up only and a disk turned read-only meanwhile must not
     * refuse every later reload (the writer says it cannot write, once).
     */
    @Override
    public void check(Problems problems) {
        if (directory == null) {
            return;
        }
        Path path;
        try {
            path = Path.of(directory);
        } catch (InvalidPathException e) {
            problems.reject("directory", directory, "the path of a directory");
            return;
        }
        if (!problems.startUp()) {
            return;
        }
        if (Files.exists(path) && !Files.isDirectory(path)) {
            problems.reject("directory", directory, "a directory, not a file");
        } else if (Files.isDirectory(path) && !Files.isWritable(path)) {
            problems.reject("directory", directory, "a directory this process may write");
        }
    }
}
